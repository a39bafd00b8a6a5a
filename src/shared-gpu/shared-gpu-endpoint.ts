import { Annotations, Arn, ArnFormat, Duration, Lazy, Token } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import { Construct, IConstruct } from 'constructs';
import { InferenceComponent, InferenceComponentOptions } from './inference-component';
import { SharedGpuInstanceScalingOptions } from './instance-scaling';
import { CapacityProblem, InferenceComponentRequirement, SharedGpuEndpointBinding } from './private/binding';
import { CapacityLedger } from './private/capacity-ledger';
import { ImportedSharedGpuEndpoint } from './private/imported-shared-gpu-endpoint';
import { SharedGpuEndpointBase } from './private/shared-gpu-endpoint-base';
import { SharedGpuRouting } from './routing';
import { ISharedGpuEndpoint, SharedGpuEndpointAttributes } from './shared-gpu-endpoint-interface';
import { EndpointMetricsConfig } from '../core/endpoint-metrics-config';
import { EndpointNetworkOptions } from '../core/endpoint-network';
import { InstanceType } from '../core/instance-type';
import { InstancePool } from '../core/production-variant';
import { CostEstimateOptions, EndpointCostEstimate, SharedGpuCostComparison } from '../prices/cost-types';
import { compareShared, estimateVariants } from '../prices/endpoint-estimates';
import { createKey } from '../private/encryption';
import { DEFAULT_VARIANT_NAME } from '../private/endpoint-arn';
import { endpointConfigKmsKeyId, hasNvmeInstanceStorage, kmsKeyWarnings } from '../private/endpoint-kms';
import { bindEndpointNetwork, endpointConnections, grantVpcAccess } from '../private/endpoint-vpc';
import { instanceSpecs } from '../private/instance-table';
import {
  applyMetricsConfig, l1KnowsMetricsConfig, ScaleInPolicyValues, validateMetricsConfig, writeScaleInPolicyOverride,
} from '../private/l1-metrics-config';
import { createExecutionRole } from '../private/model';
import {
  primaryInstanceType, renderInstanceChoice, validateInstanceChoice, variantInstanceTypes, warnOnInstancePools,
} from '../private/render-variant';
import { secondScalingCall } from '../private/scaling-resources';
import { addValidationHook, PropValidator, SAGEMAKER_NAME_EXPECTED, SAGEMAKER_NAME_PATTERN } from '../private/validation';

/** Props of a `SharedGpuEndpoint`. */
export interface SharedGpuEndpointProps extends EndpointNetworkOptions {
  /**
   * The instance type every instance of the endpoint has, e.g. `ml.g5.12xlarge` or `ml.p4d.24xlarge`. Give exactly one
   * of the instance type and instance pools.
   *
   * @default - none: instance pools must be given
   */
  readonly instanceType?: InstanceType;

  /**
   * Up to five instance types in priority order (`InstancePools`), in place of an instance type: SageMaker falls back to
   * the next pool when one has no capacity. Every component's copies must fit an instance of every pool (each is checked
   * as if all instances came from it); with pools of several types each component has one specification per type
   * (`Specifications`), sized for it. The components' models are bound for the priority-1 type. A pool cannot name a
   * model here (the endpoint config names none). Give exactly one of the instance type and instance pools.
   *
   * @default - none: the instance type must be given
   */
  readonly instancePools?: InstancePool[];

  /**
   * The total time SageMaker spends provisioning instances across all pools before the operation fails
   * (`VariantInstanceProvisionTimeoutInSeconds`, 300-3600 s).
   *
   * @default - SageMaker's default
   */
  readonly instanceProvisionTimeout?: Duration;

  /**
   * How the endpoint publishes its metrics (the endpoint config's `MetricsConfig`): enhanced metrics (per container for
   * inference components), publish frequency, detailed observability.
   *
   * @default - SageMaker's defaults (no enhanced metrics, every 60 seconds)
   */
  readonly metricsConfig?: EndpointMetricsConfig;

  /**
   * How many instances the endpoint starts with (`InitialInstanceCount`). The initial copies of all components must fit.
   *
   * @default 1
   */
  readonly initialInstanceCount?: number;

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
   * The execution role of the endpoint (`ExecutionRoleArn`) and of every component's model.
   *
   * @default - a role is created that can write the endpoint's logs and metrics, plus what each component's model
   * needs (pull its image, read its artifacts), granted as components are added
   */
  readonly role?: iam.IRole;

  /**
   * How requests are spread over a component's copies.
   *
   * @default SharedGpuRouting.LEAST_OUTSTANDING_REQUESTS
   */
  readonly routing?: SharedGpuRouting;

  /**
   * Managed instance scaling, shorthand for the endpoint's instance count autoscaling with these options. Needed for
   * an inference component's copy count autoscaling to add instances when copies no longer fit, and (with a minimum
   * capacity of 0) to
   * scale the endpoint to zero instances.
   *
   * @default - no managed instance scaling: the endpoint keeps its initial instance count
   */
  readonly instanceScaling?: SharedGpuInstanceScalingOptions;

  /**
   * A customer-managed KMS key for the instances' EBS storage volumes (`KmsKeyId`). Left out of the endpoint config,
   * with a synth warning, for instance types with NVMe instance storage (g4dn, g5, g6, g6e, p4d, p5, ...): the
   * instance's hardware encrypts that storage, the key would cover nothing, and the API reference says
   * CreateEndpointConfig fails when a key is given for them.
   *
   * @default - on an EBS-backed instance type a key is created (rotation on); on a type with NVMe instance storage,
   * none (the instance's hardware encrypts it)
   */
  readonly encryptionKey?: kms.IKey;
}

/**
 * An endpoint whose GPU instances are shared by several models, each deployed as an inference component with its own
 * slice of accelerators and memory, its own copy count and its own autoscaling.
 *
 * The endpoint config names no model; it carries the `ExecutionRoleArn` SageMaker uses for the components.
 *
 * @example
 * import { Size } from 'aws-cdk-lib';
 * import { ContainerImage, InstanceType, ModelSource, SharedGpuEndpoint } from 'cdk-sagemaker-mcp';
 *
 * const endpoint = new SharedGpuEndpoint(this, 'Shared', { instanceType: InstanceType.ML_P4D_24XLARGE });
 * const llama = endpoint.addInferenceComponent('Llama70B', {
 *   model: ModelSource.fromContainer(ContainerImage.fromDlc('djl-inference', '0.29.0-lmi11.0.0-cu124')),
 *   acceleratorCount: 4,
 *   minMemory: Size.mebibytes(180_000),
 * });
 * llama.grantInvoke(toolFunction);
 */
export class SharedGpuEndpoint extends SharedGpuEndpointBase implements ec2.IConnectable {
  /**
   * Imports an endpoint by name (exact case; the ARN is built lowercase). Inference components can be added to it
   * (`new InferenceComponent(scope, id, { endpoint, ... })`), unchecked for fit; import it by attributes, with its
   * instance type, and role when components are added.
   */
  public static fromEndpointName(scope: Construct, id: string, endpointName: string): ISharedGpuEndpoint {
    return new ImportedSharedGpuEndpoint(scope, id, { endpointName });
  }

  /**
   * Imports an endpoint defined elsewhere, on which inference components can be added
   * (`new InferenceComponent(scope, id, { endpoint, ... })`). Their copies are not checked to fit its instances (a
   * warning says so); with an instance type, JumpStart models bind for it and size their copies.
   */
  public static fromSharedGpuEndpointAttributes(scope: Construct, id: string, attrs: SharedGpuEndpointAttributes): ISharedGpuEndpoint {
    return new ImportedSharedGpuEndpoint(scope, id, attrs);
  }

  /**
   * Imports an endpoint by ARN; its name is parsed from the ARN, so it is lowercase: components name the endpoint, so
   * import by name for a name with capitals. Components added to it are unchecked for fit, as with an import by
   * name.
   */
  public static fromEndpointArn(scope: Construct, id: string, endpointArn: string): ISharedGpuEndpoint {
    const endpointName = Arn.split(endpointArn, ArnFormat.SLASH_RESOURCE_NAME).resourceName!;
    return new ImportedSharedGpuEndpoint(scope, id, { endpointName });
  }

  public readonly endpointName: string;
  /** The endpoint's ARN as SageMaker returns it (lowercase). */
  public readonly endpointArn: string;
  /** The production variant the components run on. */
  public readonly variantName: string;
  protected readonly defaultVariantName: string;

  /** The endpoint's instance type (with instance pools, the priority-1 pool's). */
  public readonly instanceType: InstanceType;

  /**
   * The endpoint's instance types, highest priority first: one per instance pool, or the one instance type. An
   * inference component on an endpoint with several has one specification per type (`Specifications`).
   */
  public readonly instanceTypes: InstanceType[];

  /** How many instances the endpoint starts with. */
  public readonly initialInstanceCount: number;

  /** The role SageMaker uses for the endpoint and for every component's model. */
  public readonly role: iam.IRole;

  /**
   * The key of the instances' EBS storage volumes: the one given, or the one created.
   *
   * @default - none when the instance type has NVMe instance storage and no key was given
   */
  public readonly encryptionKey?: kms.IKey;


  /** The AWS::SageMaker::Endpoint. */
  public readonly cfnEndpoint: sagemaker.CfnEndpoint;

  /** The AWS::SageMaker::EndpointConfig. */
  public readonly cfnEndpointConfig: sagemaker.CfnEndpointConfig;

  /** One ledger per instance type (per pool): the copies must fit whichever pool SageMaker provisions from. */
  private readonly ledgers: CapacityLedger[];
  private scaling?: SharedGpuInstanceScalingOptions;
  private readonly components: InferenceComponent[] = [];
  private readonly networkConnections?: ec2.Connections;

  constructor(scope: Construct, id: string, props: SharedGpuEndpointProps) {
    super(scope, id, { physicalName: props.endpointName });

    this.initialInstanceCount = props.initialInstanceCount ?? 1;
    this.variantName = props.variantName ?? DEFAULT_VARIANT_NAME;
    this.defaultVariantName = this.variantName;
    this.validate(props);
    this.instanceType = primaryInstanceType(props);
    this.instanceTypes = variantInstanceTypes(props);
    this.ledgers = this.instanceTypes.map((t) => new CapacityLedger(t, this.initialInstanceCount));
    if (props.instanceScaling) this.autoScaleInstanceCount(props.instanceScaling);
    const nv = new PropValidator(`SharedGpuEndpoint '${this.node.path}'`);
    const network = bindEndpointNetwork(this, nv, props);
    nv.throwIfInvalid();
    this.networkConnections = network.connections;

    this.role = props.role ?? this.createRole();
    // The components' models run in the endpoint config's VPC with this role, which then manages their network
    // interfaces (https://docs.aws.amazon.com/sagemaker/latest/dg/host-vpc.html), as a realtime or async model's does.
    if (network.vpcConfig) grantVpcAccess(this.role);
    const routing = props.routing ?? SharedGpuRouting.LEAST_OUTSTANDING_REQUESTS;

    // Warned while the app validates, as every endpoint kind does.
    addValidationHook(this, () => {
      const given = props.encryptionKey !== undefined;
      kmsKeyWarnings(this, props.encryptionKey, given, this.instanceTypes, this.instanceTypes.map(() => this.variantName));
      warnOnInstancePools(this, '', props, { managedInstanceScaling: this.scaling !== undefined, inferenceComponents: true });
      return [];
    });
    this.encryptionKey = props.encryptionKey ?? (this.instanceTypes.some(hasNvmeInstanceStorage) ? undefined : createKey(this, 'Key',
      `Encrypts the ML storage volumes of SageMaker endpoint ${this.node.path}`));

    this.cfnEndpointConfig = new sagemaker.CfnEndpointConfig(this, 'Config', {
      // Components bring their own models; the endpoint config names none and carries the role they run with.
      executionRoleArn: this.role.roleArn,
      kmsKeyId: endpointConfigKmsKeyId(this.encryptionKey, this.instanceTypes),
      // An inference-component endpoint carries its network on the endpoint config, like its role: "VpcConfig ... that
      // your SageMaker jobs, hosted models, and compute resources have access to"
      // (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_CreateEndpointConfig.html).
      vpcConfig: network.vpcConfig,
      enableNetworkIsolation: network.enableNetworkIsolation || undefined,
      productionVariants: [{
        variantName: this.variantName,
        ...renderInstanceChoice(props),
        initialInstanceCount: this.initialInstanceCount,
        // PrefixAwareRoutingConfig: an override below (the L1 of the peer floor, 2.258, drops it without a word).
        routingConfig: { routingStrategy: routing.strategy },
        // Lazy: autoScaleInstanceCount may be called after the constructor.
        managedInstanceScaling: Lazy.any({ produce: () => renderManagedInstanceScaling(this.scaling, this.cfnEndpointConfig) }),
      }],
    });
    if (routing.prefixAwareOptions) {
      const { prefixLength, concurrencyThreshold } = routing.prefixAwareOptions;
      this.cfnEndpointConfig.addPropertyOverride('ProductionVariants.0.RoutingConfig.PrefixAwareRoutingConfig',
        { PrefixLength: prefixLength, ConcurrencyThreshold: concurrencyThreshold });
    }
    applyMetricsConfig(this.cfnEndpointConfig, props.metricsConfig);
    if (this.scaling) scaleInPolicyBelow268(this.cfnEndpointConfig, this.scaling);
    // The role's policy must exist before SageMaker assumes the role.
    this.cfnEndpointConfig.node.addDependency(this.role);

    this.cfnEndpoint = new sagemaker.CfnEndpoint(this, 'Resource', {
      endpointConfigName: this.cfnEndpointConfig.attrEndpointConfigName,
      endpointName: props.endpointName,
    });

    this.endpointName = this.cfnEndpoint.attrEndpointName;
    // The service's own (lowercase) ARN: one built from a mixed-case name would never match in IAM.
    this.endpointArn = this.cfnEndpoint.attrEndpointArn;
    const unknown = this.instanceTypes.filter((t, i) => this.ledgers[i].capacity === undefined && !t.isUnresolved).map((t) => t.name);
    if (unknown.length > 0) {
      Annotations.of(this).addWarningV2('cdk-sagemaker-mcp:sharedGpuUnknownInstance',
        `instanceType '${unknown.join('\', \'')}' is not in the instance table: inference components cannot be checked to fit it at synth`);
    }
  }

  /**
   * The security groups of the endpoint's network interfaces in its VPC (`vpc`): allow it to reach your resources with
   * `connections.allowTo(...)`. Fails for an endpoint without a VPC.
   */
  public get connections(): ec2.Connections {
    return endpointConnections(`SharedGpuEndpoint '${this.node.path}'`, this.networkConnections);
  }

  /**
   * Deploys a model on this endpoint as an inference component: its accelerator count and minimum host memory per
   * copy, and its copies to start with. Checks at once that one copy fits one instance and that the
   * initial copies of all components fit the endpoint's instances.
   */
  public addInferenceComponent(id: string, options: InferenceComponentOptions): InferenceComponent {
    const component = new InferenceComponent(this, id, { ...options, endpoint: this });
    this.components.push(component);
    return component;
  }

  /** @internal */
  public _bindInferenceComponent(_component: IConstruct): SharedGpuEndpointBinding {
    return {
      instanceType: this.instanceType,
      instanceTypes: this.instanceTypes,
      role: this.role,
      dependable: this.cfnEndpoint,
      instanceScaling: () => this.scaling ?? 'none',
    };
  }

  /** @internal */
  public _reserveCopies(_component: IConstruct, requirements: InferenceComponentRequirement[]): CapacityProblem[] {
    // Recorded on every ledger, or on none.
    const problems = this.ledgers.flatMap((l) => l.problemsOf(requirements));
    if (problems.length === 0) this.ledgers.forEach((l) => l.reserve(requirements));
    return problems;
  }

  /** The inference components added to this endpoint. */
  public get inferenceComponents(): InferenceComponent[] {
    return [...this.components];
  }

  private createRole(): iam.IRole {
    return createExecutionRole(this, 'Role', 'Execution role of a shared-GPU SageMaker endpoint and its inference components');
  }

  private validate(props: SharedGpuEndpointProps): void {
    const v = new PropValidator(`SharedGpuEndpoint '${this.node.path}'`);
    v.pattern('endpointName', props.endpointName, SAGEMAKER_NAME_PATTERN, SAGEMAKER_NAME_EXPECTED, 63);
    v.pattern('variantName', props.variantName, SAGEMAKER_NAME_PATTERN, SAGEMAKER_NAME_EXPECTED, 63);
    v.atLeast('initialInstanceCount', props.initialInstanceCount, 1);
    validateInstanceChoice(v, '', props, { modelOverride: 'a shared-GPU endpoint\'s config names no model (each inference component brings its own)' });
    validateMetricsConfig(v, 'metricsConfig.', props.metricsConfig);
    if (props.instanceScaling) validateInstanceScaling(v, props.instanceScaling, props.initialInstanceCount ?? 1);
    v.throwIfInvalid();
  }

  /**
   * Turns on managed instance scaling (`ManagedInstanceScaling`): SageMaker adds instances when the copies that
   * Application Auto Scaling adds to the components (their copy count autoscaling) no longer fit, and
   * removes instances no copy needs, between the minimum and maximum capacity (0 lets the endpoint scale to zero once
   * every component has). There is no policy to add on this level: the instance count follows the components' copies,
   * which is where policies go. The instance scaling prop calls it. Once per endpoint: a second call throws.
   *
   * @returns the managed instance scaling the endpoint config carries
   */
  public autoScaleInstanceCount(props: SharedGpuInstanceScalingOptions): SharedGpuInstanceScalingOptions {
    const v = new PropValidator(`SharedGpuEndpoint '${this.node.path}' autoScaleInstanceCount`);
    if (this.scaling) v.add(secondScalingCall('autoScaleInstanceCount', `variant '${this.variantName}'`));
    validateInstanceScaling(v, props, this.initialInstanceCount);
    v.throwIfInvalid();
    this.scaling = props;
    // During the constructor the config does not exist yet: the constructor writes it then.
    if (this.cfnEndpointConfig) scaleInPolicyBelow268(this.cfnEndpointConfig, props);
    return props;
  }

  /**
   * The managed instance scaling (see the endpoint's instance count autoscaling).
   *
   * @returns no value without managed instance scaling
   */
  public get instanceScaling(): SharedGpuInstanceScalingOptions | undefined {
    return this.scaling;
  }

  /**
   * What the endpoint's instances cost per hour and per month (730 h) at their fewest and most (managed instance
   * scaling's range, whose floor is 0 when it scales to zero, or its initial instance count without it), from the bundled
   * on-demand price table: an estimate, not a bill. A price the table lacks gives an estimate whose price is not known
   * and a summary saying how to give it.
   */
  public costEstimate(options?: CostEstimateOptions): EndpointCostEstimate {
    return estimateVariants(`SharedGpuEndpoint '${this.node.id}' costEstimate`, this.stack.region, [{
      instanceTypes: this.instanceTypes.map((t) => t.name),
      minInstances: this.instanceScaling?.minCapacity ?? this.initialInstanceCount,
      maxInstances: this.instanceScaling?.maxCapacity ?? this.initialInstanceCount,
    }], options);
  }

  /**
   * The components' initial copies packed on the endpoint's initial instances versus each copy on its own
   * smallest instance of the same accelerator kind that gives it what it reserves here (its accelerator count of devices,
   * with their memory; host memory is not carried over, as it defaults to a proportional share rather than a need):
   * an estimate from the bundled on-demand price table. Unknown prices leave the totals without a value and are listed.
   * With instance pools, the instances are the priority-1 pool's type.
   */
  public costComparison(options?: CostEstimateOptions): SharedGpuCostComparison {
    const deviceMemoryGiB = this.instanceType.isUnresolved ? 0 : instanceSpecs(this.instanceType.name)?.acceleratorMemoryGiB ?? 0;
    return compareShared(`SharedGpuEndpoint '${this.node.id}' costComparison`, this.stack.region,
      { instanceType: this.instanceType.name, instanceCount: this.initialInstanceCount },
      this.components.map((c) => ({
        name: c.node.id,
        accelerators: c.acceleratorCount,
        acceleratorMemoryGiB: (c.acceleratorCount ?? 0) * deviceMemoryGiB,
        copies: c.copies,
      })), options);
  }
}

function resolved(...values: number[]): boolean {
  return values.every((x) => !Token.isUnresolved(x));
}

/** Every problem with managed instance scaling settings, as `instanceScaling.<prop>`. */
function validateInstanceScaling(v: PropValidator, s: SharedGpuInstanceScalingOptions, initial: number): void {
  v.atLeast('instanceScaling.minCapacity', s.minCapacity, 0);
  v.atLeast('instanceScaling.maxCapacity', s.maxCapacity, 1);
  if (resolved(s.minCapacity, s.maxCapacity)) {
    v.check(s.minCapacity <= s.maxCapacity, 'instanceScaling.minCapacity', s.minCapacity,
      `at most instanceScaling.maxCapacity (${s.maxCapacity})`);
  }
  if (resolved(initial, s.maxCapacity)) {
    v.check(initial <= s.maxCapacity, 'initialInstanceCount', initial,
      `at most instanceScaling.maxCapacity (${s.maxCapacity})`);
  }
  v.range('instanceScaling.scaleInMaximumStepSize', s.scaleInMaximumStepSize, 1, 100);
  const cooldown = s.scaleInCooldown;
  if (cooldown && !cooldown.isUnresolved()) {
    const seconds = cooldown.toSeconds();
    v.check(seconds % 60 === 0 && seconds >= 300 && seconds <= 86400, 'instanceScaling.scaleInCooldown', cooldown.toHumanString(),
      'whole minutes between 5 minutes and 1 day (CooldownInMinutes 5-1440)');
  }
  if (!s.scaleInStrategy && (s.scaleInMaximumStepSize !== undefined || s.scaleInCooldown !== undefined)) {
    v.add('instanceScaling.scaleInStrategy: got nothing, expected IDLE_RELEASE or CONSOLIDATION when '
      + 'scaleInMaximumStepSize or scaleInCooldown is set (they belong to the ScaleInPolicy, whose Strategy is required)');
  }
}

function scaleInPolicy(scaling: SharedGpuInstanceScalingOptions): ScaleInPolicyValues | undefined {
  return scaling.scaleInStrategy ? {
    strategy: scaling.scaleInStrategy,
    maximumStepSize: scaling.scaleInMaximumStepSize,
    cooldownInMinutes: scaling.scaleInCooldown?.toMinutes(),
  } : undefined;
}

/** `ScaleInPolicy` as an override, for an aws-cdk-lib whose L1 does not know it (below 2.268). */
function scaleInPolicyBelow268(config: sagemaker.CfnEndpointConfig, scaling: SharedGpuInstanceScalingOptions): void {
  const policy = scaleInPolicy(scaling);
  if (policy && !l1KnowsMetricsConfig(config)) writeScaleInPolicyOverride(config, 0, policy);
}

function renderManagedInstanceScaling(
  scaling: SharedGpuInstanceScalingOptions | undefined, config: sagemaker.CfnEndpointConfig,
): sagemaker.CfnEndpointConfig.ManagedInstanceScalingProperty | undefined {
  return scaling ? {
    status: 'ENABLED',
    minInstanceCount: scaling.minCapacity,
    maxInstanceCount: scaling.maxCapacity,
    // Through the L1 when it knows ScaleInPolicy; otherwise `writeScaleInPolicyOverride` wrote it.
    scaleInPolicy: l1KnowsMetricsConfig(config) ? scaleInPolicy(scaling) : undefined,
  } : undefined;
}
