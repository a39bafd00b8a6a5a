import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import {
  AsyncEndpointAlarmOptions, AsyncInvocationOptions, AsyncNotificationOptions, AsyncResultsOptions, AsyncStorageOptions,
} from './async-endpoint-options';
import { AsyncAutoScalingOptions } from './async-scaling-props';
import { EndpointMetricOptions, ISageMakerEndpoint } from '../core/endpoint-base';
import { EndpointMetricsConfig } from '../core/endpoint-metrics-config';
import { EndpointNetworkOptions } from '../core/endpoint-network';
import { ModelSource } from '../core/model-source';
import { ProductionVariantOptions } from '../core/production-variant';
import { EndpointUpdateOptions } from '../rollouts/endpoint-update';

// The async endpoint's public types: its interface (imports implement it too), its attributes and its props (whose
// option groups are in async-endpoint-options.ts).

/**
 * An async inference endpoint: created here or imported.
 *
 * Its metrics are those of AWS's async metric list, which is exhaustive
 * (https://docs.aws.amazon.com/sagemaker/latest/dg/async-inference-monitor.html): SageMaker publishes no
 * `Invocations`, `InvocationsPerInstance` or `OverheadLatency` for an async endpoint, so the methods of those three
 * metrics throw, naming the metric to use instead. The instance count is the `SampleCount` of the `CPUUtilization`
 * metric over a 1-minute period, as AWS's async troubleshooting page says
 * (https://docs.aws.amazon.com/sagemaker/latest/dg/async-inference-troubleshooting.html).
 */
export interface IAsyncEndpoint extends ISageMakerEndpoint {
  /**
   * The bucket inputs are uploaded to and SageMaker writes outputs and failures to.
   *
   * @default - unknown for an endpoint imported by name or ARN: the submit and read-results grants, the runtime
   * environment and binding to a function then throw (import with the endpoint's attributes to use them)
   */
  readonly bucket?: s3.IBucket;
  /** Key prefix of uploaded inputs (ends with `/`). */
  readonly inputPrefix: string;
  /** Key prefix of outputs (ends with `/`). */
  readonly outputPrefix: string;
  /** Key prefix of failure objects (ends with `/`). */
  readonly failurePrefix: string;
  /**
   * The job table the result recorder writes.
   *
   * @default - none: results are found by polling the output and failure objects
   */
  readonly jobTable?: dynamodb.ITable;
  /**
   * The key SageMaker encrypts outputs and failures with.
   *
   * @default - none known (S3 default encryption applies)
   */
  readonly encryptionKey?: kms.IKey;
  /** Environment variables that configure the runtime's async-jobs client (`submitAsyncJob`, `getAsyncJob`). */
  readonly runtimeEnvironment: { [key: string]: string };

  /**
   * Grants what submitting a job takes: `sagemaker:InvokeEndpointAsync` on this endpoint, `s3:PutObject` on the input
   * prefix, and `kms:GenerateDataKey` on the bucket's key.
   */
  grantSubmit(grantee: iam.IGrantable): iam.Grant;

  /**
   * Grants what reading results takes: `dynamodb:GetItem` on the job table (and `kms:Decrypt` on its key),
   * `s3:GetObject` on the output and failure prefixes, `s3:ListBucket` on the bucket limited by an `s3:prefix`
   * (StringLike) condition to those two prefixes, and `kms:Decrypt` on the output key.
   *
   * ListBucket is what makes S3 answer GetObject on a result that does not exist yet (a pending job) with 404
   * NoSuchKey; without it S3 answers 403 AccessDenied, which the runtime must treat as an error.
   */
  grantReadResults(grantee: iam.IGrantable): iam.Grant;

  /**
   * Requests waiting in the endpoint's queue (`ApproximateBacklogSize`, dimension EndpointName).
   *
   * @default - Average over 5 minutes
   */
  metricApproximateBacklogSize(props?: cloudwatch.MetricOptions): cloudwatch.Metric;

  /**
   * Queued requests per instance (`ApproximateBacklogSizePerInstance`), the metric autoscaling tracks.
   *
   * @default - Average over 5 minutes
   */
  metricApproximateBacklogSizePerInstance(props?: cloudwatch.MetricOptions): cloudwatch.Metric;

  /**
   * Age of the oldest queued request, in seconds (`ApproximateAgeOfOldestRequest`).
   *
   * @default - Maximum over 5 minutes
   */
  metricApproximateAgeOfOldestRequest(props?: cloudwatch.MetricOptions): cloudwatch.Metric;

  /**
   * 1 while requests are queued and the endpoint has no instance (`HasBacklogWithoutCapacity`).
   *
   * @default - Average over 1 minute
   */
  metricHasBacklogWithoutCapacity(props?: cloudwatch.MetricOptions): cloudwatch.Metric;

  /**
   * Async invocations that failed (`InvocationFailures`, dimensions EndpointName and VariantName).
   *
   * @default - Sum over 5 minutes
   */
  metricInvocationFailures(props?: EndpointMetricOptions): cloudwatch.Metric;

  /**
   * Async invocations the endpoint processed (dimensions EndpointName and VariantName). AWS's async metric list
   * spells the metric `InvocationsProcesssed` (three s), and that is the name this returns; whether SageMaker emits
   * that spelling or `InvocationsProcessed` is unconfirmed, so `SageMakerMcpDashboard` graphs both.
   *
   * @default - Sum over 5 minutes
   */
  metricInvocationsProcessed(props?: EndpointMetricOptions): cloudwatch.Metric;

  /**
   * Queued requests that failed on reaching their request TTL (`ExpiredRequests`, dimensions EndpointName and VariantName).
   *
   * @default - Sum over 5 minutes
   */
  metricExpiredRequests(props?: EndpointMetricOptions): cloudwatch.Metric;

  /**
   * Inferences that failed downloading the request from S3 (`RequestDownloadFailures`, dimensions EndpointName and VariantName).
   *
   * @default - Sum over 5 minutes
   */
  metricRequestDownloadFailures(props?: EndpointMetricOptions): cloudwatch.Metric;

  /**
   * Inferences that failed uploading the response to S3 (`ResponseUploadFailures`, dimensions EndpointName and VariantName).
   *
   * @default - Sum over 5 minutes
   */
  metricResponseUploadFailures(props?: EndpointMetricOptions): cloudwatch.Metric;

  /**
   * Notifications that could not be published (`NotificationFailures`, dimensions EndpointName and VariantName).
   *
   * @default - Sum over 5 minutes
   */
  metricNotificationFailures(props?: EndpointMetricOptions): cloudwatch.Metric;

  /**
   * Time a request waited in the queue before processing (`TimeInBacklog`, dimensions EndpointName and VariantName).
   *
   * @default - Average over 5 minutes
   */
  metricTimeInBacklog(props?: EndpointMetricOptions): cloudwatch.Metric;

  /**
   * Time from SageMaker receiving a request to finishing it, backlog and notifications included, in milliseconds
   * (`TotalProcessingTime`, dimensions EndpointName and VariantName).
   *
   * @default - Average over 5 minutes
   */
  metricTotalProcessingTime(props?: EndpointMetricOptions): cloudwatch.Metric;
}

/** What identifies an async endpoint defined elsewhere. */
export interface AsyncEndpointAttributes {
  /** The endpoint's name, in its exact case. */
  readonly endpointName: string;
  /** The endpoint's input/output bucket. */
  readonly bucket: s3.IBucket;
  /** @default 'inputs/' */
  readonly inputPrefix?: string;
  /** @default 'outputs/' */
  readonly outputPrefix?: string;
  /** @default 'failures/' */
  readonly failurePrefix?: string;
  /**
   * The job table its result recorder writes.
   *
   * @default - none
   */
  readonly jobTable?: dynamodb.ITable;
  /**
   * The key its outputs are encrypted with.
   *
   * @default - none known
   */
  readonly encryptionKey?: kms.IKey;
  /**
   * The variant metrics default to.
   *
   * @default 'AllTraffic'
   */
  readonly variantName?: string;
}


/**
 * Properties of an async endpoint: the model and its instances at the top level, each concern of async inference in a
 * group of its own (storage, results, notifications, invocation, alarms). The network options put the model in your
 * VPC, and the bundled result recorder in the same VPC and subnets (with a security group of its own: HTTPS out only).
 */
export interface AsyncEndpointProps extends ProductionVariantOptions, EndpointNetworkOptions, EndpointUpdateOptions {
  /** Where the model comes from: a container, an existing model or a JumpStart model (see `ModelSource`). */
  readonly model: ModelSource;
  /**
   * The endpoint's name.
   *
   * @default - CloudFormation generates one
   */
  readonly endpointName?: string;
  /**
   * How the endpoint publishes its metrics (the endpoint config's `MetricsConfig`): enhanced metrics, publish frequency,
   * detailed observability.
   *
   * @default - SageMaker's defaults (no enhanced metrics, every 60 seconds)
   */
  readonly metricsConfig?: EndpointMetricsConfig;
  /**
   * The production variant's name.
   *
   * @default 'AllTraffic'
   */
  readonly variantName?: string;
  /**
   * The role SageMaker runs the model with. It is granted reading inputs, writing outputs and failures, publishing to
   * both topics, and the KMS key uses these need.
   *
   * @default - a role with only the endpoint's logs and metrics, plus the grants above
   */
  readonly role?: iam.IRole;
  /**
   * The customer-managed key for what this construct stores: the bucket (when created), outputs, topics, the job table,
   * and the endpoint config's storage volumes (left out for NVMe instance types, with a warning). The result queues have
   * a key of their own, created with rotation: their key's policy names the topics, so it cannot be the topics' key.
   *
   * @default - a key is created, with rotation enabled
   */
  readonly encryptionKey?: kms.IKey;
  /**
   * Where inputs, outputs and failures live in S3, and how long they are kept.
   *
   * @default - a created bucket with the prefixes 'inputs/', 'outputs/' and 'failures/', kept 7, 30 and 30 days
   */
  readonly storage?: AsyncStorageOptions;
  /**
   * The job table that records each job's outcome from SageMaker's notifications.
   *
   * @default - results are recorded, kept as long as outputs, with 5 minutes of event-time skew allowed
   */
  readonly results?: AsyncResultsOptions;
  /**
   * What SageMaker's success and error notifications carry.
   *
   * @default - notifications carry the output location, not the response
   */
  readonly notifications?: AsyncNotificationOptions;
  /**
   * The instances' concurrency and the runtime's default timeout and TTL for submitted jobs.
   *
   * @default - concurrency from the instance type's workload, a 15-minute invocation timeout and a 1-hour request TTL
   */
  readonly invocation?: AsyncInvocationOptions;
  /**
   * Scale the instance count on `ApproximateBacklogSizePerInstance`. With a minimum capacity of 0 the scale-from-zero
   * recipe (a `HasBacklogWithoutCapacity` alarm driving a +1 step policy) is added.
   *
   * @default - no autoscaling: the endpoint keeps its initial instance count
   */
  readonly autoScaling?: AsyncAutoScalingOptions;
  /**
   * Alarms on the endpoint's queue.
   *
   * @default - no alarms on the queue (the result recorder's dead-letter alarm exists whenever results are recorded)
   */
  readonly alarms?: AsyncEndpointAlarmOptions;
  /**
   * What the alarms this endpoint creates do when they fire (the oldest-request-age alarm and the result recorder's
   * dead-letter alarm), e.g. a `cloudwatch_actions.SnsAction` of your topic. The scale-from-zero alarm is not affected:
   * its action is the scaling policy.
   *
   * @default - the alarms change state but notify nobody
   */
  readonly alarmActions?: cloudwatch.IAlarmAction[];
  /**
   * How long the result recorder's log group (KMS-encrypted with the encryption key) keeps its logs.
   *
   * @default logs.RetentionDays.ONE_MONTH
   */
  readonly logRetention?: logs.RetentionDays;
}
