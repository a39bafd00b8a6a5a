import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

/**
 * Internal (not exported from src/core/index.ts): the one way this library creates a bucket — the customer-managed key
 * given (with an S3 bucket key), TLS only, all public access blocked, versioned (Control Tower CT.S3.PR.11), with a
 * lifecycle rule that deletes noncurrent versions, cleans up expired delete markers and aborts stale multipart uploads
 * (CT.S3.PR.3 and PR.6). Callers add their own expirations of current objects. Without an access-log bucket, the cdk-nag
 * S1 finding is acknowledged with `noAccessLogsReason`, which must say why and how to turn logging on.
 */
export interface EncryptedBucketOptions {
  readonly key: kms.IKey;
  /** How long an overwritten or deleted object's previous version is kept before S3 deletes it. */
  readonly noncurrentVersionExpiration: Duration;
  readonly serverAccessLogsBucket?: s3.IBucket;
  readonly serverAccessLogsPrefix?: string;
  readonly removalPolicy?: RemovalPolicy;
  readonly noAccessLogsReason: string;
}

export function createEncryptedBucket(scope: Construct, id: string, options: EncryptedBucketOptions): s3.Bucket {
  const bucket = new s3.Bucket(scope, id, {
    encryption: s3.BucketEncryption.KMS,
    encryptionKey: options.key,
    bucketKeyEnabled: true,
    enforceSSL: true,
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    versioned: true,
    serverAccessLogsBucket: options.serverAccessLogsBucket,
    serverAccessLogsPrefix: options.serverAccessLogsBucket ? options.serverAccessLogsPrefix : undefined,
    removalPolicy: options.removalPolicy,
    lifecycleRules: [{
      id: 'ExpireNoncurrentVersions',
      noncurrentVersionExpiration: options.noncurrentVersionExpiration,
      // Once the last noncurrent version is gone, the delete marker left by an expiration is removed too.
      expiredObjectDeleteMarker: true,
      abortIncompleteMultipartUploadAfter: Duration.days(1),
    }],
  });
  if (!options.serverAccessLogsBucket) {
    Validations.of(bucket).acknowledge({ id: 'AwsSolutions-S1', reason: options.noAccessLogsReason });
  }
  return bucket;
}
