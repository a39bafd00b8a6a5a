import { Duration } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';

// The option groups of AsyncEndpointProps, one per concern, mirroring the parts of SageMaker's AsyncInferenceConfig
// (OutputConfig, NotificationConfig, ClientConfig) plus what this library adds (the job table, the alarm).

/** What the endpoint's instances mostly do; sets the default (and the expected range) of concurrent invocations. */
export enum AsyncWorkload {
  /** LLMs and other large models on GPUs: 1-2 concurrent invocations per instance (default 1). */
  GPU_LLM = 'GPU_LLM',
  /** Document and data processing on CPUs: 4-8 concurrent invocations per instance (default 4). */
  CPU_PROCESSING = 'CPU_PROCESSING',
}

/** The notification topics that can carry the inference response inline (when it is at most 128 KB). */
export enum AsyncNotificationTopic {
  /** `SUCCESS_NOTIFICATION_TOPIC` */
  SUCCESS = 'SUCCESS_NOTIFICATION_TOPIC',
  /** `ERROR_NOTIFICATION_TOPIC` */
  ERROR = 'ERROR_NOTIFICATION_TOPIC',
}

/**
 * Where an async endpoint's inputs, outputs and failures live in S3, and how long they are kept. The three prefixes
 * share one bucket and must not overlap: grants and lifecycle rules are per prefix.
 */
export interface AsyncStorageOptions {
  /**
   * The bucket for inputs, outputs and failures. A bucket of yours gets lifecycle rules only if it is an `s3.Bucket`
   * defined in this app; for an imported one, expire the prefixes yourself.
   *
   * @default - a bucket is created: KMS (the endpoint's encryption key), TLS only, public access blocked, versioned,
   * with a rule that deletes noncurrent versions a day after the expirations below expire them
   */
  readonly bucket?: s3.IBucket;
  /**
   * Key prefix of uploaded inputs; must end with `/`.
   *
   * @default 'inputs/'
   */
  readonly inputPrefix?: string;
  /**
   * Key prefix SageMaker writes outputs under (`S3OutputPath`); must end with `/`.
   *
   * @default 'outputs/'
   */
  readonly outputPrefix?: string;
  /**
   * Key prefix SageMaker writes failures under (`S3FailurePath`); must end with `/`.
   *
   * @default 'failures/'
   */
  readonly failurePrefix?: string;
  /**
   * How long inputs are kept (whole days): a job's input is read once, when SageMaker dequeues it.
   *
   * @default Duration.days(7)
   */
  readonly inputExpiration?: Duration;
  /**
   * How long outputs are kept (whole days): the time a client has to fetch a result.
   *
   * @default Duration.days(30)
   */
  readonly outputExpiration?: Duration;
  /**
   * How long failure objects are kept (whole days): the time an operator has to read why a job failed.
   *
   * @default Duration.days(30)
   */
  readonly failureExpiration?: Duration;
  /**
   * A bucket for the created bucket's server access logs (ignored when a bucket is given).
   *
   * @default - no access logs (requests can be audited with CloudTrail data events)
   */
  readonly serverAccessLogsBucket?: s3.IBucket;
}

/**
 * The job table: SageMaker's notifications (SNS, then SQS) recorded by a bundled function, so that asking whether a
 * job is done is one DynamoDB read instead of polling S3.
 */
export interface AsyncResultsOptions {
  /**
   * Whether results are recorded in a job table. Without it, clients find results by polling the output and failure
   * objects.
   *
   * @default true
   */
  readonly enabled?: boolean;
  /**
   * How long job items live in the table (its TTL, whole days).
   *
   * @default - the storage's output expiration: an item outliving its output would point at nothing
   */
  readonly retention?: Duration;
  /**
   * How far past the result recorder's clock a notification's event time may lie; a later one is refused (DLQ). The
   * job table keeps the newest event, so one notification dated far ahead would replace a Completed result and outrank
   * every genuine redelivery. Whole seconds, 0 to 1 hour.
   *
   * @default Duration.minutes(5)
   */
  readonly maxEventTimeSkew?: Duration;
}

/** The SNS notifications SageMaker publishes when a job succeeds or fails (its `NotificationConfig`). */
export interface AsyncNotificationOptions {
  /**
   * Topics whose notification carries the inference response inline (`IncludeInferenceResponseIn`; responses up to
   * 128 KB), each at most once. The key it arrives under is not documented; the result recorder ignores it and
   * records locations.
   *
   * @default - no inline responses
   */
  readonly includeInferenceResponseIn?: AsyncNotificationTopic[];
}

/**
 * How requests are processed: the instances' concurrency (the endpoint config's `ClientConfig`) and the defaults the
 * runtime submits jobs with.
 */
export interface AsyncInvocationOptions {
  /**
   * What the instances mostly do; sets the default of the concurrent invocations per instance, and the range outside of
   * which a value given warns.
   *
   * @default - GPU_LLM for instance types with accelerators (g*, p*, inf*, trn*), CPU_PROCESSING otherwise
   */
  readonly workload?: AsyncWorkload;
  /**
   * Requests each instance processes at once (`MaxConcurrentInvocationsPerInstance`, 1-1000).
   *
   * @default - 1 for GPU_LLM, 4 for CPU_PROCESSING
   */
  readonly maxConcurrentInvocationsPerInstance?: number;
  /**
   * The default `InvocationTimeoutSeconds` the runtime submits with (1-3600 s, whole seconds): how long the model may
   * work on one request.
   *
   * @default Duration.seconds(900)
   */
  readonly invocationTimeout?: Duration;
  /**
   * The default `RequestTTLSeconds` the runtime submits with (60-21600 s, and at least twice the invocation timeout):
   * how long a request may wait in the queue.
   *
   * @default Duration.hours(1)
   */
  readonly requestTtl?: Duration;
}

/** Alarms on an async endpoint's queue. What they do when they fire is the endpoint's alarm actions. */
export interface AsyncEndpointAlarmOptions {
  /**
   * Alarm when the oldest queued request (`ApproximateAgeOfOldestRequest`, 1-minute maximum) is older than this for
   * 3 minutes in a row: the queue is not draining.
   *
   * @default - no alarm
   */
  readonly oldestRequestAgeThreshold?: Duration;
}
