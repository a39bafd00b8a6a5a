/**
 * Internal (not exported from the package): the aws-cdk-lib modules that only some configurations of an endpoint use (a
 * VPC, alarms, metrics, a KMS key, a created bucket or log group, assets), required on first use instead of when this
 * library's module loads. aws-cdk-lib requires its own modules the same way. Loading an aws-cdk-lib module's index
 * defines a getter per export (aws-ec2: 270, each with its closure) that stays on the heap for the rest of the process,
 * which aws-cdk-lib's template validation marks on every garbage collection (docs/benchmarks.md). Files import the module
 * with `import type` for its types and call these for its values.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import type * as ecrAssets from 'aws-cdk-lib/aws-ecr-assets';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as s3Assets from 'aws-cdk-lib/aws-s3-assets';

export const cloudwatchModule = (): typeof cloudwatch => require('aws-cdk-lib/aws-cloudwatch');
export const ec2Module = (): typeof ec2 => require('aws-cdk-lib/aws-ec2');
export const ecrAssetsModule = (): typeof ecrAssets => require('aws-cdk-lib/aws-ecr-assets');
export const kmsModule = (): typeof kms => require('aws-cdk-lib/aws-kms');
export const logsModule = (): typeof logs => require('aws-cdk-lib/aws-logs');
export const s3Module = (): typeof s3 => require('aws-cdk-lib/aws-s3');
export const s3AssetsModule = (): typeof s3Assets => require('aws-cdk-lib/aws-s3-assets');
