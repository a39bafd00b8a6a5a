import { Duration, RemovalPolicy, Token } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import { Construct } from 'constructs';
import { createEncryptedBucket } from '../private/storage';
import { PropValidator } from '../private/validation';

/** What SageMaker captures of each sampled request. */
export enum DataCaptureMode {
  /** The request payload. */
  INPUT = 'Input',
  /** The response payload. */
  OUTPUT = 'Output',
  /** Both. */
  INPUT_AND_OUTPUT = 'InputAndOutput',
}

/**
 * Capturing a sample of an endpoint's requests and responses to S3 as JSON Lines
 * (https://docs.aws.amazon.com/sagemaker/latest/dg/model-monitor-data-capture.html). SageMaker Model Monitor, the
 * service that reads such captures on a schedule, is no longer open to new customers
 * (https://docs.aws.amazon.com/sagemaker/latest/dg/model-monitor.html); the captured objects are yours to read with
 * any job or query.
 */
export interface DataCaptureOptions {
  /**
   * The bucket captures are written to. The endpoint's execution role is granted `s3:PutObject` under `prefix`.
   *
   * @default - a bucket is created: KMS-encrypted with the endpoint's key (its encryption key, or the customer-managed
   * key it creates, rotation on), TLS-only, all public access blocked, versioned (noncurrent versions deleted after 30
   * days), retained on stack deletion
   */
  readonly bucket?: s3.IBucket;
  /**
   * The bucket that receives the created capture bucket's S3 server access logs (under `data-capture/`). An SSE-KMS
   * log bucket needs a customer-managed key whose policy lets `logging.s3.amazonaws.com` use it:
   * https://docs.aws.amazon.com/AmazonS3/latest/userguide/enable-server-access-logging.html
   *
   * @default - no server access logs (audit reads with CloudTrail S3 data events instead); ignored when `bucket` is given
   */
  readonly serverAccessLogsBucket?: s3.IBucket;
  /**
   * The key prefix captures are written under (no leading or trailing slash).
   *
   * @default 'data-capture'
   */
  readonly prefix?: string;
  /**
   * The KMS key SageMaker encrypts captures with.
   *
   * @default - the created bucket's key (the endpoint's), or the given bucket's encryption key (S3's default encryption
   * if it has none)
   */
  readonly encryptionKey?: kms.IKey;
  /**
   * The share of requests captured, 0-100 percent.
   *
   * @default 20 (the SageMaker Python SDK's default)
   */
  readonly samplingPercentage?: number;
  /**
   * What is captured.
   *
   * @default DataCaptureMode.INPUT_AND_OUTPUT
   */
  readonly captureMode?: DataCaptureMode;
  /**
   * Content types captured as JSON text (1-10), e.g. `application/json`.
   *
   * @default - SageMaker base64-encodes payloads of content types not listed
   */
  readonly jsonContentTypes?: string[];
  /**
   * Content types captured as CSV text (1-10), e.g. `text/csv`.
   *
   * @default - SageMaker base64-encodes payloads of content types not listed
   */
  readonly csvContentTypes?: string[];
}

/** Records every problem with data-capture options. */
export function validateDataCapture(v: PropValidator, options: DataCaptureOptions): void {
  v.range('dataCapture.samplingPercentage', options.samplingPercentage, 0, 100, { unit: 'percent' });
  for (const [prop, list] of [['dataCapture.jsonContentTypes', options.jsonContentTypes], ['dataCapture.csvContentTypes', options.csvContentTypes]] as const) {
    if (list !== undefined && !Token.isUnresolved(list)) {
      v.check(list.length >= 1 && list.length <= 10, prop, list, 'between 1 and 10 content types');
    }
  }
  if (options.prefix !== undefined && !Token.isUnresolved(options.prefix)) {
    v.check(options.prefix.length > 0 && !options.prefix.startsWith('/') && !options.prefix.endsWith('/'),
      'dataCapture.prefix', options.prefix, 'a non-empty S3 key prefix without a leading or trailing slash');
  }
}

/**
 * Creates the capture bucket if needed (encrypted with `bucketKey`, the endpoint's key), grants `role` write access, and
 * returns the CloudFormation DataCaptureConfig. Captures are written with the endpoint's execution role (the role of its
 * models).
 */
export function renderDataCapture(
  scope: Construct,
  options: DataCaptureOptions,
  role: iam.IRole | undefined,
  bucketKey: kms.IKey | undefined,
): sagemaker.CfnEndpointConfig.DataCaptureConfigProperty {
  const prefix = options.prefix ?? 'data-capture';
  const bucket = options.bucket ?? createCaptureBucket(scope, bucketKey, options.serverAccessLogsBucket);
  const key = options.encryptionKey ?? bucket.encryptionKey;
  if (role) {
    bucket.grantPut(role, `${prefix}/*`);
    key?.grantEncrypt(role);
  }
  return {
    enableCapture: true,
    destinationS3Uri: `s3://${bucket.bucketName}/${prefix}`,
    initialSamplingPercentage: options.samplingPercentage ?? 20,
    kmsKeyId: key?.keyArn,
    captureOptions: [{ captureMode: options.captureMode ?? DataCaptureMode.INPUT_AND_OUTPUT }],
    captureContentTypeHeader: options.jsonContentTypes || options.csvContentTypes ? {
      jsonContentTypes: options.jsonContentTypes,
      csvContentTypes: options.csvContentTypes,
    } : undefined,
  };
}

function createCaptureBucket(scope: Construct, key: kms.IKey | undefined, accessLogs: s3.IBucket | undefined): s3.IBucket {
  // The endpoint creates its key whenever it creates this bucket; S3's own key would have no rotation.
  if (!key) throw new Error(`RealtimeEndpoint '${scope.node.id}': internal error: a data-capture bucket needs the endpoint's KMS key`);
  const bucket = createEncryptedBucket(scope, 'DataCaptureBucket', {
    key,
    noncurrentVersionExpiration: Duration.days(30),
    serverAccessLogsBucket: accessLogs,
    serverAccessLogsPrefix: 'data-capture/',
    // Captured requests may be needed for audits after the endpoint is gone.
    removalPolicy: RemovalPolicy.RETAIN,
    noAccessLogsReason: 'Data-capture bucket written only by SageMaker with the endpoint role; pass dataCapture.serverAccessLogsBucket to enable access logs.',
  });
  return bucket;
}
