/**
 * The AWS SDK v3 client modules, each loaded on first use. Loading a client module costs tens of milliseconds (the
 * service's commands, serializers and its share of the SDK core), so the runtime never imports one for its values at
 * module load: a file names the SDK in types only (`import type`) and reaches classes through these loaders, inside the
 * function that sends the call. Requiring the MCP server (or its Lambda bundle) therefore loads no AWS SDK module, and
 * its first `invoke_endpoint` loads only the SageMaker runtime client (test/mcp/cold-load.test.ts checks the bundle;
 * `npx projen bench mcp` times it).
 *
 * `require` of an external package stays a `require` in the esbuild bundles (`--external:@aws-sdk/*`), so a bundled
 * handler loads the SDK that Lambda's Node.js runtime provides, at the first call that needs it; Node caches the module,
 * so later calls cost a property read. Clients are still built by ./bounded's `boundedClient` (or `createRuntimeClient`)
 * with the same timeouts and retry settings: only when the module is read changes.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
import type * as CloudFormation from '@aws-sdk/client-cloudformation';
import type * as DynamoDB from '@aws-sdk/client-dynamodb';
import type * as S3 from '@aws-sdk/client-s3';
import type * as SageMaker from '@aws-sdk/client-sagemaker';
import type * as FeatureStoreRuntime from '@aws-sdk/client-sagemaker-featurestore-runtime';
import type * as SageMakerRuntime from '@aws-sdk/client-sagemaker-runtime';
import type * as SecretsManager from '@aws-sdk/client-secrets-manager';
import type * as Sns from '@aws-sdk/client-sns';
import type * as Sqs from '@aws-sdk/client-sqs';

/** `@aws-sdk/client-dynamodb`, loaded on first call. */
export function dynamoDbSdk(): typeof DynamoDB {
  return require('@aws-sdk/client-dynamodb');
}

/** `@aws-sdk/client-s3`, loaded on first call. */
export function s3Sdk(): typeof S3 {
  return require('@aws-sdk/client-s3');
}

/** `@aws-sdk/client-sagemaker` (the control plane), loaded on first call. */
export function sageMakerSdk(): typeof SageMaker {
  return require('@aws-sdk/client-sagemaker');
}

/** `@aws-sdk/client-sagemaker-featurestore-runtime`, loaded on first call. */
export function featureStoreRuntimeSdk(): typeof FeatureStoreRuntime {
  return require('@aws-sdk/client-sagemaker-featurestore-runtime');
}

/** `@aws-sdk/client-sagemaker-runtime`, loaded on first call. */
export function sageMakerRuntimeSdk(): typeof SageMakerRuntime {
  return require('@aws-sdk/client-sagemaker-runtime');
}

/** `@aws-sdk/client-cloudformation` (the approved-model deployment handler), loaded on first call. */
export function cloudFormationSdk(): typeof CloudFormation {
  return require('@aws-sdk/client-cloudformation');
}

/** `@aws-sdk/client-sns` (deployment notifications), loaded on first call. */
export function snsSdk(): typeof Sns {
  return require('@aws-sdk/client-sns');
}

/** `@aws-sdk/client-sqs` (the pipeline router's optional results queue), loaded on first call. */
export function sqsSdk(): typeof Sqs {
  return require('@aws-sdk/client-sqs');
}

/** `@aws-sdk/client-secrets-manager` (the MCP server function's handle key), loaded on first call. */
export function secretsManagerSdk(): typeof SecretsManager {
  return require('@aws-sdk/client-secrets-manager');
}
