/**
 * What every SageMaker endpoint construct shares (realtime, async, shared-GPU). STABLE API for the capability folders:
 *
 * Public (jsii, exported from src/core/index.ts):
 * - `ISageMakerEndpoint`: `endpointName`, `endpointArn` (lowercase), `grant(grantee, ...actions)`, `grantInvoke(grantee)`,
 *   `metric(name, props?)` (namespace AWS/SageMaker), `metricInstance(name, props?)` (/aws/sagemaker/Endpoints),
 *   `metricInvocations`, `metricInvocationsPerInstance`, `metricModelLatency`, `metricOverheadLatency`,
 *   `metricInvocation4XXErrors`, `metricInvocation5XXErrors`, `metricCpuUtilization`, `metricGpuUtilization`,
 *   `metricMemoryUtilization`, `metricGpuMemoryUtilization`, `metricDiskUtilization`.
 * - `SageMakerEndpointBase`: abstract `Resource` implementing all of the above. Subclasses set `endpointName`,
 *   `endpointArn` (use `attrEndpointArn` of the CfnEndpoint: SageMaker returns it lowercase) and `defaultVariantName`.
 * - `SageMakerEndpointAttributes` + `SageMakerEndpointBase.fromSageMakerEndpointAttributes(scope, id, attrs)`: imports.
 * - `EndpointMetricOptions` (MetricOptions + `variantName`), `ProductionVariantOptions` (instance type, count, weight,
 *   volume size, timeouts), `VariantAutoScalingProps` (target tracking defaults 70 / out 60 s / in 300 s / min 1 / max 8).
 *
 * Internal helpers (plain functions, ignored by jsii; import them from this file):
 * - `endpointArnForName(scope, name)`: the lowercase ARN for a name.
 * - `validateProductionVariant(v, prefix, variantName, opts)` / `renderProductionVariant(variantName, modelName, opts)`.
 * - `hasNvmeInstanceStorage(instanceType)`, `endpointConfigKmsKeyId(key, instanceTypes)` (no key when any variant has NVMe
 *   instance storage), `kmsKeyWarnings(scope, key, instanceTypes, variantNames?)` (warns whenever a variant has NVMe
 *   storage, with or without a key).
 * - `validateVariantAutoScaling(v, prefix, props, { minCapacityFloor, zeroReason })`, `addVariantScalableTarget(...)`,
 *   `addTargetTrackingPolicy(...)`, `warnOnCooldowns(...)`, `VARIANT_SCALING_DEFAULTS`.
 * - Instance type changes of autoscaled variants: see `./autoscaled-updates.ts`.
 * - `acknowledgeModelRoleWildcards(role)`: acknowledges the cdk-nag IAM5 findings a model role needs (GetAuthorizationToken,
 *   PutMetricData, SageMaker log groups, grantRead/grantPut action groups), each with its reason; nothing else. Call it
 *   where the role is created (with `createExecutionRole`). The mechanism is `src/core/nag.ts`.
 */
import { Annotations, ArnFormat, Duration, IResource, Resource, Size, SizeRoundingBehavior, Stack, Token } from 'aws-cdk-lib';
import * as appscaling from 'aws-cdk-lib/aws-applicationautoscaling';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import { Construct, IConstruct } from 'constructs';
import { iamActionsFor } from './iam-actions';
import { hasLocalNvmeStorage } from './instance-specs';
import { InstanceType } from './instance-type';
import { acknowledgePolicyWildcardFindings, WildcardReason } from './nag';
import { PropValidator, SAGEMAKER_NAME_EXPECTED, SAGEMAKER_NAME_PATTERN } from './validation';

/** The variant name SageMaker's tools use for a single-variant endpoint; the default of every endpoint here. */
export const DEFAULT_VARIANT_NAME = 'AllTraffic';

/** Options of an endpoint metric. */
export interface EndpointMetricOptions extends cloudwatch.MetricOptions {
  /**
   * The production variant the metric is for (SageMaker publishes endpoint metrics per variant).
   *
   * @default - the endpoint's default variant (its first variant; `AllTraffic` for an imported endpoint unless its
   * attributes name another)
   */
  readonly variantName?: string;
}

/** A SageMaker endpoint: created by this library or imported. */
export interface ISageMakerEndpoint extends IResource {
  /**
   * The endpoint's name, exactly as created (case preserved: CloudWatch dimensions and the runtime API use it).
   *
   * @attribute
   */
  readonly endpointName: string;

  /**
   * The endpoint's ARN. SageMaker endpoint ARNs are lowercase, whatever the case of the name; IAM policies must use
   * this form.
   *
   * @attribute
   */
  readonly endpointArn: string;

  /** Grants `actions` on this endpoint's ARN only. */
  grant(grantee: iam.IGrantable, ...actions: string[]): iam.Grant;

  /**
   * Grants `sagemaker:InvokeEndpoint` and `sagemaker:InvokeEndpointWithResponseStream` (streaming is an IAM action of
   * its own) on this endpoint.
   */
  grantInvoke(grantee: iam.IGrantable): iam.Grant;

  /** A metric of this endpoint in namespace `AWS/SageMaker`, dimensions EndpointName and VariantName. */
  metric(metricName: string, props?: EndpointMetricOptions): cloudwatch.Metric;

  /** An instance metric of this endpoint in namespace `/aws/sagemaker/Endpoints`, dimensions EndpointName and VariantName. */
  metricInstance(metricName: string, props?: EndpointMetricOptions): cloudwatch.Metric;

  /**
   * Requests sent to the variant (`Invocations`).
   *
   * @default - Sum over 5 minutes
   */
  metricInvocations(props?: EndpointMetricOptions): cloudwatch.Metric;

  /**
   * Requests per instance of the variant (`InvocationsPerInstance`), the metric target tracking scales on.
   *
   * @default - Sum over 5 minutes
   */
  metricInvocationsPerInstance(props?: EndpointMetricOptions): cloudwatch.Metric;

  /**
   * Time the model took to respond, in microseconds (`ModelLatency`).
   *
   * @default - Average over 5 minutes
   */
  metricModelLatency(props?: EndpointMetricOptions): cloudwatch.Metric;

  /**
   * Time SageMaker added on top of the model, in microseconds (`OverheadLatency`).
   *
   * @default - Average over 5 minutes
   */
  metricOverheadLatency(props?: EndpointMetricOptions): cloudwatch.Metric;

  /**
   * Requests answered with a 4xx status (`Invocation4XXErrors`).
   *
   * @default - Sum over 5 minutes
   */
  metricInvocation4XXErrors(props?: EndpointMetricOptions): cloudwatch.Metric;

  /**
   * Requests answered with a 5xx status (`Invocation5XXErrors`).
   *
   * @default - Sum over 5 minutes
   */
  metricInvocation5XXErrors(props?: EndpointMetricOptions): cloudwatch.Metric;

  /**
   * CPU utilization of the variant's instances, in percent summed over cores (`CPUUtilization`).
   *
   * @default - Average over 5 minutes
   */
  metricCpuUtilization(props?: EndpointMetricOptions): cloudwatch.Metric;

  /**
   * GPU utilization of the variant's instances, in percent summed over GPUs (`GPUUtilization`).
   *
   * @default - Average over 5 minutes
   */
  metricGpuUtilization(props?: EndpointMetricOptions): cloudwatch.Metric;

  /**
   * Memory utilization of the variant's instances, in percent (`MemoryUtilization`).
   *
   * @default - Average over 5 minutes
   */
  metricMemoryUtilization(props?: EndpointMetricOptions): cloudwatch.Metric;

  /**
   * GPU memory utilization of the variant's instances, in percent summed over GPUs (`GPUMemoryUtilization`).
   *
   * @default - Average over 5 minutes
   */
  metricGpuMemoryUtilization(props?: EndpointMetricOptions): cloudwatch.Metric;

  /**
   * Disk utilization of the variant's instances, in percent (`DiskUtilization`).
   *
   * @default - Average over 5 minutes
   */
  metricDiskUtilization(props?: EndpointMetricOptions): cloudwatch.Metric;
}

/** What identifies an existing endpoint. Give its name (preferred: metrics need the exact case) or its ARN. */
export interface SageMakerEndpointAttributes {
  /**
   * The endpoint's name, in its exact case.
   *
   * @default - parsed from `endpointArn` (lowercase: metrics of a mixed-case name will not match, give the name then)
   */
  readonly endpointName?: string;
  /**
   * The endpoint's ARN.
   *
   * @default - built from `endpointName`, lowercased
   */
  readonly endpointArn?: string;
  /**
   * The variant that metrics default to.
   *
   * @default 'AllTraffic'
   */
  readonly defaultVariantName?: string;
}

/**
 * The base of every endpoint construct in this library: grants scoped to the endpoint's (lowercase) ARN, and metrics.
 */
export abstract class SageMakerEndpointBase extends Resource implements ISageMakerEndpoint {
  /**
   * Imports an endpoint by name and/or ARN. Capability constructs expose this as `fromEndpointName`/`fromEndpointArn`.
   */
  public static fromSageMakerEndpointAttributes(scope: Construct, id: string, attrs: SageMakerEndpointAttributes): ISageMakerEndpoint {
    const v = new PropValidator(`imported endpoint '${id}'`);
    v.check(attrs.endpointName !== undefined || attrs.endpointArn !== undefined, 'endpointName/endpointArn', undefined,
      'at least one of endpointName or endpointArn');
    v.pattern('endpointName', attrs.endpointName, SAGEMAKER_NAME_PATTERN, SAGEMAKER_NAME_EXPECTED, 63);
    let nameFromArn: string | undefined;
    if (attrs.endpointArn !== undefined && !Token.isUnresolved(attrs.endpointArn)) {
      const m = /^arn:aws[a-z-]*:sagemaker:[a-z0-9-]+:\d{12}:endpoint\/([a-zA-Z0-9-]{1,63})$/.exec(attrs.endpointArn);
      v.check(m !== null, 'endpointArn', attrs.endpointArn, 'an endpoint ARN such as arn:aws:sagemaker:us-east-1:123456789012:endpoint/my-endpoint');
      nameFromArn = m?.[1];
    }
    v.throwIfInvalid();

    const endpointName = attrs.endpointName
      ?? nameFromArn
      ?? Stack.of(scope).splitArn(attrs.endpointArn!, ArnFormat.SLASH_RESOURCE_NAME).resourceName!;
    const endpointArn = attrs.endpointArn !== undefined
      ? lowercaseEndpointArn(attrs.endpointArn)
      : endpointArnForName(scope, endpointName);
    return new ImportedEndpoint(scope, id, endpointName, endpointArn, attrs.defaultVariantName ?? DEFAULT_VARIANT_NAME);
  }

  public abstract readonly endpointName: string;
  public abstract readonly endpointArn: string;
  /** The variant that metrics default to when `variantName` is not given. */
  protected abstract readonly defaultVariantName: string;

  /**
   * Grants `actions` on this endpoint's ARN only (never `*`).
   */
  public grant(grantee: iam.IGrantable, ...actions: string[]): iam.Grant {
    return iam.Grant.addToPrincipal({ grantee, actions, resourceArns: [this.endpointArn] });
  }

  /**
   * Grants `sagemaker:InvokeEndpoint` and `sagemaker:InvokeEndpointWithResponseStream` on this endpoint's ARN: the
   * runtime's `invokeEndpoint` and `invokeEndpointStream`. Streaming is an IAM action of its own in the Service
   * Authorization Reference (https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonsagemaker.html).
   */
  public grantInvoke(grantee: iam.IGrantable): iam.Grant {
    return this.grant(grantee, ...iamActionsFor('SageMakerRuntime.InvokeEndpoint', 'SageMakerRuntime.InvokeEndpointWithResponseStream'));
  }

  public metric(metricName: string, props: EndpointMetricOptions = {}): cloudwatch.Metric {
    return this.variantMetric('AWS/SageMaker', metricName, props);
  }

  public metricInstance(metricName: string, props: EndpointMetricOptions = {}): cloudwatch.Metric {
    return this.variantMetric('/aws/sagemaker/Endpoints', metricName, props);
  }

  public metricInvocations(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metric('Invocations', { statistic: 'Sum', ...props });
  }

  public metricInvocationsPerInstance(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metric('InvocationsPerInstance', { statistic: 'Sum', ...props });
  }

  public metricModelLatency(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metric('ModelLatency', { statistic: 'Average', ...props });
  }

  public metricOverheadLatency(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metric('OverheadLatency', { statistic: 'Average', ...props });
  }

  public metricInvocation4XXErrors(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metric('Invocation4XXErrors', { statistic: 'Sum', ...props });
  }

  public metricInvocation5XXErrors(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metric('Invocation5XXErrors', { statistic: 'Sum', ...props });
  }

  public metricCpuUtilization(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metricInstance('CPUUtilization', { statistic: 'Average', ...props });
  }

  public metricGpuUtilization(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metricInstance('GPUUtilization', { statistic: 'Average', ...props });
  }

  public metricMemoryUtilization(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metricInstance('MemoryUtilization', { statistic: 'Average', ...props });
  }

  public metricGpuMemoryUtilization(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metricInstance('GPUMemoryUtilization', { statistic: 'Average', ...props });
  }

  public metricDiskUtilization(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metricInstance('DiskUtilization', { statistic: 'Average', ...props });
  }

  private variantMetric(namespace: string, metricName: string, props: EndpointMetricOptions): cloudwatch.Metric {
    const { variantName, ...options } = props;
    return new cloudwatch.Metric({
      namespace,
      metricName,
      dimensionsMap: { EndpointName: this.endpointName, VariantName: variantName ?? this.defaultVariantName },
      ...options,
    });
  }
}

class ImportedEndpoint extends SageMakerEndpointBase {
  constructor(
    scope: Construct,
    id: string,
    public readonly endpointName: string,
    public readonly endpointArn: string,
    protected readonly defaultVariantName: string,
  ) {
    super(scope, id);
  }
}

/**
 * The ARN of an endpoint by name, lowercased as SageMaker writes it (a mixed-case ARN in a policy fails with
 * AccessDenied). A token name cannot be lowercased at synth time: pass an already-lowercase name or the endpoint's ARN.
 */
export function endpointArnForName(scope: Construct, endpointName: string): string {
  const name = Token.isUnresolved(endpointName) ? endpointName : endpointName.toLowerCase();
  return Stack.of(scope).formatArn({ service: 'sagemaker', resource: 'endpoint', resourceName: name });
}

/** Lowercases the resource part of a literal endpoint ARN; tokens pass unchanged. */
export function lowercaseEndpointArn(arn: string): string {
  if (Token.isUnresolved(arn)) return arn;
  const i = arn.indexOf(':endpoint/');
  return i < 0 ? arn : arn.slice(0, i) + arn.slice(i).toLowerCase();
}

// ---------------------------------------------------------------------------------------------------------------------
// Production variants

/** The instance settings of a production variant (shared by realtime and async endpoints). */
export interface ProductionVariantOptions {
  /** The instance type, e.g. `InstanceType.ML_G5_2XLARGE`. */
  readonly instanceType: InstanceType;
  /**
   * Instances the variant starts with (autoscaling, when enabled, takes over from there).
   *
   * @default 1
   */
  readonly initialInstanceCount?: number;
  /**
   * The variant's share of traffic relative to the other variants' weights.
   *
   * @default 1
   */
  readonly initialVariantWeight?: number;
  /**
   * The size of the EBS volume attached to each instance (1-512 GB). Instance types with NVMe instance storage (g5, p4d,
   * ...) have no such volume.
   *
   * @default - SageMaker's default for the instance type
   */
  readonly volumeSize?: Size;
  /**
   * How long SageMaker may take to download the model artifacts to an instance (60-3600 s).
   *
   * @default - SageMaker's default (large models need more)
   */
  readonly modelDataDownloadTimeout?: Duration;
  /**
   * How long the container may take to pass its first health check (60-3600 s).
   *
   * @default - SageMaker's default (large models need more)
   */
  readonly containerStartupHealthCheckTimeout?: Duration;
}

/** Records every problem with a variant's settings on `v`; `prefix` locates the variant in messages. */
export function validateProductionVariant(v: PropValidator, prefix: string, variantName: string, opts: ProductionVariantOptions): void {
  v.pattern(`${prefix}variantName`, variantName, SAGEMAKER_NAME_PATTERN, SAGEMAKER_NAME_EXPECTED, 63);
  v.atLeast(`${prefix}initialInstanceCount`, opts.initialInstanceCount, 1);
  v.atLeast(`${prefix}initialVariantWeight`, opts.initialVariantWeight, 0, { integer: false });
  v.range(`${prefix}volumeSize`, sizeInGb(opts.volumeSize), 1, 512, { unit: 'GB' });
  v.range(`${prefix}modelDataDownloadTimeout`, seconds(opts.modelDataDownloadTimeout), 60, 3600, { unit: 'seconds' });
  v.range(`${prefix}containerStartupHealthCheckTimeout`, seconds(opts.containerStartupHealthCheckTimeout), 60, 3600, { unit: 'seconds' });
}

/** The CloudFormation ProductionVariant. `modelName` is omitted for inference-component endpoints. */
export function renderProductionVariant(
  variantName: string,
  modelName: string | undefined,
  opts: ProductionVariantOptions,
): sagemaker.CfnEndpointConfig.ProductionVariantProperty {
  return {
    variantName,
    modelName,
    instanceType: opts.instanceType.name,
    initialInstanceCount: opts.initialInstanceCount ?? 1,
    initialVariantWeight: opts.initialVariantWeight ?? 1,
    volumeSizeInGb: sizeInGb(opts.volumeSize),
    modelDataDownloadTimeoutInSeconds: seconds(opts.modelDataDownloadTimeout),
    containerStartupHealthCheckTimeoutInSeconds: seconds(opts.containerStartupHealthCheckTimeout),
  };
}

function sizeInGb(size: Size | undefined): number | undefined {
  // NONE keeps fractions so that validation reports them with the prop's name (FAIL would throw a generic error).
  return size === undefined ? undefined : size.toGibibytes({ rounding: SizeRoundingBehavior.NONE });
}

function seconds(d: Duration | undefined): number | undefined {
  return d === undefined ? undefined : d.toSeconds({ integral: false });
}

// ---------------------------------------------------------------------------------------------------------------------
// KMS key of the endpoint config

export function hasNvmeInstanceStorage(instanceType: InstanceType): boolean {
  return !instanceType.isUnresolved && hasLocalNvmeStorage(instanceType.name);
}

/**
 * The endpoint config's `KmsKeyId`: the key's ARN, or nothing when ANY variant runs on NVMe instance storage (the API
 * then refuses a key; see `kmsKeyWarnings` for the warning that goes with it).
 */
export function endpointConfigKmsKeyId(key: kms.IKey | undefined, instanceTypes: InstanceType[]): string | undefined {
  if (!key) return undefined;
  if (instanceTypes.some(hasNvmeInstanceStorage)) return undefined;
  return key.keyArn;
}

/**
 * Warns whenever a variant uses NVMe instance storage, so the endpoint config carries no KMS key: `key` (given or
 * created) is left off, or there is none at all. `variantNames` (parallel to `instanceTypes`) name the variants in the
 * message. Call it from a validation hook.
 */
export function kmsKeyWarnings(scope: IConstruct, key: kms.IKey | undefined, instanceTypes: InstanceType[], variantNames: string[] = []): void {
  const describe = (i: number) => (variantNames[i] !== undefined ? `${variantNames[i]} (${instanceTypes[i].name})` : instanceTypes[i].name);
  const nvme = instanceTypes.map((t, i) => (hasNvmeInstanceStorage(t) ? describe(i) : undefined)).filter((d): d is string => d !== undefined);
  if (nvme.length === 0) return;
  const ebs = instanceTypes.map((t, i) => (hasNvmeInstanceStorage(t) ? undefined : describe(i))).filter((d): d is string => d !== undefined);
  const noun = variantNames.length > 0 ? 'variant' : 'instance type';
  const what = key ? 'left off the endpoint config' : 'none on the endpoint config (no KmsKeyId)';
  const because = `encryptionKey: ${what} because ${noun}${nvme.length === 1 ? '' : 's'} ${nvme.join(', ')} `
    + `${nvme.length === 1 ? 'uses' : 'use'} NVMe instance storage, which a hardware module on the instance encrypts `
    + '(CreateEndpointConfig fails with a KmsKeyId when any variant has such storage)';
  if (ebs.length === 0) {
    Annotations.of(scope).addWarningV2('cdk-sagemaker-mcp:kmsKeyNvme', `${because}.`);
  } else {
    Annotations.of(scope).addWarningV2('cdk-sagemaker-mcp:kmsKeyMixedNvme',
      `${because}; the EBS volumes of ${ebs.join(', ')} therefore use an AWS-managed key. `
      + 'Put the EBS-backed variants on an endpoint of their own to encrypt them with a customer-managed key.');
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// Application Auto Scaling of a variant (ResourceId endpoint/<name>/variant/<variant>, FACTS §3)

/** Target tracking on a production variant's instance count. */
export interface VariantAutoScalingProps {
  /**
   * The fewest instances. Realtime endpoints keep at least one: only async and inference-component endpoints scale to zero.
   *
   * @default 1
   */
  readonly minCapacity?: number;
  /**
   * The most instances.
   *
   * @default 8
   */
  readonly maxCapacity?: number;
  /**
   * Target of `SageMakerVariantInvocationsPerInstance`: invocations per instance per minute.
   *
   * @default 70
   */
  readonly targetInvocationsPerInstance?: number;
  /**
   * Wait after a scale-out before another. Keep it shorter than `scaleInCooldown`: bursts need capacity fast.
   *
   * @default Duration.seconds(60)
   */
  readonly scaleOutCooldown?: Duration;
  /**
   * Wait after a scale-in before another. Longer than scale-out, because a new instance takes minutes to load the model.
   *
   * @default Duration.seconds(300)
   */
  readonly scaleInCooldown?: Duration;
  /**
   * Also track `SageMakerVariantConcurrentRequestsPerModelHighResolution` (10-second metrics, faster reaction to bursts)
   * at this many concurrent requests per model copy.
   *
   * @default - no concurrency policy
   */
  readonly targetConcurrentRequestsPerModel?: number;
}

/** The defaults of `VariantAutoScalingProps` (the seed's recipe). */
export const VARIANT_SCALING_DEFAULTS = {
  minCapacity: 1,
  maxCapacity: 8,
  targetInvocationsPerInstance: 70,
  scaleOutCooldown: Duration.seconds(60),
  scaleInCooldown: Duration.seconds(300),
} as const;

/** The scalable dimension of an endpoint variant's instance count. */
export const VARIANT_SCALABLE_DIMENSION = 'sagemaker:variant:DesiredInstanceCount';

/**
 * Records every problem with a variant's scaling settings. `minCapacityFloor` is 1 for realtime variants (with
 * `zeroReason` explaining why 0 is refused) and 0 for async variants.
 */
export function validateVariantAutoScaling(
  v: PropValidator,
  prefix: string,
  props: {
    minCapacity?: number;
    maxCapacity?: number;
    targetValues?: Record<string, number | undefined>;
    scaleOutCooldown?: Duration;
    scaleInCooldown?: Duration;
  },
  limits: { minCapacityFloor: number; zeroReason?: string },
): void {
  const min = props.minCapacity ?? (limits.minCapacityFloor === 0 ? 0 : VARIANT_SCALING_DEFAULTS.minCapacity);
  const max = props.maxCapacity ?? VARIANT_SCALING_DEFAULTS.maxCapacity;
  if (limits.minCapacityFloor > 0 && min === 0 && limits.zeroReason) {
    v.check(false, `${prefix}minCapacity`, 0, `at least ${limits.minCapacityFloor}: ${limits.zeroReason}`);
  } else {
    v.atLeast(`${prefix}minCapacity`, props.minCapacity, limits.minCapacityFloor);
  }
  v.atLeast(`${prefix}maxCapacity`, props.maxCapacity, 1);
  if (!Token.isUnresolved(min) && !Token.isUnresolved(max)) {
    v.check(max >= min, `${prefix}maxCapacity`, max, `at least minCapacity (${min})`);
  }
  for (const [name, value] of Object.entries(props.targetValues ?? {})) {
    if (value !== undefined && !Token.isUnresolved(value)) {
      v.check(Number.isFinite(value) && value > 0, `${prefix}${name}`, value, 'a number > 0');
    }
  }
  for (const [name, d] of [['scaleOutCooldown', props.scaleOutCooldown], ['scaleInCooldown', props.scaleInCooldown]] as const) {
    if (d !== undefined && !d.isUnresolved()) {
      v.check(d.toSeconds({ integral: false }) >= 0 && Number.isInteger(d.toSeconds({ integral: false })), `${prefix}${name}`, d.toString(), 'a whole number of seconds >= 0');
    }
  }
}

/**
 * Warns when scale-in is not slower than scale-out: a new instance takes minutes to load the model, so scaling in as
 * fast as out makes the next burst wait for a cold start.
 */
export function warnOnCooldowns(scope: IConstruct, prefix: string, scaleOutCooldown: Duration, scaleInCooldown: Duration): void {
  if (scaleOutCooldown.isUnresolved() || scaleInCooldown.isUnresolved()) return;
  if (scaleOutCooldown.toSeconds() >= scaleInCooldown.toSeconds()) {
    Annotations.of(scope).addWarningV2('cdk-sagemaker-mcp:asymmetricCooldowns',
      `${prefix}scaleOutCooldown (${scaleOutCooldown.toSeconds()} s) is not shorter than ${prefix}scaleInCooldown (${scaleInCooldown.toSeconds()} s); `
      + 'expected scale-out faster than scale-in (e.g. 60 s and 300 s) so that bursts do not wait for a cold start.');
  }
}

/**
 * Where a variant's scalable target points.
 * @jsii ignore
 */
export interface VariantScalableTargetOptions {
  /** The endpoint's name (case preserved), e.g. `CfnEndpoint.attrEndpointName`. */
  readonly endpointName: string;
  readonly variantName: string;
  readonly minCapacity: number;
  readonly maxCapacity: number;
  /** The endpoint resource: the target must be registered after the endpoint exists. */
  readonly endpoint: IConstruct;
}

/**
 * Registers a variant as a scalable target. No RoleARN: Application Auto Scaling uses its service-linked role
 * (AWSServiceRoleForApplicationAutoScaling_SageMakerEndpoint), so no role is created.
 */
export function addVariantScalableTarget(scope: Construct, id: string, opts: VariantScalableTargetOptions): appscaling.CfnScalableTarget {
  const target = new appscaling.CfnScalableTarget(scope, id, {
    serviceNamespace: 'sagemaker',
    resourceId: `endpoint/${opts.endpointName}/variant/${opts.variantName}`,
    scalableDimension: VARIANT_SCALABLE_DIMENSION,
    minCapacity: opts.minCapacity,
    maxCapacity: opts.maxCapacity,
  });
  target.node.addDependency(opts.endpoint);
  return target;
}

/**
 * A target-tracking policy on a scalable target: a predefined metric, or a customized one (async backlog).
 * @jsii ignore
 */
export interface TargetTrackingOptions {
  readonly policyName: string;
  readonly targetValue: number;
  readonly scaleOutCooldown: Duration;
  readonly scaleInCooldown: Duration;
  /** e.g. `SageMakerVariantInvocationsPerInstance`; give this or `customizedMetric`. */
  readonly predefinedMetricType?: string;
  readonly customizedMetric?: appscaling.CfnScalingPolicy.CustomizedMetricSpecificationProperty;
  readonly disableScaleIn?: boolean;
}

export function addTargetTrackingPolicy(
  scope: Construct,
  id: string,
  target: appscaling.CfnScalableTarget,
  opts: TargetTrackingOptions,
): appscaling.CfnScalingPolicy {
  return new appscaling.CfnScalingPolicy(scope, id, {
    policyName: opts.policyName,
    policyType: 'TargetTrackingScaling',
    scalingTargetId: target.ref,
    targetTrackingScalingPolicyConfiguration: {
      targetValue: opts.targetValue,
      predefinedMetricSpecification: opts.predefinedMetricType ? { predefinedMetricType: opts.predefinedMetricType } : undefined,
      customizedMetricSpecification: opts.customizedMetric,
      scaleOutCooldown: opts.scaleOutCooldown.toSeconds(),
      scaleInCooldown: opts.scaleInCooldown.toSeconds(),
      disableScaleIn: opts.disableScaleIn,
    },
  });
}

// ---------------------------------------------------------------------------------------------------------------------
// cdk-nag: the wildcards a model execution role needs, acknowledged with their reasons

/** Reasons for the IAM wildcards that model execution roles need, by the first action of the statement. */
const ROLE_WILDCARD_REASONS: ReadonlyArray<WildcardReason> = [
  { action: /^ecr:GetAuthorizationToken$/, reason: 'ecr:GetAuthorizationToken supports no resource-level permissions; image pulls are scoped to the model repository.' },
  { action: /^cloudwatch:PutMetricData$/, reason: 'cloudwatch:PutMetricData supports no resource-level permissions; a cloudwatch:namespace condition scopes it to SageMaker namespaces.' },
  { action: /^logs:/, reason: 'SageMaker writes to /aws/sagemaker/Endpoints/<endpoint name> log groups; the name may be generated by CloudFormation.' },
  { action: /^s3:(GetObject|GetBucket|List)/, reason: 'Read access to the model artifacts object or prefix only (CDK grantRead action groups).' },
  { action: /^s3:(PutObject|Abort)/, reason: 'Write access under the data-capture prefix only (CDK grantPut action groups).' },
  { action: /^kms:/, reason: 'Encrypt/decrypt with the one key of the model artifacts or captures (CDK grant action groups).' },
];

/**
 * Acknowledges (cdk-nag v3 `AwsSolutions-IAM5[...]` findings) the wildcards of a role this library created for a model:
 * only statements whose first action is in the table above; anything else added to the role is still reported.
 */
export function acknowledgeModelRoleWildcards(role: iam.Role): void {
  acknowledgePolicyWildcardFindings(role,
    () => role.node.tryFindChild('DefaultPolicy')?.node.tryFindChild('Resource') as iam.CfnPolicy | undefined,
    ROLE_WILDCARD_REASONS);
}
