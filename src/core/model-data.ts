/** A model's artifacts in S3: a `.tar.gz` object or an uncompressed prefix, in a bucket, at a URI or from a local file. */
import { Stack, Token } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3Assets from 'aws-cdk-lib/aws-s3-assets';
import { Construct } from 'constructs';
import { IAM_ACTION } from '../private/iam-actions';
import { acknowledgeReadGrant } from '../private/model-role-nag';

/** Where a model's artifacts are, once bound. */
export interface ModelDataConfig {
  /** `s3://bucket/key.tar.gz` (compressed) or `s3://bucket/prefix/` (uncompressed). */
  readonly s3Uri: string;
  /**
   * True for a `.tar.gz` object (`ModelDataUrl`, or `ModelDataSource` S3Object/Gzip when the EULA is accepted), false for
   * an uncompressed prefix (`ModelDataSource` S3Prefix).
   */
  readonly compressed: boolean;
  /**
   * Whether the model's license (EULA) has been accepted; required for gated artifacts.
   *
   * @default false
   */
  readonly acceptEula?: boolean;
}

/** Model artifacts in S3. Binding grants the model's role read access to exactly that object or prefix (and its KMS key). */
export abstract class ModelData {
  /**
   * Artifacts in a bucket: a `.tar.gz` object, or an uncompressed prefix ending in `/` (faster to load for large models:
   * SageMaker copies the files as they are instead of downloading and extracting one archive).
   */
  public static fromBucket(bucket: s3.IBucket, key: string): ModelData {
    return new BucketModelData(bucket, key);
  }

  /**
   * Artifacts at an S3 URI you already know, `s3://bucket/key.tar.gz` or `s3://bucket/prefix/` (the form
   * AWS::SageMaker::Model takes): the same location and the same read grant as `ModelData` from a bucket
   * imported by name, without importing the bucket. A bucket encrypted with a customer managed KMS key needs `ModelData`
   * from a bucket that knows its key (the role must also decrypt).
   *
   * @param s3Uri a literal `s3://` URI; a location known only at deploy time goes through `ModelData` from a bucket
   */
  public static fromS3Uri(s3Uri: string): ModelData {
    return new S3UriModelData(s3Uri);
  }

  /** A local `.tar.gz` file, uploaded as a CDK asset. */
  public static fromAsset(path: string, options: s3Assets.AssetOptions = {}): ModelData {
    return new AssetModelData(path, options);
  }

  /** Resolves the location and grants `grantee` read access to it. */
  public abstract bind(scope: Construct, grantee: iam.IGrantable): ModelDataConfig;
}

/** What an artifact key names: a `.tar.gz` object (compressed), an uncompressed prefix ending in `/`, or neither. */
function artifactKind(key: string): 'compressed' | 'prefix' | undefined {
  return key.endsWith('/') ? 'prefix' : key.endsWith('.tar.gz') ? 'compressed' : undefined;
}

const ARTIFACT_KEY_EXPECTED = "a '.tar.gz' object or an uncompressed prefix ending in '/'";

class BucketModelData extends ModelData {
  private readonly compressed: boolean;
  constructor(private readonly bucket: s3.IBucket, private readonly key: string) {
    super();
    const kind = Token.isUnresolved(key) ? 'compressed' : artifactKind(key);
    if (!kind) throw new Error(`ModelData.fromBucket key: got '${key}', expected ${ARTIFACT_KEY_EXPECTED}`);
    this.compressed = kind === 'compressed';
  }
  public bind(scope: Construct, grantee: iam.IGrantable): ModelDataConfig {
    acknowledgeReadGrant(scope, grantee, this.bucket.grantRead(grantee, this.compressed ? this.key : `${this.key}*`));
    return { s3Uri: this.bucket.s3UrlForObject(this.key), compressed: this.compressed };
  }
}

/**
 * Bucket names: 3-63 lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html).
 */
const S3_URI_PATTERN = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])\/(.+)$/;

class S3UriModelData extends ModelData {
  private readonly bucketName: string;
  private readonly key: string;
  private readonly compressed: boolean;
  constructor(private readonly s3Uri: string) {
    super();
    const m = Token.isUnresolved(s3Uri) ? undefined : S3_URI_PATTERN.exec(s3Uri);
    const kind = m && artifactKind(m[2]);
    if (!m || !kind) {
      throw new Error(`ModelData.fromS3Uri s3Uri: got '${s3Uri}', expected a literal s3://<bucket>/<key> whose key is ${ARTIFACT_KEY_EXPECTED} `
        + '(a location known only at deploy time goes through ModelData.fromBucket)');
    }
    this.bucketName = m[1];
    this.key = m[2];
    this.compressed = kind === 'compressed';
  }
  public bind(scope: Construct, grantee: iam.IGrantable): ModelDataConfig {
    // What `bucket.grantRead(grantee, keyPattern)` grants on a bucket imported by name: the read action groups on the
    // bucket and on the object (or everything under the prefix).
    const bucketArn = `arn:${Stack.of(scope).partition}:s3:::${this.bucketName}`;
    acknowledgeReadGrant(scope, grantee, iam.Grant.addToPrincipal({
      grantee,
      actions: [IAM_ACTION.s3['GetObject*'], IAM_ACTION.s3['GetBucket*'], IAM_ACTION.s3['List*']],
      resourceArns: [bucketArn, `${bucketArn}/${this.compressed ? this.key : `${this.key}*`}`],
    }));
    return { s3Uri: this.s3Uri, compressed: this.compressed };
  }
}

class AssetModelData extends ModelData {
  private asset?: s3Assets.Asset;
  constructor(private readonly path: string, private readonly options: s3Assets.AssetOptions) {
    super();
    if (!path.endsWith('.tar.gz')) {
      throw new Error(`ModelData.fromAsset path: got '${path}', expected a '.tar.gz' file`);
    }
  }
  public bind(scope: Construct, grantee: iam.IGrantable): ModelDataConfig {
    this.asset ??= new s3Assets.Asset(scope, 'ModelData', { path: this.path, ...this.options });
    this.asset.grantRead(grantee);
    return { s3Uri: this.asset.s3ObjectUrl, compressed: true };
  }
}
