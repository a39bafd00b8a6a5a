import { Duration, Lazy, Names } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import { Construct } from 'constructs';
import { renderDataCapture, validateDataCapture } from './data-capture';
import { addVariantAlarms, validateAlarms } from './private/alarms';
import { DEFAULT_SHADOW_NAME, renderShadow, validateShadow } from './private/shadow';
import { RealtimeEndpointAlarmOptions, RealtimeEndpointAlarms } from './realtime-alarms';
import { IRealtimeEndpoint, RealtimeEndpointProps, RealtimeVariantOptions } from './realtime-endpoint-props';
import { RealtimeAutoScalingOptions, VariantAutoScalingOptions } from './variant-auto-scaling';
import { SageMakerEndpointAttributes, SageMakerEndpointBase } from '../core/endpoint-base';
import { InstanceType } from '../core/instance-type';
import { ModelSource } from '../core/model-source';
import { ProductionVariantOptions } from '../core/production-variant';
import { ScalableInstanceCount } from '../core/scaling/scalable-instance-count';
import { CostEstimateOptions, EndpointCostEstimate } from '../prices/cost-types';
import { estimateVariants } from '../prices/endpoint-estimates';
import { autoscaledVariantUpdateWarning, ScaledVariant, scaledEndpointName } from '../private/autoscaled-updates';
import { createKey } from '../private/encryption';
import { DEFAULT_VARIANT_NAME } from '../private/endpoint-arn';
import { importEndpoint } from '../private/endpoint-import';
import { endpointConfigKmsKeyId, hasNvmeInstanceStorage, kmsKeyWarnings } from '../private/endpoint-kms';
import { EndpointUpdateProps, renderEndpointUpdate, validateEndpointUpdate } from '../private/endpoint-update';
import {
  bindEndpointNetwork, bindModelInNetwork, BoundEndpointNetwork, endpointConnections,
} from '../private/endpoint-vpc';
import { applyMetricsConfig, validateMetricsConfig } from '../private/l1-metrics-config';
import { addExecutionRoleBasics, executionRolePrincipal } from '../private/model';
import { acknowledgeModelRoleWildcards } from '../private/model-role-nag';
import { recordModelImage } from '../private/openai-route';
import {
  primaryInstanceType, renderProductionVariant, validateProductionVariant, variantInstanceTypes, warnOnInstancePools,
} from '../private/render-variant';
import {
  addTargetTracking, createScalableTarget, SCALING_DEFAULTS, secondScalingCall, VARIANT_SCALABLE_DIMENSION, validateScaling, variantResourceId,
  warnOnCooldowns,
} from '../private/scaling-resources';
import { addValidationHook, PropValidator, RenderedAtValidation, SAGEMAKER_NAME_EXPECTED, SAGEMAKER_NAME_PATTERN } from '../private/validation';

const MAX_VARIANTS = 10;
/** The target of `SageMakerVariantInvocationsPerInstance` when none is given (invocations per instance per minute). */
const ZERO_REASON = 'only async and inference-component endpoints scale to zero; a realtime variant keeps at least one instance';

interface Variant {
  readonly name: string;
  readonly options: ProductionVariantOptions;
  readonly modelName: string;
  /** The pools' `ModelNameOverride`s, parallel to `options.instancePools`. */
  readonly poolModelNames: Array<string | undefined>;
}

/**
 * A SageMaker real-time endpoint: model(s), endpoint config with 1-10 weighted production variants, and the endpoint,
 * with a least-privilege execution role, optional data capture, autoscaling per variant, grants and metrics.
 */
export class RealtimeEndpoint extends SageMakerEndpointBase implements IRealtimeEndpoint, ec2.IConnectable {
  /** Imports an endpoint by name (exact case; the ARN is built lowercase). */
  public static fromEndpointName(scope: Construct, id: string, endpointName: string): IRealtimeEndpoint {
    return importEndpoint(scope, id, { endpointName });
  }

  /** Imports an endpoint by ARN (its name is parsed from the ARN, so it is lowercase). */
  public static fromEndpointArn(scope: Construct, id: string, endpointArn: string): IRealtimeEndpoint {
    return importEndpoint(scope, id, { endpointArn });
  }

  /** Imports an endpoint by name and/or ARN, with the variant its metrics default to. */
  public static fromRealtimeEndpointAttributes(scope: Construct, id: string, attrs: SageMakerEndpointAttributes): IRealtimeEndpoint {
    return importEndpoint(scope, id, attrs);
  }

  public readonly endpointName: string;
  /** The endpoint's ARN as SageMaker returns it (lowercase). */
  public readonly endpointArn: string;
  /** The endpoint config's name. */
  public readonly endpointConfigName: string;
  /** The AWS::SageMaker::Endpoint. */
  public readonly cfnEndpoint: sagemaker.CfnEndpoint;
  /** The AWS::SageMaker::EndpointConfig (its production variants render when the app synthesizes). */
  public readonly cfnEndpointConfig: sagemaker.CfnEndpointConfig;
  protected readonly defaultVariantName: string;

  private firstModel?: sagemaker.CfnModel;
  /** The role created for the models; it renders only once a model that needs it is bound (never for existing models). */
  private modelRole?: iam.LazyRole;
  private readonly props: RealtimeEndpointProps;
  private readonly variants: Variant[] = [];
  private readonly scaledVariants = new Map<string, ScalableInstanceCount>();
  private readonly models = new Map<ModelSource, Map<string, { modelName: string; existing: boolean }>>();
  private readonly existingModelVariants = new Set<string>();
  private executionRole?: iam.IRole;
  private readonly key?: kms.IKey;
  private readonly network: BoundEndpointNetwork;
  /** Every alarm `addAlarms` created, and the longest time one needs to fire: the rollout's default rollback alarms. */
  private readonly ownAlarms: cloudwatch.IAlarm[] = [];
  private ownAlarmsTimeToAlarm?: Duration;
  private shadowModelName?: string;
  private readonly update: RenderedAtValidation<EndpointUpdateProps>;

  constructor(scope: Construct, id: string, props: RealtimeEndpointProps) {
    super(scope, id, { physicalName: props.endpointName });
    this.props = props;
    this.defaultVariantName = props.variantName ?? DEFAULT_VARIANT_NAME;

    const v = new PropValidator(`RealtimeEndpoint '${id}'`);
    v.pattern('endpointName', props.endpointName, SAGEMAKER_NAME_PATTERN, SAGEMAKER_NAME_EXPECTED, 63);
    validateProductionVariant(v, '', this.defaultVariantName, props);
    validateMetricsConfig(v, 'metricsConfig.', props.metricsConfig);
    if (props.dataCapture) validateDataCapture(v, props.dataCapture);
    if (props.autoScaling) validateVariantScaling(v, 'autoScaling.', props.autoScaling);
    if (props.alarms) validateAlarms(v, 'alarms.', props.alarms);
    this.network = bindEndpointNetwork(this, v, props);
    validateEndpointUpdate(v, props);
    if (props.shadow) validateShadow(v, props.shadow, this.defaultVariantName, props.initialVariantWeight);
    v.throwIfInvalid();

    this.executionRole = props.role;
    this.addVariantUnchecked(this.defaultVariantName, { ...props, model: props.model });
    this.rejectCaptureWithoutModelRole(this.defaultVariantName);
    if (props.shadow) this.shadowModelName = this.modelFor(props.shadow.model, primaryInstanceType(props.shadow)).modelName;

    // KMS by default: a key when the first variant is EBS-backed, every pool of it (an NVMe first variant rules KmsKeyId
    // out, whatever is added later), or a capture bucket is created.
    const createsCaptureBucket = props.dataCapture !== undefined && props.dataCapture.bucket === undefined;
    const nvme = variantInstanceTypes(props).some(hasNvmeInstanceStorage);
    this.key = props.encryptionKey ?? (!nvme || createsCaptureBucket ? createKey(this, 'Key',
      `Encrypts the ML storage volumes and data captures of SageMaker endpoint ${this.node.path}`) : undefined);

    const config = this.cfnEndpointConfig = new sagemaker.CfnEndpointConfig(this, 'EndpointConfig', {
      productionVariants: Lazy.any({
        produce: () => this.variants.map((x) => renderProductionVariant(x.name, x.modelName, x.options, x.poolModelNames)),
      }),
      shadowProductionVariants: props.shadow
        ? [renderShadow(props.shadow, this.shadowModelName!, props.initialVariantWeight ?? 1)] : undefined,
      kmsKeyId: Lazy.string({ produce: () => endpointConfigKmsKeyId(this.key, this.instanceTypes().map((x) => x.type)) }),
      // Captures are written with the models' role: the created one, or `role` (required when the models already exist).
      dataCaptureConfig: props.dataCapture
        ? renderDataCapture(this, props.dataCapture!, this.executionRole, this.key) : undefined,
    });
    applyMetricsConfig(config, props.metricsConfig);
    this.endpointConfigName = config.attrEndpointConfigName;

    // The rollout's checks (sizes against the instance count, ...) fail in a validation that names this construct.
    this.update = new RenderedAtValidation(this, () => this.renderUpdate());
    const update = () => this.update.valueOrUndefined();
    this.cfnEndpoint = new sagemaker.CfnEndpoint(this, 'Resource', {
      endpointName: props.endpointName ?? Lazy.string({ produce: () => (props.rollout ? this.synthName() : this.scaledName()) }),
      endpointConfigName: config.attrEndpointConfigName,
      deploymentConfig: Lazy.any({ produce: () => update()?.deploymentConfig }),
      retainAllVariantProperties: Lazy.any({ produce: () => update()?.retainAllVariantProperties }),
      excludeRetainedVariantProperties: Lazy.any({ produce: () => update()?.excludeRetainedVariantProperties }),
      retainDeploymentConfig: Lazy.any({ produce: () => update()?.retainDeploymentConfig }),
    });
    // SageMaker checks the role's access to the image, artifacts and capture bucket while creating the endpoint.
    if (this.executionRole) this.cfnEndpoint.node.addDependency(this.executionRole);
    // With a rollout, the name is generated at synth and the metrics use it literally: the endpoint names its rollback
    // alarms (a Ref), so alarms on its metrics must not name it through a GetAtt (a dependency cycle).
    const synthName = Lazy.string({ produce: () => this.synthName() });
    this.endpointName = props.endpointName ?? (props.rollout ? synthName : this.cfnEndpoint.attrEndpointName);
    this.endpointArn = this.cfnEndpoint.attrEndpointArn;

    addValidationHook(this, () => this.validateVariants());

    if (props.autoScaling) this.autoScaleInstanceCount(props.autoScaling);
    if (props.alarms) this.addAlarms(props.alarms);
  }

  /**
   * The AWS::SageMaker::Model of the first variant.
   *
   * @default - no value when the first variant serves an existing model (a `ModelSource` by model name)
   */
  public get cfnModel(): sagemaker.CfnModel | undefined {
    return this.firstModel;
  }

  /**
   * The security groups of the models' network interfaces in the endpoint's VPC (`vpc`): allow the models to reach
   * your resources with `connections.allowTo(...)`. Fails for an endpoint without a VPC.
   */
  public get connections(): ec2.Connections {
    return endpointConnections(`RealtimeEndpoint '${this.node.path}'`, this.network.connections);
  }

  /**
   * The role the endpoint's models run with.
   *
   * @default - no value when every variant serves an existing model (a `ModelSource` by model name) and no role
   * was given
   */
  public get role(): iam.IRole | undefined {
    return this.executionRole;
  }

  /**
   * The customer-managed key of the endpoint's storage volumes and created capture bucket: the one given, or the one created.
   *
   * @default - no value when none was given and the first variant has NVMe instance storage and no capture bucket is created
   */
  public get encryptionKey(): kms.IKey | undefined {
    return this.key;
  }

  /** The names of the production variants, in order. */
  public get variantNames(): string[] {
    return this.variants.map((x) => x.name);
  }

  /**
   * Adds a weighted production variant (up to 10 in all). Traffic splits by the variants' initial weights.
   *
   * @param variantName 1-63 letters, digits or hyphens, unique within the endpoint
   */
  public addVariant(variantName: string, options: RealtimeVariantOptions): void {
    const v = new PropValidator(`RealtimeEndpoint '${this.node.id}' variant '${variantName}'`);
    validateProductionVariant(v, '', variantName, options);
    v.check(!this.variants.some((x) => x.name === variantName), 'variantName', variantName, 'a name not already used by another variant of this endpoint');
    if (options.autoScaling) validateVariantScaling(v, 'autoScaling.', options.autoScaling);
    v.throwIfInvalid();
    this.addVariantUnchecked(variantName, options);
    this.rejectCaptureWithoutModelRole(variantName);
    if (options.autoScaling) this.autoScaleInstanceCount({ ...options.autoScaling, variantName });
  }

  /**
   * Scales a variant's instance count (the default variant unless a variant name is given) with target tracking on
   * `SageMakerVariantInvocationsPerInstance` (and optionally the high-resolution concurrency metric). The scalable target
   * is registered after the endpoint exists, without a role (Application Auto Scaling uses its SageMaker service-linked
   * role). The autoscaling props call it. Once per variant: a second call for the same variant throws.
   *
   * @returns the variant's scalable instance count, to add more policies to
   */
  public autoScaleInstanceCount(props: RealtimeAutoScalingOptions = {}): ScalableInstanceCount {
    const variantName = props.variantName ?? this.defaultVariantName;
    const v = new PropValidator(`RealtimeEndpoint '${this.node.id}' autoScaleInstanceCount`);
    v.check(this.variants.some((x) => x.name === variantName), 'variantName', variantName,
      `one of this endpoint's variants (${this.variantNames.join(', ')})`);
    if (this.scaledVariants.has(variantName)) v.add(secondScalingCall('autoScaleInstanceCount', `variant '${variantName}'`));
    validateVariantScaling(v, '', props);
    v.throwIfInvalid();

    const scope = new Construct(this, `${variantName}Scaling`);
    warnOnCooldowns(scope, '', props.scaleOutCooldown, props.scaleInCooldown);
    const target = createScalableTarget(scope, 'Target', {
      resourceId: variantResourceId(this.endpointName, variantName),
      scalableDimension: VARIANT_SCALABLE_DIMENSION,
      minCapacity: props.minCapacity ?? SCALING_DEFAULTS.minCapacity,
      maxCapacity: props.maxCapacity ?? SCALING_DEFAULTS.maxCapacity,
      dependsOn: this.cfnEndpoint,
    });
    const cooldowns = { scaleOutCooldown: props.scaleOutCooldown, scaleInCooldown: props.scaleInCooldown };
    addTargetTracking(scope, 'InvocationsPerInstance', target.ref, {
      policyName: `${variantName}-invocations-per-instance`,
      predefinedMetricType: 'SageMakerVariantInvocationsPerInstance',
      targetValue: props.targetInvocationsPerInstance ?? SCALING_DEFAULTS.targetInvocationsPerInstance,
      ...cooldowns,
    });
    if (props.targetConcurrentRequestsPerModel !== undefined) {
      addTargetTracking(scope, 'ConcurrentRequestsPerModel', target.ref, {
        policyName: `${variantName}-concurrent-requests-per-model`,
        predefinedMetricType: 'SageMakerVariantConcurrentRequestsPerModelHighResolution',
        targetValue: props.targetConcurrentRequestsPerModel,
        ...cooldowns,
      });
    }
    const capacity = new ScalableInstanceCount(scope, 'InstanceCount', { scalableTarget: target });
    this.scaledVariants.set(variantName, capacity);
    return capacity;
  }

  /**
   * The variant's scalable instance count, if its instance count autoscaling (or the autoscaling props) registered it: for the
   * library's own dashboard, which draws its range.
   * @internal
   */
  public _scaledInstanceCount(variantName: string): ScalableInstanceCount | undefined {
    return this.scaledVariants.get(variantName);
  }

  /**
   * Adds alarms on a variant: p99 model latency above a threshold, and/or the 5xx share of requests above a percentage.
   * Both treat missing data (no traffic) as not breaching; the endpoint's alarm actions run when they fire.
   */
  public addAlarms(options: RealtimeEndpointAlarmOptions): RealtimeEndpointAlarms {
    const variantName = options.variantName ?? this.defaultVariantName;
    const v = new PropValidator(`RealtimeEndpoint '${this.node.id}' alarms`);
    validateAlarms(v, '', options);
    v.check(this.variants.some((x) => x.name === variantName), 'variantName', variantName,
      `one of this endpoint's variants (${this.variantNames.join(', ')})`);
    v.throwIfInvalid();

    const alarms = addVariantAlarms(new Construct(this, `${variantName}Alarms`), this, variantName, options, this.props.alarmActions);
    for (const alarm of [alarms.modelLatencyP99, alarms.invocation5XXRate]) if (alarm) this.ownAlarms.push(alarm);
    const time = (options.period ?? Duration.minutes(5)).toSeconds() * (options.evaluationPeriods ?? 3);
    if (time > (this.ownAlarmsTimeToAlarm?.toSeconds() ?? 0)) this.ownAlarmsTimeToAlarm = Duration.seconds(time);
    return alarms;
  }

  /**
   * The instance types of a variant's pools, highest priority first (none without pools): for the library's own
   * dashboard, which draws the instances of each.
   * @internal
   */
  public _poolInstanceTypes(variantName: string): string[] {
    const variant = this.variants.find((x) => x.name === variantName);
    return variant?.options.instancePools ? variantInstanceTypes(variant.options).map((t) => t.name) : [];
  }

  /**
   * The name of the shadow variant, whose metrics (the endpoint's metrics given this variant name) compare with the
   * production variant's.
   *
   * @default - no value when the endpoint has no shadow variant
   */
  public get shadowVariantName(): string | undefined {
    return this.props.shadow ? this.props.shadow.variantName ?? DEFAULT_SHADOW_NAME : undefined;
  }

  /**
   * The endpoint's update properties, rendered once at synth (`this.update`: by its validation, or first by a token
   * aws-cdk-lib's prepare phase resolves).
   */
  private renderUpdate(): EndpointUpdateProps {
    // A rollout grants the models' role cloudwatch:DescribeAlarms on its alarms.
    return renderEndpointUpdate(this.props, this.scaledVariants.size > 0, {
      scope: this,
      subject: `RealtimeEndpoint '${this.node.id}'`,
      variantCount: this.variants.length,
      instanceCount: this.variants.length === 1 ? this.variants[0].options.initialInstanceCount ?? 1 : undefined,
      instanceTypes: this.instanceTypes().map((x) => x.type.name),
      defaultAlarms: this.ownAlarms,
      defaultAlarmsTimeToAlarm: this.ownAlarmsTimeToAlarm,
      endpoint: this.cfnEndpoint,
      executionRole: this.executionRole,
    });
  }

  private addVariantUnchecked(name: string, options: RealtimeVariantOptions): void {
    const { modelName, existing } = this.modelFor(options.model ?? this.props.model, primaryInstanceType(options));
    // A pool's own model is bound for the pool's instance type.
    const pools = (options.instancePools ?? []).map((p) => (p.model ? this.modelFor(p.model, p.instanceType) : undefined));
    if (existing || pools.some((p) => p?.existing)) this.existingModelVariants.add(name);
    this.variants.push({ name, options, modelName, poolModelNames: pools.map((p) => p?.modelName) });
  }

  /**
   * SageMaker writes a variant's captures with the execution role of the model it serves. An existing model's role is
   * not known here, so it must be given as `role` to receive the capture bucket's write grants.
   */
  private rejectCaptureWithoutModelRole(variantName: string): void {
    if (!this.props.dataCapture || this.props.role || !this.existingModelVariants.has(variantName)) return;
    new PropValidator(`RealtimeEndpoint '${this.node.id}'`)
      .check(false, 'role', undefined,
        `the execution role of the existing model served by variant '${variantName}' (ModelSource.fromModelName) when dataCapture is set: `
        + 'SageMaker writes captures with that role, which is granted s3:PutObject on the capture prefix and KMS encrypt')
      .throwIfInvalid();
  }

  /** One model per (source, instance type): JumpStart sources pick images and environment by instance type. */
  private modelFor(source: ModelSource, instanceType: InstanceType): { modelName: string; existing: boolean } {
    const byType = this.models.get(source) ?? new Map<string, { modelName: string; existing: boolean }>();
    this.models.set(source, byType);
    const cached = byType.get(instanceType.name);
    if (cached) return cached;

    const count = [...this.models.values()].reduce((n, m) => n + m.size, 0);
    // The first model binds in the endpoint's scope (ids Model, ModelImage, ModelData); later ones get their own scope.
    const scope = count === 0 ? this : new Construct(this, `Model${count + 1}`);
    const id = count === 0 ? 'Model' : 'Resource';
    const role = this.executionRole ?? this.createdModelRole();
    const { config, modelName, model } = bindModelInNetwork(scope, id, `RealtimeEndpoint '${this.node.id}'`, source,
      { role, instanceType, network: this.network });
    // A created model makes the created role the endpoint's; an existing model runs with its own role, and the created
    // one, never used, renders nothing (LazyRole).
    if (model && this.executionRole === undefined) {
      this.executionRole = role;
      acknowledgeModelRoleWildcards(role as iam.LazyRole);
    }
    if (count === 0) {
      this.firstModel = model;
      // The first model is the default variant's (bound before any other variant or the shadow).
      this.boundModelFamily = config.modelFamily;
      recordModelImage(this, config.imageUri);
    }
    const bound = { modelName, existing: config.modelName !== undefined };
    byType.set(instanceType.name, bound);
    return bound;
  }

  /** The role for models, created once; its statements wait in the LazyRole until a model uses it. */
  private createdModelRole(): iam.LazyRole {
    if (!this.modelRole) {
      const role = this.modelRole = new iam.LazyRole(this, 'Role', {
        assumedBy: executionRolePrincipal(),
        description: `Runs the models of SageMaker endpoint ${this.node.path}`,
      });
      addExecutionRoleBasics(role);
    }
    return this.modelRole;
  }

  /** Every instance type of every variant (each pool's) and of the shadow, with the variant's name. */
  private instanceTypes(): Array<{ variantName: string; type: InstanceType }> {
    const all = [...this.variants.map((x) => ({ name: x.name, options: x.options as ProductionVariantOptions })),
      ...(this.props.shadow ? [{ name: this.shadowVariantName!, options: this.props.shadow }] : [])];
    return all.flatMap((x) => variantInstanceTypes(x.options).map((type) => ({ variantName: x.name, type })));
  }

  private scaled(): ScaledVariant[] {
    return this.variants.filter((x) => this.scaledVariants.has(x.name))
      .map((x) => ({ variantName: x.name, instanceTypes: variantInstanceTypes(x.options) }));
  }

  /** Without autoscaling, CloudFormation's generated name; with it, one that changes with the scaled instance types. */
  private scaledName(): string | undefined {
    const scaled = this.scaled();
    if (scaled.length === 0) return undefined;
    return scaledEndpointName(this, Names.uniqueResourceName(this, { maxLength: 54, separator: '-' }), scaled);
  }

  /** The endpoint name generated at synth: the autoscaled name, or `<path>` (at most 63 characters). */
  private synthName(): string {
    return this.scaledName() ?? Names.uniqueResourceName(this, { maxLength: 63, separator: '-' });
  }

  private validateVariants(): string[] {
    const v = new PropValidator(`RealtimeEndpoint '${this.node.id}'`);
    const n = this.variants.length;
    v.check(n >= 1 && n <= MAX_VARIANTS, 'production variants', n, `between 1 and ${MAX_VARIANTS} variants`);
    const weights = this.variants.map((x) => x.options.initialVariantWeight ?? 1);
    if (weights.every((w) => typeof w === 'number' && Number.isFinite(w))) {
      v.check(weights.some((w) => w > 0), 'initialVariantWeight', weights, 'at least one variant with a weight > 0 (otherwise no traffic is routed)');
    }
    if (this.props.shadow) {
      v.check(n === 1, 'production variants', this.variantNames, 'one production variant when a shadow variant is set (SageMaker allows no more)');
    }
    // A variant with NVMe storage leaves the key off the endpoint config: said when it is the user's key, or when EBS variants lose it.
    const types = this.instanceTypes();
    kmsKeyWarnings(this, this.key, this.props.encryptionKey !== undefined, types.map((x) => x.type), types.map((x) => x.variantName));
    const context = { shadowVariant: this.props.shadow !== undefined, dataCapture: this.props.dataCapture !== undefined };
    for (const x of this.variants) warnOnInstancePools(this, `variant '${x.name}' `, x.options, context);
    if (this.props.shadow) warnOnInstancePools(this, 'shadow.', this.props.shadow, context);
    autoscaledVariantUpdateWarning(this, this.scaled(), this.props.endpointName !== undefined);
    try {
      v.throwIfInvalid();
      return [];
    } catch (e) {
      return [(e as Error).message];
    }
  }

  /**
   * What each production variant costs per hour and per month (730 h) at its fewest and most instances (its
   * autoscaling range, or its initial instance count when it is not autoscaled), from the bundled on-demand price table:
   * an estimate, not a bill. A price the table lacks gives an estimate whose price is not known and a summary saying how to give it.
   */
  public costEstimate(options?: CostEstimateOptions): EndpointCostEstimate {
    return estimateVariants(`RealtimeEndpoint '${this.node.id}' costEstimate`, this.stack.region, this.variants.map((x) => {
      const scaled = this.scaledVariants.get(x.name);
      const initial = x.options.initialInstanceCount ?? 1;
      return {
        variantName: x.name,
        instanceTypes: variantInstanceTypes(x.options).map((t) => t.name),
        minInstances: scaled?.minCapacity ?? initial,
        maxInstances: scaled?.maxCapacity ?? initial,
      };
    }), options);
  }
}

function validateVariantScaling(v: PropValidator, prefix: string, props: VariantAutoScalingOptions): void {
  validateScaling(v, prefix, props, { minCapacityFloor: 1, zeroReason: ZERO_REASON }, {
    targetInvocationsPerInstance: props.targetInvocationsPerInstance,
    targetConcurrentRequestsPerModel: props.targetConcurrentRequestsPerModel,
  });
}
