import { Annotations, Duration, Lazy, Names, Token } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { AsyncStorageOptions, AsyncWorkload } from './async-endpoint-options';
import { AsyncEndpointAttributes, AsyncEndpointProps, IAsyncEndpoint } from './async-endpoint-props';
import { AsyncResults } from './async-results';
import { addBacklogScaling, BacklogScaling, validateBacklogScaling } from './async-scaling';
import { AsyncAutoScalingOptions } from './async-scaling-props';
import { acknowledgePolicyWildcards } from './nag';
import { DEFAULT_INVOCATION_TIMEOUT_SECONDS, DEFAULT_MAX_EVENT_TIME_SKEW_SECONDS, DEFAULT_REQUEST_TTL_SECONDS, ttlProblems } from '../private/contract.generated';
import { AsyncEndpointBase } from './private/async-endpoint-base';
import { DEFAULT_EXPIRATION, defaultWorkload, validatePrefixes, WORKLOAD_RANGES } from './private/async-validation';
import { ScalableInstanceCount } from '../core/scaling/scalable-instance-count';
import { CostEstimateOptions, EndpointCostEstimate } from '../prices/cost-types';
import { estimateVariants } from '../prices/endpoint-estimates';
import { autoscaledVariantUpdateWarning, ScaledVariant, scaledEndpointName } from '../private/autoscaled-updates';
import { addAlarmActions, createKey } from '../private/encryption';
import { DEFAULT_VARIANT_NAME, endpointArnForName, importedEndpointIdentity } from '../private/endpoint-arn';
import { endpointConfigKmsKeyId, kmsKeyWarnings } from '../private/endpoint-kms';
import { EndpointUpdateProps, renderEndpointUpdate, validateEndpointUpdate } from '../private/endpoint-update';
import { bindEndpointNetwork, bindModelInNetwork, endpointConnections } from '../private/endpoint-vpc';
import { IAM_ACTION } from '../private/iam-actions';
import { applyMetricsConfig, validateMetricsConfig } from '../private/l1-metrics-config';
import { createExecutionRole } from '../private/model';
import {
  primaryInstanceType, renderProductionVariant, validateProductionVariant, variantInstanceTypes, warnOnInstancePools,
} from '../private/render-variant';
import { secondScalingCall } from '../private/scaling-resources';
import { createEncryptedBucket } from '../private/storage';
import { addValidationHook, PropValidator, RenderedAtValidation, SAGEMAKER_NAME_EXPECTED, SAGEMAKER_NAME_PATTERN } from '../private/validation';

/**
 * A SageMaker asynchronous inference endpoint for model calls from seconds to an hour: inputs are uploaded to S3,
 * SageMaker queues the request, writes the output (or failure) to S3 and notifies SNS; a bundled recorder turns the
 * notifications into job items so an MCP tool answers "is job X done?" with one DynamoDB read.
 *
 * @example
 * import { AsyncEndpoint, ContainerImage, InstanceType, ModelSource } from 'cdk-sagemaker-mcp';
 *
 * const endpoint = new AsyncEndpoint(this, 'DocProcessor', {
 *   model: ModelSource.fromContainer(ContainerImage.fromDlc('huggingface-pytorch-tgi-inference', '2.7.0-tgi3.3.6-gpu-py311-cu124-ubuntu22.04')),
 *   instanceType: InstanceType.ML_G5_2XLARGE,
 *   autoScaling: { minCapacity: 0, maxCapacity: 2 },
 * });
 * endpoint.bindToFunction(toolFunction);
 */
export class AsyncEndpoint extends AsyncEndpointBase implements ec2.IConnectable {
  /**
   * Imports an async endpoint by name (exact case; the ARN is built lowercase): invoke grants, variant and backlog
   * metrics. A name does not say where the endpoint's inputs and outputs live, so the bucket has no value and the
   * submit and read-results grants, the runtime environment and binding to a function throw: import with the
   * endpoint's attributes (`AsyncEndpointAttributes`) for those.
   */
  public static fromEndpointName(scope: Construct, id: string, endpointName: string): IAsyncEndpoint {
    return importAsyncEndpoint(scope, id, { endpointName });
  }

  /**
   * Imports an async endpoint by ARN (its name is the ARN's resource name; grants use the ARN lowercased); like an
   * import by name, it knows no bucket.
   */
  public static fromEndpointArn(scope: Construct, id: string, endpointArn: string): IAsyncEndpoint {
    return importAsyncEndpoint(scope, id, { endpointArn });
  }

  /** An async endpoint defined elsewhere (for grants, metrics and the runtime environment). */
  public static fromAsyncEndpointAttributes(scope: Construct, id: string, attrs: AsyncEndpointAttributes): IAsyncEndpoint {
    const v = new PropValidator(`imported AsyncEndpoint '${id}'`);
    v.pattern('endpointName', attrs.endpointName, SAGEMAKER_NAME_PATTERN, SAGEMAKER_NAME_EXPECTED, 63);
    validatePrefixes(v, '', attrs.inputPrefix ?? 'inputs/', attrs.outputPrefix ?? 'outputs/', attrs.failurePrefix ?? 'failures/');
    v.throwIfInvalid();
    return importAsyncEndpoint(scope, id, attrs);
  }

  public readonly endpointName: string;
  public readonly endpointArn: string;
  /**
   * The bucket inputs are uploaded to and SageMaker writes outputs and failures to (the one given, or the one created).
   *
   * @default - always set for a created endpoint (optional only because one imported by name or ARN cannot know it)
   */
  public readonly bucket?: s3.IBucket;
  public readonly inputPrefix: string;
  public readonly outputPrefix: string;
  public readonly failurePrefix: string;
  /**
   * The customer-managed key of what this endpoint stores (the one given, or the one created); the result queues have
   * a key of their own.
   *
   * @default - always set for a created endpoint (optional only because imported endpoints may not know it)
   */
  public readonly encryptionKey?: kms.IKey;
  /**
   * The job table (partition key `inferenceId`, TTL attribute `expiresAt`).
   *
   * @default - none when results are not recorded
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
   * @default - none when results are not recorded
   */
  public readonly resultQueue?: sqs.IQueue;
  /**
   * Notifications the recorder could not record, after `maxReceiveCount` (5) deliveries.
   *
   * @default - none when results are not recorded
   */
  public readonly resultDeadLetterQueue?: sqs.IQueue;
  /**
   * The bundled result recorder.
   *
   * @default - none when results are not recorded
   */
  public readonly resultRecorder?: lambda.IFunction;
  /**
   * Alarm on the result DLQ's depth (at least one message).
   *
   * @default - none when results are not recorded
   */
  public readonly resultDeadLetterAlarm?: cloudwatch.Alarm;
  /**
   * Alarm on the oldest queued request's age.
   *
   * @default - none unless the alarms' oldest-request-age threshold is set
   */
  public readonly oldestRequestAgeAlarm?: cloudwatch.Alarm;

  /** The AWS::SageMaker::Endpoint. */
  public readonly cfnEndpoint: sagemaker.CfnEndpoint;
  /** The AWS::SageMaker::EndpointConfig. */
  public readonly cfnEndpointConfig: sagemaker.CfnEndpointConfig;
  /**
   * The AWS::SageMaker::Model.
   *
   * @default - no value when the endpoint serves an existing model (a model source from a model name)
   */
  public readonly cfnModel?: sagemaker.CfnModel;

  protected readonly defaultVariantName: string;
  protected readonly defaultInvocationTimeoutSeconds: number;
  protected readonly defaultRequestTtlSeconds: number;
  private readonly key: kms.IKey;
  /** The bucket (`bucket`, never undefined here). */
  private readonly ioBucket: s3.IBucket;
  private scaling?: BacklogScaling;
  /** The variant's instance type and fixed instance count, for `costEstimate`. */
  private readonly variantInstances: { instanceTypes: string[]; initialInstanceCount: number };
  private readonly hasPools: boolean;
  private readonly networkConnections?: ec2.Connections;

  /**
   * The security groups of the model's network interfaces in the endpoint's VPC: allow the model to reach your
   * resources through them (`ec2.Connections`). Fails for an endpoint without a VPC.
   */
  public get connections(): ec2.Connections {
    return endpointConnections(`AsyncEndpoint '${this.node.path}'`, this.networkConnections);
  }

  constructor(scope: Construct, id: string, props: AsyncEndpointProps) {
    super(scope, id, { physicalName: props.endpointName });
    this.variantName = props.variantName ?? DEFAULT_VARIANT_NAME;
    const instanceTypes = variantInstanceTypes(props);
    this.hasPools = props.instancePools !== undefined;
    this.variantInstances = { instanceTypes: instanceTypes.map((t) => t.name), initialInstanceCount: props.initialInstanceCount ?? 1 };
    this.defaultVariantName = this.variantName;
    const storage = props.storage ?? {};
    const results = props.results ?? {};
    const invocation = props.invocation ?? {};
    const oldestRequestAgeThreshold = props.alarms?.oldestRequestAgeThreshold;
    this.inputPrefix = storage.inputPrefix ?? 'inputs/';
    this.outputPrefix = storage.outputPrefix ?? 'outputs/';
    this.failurePrefix = storage.failurePrefix ?? 'failures/';
    this.workload = invocation.workload ?? defaultWorkload(props);
    const range = WORKLOAD_RANGES[this.workload];
    this.maxConcurrentInvocationsPerInstance = invocation.maxConcurrentInvocationsPerInstance ?? range.default;
    this.defaultInvocationTimeoutSeconds = invocation.invocationTimeout?.toSeconds({ integral: false }) ?? DEFAULT_INVOCATION_TIMEOUT_SECONDS;
    this.defaultRequestTtlSeconds = invocation.requestTtl?.toSeconds({ integral: false }) ?? DEFAULT_REQUEST_TTL_SECONDS;
    const outputExpiration = storage.outputExpiration ?? DEFAULT_EXPIRATION.output;
    const resultRetention = results.retention ?? outputExpiration;
    const recordResults = results.enabled ?? true;

    // -- validation: every problem at once
    const v = new PropValidator(`AsyncEndpoint '${id}'`);
    v.pattern('endpointName', props.endpointName, SAGEMAKER_NAME_PATTERN, SAGEMAKER_NAME_EXPECTED, 63);
    validateProductionVariant(v, '', this.variantName, props);
    validateMetricsConfig(v, 'metricsConfig.', props.metricsConfig);
    v.range('invocation.maxConcurrentInvocationsPerInstance', invocation.maxConcurrentInvocationsPerInstance, 1, 1000);
    const timeoutUnresolved = invocation.invocationTimeout?.isUnresolved() ?? false;
    const ttlUnresolved = invocation.requestTtl?.isUnresolved() ?? false;
    if (!timeoutUnresolved && !ttlUnresolved) {
      const names = { timeout: 'invocation.invocationTimeout', ttl: 'invocation.requestTtl' };
      for (const p of ttlProblems(this.defaultInvocationTimeoutSeconds, this.defaultRequestTtlSeconds, names)) v.add(p);
    }
    validatePrefixes(v, 'storage.', this.inputPrefix, this.outputPrefix, this.failurePrefix);
    for (const [name, d] of [['storage.inputExpiration', storage.inputExpiration], ['storage.outputExpiration', storage.outputExpiration],
      ['storage.failureExpiration', storage.failureExpiration], ['results.retention', results.retention]] as const) {
      if (d !== undefined && !d.isUnresolved()) {
        const days = d.toDays({ integral: false });
        v.check(Number.isInteger(days) && days >= 1, name, d.toHumanString(), 'a whole number of days, at least 1');
      }
    }
    if (results.maxEventTimeSkew && !results.maxEventTimeSkew.isUnresolved()) {
      const skew = results.maxEventTimeSkew.toSeconds({ integral: false });
      v.check(Number.isInteger(skew) && skew >= 0 && skew <= 3600, 'results.maxEventTimeSkew', results.maxEventTimeSkew.toHumanString(), 'whole seconds from 0 to 1 hour');
    }
    if (oldestRequestAgeThreshold && !oldestRequestAgeThreshold.isUnresolved()) {
      v.check(oldestRequestAgeThreshold.toSeconds({ integral: false }) > 0, 'alarms.oldestRequestAgeThreshold',
        oldestRequestAgeThreshold.toHumanString(), 'a duration > 0');
    }
    const inclusions = props.notifications?.includeInferenceResponseIn ?? [];
    v.check(new Set(inclusions).size === inclusions.length, 'notifications.includeInferenceResponseIn', inclusions, 'each topic at most once');
    if (props.autoScaling) validateBacklogScaling(v, props.autoScaling);
    const network = bindEndpointNetwork(this, v, props);
    this.networkConnections = network.connections;
    validateEndpointUpdate(v, props);
    v.throwIfInvalid();

    const mc = this.maxConcurrentInvocationsPerInstance;
    if (!Token.isUnresolved(mc) && (mc < range.min || mc > range.max)) {
      Annotations.of(this).addWarningV2('cdk-sagemaker-mcp:asyncConcurrencyOutsideWorkload',
        `invocation.maxConcurrentInvocationsPerInstance: got ${mc}, expected ${range.min}-${range.max} for a ${range.label} workload `
        + `(${this.workload}); set 'invocation.workload' if the instances do something else.`);
    }

    // -- encryption, role, storage, topics
    this.key = props.encryptionKey ?? createKey(this, 'Key', `Async inference data of ${this.node.path}`);
    this.encryptionKey = this.key;
    this.role = props.role ?? createExecutionRole(this, 'Role', `Runs the model of async endpoint ${this.node.path}`);
    this.ioBucket = storage.bucket ?? this.createBucket(storage.serverAccessLogsBucket);
    this.bucket = this.ioBucket;
    this.addLifecycleRules(storage, outputExpiration);

    this.successTopic = new sns.Topic(this, 'SuccessTopic', { masterKey: this.key, enforceSSL: true });
    this.errorTopic = new sns.Topic(this, 'ErrorTopic', { masterKey: this.key, enforceSSL: true });
    const ioPolicy = this.grantEndpointRole();

    // -- model, config, endpoint
    // What the model needs goes inline on the created role (createExecutionRole); a given role gets its DefaultPolicy.
    const { modelName, model } = bindModelInNetwork(this, 'Model', `AsyncEndpoint '${this.node.id}'`, props.model,
      { role: this.role, instanceType: primaryInstanceType(props), network });
    this.cfnModel = model;
    // A pool's own model, bound for the pool's instance type.
    const poolModelNames = (props.instancePools ?? []).map((p, i) => (p.model
      ? bindModelInNetwork(new Construct(this, `Pool${i + 1}Model`), 'Resource', `AsyncEndpoint '${this.node.id}'`, p.model,
        { role: this.role, instanceType: p.instanceType, network }).modelName
      : undefined));
    const s3Url = (prefix: string) => `s3://${this.ioBucket.bucketName}/${prefix.replace(/\/$/, '')}`;
    this.cfnEndpointConfig = new sagemaker.CfnEndpointConfig(this, 'EndpointConfig', {
      productionVariants: [renderProductionVariant(this.variantName, modelName, props, poolModelNames)],
      kmsKeyId: endpointConfigKmsKeyId(this.key, instanceTypes),
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
    // replaces the endpoint (see src/private/autoscaled-updates.ts); a fixed name gets AWS's two-step procedure instead.
    applyMetricsConfig(this.cfnEndpointConfig, props.metricsConfig);
    const scaled = (): ScaledVariant[] => this.scaling ? [{ variantName: this.variantName, instanceTypes }] : [];
    addValidationHook(this, () => {
      kmsKeyWarnings(this, this.key, props.encryptionKey !== undefined, instanceTypes);
      warnOnInstancePools(this, '', props);
      autoscaledVariantUpdateWarning(this, scaled(), props.endpointName !== undefined);
      return [];
    });

    this.cfnEndpoint = new sagemaker.CfnEndpoint(this, 'Resource', {
      // Lazy: autoScaleInstanceCount may be called after the constructor.
      endpointName: props.endpointName ?? Lazy.string({
        produce: () => (this.scaling
          ? scaledEndpointName(this, Names.uniqueResourceName(this, { maxLength: 54, separator: '-' }), scaled())
          : undefined),
      }),
      endpointConfigName: this.cfnEndpointConfig.attrEndpointConfigName,
    });
    // Deployment guardrails apply to async endpoints too (https://docs.aws.amazon.com/sagemaker/latest/dg/deployment-guardrails.html).
    // Rollback alarms on this endpoint's metrics must name it literally (`endpointName`): see Rollout's cycle check.
    // A rollout grants the model's role cloudwatch:DescribeAlarms on its alarms: inline too on the created role.
    const render = (): EndpointUpdateProps => renderEndpointUpdate(props, this.scaling !== undefined, {
      scope: this,
      subject: `AsyncEndpoint '${id}'`,
      variantCount: 1,
      instanceCount: props.initialInstanceCount ?? 1,
      instanceTypes: instanceTypes.map((t) => t.name),
      endpoint: this.cfnEndpoint,
      executionRole: this.role,
    });
    // Rendered by the app's validation at the latest, before any template is written: the rollout's grant to the role
    // must exist when the role's policy renders, whichever resource the synth reaches first (realtime does the same);
    // the rollout's checks fail in that validation, which names this construct.
    const rendered = new RenderedAtValidation(this, render);
    const update = () => rendered.valueOrUndefined();
    this.cfnEndpoint.deploymentConfig = Lazy.any({ produce: () => update()?.deploymentConfig });
    this.cfnEndpoint.retainAllVariantProperties = Lazy.any({ produce: () => update()?.retainAllVariantProperties });
    this.cfnEndpoint.excludeRetainedVariantProperties = Lazy.any({ produce: () => update()?.excludeRetainedVariantProperties });
    this.cfnEndpoint.retainDeploymentConfig = Lazy.any({ produce: () => update()?.retainDeploymentConfig });
    // SageMaker checks the role's access to the topics and bucket when the endpoint is created.
    this.cfnEndpoint.node.addDependency(this.role, ioPolicy);
    this.endpointName = this.cfnEndpoint.attrEndpointName;
    this.endpointArn = props.endpointName !== undefined && !Token.isUnresolved(props.endpointName)
      ? endpointArnForName(this, props.endpointName)
      : this.cfnEndpoint.attrEndpointArn;

    // -- results without polling
    if (recordResults) {
      const pipeline = new AsyncResults(this, 'Results', {
        successTopic: this.successTopic,
        errorTopic: this.errorTopic,
        encryptionKey: this.key,
        retention: resultRetention,
        maxEventTimeSkew: results.maxEventTimeSkew ?? Duration.seconds(DEFAULT_MAX_EVENT_TIME_SKEW_SECONDS),
        maxReceiveCount: 5,
        logRetention: props.logRetention,
        alarmActions: props.alarmActions,
        network: { vpc: props.vpc, vpcSubnets: props.vpcSubnets },
      });
      this.jobTable = pipeline.table;
      this.resultQueue = pipeline.queue;
      this.resultDeadLetterQueue = pipeline.deadLetterQueue;
      this.resultRecorder = pipeline.recorder;
      this.resultDeadLetterAlarm = pipeline.deadLetterAlarm;
    }

    // -- scaling and alarms
    if (props.autoScaling) this.autoScaleInstanceCount(props.autoScaling);
    if (oldestRequestAgeThreshold) {
      this.oldestRequestAgeAlarm = new cloudwatch.Alarm(this, 'OldestRequestAgeAlarm', {
        alarmDescription: `The oldest queued request of ${this.node.path} is older than ${oldestRequestAgeThreshold.toHumanString()}`,
        metric: this.metricApproximateAgeOfOldestRequest({ period: Duration.minutes(1) }),
        threshold: oldestRequestAgeThreshold.toSeconds(),
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
      noAccessLogsReason: 'Transient async-inference job data that lifecycle rules expire; pass storage.serverAccessLogsBucket to enable access logs, '
        + 'or audit requests with CloudTrail S3 data events.',
    });
  }

  private addLifecycleRules(storage: AsyncStorageOptions, outputExpiration: Duration): void {
    if (!(this.ioBucket instanceof s3.Bucket)) return;
    const rules: Array<[string, string, Duration]> = [
      ['ExpireInputs', this.inputPrefix, storage.inputExpiration ?? DEFAULT_EXPIRATION.input],
      ['ExpireOutputs', this.outputPrefix, outputExpiration],
      ['ExpireFailures', this.failurePrefix, storage.failureExpiration ?? DEFAULT_EXPIRATION.failure],
    ];
    for (const [id, prefix, expiration] of rules) {
      this.ioBucket.addLifecycleRule({ id: `${this.node.id}${id}`, prefix, expiration, abortIncompleteMultipartUploadAfter: Duration.days(1) });
    }
  }

  /** The endpoint's own needs: read inputs, write outputs/failures (encrypted with our key), publish both topics. */
  private grantEndpointRole(): iam.Policy {
    const role = this.role;
    // A policy of its own (not the role's default one) so that its cdk-nag acknowledgements carry async-specific reasons.
    const policy = new iam.Policy(this, 'AsyncIoPolicy', {
      roles: [role],
      statements: [
        new iam.PolicyStatement({ actions: [IAM_ACTION.s3.GetObject], resources: [this.ioBucket.arnForObjects(`${this.inputPrefix}*`)] }),
        new iam.PolicyStatement({
          actions: [IAM_ACTION.s3.PutObject, IAM_ACTION.s3.AbortMultipartUpload],
          resources: [this.ioBucket.arnForObjects(`${this.outputPrefix}*`), this.ioBucket.arnForObjects(`${this.failurePrefix}*`)],
        }),
        new iam.PolicyStatement({ actions: [IAM_ACTION.sns.Publish], resources: [this.successTopic.topicArn, this.errorTopic.topicArn] }),
      ],
    });
    const keyArns = [...new Set([this.key, this.ioBucket.encryptionKey].filter((k): k is kms.IKey => k !== undefined))].map((k) => k.keyArn);
    // Decrypt: inputs (and topic data keys); GenerateDataKey: outputs, failures and SNS messages under SSE.
    policy.addStatements(new iam.PolicyStatement({ actions: [IAM_ACTION.kms.Decrypt, IAM_ACTION.kms.GenerateDataKey], resources: keyArns }));
    acknowledgePolicyWildcards(policy, [
      { action: /^s3:GetObject$/, reason: 'Reads only the objects under the endpoint\'s own input prefix.' },
      { action: /^s3:(PutObject|AbortMultipartUpload)$/, reason: 'Writes only under the endpoint\'s own output and failure prefixes (S3OutputPath, S3FailurePath).' },
    ]);
    return policy;
  }

  /**
   * Scales the variant's instance count on `ApproximateBacklogSizePerInstance` (target tracking with the seed's
   * cooldowns); with a minimum capacity of 0 also AWS's scale-from-zero step policy on `HasBacklogWithoutCapacity`
   * (https://docs.aws.amazon.com/sagemaker/latest/dg/async-inference-autoscale.html). The auto scaling prop calls it.
   * Once per endpoint: a second call throws.
   *
   * @returns the variant's scalable instance count, to add more policies to
   */
  public autoScaleInstanceCount(props: AsyncAutoScalingOptions = {}): ScalableInstanceCount {
    const v = new PropValidator(`AsyncEndpoint '${this.node.path}' autoScaleInstanceCount`);
    if (this.scaling) v.add(secondScalingCall('autoScaleInstanceCount', `variant '${this.variantName}'`));
    validateBacklogScaling(v, props);
    v.throwIfInvalid();
    this.scaling = addBacklogScaling(this, props, {
      endpointName: this.endpointName,
      variantName: this.variantName,
      endpoint: this.cfnEndpoint,
      hasBacklogWithoutCapacity: this.metricHasBacklogWithoutCapacity(),
    });
    return this.scaling.capacity;
  }

  /**
   * The variant's scalable instance count, if autoscaling (the method or the prop) registered it: for the
   * library's own dashboard, which draws its range.
   * @internal
   */
  public get _scaledInstanceCount(): ScalableInstanceCount | undefined {
    return this.scaling?.capacity;
  }

  /**
   * The instance types of the variant's pools, highest priority first (none without pools): for the library's own
   * dashboard, which draws the instances of each.
   * @internal
   */
  public _poolInstanceTypes(): string[] {
    return this.hasPools ? this.variantInstances.instanceTypes : [];
  }

  /**
   * The scale-from-zero alarm (`HasBacklogWithoutCapacity`).
   *
   * @returns no value unless the instance count scales with a minimum capacity of 0
   */
  public get scaleFromZeroAlarm(): cloudwatch.Alarm | undefined {
    return this.scaling?.scaleFromZeroAlarm;
  }

  /**
   * What the endpoint costs per hour and per month (730 h) at its fewest and most instances (its autoscaling range,
   * whose floor is 0 when it scales to zero, or the initial instance count when it is not autoscaled), from the bundled
   * on-demand price table: an estimate, not a bill (S3, SNS, SQS and Lambda are not counted). A price the table lacks
   * gives an estimate whose price is not known and a summary saying how to give it.
   */
  public costEstimate(options?: CostEstimateOptions): EndpointCostEstimate {
    const { instanceTypes, initialInstanceCount } = this.variantInstances;
    return estimateVariants(`AsyncEndpoint '${this.node.id}' costEstimate`, this.stack.region, [{
      instanceTypes,
      minInstances: this.scaling?.capacity.minCapacity ?? initialInstanceCount,
      maxInstances: this.scaling?.capacity.maxCapacity ?? initialInstanceCount,
    }], options);
  }
}

/** What an import of an async endpoint may know: all of `AsyncEndpointAttributes` by attributes, a name or ARN otherwise. */
interface AsyncImport extends Partial<Omit<AsyncEndpointAttributes, 'endpointName'>> {
  readonly endpointName?: string;
  readonly endpointArn?: string;
}

/** An imported async endpoint: grants and metrics; the bucket-bound members need `bucket` (AsyncEndpointBase). */
function importAsyncEndpoint(scope: Construct, id: string, attrs: AsyncImport): IAsyncEndpoint {
  const { endpointName, endpointArn } = importedEndpointIdentity(scope, id, attrs);
  class Import extends AsyncEndpointBase {
    public readonly endpointName = endpointName;
    public readonly endpointArn = endpointArn;
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
