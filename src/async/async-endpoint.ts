import { Annotations, Duration, Names, Token } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { AsyncResults } from './async-results';
import { addBacklogScaling, validateBacklogScaling } from './async-scaling';
import { AsyncAutoScalingProps } from './async-scaling-props';
import { ASYNC_ENV, DEFAULT_INVOCATION_TIMEOUT_SECONDS, DEFAULT_MAX_EVENT_TIME_SKEW_SECONDS, DEFAULT_REQUEST_TTL_SECONDS, ttlProblems } from '../private/contract.generated';
import { acknowledgePolicyWildcards } from './nag';
import { autoscaledVariantUpdateWarning, ScaledVariant, scaledEndpointName } from '../core/autoscaled-updates';
import { addAlarmActions, createKey } from '../core/encryption';
import { DEFAULT_VARIANT_NAME, endpointArnForName, EndpointMetricOptions, ISageMakerEndpoint, SageMakerEndpointBase } from '../core/endpoint-base';
import { instanceSpecs } from '../core/instance-specs';
import { createExecutionRole, renderModel } from '../core/model';
import { ModelSource } from '../core/model-source';
import { acknowledgeGrantWildcards } from '../core/nag';
import { endpointConfigKmsKeyId, kmsKeyWarnings } from '../core/private/endpoint-kms';
import { acknowledgeModelRoleWildcards } from '../core/private/model-role-nag';
import { renderProductionVariant, validateProductionVariant } from '../core/private/production-variant';
import { ProductionVariantOptions } from '../core/production-variant';
import { ScalableInstanceCount } from '../core/scaling/scalable-instance-count';
import { createEncryptedBucket } from '../core/storage';
import { PropValidator, SAGEMAKER_NAME_EXPECTED, SAGEMAKER_NAME_PATTERN } from '../core/validation';

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

const WORKLOAD_RANGES: Record<AsyncWorkload, { min: number; max: number; default: number; label: string }> = {
  [AsyncWorkload.GPU_LLM]: { min: 1, max: 2, default: 1, label: 'GPU LLM' },
  [AsyncWorkload.CPU_PROCESSING]: { min: 4, max: 8, default: 4, label: 'CPU processing' },
};

/** Default lifecycle expirations. */
const DEFAULT_EXPIRATION = { input: Duration.days(7), output: Duration.days(30), failure: Duration.days(30) };

/** An async inference endpoint: created here or imported. */
export interface IAsyncEndpoint extends ISageMakerEndpoint {
  /** The bucket inputs are uploaded to and SageMaker writes outputs and failures to. */
  readonly bucket: s3.IBucket;
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

/** Props of an `AsyncEndpoint`. */
export interface AsyncEndpointProps extends ProductionVariantOptions {
  /** Where the model comes from: `ModelSource.fromContainer(...)`, `ModelSource.fromModelName(...)`, JumpStart. */
  readonly model: ModelSource;
  /**
   * The endpoint's name.
   *
   * @default - CloudFormation generates one
   */
  readonly endpointName?: string;
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
   * The customer-managed key for everything this construct stores: the bucket (when created), outputs, topics, queues,
   * the job table, and the endpoint config's storage volumes (left out for NVMe instance types, with a warning).
   *
   * @default - a key is created, with rotation enabled
   */
  readonly encryptionKey?: kms.IKey;
  /**
   * The bucket for inputs, outputs and failures. A bucket of yours gets lifecycle rules only if it is an `s3.Bucket`
   * defined in this app; for an imported one, expire the prefixes yourself.
   *
   * @default - a bucket is created: KMS (`encryptionKey`), TLS only, public access blocked, versioned, with a rule that
   * deletes noncurrent versions a day after the prefix expirations below expire them
   */
  readonly bucket?: s3.IBucket;
  /**
   * Key prefix of uploaded inputs; must end with `/` and not overlap the other prefixes.
   *
   * @default 'inputs/'
   */
  readonly inputPrefix?: string;
  /**
   * Key prefix SageMaker writes outputs under (`S3OutputPath`).
   *
   * @default 'outputs/'
   */
  readonly outputPrefix?: string;
  /**
   * Key prefix SageMaker writes failures under (`S3FailurePath`).
   *
   * @default 'failures/'
   */
  readonly failurePrefix?: string;
  /**
   * How long inputs are kept (whole days).
   *
   * @default Duration.days(7)
   */
  readonly inputExpiration?: Duration;
  /**
   * How long outputs are kept (whole days).
   *
   * @default Duration.days(30)
   */
  readonly outputExpiration?: Duration;
  /**
   * How long failure objects are kept (whole days).
   *
   * @default Duration.days(30)
   */
  readonly failureExpiration?: Duration;
  /**
   * A bucket for the created bucket's server access logs.
   *
   * @default - no access logs (requests can be audited with CloudTrail data events)
   */
  readonly serverAccessLogsBucket?: s3.IBucket;
  /**
   * Topics whose notification carries the inference response inline (`IncludeInferenceResponseIn`; responses up to
   * 128 KB). The key it arrives under is not documented; the result recorder ignores it and records locations.
   *
   * @default - no inline responses
   */
  readonly includeInferenceResponseIn?: AsyncNotificationTopic[];
  /**
   * What the instances mostly do; sets the default of `maxConcurrentInvocationsPerInstance` and the range outside of
   * which it warns.
   *
   * @default - GPU_LLM for instance types with accelerators (g*, p*, inf*, trn*), CPU_PROCESSING otherwise
   */
  readonly workload?: AsyncWorkload;
  /**
   * Requests each instance processes at once (1-1000).
   *
   * @default - 1 for GPU_LLM, 4 for CPU_PROCESSING
   */
  readonly maxConcurrentInvocationsPerInstance?: number;
  /**
   * The default `InvocationTimeoutSeconds` the runtime submits with (1-3600 s, whole seconds).
   *
   * @default Duration.seconds(900)
   */
  readonly invocationTimeout?: Duration;
  /**
   * The default `RequestTTLSeconds` the runtime submits with (60-21600 s, and at least twice `invocationTimeout`).
   *
   * @default Duration.hours(1)
   */
  readonly requestTtl?: Duration;
  /**
   * Record results in a DynamoDB job table (SNS -> SQS -> bundled recorder), so `getAsyncJob` is one read.
   *
   * @default true
   */
  readonly recordResults?: boolean;
  /**
   * How long job items live in the table (its TTL).
   *
   * @default - `outputExpiration`
   */
  readonly resultRetention?: Duration;
  /**
   * How far past the result recorder's clock a notification's `eventTime` may lie; a later one is refused (DLQ). The job
   * table keeps the newest event, so one notification dated far ahead would replace a Completed result and outrank
   * every genuine redelivery. Whole seconds, 0 to 1 hour.
   *
   * @default Duration.minutes(5)
   */
  readonly maxEventTimeSkew?: Duration;
  /**
   * Scale the instance count on `ApproximateBacklogSizePerInstance`. With `minCapacity: 0` the scale-from-zero recipe
   * (a `HasBacklogWithoutCapacity` alarm driving a +1 step policy) is added.
   *
   * @default - no autoscaling: the endpoint keeps `initialInstanceCount` instances
   */
  readonly autoScaling?: AsyncAutoScalingProps;
  /**
   * Alarm when the oldest queued request is older than this.
   *
   * @default - no alarm
   */
  readonly oldestRequestAgeAlarmThreshold?: Duration;
  /**
   * What the alarms this endpoint creates do when they fire (the oldest-request-age alarm and the result recorder's
   * dead-letter alarm), e.g. `[new cloudwatch_actions.SnsAction(topic)]`. The scale-from-zero alarm is not affected: its
   * action is the scaling policy.
   *
   * @default - the alarms change state but notify nobody
   */
  readonly alarmActions?: cloudwatch.IAlarmAction[];
  /**
   * How long the result recorder's log group (KMS-encrypted with `encryptionKey`) keeps its logs.
   *
   * @default logs.RetentionDays.ONE_MONTH
   */
  readonly logRetention?: logs.RetentionDays;
}

abstract class AsyncEndpointBase extends SageMakerEndpointBase implements IAsyncEndpoint {
  public abstract readonly bucket: s3.IBucket;
  public abstract readonly inputPrefix: string;
  public abstract readonly outputPrefix: string;
  public abstract readonly failurePrefix: string;
  public abstract readonly jobTable?: dynamodb.ITable;
  public abstract readonly encryptionKey?: kms.IKey;
  protected abstract readonly defaultInvocationTimeoutSeconds: number;
  protected abstract readonly defaultRequestTtlSeconds: number;

  public get runtimeEnvironment(): { [key: string]: string } {
    const env: { [key: string]: string } = {
      [ASYNC_ENV.ENDPOINT_NAME]: this.endpointName,
      [ASYNC_ENV.INPUT_BUCKET]: this.bucket.bucketName,
      [ASYNC_ENV.INPUT_PREFIX]: this.inputPrefix,
      [ASYNC_ENV.INVOCATION_TIMEOUT_SECONDS]: String(this.defaultInvocationTimeoutSeconds),
      [ASYNC_ENV.REQUEST_TTL_SECONDS]: String(this.defaultRequestTtlSeconds),
    };
    if (this.jobTable) env[ASYNC_ENV.JOB_TABLE_NAME] = this.jobTable.tableName;
    return env;
  }

  /**
   * Sets the runtime's environment variables on `fn` and grants it `grantSubmit` and `grantReadResults`.
   */
  public bindToFunction(fn: lambda.Function): void {
    for (const [name, value] of Object.entries(this.runtimeEnvironment)) fn.addEnvironment(name, value);
    this.grantSubmit(fn);
    this.grantReadResults(fn);
  }

  public grantSubmit(grantee: iam.IGrantable): iam.Grant {
    let grant = this.grant(grantee, 'sagemaker:InvokeEndpointAsync');
    grant = grant.combine(acknowledgeGrantWildcards(this,
      iam.Grant.addToPrincipal({ grantee, actions: ['s3:PutObject'], resourceArns: [this.bucket.arnForObjects(`${this.inputPrefix}*`)] }),
      'Async inference inputs: one new object per request under the endpoint\'s input prefix only; keys are generated per request (IAsyncEndpoint.grantSubmit).',
    ));
    const key = this.bucket.encryptionKey?.grant(grantee, 'kms:GenerateDataKey');
    return key ? grant.combine(key) : grant;
  }

  public grantReadResults(grantee: iam.IGrantable): iam.Grant {
    let grant = acknowledgeGrantWildcards(this, iam.Grant.addToPrincipal({
      grantee,
      actions: ['s3:GetObject'],
      resourceArns: [this.bucket.arnForObjects(`${this.outputPrefix}*`), this.bucket.arnForObjects(`${this.failurePrefix}*`)],
    }), 'Async inference results: SageMaker writes one object per request under the endpoint\'s output and failure prefixes only, with generated keys (IAsyncEndpoint.grantReadResults).');
    // Without ListBucket, GetObject on a missing key (a job still pending) is 403 instead of 404.
    grant = grant.combine(iam.Grant.addToPrincipal({
      grantee,
      actions: ['s3:ListBucket'],
      resourceArns: [this.bucket.bucketArn],
      conditions: { StringLike: { 's3:prefix': [`${this.outputPrefix}*`, `${this.failurePrefix}*`] } },
    }));
    for (const key of new Set([this.encryptionKey, this.bucket.encryptionKey].filter((k): k is kms.IKey => k !== undefined))) {
      grant = grant.combine(key.grant(grantee, 'kms:Decrypt'));
    }
    if (this.jobTable) {
      grant = grant.combine(this.jobTable.grant(grantee, 'dynamodb:GetItem'));
      const tableKey = this.jobTable.encryptionKey?.grant(grantee, 'kms:Decrypt');
      if (tableKey) grant = grant.combine(tableKey);
    }
    return grant;
  }

  public metricApproximateBacklogSize(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.endpointMetric('ApproximateBacklogSize', { statistic: 'Average', ...props });
  }

  public metricApproximateBacklogSizePerInstance(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.endpointMetric('ApproximateBacklogSizePerInstance', { statistic: 'Average', ...props });
  }

  public metricApproximateAgeOfOldestRequest(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.endpointMetric('ApproximateAgeOfOldestRequest', { statistic: 'Maximum', ...props });
  }

  public metricHasBacklogWithoutCapacity(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.endpointMetric('HasBacklogWithoutCapacity', { statistic: 'Average', period: Duration.minutes(1), ...props });
  }

  public metricInvocationFailures(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metric('InvocationFailures', { statistic: 'Sum', ...props });
  }

  /** The async backlog metrics have the EndpointName dimension only. */
  private endpointMetric(metricName: string, props: cloudwatch.MetricOptions): cloudwatch.Metric {
    return new cloudwatch.Metric({ namespace: 'AWS/SageMaker', metricName, dimensionsMap: { EndpointName: this.endpointName }, ...props });
  }
}

/**
 * A SageMaker asynchronous inference endpoint for model calls from seconds to an hour: inputs are uploaded to S3,
 * SageMaker queues the request, writes the output (or failure) to S3 and notifies SNS; a bundled recorder turns the
 * notifications into job items so an MCP tool answers "is job X done?" with one DynamoDB read.
 *
 * @example
 * const endpoint = new AsyncEndpoint(this, 'DocProcessor', {
 *   model: ModelSource.fromContainer(ContainerImage.fromDlc('huggingface-pytorch-tgi-inference', '2.7.0-tgi3.3.6-gpu-py311-cu124-ubuntu22.04')),
 *   instanceType: InstanceType.ML_G5_2XLARGE,
 *   autoScaling: { minCapacity: 0, maxCapacity: 2 },
 * });
 * endpoint.bindToFunction(toolFunction);
 */
export class AsyncEndpoint extends AsyncEndpointBase {
  /** An async endpoint defined elsewhere (for grants, metrics and the runtime environment). */
  public static fromAsyncEndpointAttributes(scope: Construct, id: string, attrs: AsyncEndpointAttributes): IAsyncEndpoint {
    const v = new PropValidator(`imported AsyncEndpoint '${id}'`);
    v.pattern('endpointName', attrs.endpointName, SAGEMAKER_NAME_PATTERN, SAGEMAKER_NAME_EXPECTED, 63);
    validatePrefixes(v, attrs.inputPrefix ?? 'inputs/', attrs.outputPrefix ?? 'outputs/', attrs.failurePrefix ?? 'failures/');
    v.throwIfInvalid();
    class Import extends AsyncEndpointBase {
      public readonly endpointName = attrs.endpointName;
      public readonly endpointArn = endpointArnForName(scope, attrs.endpointName);
      public readonly bucket = attrs.bucket;
      public readonly inputPrefix = attrs.inputPrefix ?? 'inputs/';
      public readonly outputPrefix = attrs.outputPrefix ?? 'outputs/';
      public readonly failurePrefix = attrs.failurePrefix ?? 'failures/';
      public readonly jobTable = attrs.jobTable;
      public readonly encryptionKey = attrs.encryptionKey;
      protected readonly defaultVariantName = attrs.variantName ?? DEFAULT_VARIANT_NAME;
      protected readonly defaultInvocationTimeoutSeconds = DEFAULT_INVOCATION_TIMEOUT_SECONDS;
      protected readonly defaultRequestTtlSeconds = DEFAULT_REQUEST_TTL_SECONDS;
    }
    return new Import(scope, id);
  }

  public readonly endpointName: string;
  public readonly endpointArn: string;
  public readonly bucket: s3.IBucket;
  public readonly inputPrefix: string;
  public readonly outputPrefix: string;
  public readonly failurePrefix: string;
  /**
   * The customer-managed key of everything this endpoint stores (the one given, or the one created).
   *
   * @default - always set for a created endpoint (optional only because imported endpoints may not know it)
   */
  public readonly encryptionKey?: kms.IKey;
  /**
   * The job table (partition key `inferenceId`, TTL attribute `expiresAt`).
   *
   * @default - none when `recordResults` is false
   */
  public readonly jobTable?: dynamodb.ITable;
  /** The production variant's name. */
  public readonly variantName: string;
  /** The role SageMaker runs the model with. */
  public readonly role: iam.IRole;
  /** The topic SageMaker notifies on success. */
  public readonly successTopic: sns.ITopic;
  /** The topic SageMaker notifies on failure. */
  public readonly errorTopic: sns.ITopic;
  /** Concurrent invocations per instance, as configured. */
  public readonly maxConcurrentInvocationsPerInstance: number;
  /** The workload the concurrency default and warning used. */
  public readonly workload: AsyncWorkload;
  /**
   * The queue between the topics and the recorder.
   *
   * @default - none when `recordResults` is false
   */
  public readonly resultQueue?: sqs.IQueue;
  /**
   * Notifications the recorder could not record, after `maxReceiveCount` (5) deliveries.
   *
   * @default - none when `recordResults` is false
   */
  public readonly resultDeadLetterQueue?: sqs.IQueue;
  /**
   * The bundled result recorder.
   *
   * @default - none when `recordResults` is false
   */
  public readonly resultRecorder?: lambda.IFunction;
  /**
   * Alarm on the result DLQ's depth (at least one message).
   *
   * @default - none when `recordResults` is false
   */
  public readonly resultDeadLetterAlarm?: cloudwatch.Alarm;
  /**
   * Alarm on the oldest queued request's age.
   *
   * @default - none unless `oldestRequestAgeAlarmThreshold` is set
   */
  public readonly oldestRequestAgeAlarm?: cloudwatch.Alarm;
  /**
   * The scale-from-zero alarm (`HasBacklogWithoutCapacity`).
   *
   * @default - none unless autoscaling has `minCapacity: 0`
   */
  public readonly scaleFromZeroAlarm?: cloudwatch.Alarm;

  /**
   * The variant's scalable instance count, to add policies to (e.g. `scaleToTrackMetric` on another metric).
   *
   * @default - none unless `autoScaling` is set
   */
  public readonly scalableInstanceCount?: ScalableInstanceCount;
  /** The AWS::SageMaker::Endpoint. */
  public readonly cfnEndpoint: sagemaker.CfnEndpoint;
  /** The AWS::SageMaker::EndpointConfig. */
  public readonly cfnEndpointConfig: sagemaker.CfnEndpointConfig;

  protected readonly defaultVariantName: string;
  protected readonly defaultInvocationTimeoutSeconds: number;
  protected readonly defaultRequestTtlSeconds: number;
  private readonly key: kms.IKey;

  constructor(scope: Construct, id: string, props: AsyncEndpointProps) {
    super(scope, id, { physicalName: props.endpointName });
    this.variantName = props.variantName ?? DEFAULT_VARIANT_NAME;
    this.defaultVariantName = this.variantName;
    this.inputPrefix = props.inputPrefix ?? 'inputs/';
    this.outputPrefix = props.outputPrefix ?? 'outputs/';
    this.failurePrefix = props.failurePrefix ?? 'failures/';
    this.workload = props.workload ?? defaultWorkload(props);
    const range = WORKLOAD_RANGES[this.workload];
    this.maxConcurrentInvocationsPerInstance = props.maxConcurrentInvocationsPerInstance ?? range.default;
    this.defaultInvocationTimeoutSeconds = props.invocationTimeout?.toSeconds({ integral: false }) ?? DEFAULT_INVOCATION_TIMEOUT_SECONDS;
    this.defaultRequestTtlSeconds = props.requestTtl?.toSeconds({ integral: false }) ?? DEFAULT_REQUEST_TTL_SECONDS;
    const outputExpiration = props.outputExpiration ?? DEFAULT_EXPIRATION.output;
    const resultRetention = props.resultRetention ?? outputExpiration;
    const recordResults = props.recordResults ?? true;

    // -- validation: every problem at once
    const v = new PropValidator(`AsyncEndpoint '${id}'`);
    v.pattern('endpointName', props.endpointName, SAGEMAKER_NAME_PATTERN, SAGEMAKER_NAME_EXPECTED, 63);
    validateProductionVariant(v, '', this.variantName, props);
    v.range('maxConcurrentInvocationsPerInstance', props.maxConcurrentInvocationsPerInstance, 1, 1000);
    const timeoutUnresolved = props.invocationTimeout?.isUnresolved() ?? false;
    const ttlUnresolved = props.requestTtl?.isUnresolved() ?? false;
    if (!timeoutUnresolved && !ttlUnresolved) {
      for (const p of ttlProblems(this.defaultInvocationTimeoutSeconds, this.defaultRequestTtlSeconds, { timeout: 'invocationTimeout', ttl: 'requestTtl' })) v.add(p);
    }
    validatePrefixes(v, this.inputPrefix, this.outputPrefix, this.failurePrefix);
    for (const [name, d] of [['inputExpiration', props.inputExpiration], ['outputExpiration', props.outputExpiration],
      ['failureExpiration', props.failureExpiration], ['resultRetention', props.resultRetention]] as const) {
      if (d !== undefined && !d.isUnresolved()) {
        const days = d.toDays({ integral: false });
        v.check(Number.isInteger(days) && days >= 1, name, d.toHumanString(), 'a whole number of days, at least 1');
      }
    }
    if (props.maxEventTimeSkew && !props.maxEventTimeSkew.isUnresolved()) {
      const skew = props.maxEventTimeSkew.toSeconds({ integral: false });
      v.check(Number.isInteger(skew) && skew >= 0 && skew <= 3600, 'maxEventTimeSkew', props.maxEventTimeSkew.toHumanString(), 'whole seconds from 0 to 1 hour');
    }
    if (props.oldestRequestAgeAlarmThreshold && !props.oldestRequestAgeAlarmThreshold.isUnresolved()) {
      v.check(props.oldestRequestAgeAlarmThreshold.toSeconds({ integral: false }) > 0, 'oldestRequestAgeAlarmThreshold',
        props.oldestRequestAgeAlarmThreshold.toHumanString(), 'a duration > 0');
    }
    const inclusions = props.includeInferenceResponseIn ?? [];
    v.check(new Set(inclusions).size === inclusions.length, 'includeInferenceResponseIn', inclusions, 'each topic at most once');
    if (props.autoScaling) validateBacklogScaling(v, props.autoScaling);
    v.throwIfInvalid();

    const mc = this.maxConcurrentInvocationsPerInstance;
    if (!Token.isUnresolved(mc) && (mc < range.min || mc > range.max)) {
      Annotations.of(this).addWarningV2('cdk-sagemaker-mcp:asyncConcurrencyOutsideWorkload',
        `maxConcurrentInvocationsPerInstance: got ${mc}, expected ${range.min}-${range.max} for a ${range.label} workload `
        + `(${this.workload}); set 'workload' if the instances do something else.`);
    }

    // -- encryption, role, storage, topics
    this.key = props.encryptionKey ?? createKey(this, 'Key', `Async inference data of ${this.node.path}`);
    this.encryptionKey = this.key;
    this.role = props.role ?? createExecutionRole(this, 'Role', `Runs the model of async endpoint ${this.node.path}`);
    this.bucket = props.bucket ?? this.createBucket(props.serverAccessLogsBucket);
    this.addLifecycleRules(props, outputExpiration);

    this.successTopic = new sns.Topic(this, 'SuccessTopic', { masterKey: this.key, enforceSSL: true });
    this.errorTopic = new sns.Topic(this, 'ErrorTopic', { masterKey: this.key, enforceSSL: true });
    const ioPolicy = this.grantEndpointRole(props.role === undefined);

    // -- model, config, endpoint
    const modelConfig = props.model.bind(this, { role: this.role, instanceType: props.instanceType });
    const { modelName } = renderModel(this, 'Model', modelConfig, this.role);
    const s3Url = (prefix: string) => `s3://${this.bucket.bucketName}/${prefix.replace(/\/$/, '')}`;
    this.cfnEndpointConfig = new sagemaker.CfnEndpointConfig(this, 'EndpointConfig', {
      productionVariants: [renderProductionVariant(this.variantName, modelName, props)],
      kmsKeyId: endpointConfigKmsKeyId(this.key, [props.instanceType]),
      asyncInferenceConfig: {
        outputConfig: {
          s3OutputPath: s3Url(this.outputPrefix),
          s3FailurePath: s3Url(this.failurePrefix),
          kmsKeyId: this.key.keyArn,
          notificationConfig: {
            successTopic: this.successTopic.topicArn,
            errorTopic: this.errorTopic.topicArn,
            includeInferenceResponseIn: inclusions.length > 0 ? inclusions : undefined,
          },
        },
        clientConfig: { maxConcurrentInvocationsPerInstance: mc },
      },
    });
    // An autoscaled variant cannot change its instance type in place: the generated name follows it, so such a change
    // replaces the endpoint (see src/core/autoscaled-updates.ts); a fixed name gets AWS's two-step procedure instead.
    const scaled: ScaledVariant[] = props.autoScaling ? [{ variantName: this.variantName, instanceType: props.instanceType }] : [];
    this.node.addValidation({
      validate: () => {
        kmsKeyWarnings(this, this.key, [props.instanceType]);
        autoscaledVariantUpdateWarning(this, scaled, props.endpointName !== undefined);
        return [];
      },
    });

    this.cfnEndpoint = new sagemaker.CfnEndpoint(this, 'Resource', {
      endpointName: props.endpointName ?? (scaled.length > 0
        ? scaledEndpointName(this, Names.uniqueResourceName(this, { maxLength: 54, separator: '-' }), scaled)
        : undefined),
      endpointConfigName: this.cfnEndpointConfig.attrEndpointConfigName,
    });
    // SageMaker checks the role's access to the topics and bucket when the endpoint is created.
    this.cfnEndpoint.node.addDependency(this.role, ioPolicy);
    this.endpointName = this.cfnEndpoint.attrEndpointName;
    this.endpointArn = props.endpointName !== undefined && !Token.isUnresolved(props.endpointName)
      ? endpointArnForName(this, props.endpointName)
      : this.cfnEndpoint.attrEndpointArn;

    // -- results without polling
    if (recordResults) {
      const results = new AsyncResults(this, 'Results', {
        successTopic: this.successTopic,
        errorTopic: this.errorTopic,
        encryptionKey: this.key,
        retention: resultRetention,
        maxEventTimeSkew: props.maxEventTimeSkew ?? Duration.seconds(DEFAULT_MAX_EVENT_TIME_SKEW_SECONDS),
        maxReceiveCount: 5,
        logRetention: props.logRetention,
        alarmActions: props.alarmActions,
      });
      this.jobTable = results.table;
      this.resultQueue = results.queue;
      this.resultDeadLetterQueue = results.deadLetterQueue;
      this.resultRecorder = results.recorder;
      this.resultDeadLetterAlarm = results.deadLetterAlarm;
    }

    // -- scaling and alarms
    if (props.autoScaling) {
      const scaling = addBacklogScaling(this, props.autoScaling, {
        endpointName: this.endpointName,
        variantName: this.variantName,
        endpoint: this.cfnEndpoint,
        hasBacklogWithoutCapacity: this.metricHasBacklogWithoutCapacity(),
      });
      this.scalableInstanceCount = scaling.capacity;
      this.scaleFromZeroAlarm = scaling.scaleFromZeroAlarm;
    }
    if (props.oldestRequestAgeAlarmThreshold) {
      this.oldestRequestAgeAlarm = new cloudwatch.Alarm(this, 'OldestRequestAgeAlarm', {
        alarmDescription: `The oldest queued request of ${this.node.path} is older than ${props.oldestRequestAgeAlarmThreshold.toHumanString()}`,
        metric: this.metricApproximateAgeOfOldestRequest({ period: Duration.minutes(1) }),
        threshold: props.oldestRequestAgeAlarmThreshold.toSeconds(),
        evaluationPeriods: 3,
        datapointsToAlarm: 3,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      addAlarmActions(props.alarmActions, this.oldestRequestAgeAlarm);
    }
  }

  private createBucket(accessLogs: s3.IBucket | undefined): s3.Bucket {
    return createEncryptedBucket(this, 'Bucket', {
      key: this.key,
      // Transient job data that the lifecycle rules expire: an expired object's last version goes a day later.
      noncurrentVersionExpiration: Duration.days(1),
      serverAccessLogsBucket: accessLogs,
      noAccessLogsReason: 'Transient async-inference job data that lifecycle rules expire; pass serverAccessLogsBucket to enable access logs, '
        + 'or audit requests with CloudTrail S3 data events.',
    });
  }

  private addLifecycleRules(props: AsyncEndpointProps, outputExpiration: Duration): void {
    if (!(this.bucket instanceof s3.Bucket)) return;
    const rules: Array<[string, string, Duration]> = [
      ['ExpireInputs', this.inputPrefix, props.inputExpiration ?? DEFAULT_EXPIRATION.input],
      ['ExpireOutputs', this.outputPrefix, outputExpiration],
      ['ExpireFailures', this.failurePrefix, props.failureExpiration ?? DEFAULT_EXPIRATION.failure],
    ];
    for (const [id, prefix, expiration] of rules) {
      this.bucket.addLifecycleRule({ id: `${this.node.id}${id}`, prefix, expiration, abortIncompleteMultipartUploadAfter: Duration.days(1) });
    }
  }

  /** The endpoint's own needs: read inputs, write outputs/failures (encrypted with our key), publish both topics. */
  private grantEndpointRole(ownRole: boolean): iam.Policy {
    const role = this.role;
    // A policy of its own (not the role's default one) so that its cdk-nag acknowledgements carry async-specific reasons.
    const policy = new iam.Policy(this, 'AsyncIoPolicy', {
      roles: [role],
      statements: [
        new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [this.bucket.arnForObjects(`${this.inputPrefix}*`)] }),
        new iam.PolicyStatement({
          actions: ['s3:PutObject', 's3:AbortMultipartUpload'],
          resources: [this.bucket.arnForObjects(`${this.outputPrefix}*`), this.bucket.arnForObjects(`${this.failurePrefix}*`)],
        }),
        new iam.PolicyStatement({ actions: ['sns:Publish'], resources: [this.successTopic.topicArn, this.errorTopic.topicArn] }),
      ],
    });
    const keyArns = [...new Set([this.key, this.bucket.encryptionKey].filter((k): k is kms.IKey => k !== undefined))].map((k) => k.keyArn);
    // Decrypt: inputs (and topic data keys); GenerateDataKey: outputs, failures and SNS messages under SSE.
    policy.addStatements(new iam.PolicyStatement({ actions: ['kms:Decrypt', 'kms:GenerateDataKey'], resources: keyArns }));
    acknowledgePolicyWildcards(policy, [
      { action: /^s3:GetObject$/, reason: 'Reads only the objects under the endpoint\'s own input prefix.' },
      { action: /^s3:PutObject$/, reason: 'Writes only under the endpoint\'s own output and failure prefixes (S3OutputPath, S3FailurePath).' },
    ]);
    if (ownRole && role instanceof iam.Role) acknowledgeModelRoleWildcards(role);
    return policy;
  }
}

function defaultWorkload(props: AsyncEndpointProps): AsyncWorkload {
  if (props.instanceType.isUnresolved) return AsyncWorkload.CPU_PROCESSING;
  const spec = instanceSpecs(props.instanceType.name);
  const accelerated = spec ? spec.accelerators > 0 : /^(g|p|inf|trn)\d/.test(props.instanceType.family ?? '');
  return accelerated ? AsyncWorkload.GPU_LLM : AsyncWorkload.CPU_PROCESSING;
}

const PREFIX = /^[a-zA-Z0-9!_.*'()-][a-zA-Z0-9!_.*'()/-]*\/$/;

function validatePrefixes(v: PropValidator, input: string, output: string, failure: string): void {
  const named: Array<[string, string]> = [['inputPrefix', input], ['outputPrefix', output], ['failurePrefix', failure]];
  for (const [name, prefix] of named) {
    v.pattern(name, prefix, PREFIX, "a key prefix of safe characters ending with '/' and not starting with '/', e.g. 'inputs/'", 400);
  }
  for (let i = 0; i < named.length; i++) {
    for (let j = i + 1; j < named.length; j++) {
      const [a, pa] = named[i];
      const [b, pb] = named[j];
      if (Token.isUnresolved(pa) || Token.isUnresolved(pb)) continue;
      v.check(!pa.startsWith(pb) && !pb.startsWith(pa), b, pb, `a prefix that does not overlap ${a} ('${pa}'): grants and lifecycle rules are per prefix`);
    }
  }
}
