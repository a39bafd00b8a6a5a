import { Annotations, Duration, Fn, Names, Size, Token } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import { Construct } from 'constructs';
import { CopyScalingTarget } from './copy-scaling-target';
import { IInferenceComponent, InferenceComponentAttributes } from './inference-component-interface';
import { InferenceComponentRequirement, SharedGpuEndpointBinding } from './private/binding';
import { importInferenceComponent, InferenceComponentBase } from './private/inference-component-base';
import { modelAcceleratorMemoryGiB } from './private/model-defaults';
import { checkSizing, distinctTypes, propOf, resolvedOrUndefined, sizingFor, validateTypeRequirements } from './private/sizing';
import { overrideWithSpecifications, renderSpecifications } from './private/specifications';
import { ISharedGpuEndpoint } from './shared-gpu-endpoint-interface';
import { InstanceType } from '../core/instance-type';
import { ModelFamily } from '../core/model-family.generated';
import { ModelSource } from '../core/model-source';
import { ModelSourceConfig } from '../core/model-source-config';
import { ScalableCopyCount } from '../core/scaling/scalable-copy-count';
import { instanceSpecs } from '../private/instance-table';
import { createExecutionRole, renderModel } from '../private/model';
import { recordModelImage } from '../private/openai-route';
import {
  addScaleFromZero, addTargetTracking, COPY_COUNT_SCALABLE_DIMENSION, createScalableTarget, inferenceComponentResourceId, SCALING_DEFAULTS,
  secondScalingCall,
  validateScaling, warnOnCooldowns,
} from '../private/scaling-resources';
import { PropValidator, SAGEMAKER_NAME_EXPECTED, SAGEMAKER_NAME_PATTERN } from '../private/validation';
import { Rollout } from '../rollouts/rollout';

/**
 * What one copy of an inference component reserves on one instance type of an endpoint with instance pools, in place of
 * the component's own values there.
 */
export interface InstanceTypeRequirements {
  /** The instance type: one of the types of the endpoint's instance pools. */
  readonly instanceType: InstanceType;

  /**
   * Accelerators one copy reserves on this type (`NumberOfAcceleratorDevicesRequired`, an integer >= 1, at most the
   * type's).
   *
   * @default - the component's accelerator count; without one, what the model's source says it needs on this type
   * (JumpStart models)
   */
  readonly acceleratorCount?: number;

  /**
   * Host memory one copy reserves on this type (`MinMemoryRequiredInMb`, a whole number of MiB >= 128, at most the
   * type's).
   *
   * @default - the component's minimum memory; without it, the share of this type's memory that goes with the
   * accelerators the model needs on it (JumpStart models)
   */
  readonly minMemory?: Size;

  /**
   * The most host memory one copy may use on this type (`MaxMemoryRequiredInMb`, at least the minimum memory).
   *
   * @default - the component's maximum memory
   */
  readonly maxMemory?: Size;

  /**
   * CPU cores one copy reserves on this type (`NumberOfCpuCoresRequired`, >= 0.25).
   *
   * @default - the component's CPU cores
   */
  readonly cpuCores?: number;
}

/** What to deploy as an inference component, and the slice of an instance each copy reserves. */
export interface InferenceComponentOptions {
  /** The model: a container, an existing model, or a JumpStart model. */
  readonly model: ModelSource;

  /**
   * Accelerators (GPUs, Neuron cores' devices) one copy reserves (`NumberOfAcceleratorDevicesRequired`, an integer >= 1).
   *
   * @default - what the model's source says it needs on the endpoint's instance type (JumpStart models); required
   * for other models on instance types with accelerators; none on CPU-only types
   */
  readonly acceleratorCount?: number;

  /**
   * Host memory one copy reserves (`MinMemoryRequiredInMb`, a whole number of MiB >= 128; the API requires it).
   *
   * @default - the share of the instance's memory that goes with the default accelerator count (JumpStart models);
   * required for other models
   */
  readonly minMemory?: Size;

  /**
   * The most host memory one copy may use (`MaxMemoryRequiredInMb`, at least the minimum memory).
   *
   * @default - no limit beyond the instance's memory
   */
  readonly maxMemory?: Size;

  /**
   * CPU cores one copy reserves (`NumberOfCpuCoresRequired`, >= 0.25).
   *
   * @default - none reserved
   */
  readonly cpuCores?: number;

  /**
   * What one copy reserves on particular instance types of the endpoint's instance pools, one entry per type at most.
   * On an endpoint with several instance types the component has one specification per type (`Specifications`), each
   * sized for its type: these entries first, then the component's own values, then what the model needs on that type
   * (JumpStart models), as for a single type.
   *
   * @default - every type gets the component's values, or what the model needs on it
   */
  readonly instanceTypeRequirements?: InstanceTypeRequirements[];

  /**
   * Copies deployed at creation (`RuntimeConfig.CopyCount`, >= 1). All components' initial copies must fit the
   * endpoint's initial instances. Autoscaling changes the count afterwards.
   *
   * @default 1
   */
  readonly copies?: number;

  /**
   * How long SageMaker may take to download the model's artifacts for one copy (60 seconds to 1 hour).
   *
   * @default - SageMaker's default
   */
  readonly modelDataDownloadTimeout?: Duration;

  /**
   * How long a copy's container may take to pass its first health check (60 seconds to 1 hour). Large models need
   * more than the default.
   *
   * @default - SageMaker's default
   */
  readonly containerStartupHealthCheckTimeout?: Duration;

  /**
   * The component's name. Give one when an alarm on the component's metrics is a rollback alarm of its rollout: a
   * generated name reaches the metrics through the component's ARN, which would make a dependency cycle.
   *
   * @default - CloudFormation generates one; read it from the component's name attribute
   */
  readonly componentName?: string;

  /**
   * How SageMaker replaces the copies when the component's model or specification changes: `Rollout.rolling(...)` with
   * batches in copies (`RolloutCapacity.copies(n)`) or percent, rolled back when its rollback alarms fire. Inference
   * components have no blue/green policies (see https://github.com/cdk-sagemaker-mcp/cdk-sagemaker-mcp/blob/main/docs/rollouts.md).
   *
   * @default - SageMaker's default update, without baking periods or rollback alarms
   */
  readonly rollout?: Rollout;
}

/** Props of an `InferenceComponent`. */
export interface InferenceComponentProps extends InferenceComponentOptions {
  /**
   * The shared endpoint the component runs on: a `SharedGpuEndpoint`, or one imported from its attributes
   * (`SharedGpuEndpointAttributes`).
   */
  readonly endpoint: ISharedGpuEndpoint;
}

/** How an inference component's copy count follows its load. */
export interface InferenceComponentAutoScalingOptions {
  /**
   * The fewest copies. 0 lets the component scale to zero: SageMaker then releases instances no component needs
   * (the endpoint's instance scaling must allow a minimum of 0 instances), and a step policy brings a copy back when a request
   * fails for lack of capacity.
   *
   * @default 1
   */
  readonly minCapacity?: number;

  /**
   * The most copies (>= 1 and at least the fewest).
   *
   * @default 8
   */
  readonly maxCapacity?: number;

  /**
   * The metric the copy count tracks and its target per copy (`CopyScalingTarget`): invocations per copy, or
   * concurrent requests per copy (faster for LLM requests that last seconds).
   */
  readonly target: CopyScalingTarget;

  /**
   * The wait after a scale-in before the next one: long, so a lull does not unload a model that takes minutes to load.
   *
   * @default Duration.seconds(300)
   */
  readonly scaleInCooldown?: Duration;

  /**
   * The wait after a scale-out before the next one: short, so a burst is met quickly.
   *
   * @default Duration.seconds(60)
   */
  readonly scaleOutCooldown?: Duration;
}

/**
 * One model deployed on a shared endpoint (AWS::SageMaker::InferenceComponent): each copy reserves its accelerator count
 * and minimum memory on one instance. Create it with the shared endpoint's add method (`SharedGpuEndpoint`), or with
 * `new InferenceComponent(...)` on an imported endpoint.
 */
export class InferenceComponent extends InferenceComponentBase {
  /** An existing inference component, by name and endpoint (for grants and metrics). */
  public static fromInferenceComponentAttributes(scope: Construct, id: string, attrs: InferenceComponentAttributes): IInferenceComponent {
    return importInferenceComponent(scope, id, attrs);
  }

  public readonly inferenceComponentName: string;
  public readonly inferenceComponentArn: string;
  public readonly endpointName: string;
  public readonly endpointArn: string;

  /** The endpoint the component runs on. */
  public readonly endpoint: ISharedGpuEndpoint;

  /**
   * Accelerators one copy reserves.
   *
   * @default - none
   */
  public readonly acceleratorCount?: number;

  /** Host memory one copy reserves. */
  public readonly minMemory: Size;

  /** Copies at creation. */
  public readonly copies: number;

  /**
   * The instance types the component is sized for, highest priority first: the endpoint's one type, or each distinct
   * type of its instance pools (one `Specifications` entry each). The accelerator count and minimum memory above are
   * the first type's.
   */
  public readonly instanceTypes: InstanceType[];

  /**
   * The payload family of the model, for the runtime's request builders (`llama3`, `tgi`, ...).
   *
   * @default - unknown
   */
  public readonly modelFamily?: ModelFamily;

  /** The AWS::SageMaker::InferenceComponent. */
  public readonly cfnInferenceComponent: sagemaker.CfnInferenceComponent;

  /**
   * The AWS::SageMaker::Model created for the component.
   *
   * @default - none: the component runs an existing model
   */
  public readonly cfnModel?: sagemaker.CfnModel;

  private scaledCopies?: ScalableCopyCount;

  private readonly binding: SharedGpuEndpointBinding;

  constructor(scope: Construct, id: string, props: InferenceComponentProps) {
    super(scope, id);
    const endpoint = props.endpoint;
    this.endpoint = endpoint;
    this.binding = endpoint._bindInferenceComponent(this);
    const instanceType = this.binding.instanceType;
    // One specification per distinct type (a type in two pools is one entry), the priority-1 type first: 2-5 entries with
    // several types, as an endpoint has 1-5 pools (an import's instanceTypes are checked to be 1-5 too).
    const instanceTypes = distinctTypes(this.binding.instanceTypes ?? (instanceType ? [instanceType] : []));
    const multiType = instanceTypes.length > 1;
    const role = this.binding.role ?? this.createModelRole();

    // What the model needs goes inline on a created role (the endpoint's or this component's, createExecutionRole); a
    // given role gets its DefaultPolicy. The model is bound for the priority-1 type, as the endpoint's pools warn.
    const source = props.model.bind(this, { role, instanceType });
    recordModelImage(this, source.imageUri);
    const copies = props.copies ?? 1;

    const v = new PropValidator(`InferenceComponent '${this.node.path}'`);
    v.pattern('componentName', props.componentName, SAGEMAKER_NAME_PATTERN, SAGEMAKER_NAME_EXPECTED, 63);
    validateTypeRequirements(v, props.instanceTypeRequirements ?? [], instanceTypes);
    const sizings = (instanceTypes.length > 0 ? instanceTypes : [undefined]).map((t) => sizingFor(props, source, t, instanceType));
    // A value given once on the component is checked once, however many types it applies to.
    const perType = new PropValidator('sizing');
    sizings.forEach((sizing) => checkSizing(perType, sizing, multiType));
    [...new Set(perType.problemList)].forEach((p) => v.add(p));
    // CFN's schema allows 0, but CreateInferenceComponent refuses it ("copy count an integer larger than 0"):
    // scaling to zero happens afterwards, through autoScaleCopyCount({ minCapacity: 0 }).
    v.atLeast('copies', copies, 1);
    // Non-integral so a fraction of a second reaches the validator (which names the prop) instead of Duration throwing.
    v.range('modelDataDownloadTimeout', props.modelDataDownloadTimeout?.toSeconds({ integral: false }), 60, 3600, { unit: 'seconds' });
    v.range('containerStartupHealthCheckTimeout', props.containerStartupHealthCheckTimeout?.toSeconds({ integral: false }), 60, 3600, { unit: 'seconds' });

    if (!v.hasProblems) {
      const requirements = sizings.map((s): InferenceComponentRequirement => ({
        label: props.componentName ?? id,
        // With one type the slice holds for every pool (a type listed twice has two ledgers).
        instanceType: multiType ? s.instanceType?.name : undefined,
        propNames: { acceleratorCount: propOf(s, 'acceleratorCount'), minMemory: propOf(s, 'minMemory'), cpuCores: propOf(s, 'cpuCores') },
        acceleratorCount: resolvedOrUndefined(s.acceleratorCount),
        minMemory: resolvedOrUndefined(s.minMemoryMib) === undefined ? undefined : Size.mebibytes(s.minMemoryMib!),
        cpuCores: resolvedOrUndefined(s.cpuCores),
        copies: resolvedOrUndefined(copies) ?? 0,
      }));
      endpoint._reserveCopies(this, requirements).forEach((problem) => v.add(problem.message));
    }
    v.throwIfInvalid();

    for (const s of sizings) {
      if (s.instanceType) this.warnIfUndersized(source, s.instanceType, resolvedOrUndefined(s.acceleratorCount));
    }
    const primary = sizings[0];
    this.acceleratorCount = primary.acceleratorCount;
    this.minMemory = Size.mebibytes(primary.minMemoryMib!);
    this.copies = copies;
    this.modelFamily = source.modelFamily;
    this.instanceTypes = instanceTypes;

    const model = renderModel(this, 'Model', source, role);
    this.cfnModel = model.model;

    const startup = props.modelDataDownloadTimeout || props.containerStartupHealthCheckTimeout ? {
      modelDataDownloadTimeoutInSeconds: props.modelDataDownloadTimeout?.toSeconds(),
      containerStartupHealthCheckTimeoutInSeconds: props.containerStartupHealthCheckTimeout?.toSeconds(),
    } : undefined;

    this.cfnInferenceComponent = new sagemaker.CfnInferenceComponent(this, 'Resource', {
      endpointName: endpoint.endpointName,
      variantName: endpoint.variantName,
      inferenceComponentName: props.componentName,
      // Required by the L1 of the peer floor; replaced by `Specifications` on an endpoint with several instance types.
      specification: {
        modelName: model.modelName,
        computeResourceRequirements: {
          numberOfAcceleratorDevicesRequired: primary.acceleratorCount,
          minMemoryRequiredInMb: primary.minMemoryMib,
          maxMemoryRequiredInMb: primary.maxMemoryMib,
          numberOfCpuCoresRequired: primary.cpuCores,
        },
        startupParameters: startup,
      },
      runtimeConfig: { copyCount: copies },
    });
    if (multiType) {
      overrideWithSpecifications(this.cfnInferenceComponent,
        renderSpecifications(model.modelName, sizings.map((s) => ({ ...s, instanceType: s.instanceType!.name })), startup));
    }
    if (props.rollout) {
      // A rollout grants the endpoint's role cloudwatch:DescribeAlarms on its alarms.
      this.cfnInferenceComponent.deploymentConfig = props.rollout._bindToInferenceComponent({
        scope: this,
        subject: `InferenceComponent '${id}'`,
        copyCount: resolvedOrUndefined(copies),
        component: this.cfnInferenceComponent,
        // the endpoint config's ExecutionRoleArn, with which SageMaker updates the components
        executionRole: this.binding.role,
      });
    }
    // A component can only be placed once the endpoint is InService.
    if (this.binding.dependable) this.cfnInferenceComponent.node.addDependency(this.binding.dependable);

    this.inferenceComponentArn = this.cfnInferenceComponent.attrInferenceComponentArn;
    // CloudFormation returns no name attribute; a generated name is the last part of the ARN.
    this.inferenceComponentName = props.componentName
      ?? Fn.select(1, Fn.split('inference-component/', this.inferenceComponentArn));
    this.endpointName = endpoint.endpointName;
    this.endpointArn = endpoint.endpointArn;
  }

  /**
   * The component's scalable copy count, if `autoScaleCopyCount` (or `autoScaling`) registered it: for the library's
   * own dashboard, which draws its range.
   * @internal
   */
  public get _scaledCopyCount(): ScalableCopyCount | undefined {
    return this.scaledCopies;
  }

  /**
   * Scales the component's copy count with its load (Application Auto Scaling, resource
   * `inference-component/<name>`, dimension `sagemaker:inference-component:DesiredCopyCount`), with a target-tracking
   * policy on the metric of the given target (invocations or concurrent requests per copy).
   *
   * With a minimum of 0 copies, also adds what bringing a copy back from zero needs (target tracking alone never scales out
   * from zero: with no copy there is no per-copy metric): a step policy (ChangeInCapacity +1, aggregation Maximum,
   * cooldown 60 s) triggered by an alarm on `NoCapacityInvocationFailures` (Sum over 60 s, 1 of 1 datapoints,
   * `>= 1`). The alarm uses GreaterThanOrEqualToThreshold, not the AWS guide's GreaterThanThreshold: with a threshold of 1,
   * "greater than" needs two failed requests in one minute, so a single MCP tool call at zero (or one retried once a
   * minute) would never wake the model.
   *
   * Once per component: a second call throws. With a minimum of 0 copies, first scale the endpoint's instance count
   * with a minimum of 0 too, or give the endpoint instance scaling.
   *
   * @returns the component's scalable copy count, to add more policies to
   */
  public autoScaleCopyCount(options: InferenceComponentAutoScalingOptions): ScalableCopyCount {
    const v = new PropValidator(`InferenceComponent '${this.node.path}' autoScaleCopyCount`);
    if (this.scaledCopies) v.add(secondScalingCall('autoScaleCopyCount', `inference component '${this.node.id}'`));
    v.check(options.target !== undefined, 'target', undefined, 'CopyScalingTarget.invocationsPerCopy(n) or CopyScalingTarget.concurrentRequestsPerCopy(n)');
    validateScaling(v, '', options, { minCapacityFloor: 0 }, options.target ? { [`target.${options.target.kind}`]: options.target.targetValue } : {});
    const minCapacity = options.minCapacity ?? SCALING_DEFAULTS.minCapacity;
    const scaleToZero = minCapacity === 0;
    const bound = this.binding.instanceScaling();
    const instanceScaling = typeof bound === 'string' ? undefined : bound;
    // A token minCapacity is only known at deploy time: it may well be 0.
    if (scaleToZero && bound === 'unknown') {
      Annotations.of(this).addWarningV2('cdk-sagemaker-mcp:scaleToZeroUnchecked', 'autoScaleCopyCount.minCapacity: 0 is not checked against the imported '
        + 'endpoint\'s managed instance scaling (give instanceScaling in its attributes to check it): zero copies only stop paying '
        + 'when the endpoint\'s MinInstanceCount is 0');
    } else if (scaleToZero && !(instanceScaling && Token.isUnresolved(instanceScaling.minCapacity)) && instanceScaling?.minCapacity !== 0) {
      v.add(`minCapacity: got 0, expected the endpoint's instanceScaling.minCapacity to be 0 too (got ${instanceScaling ? instanceScaling.minCapacity : 'no instanceScaling'}): `
        + 'zero copies only stops paying once SageMaker may also release the instances, which managed instance scaling '
        + 'with MinInstanceCount 0 allows (scale to zero is for endpoints that host inference components)');
    }
    v.throwIfInvalid();

    const target = createScalableTarget(this, 'ScalableTarget', {
      resourceId: inferenceComponentResourceId(this.inferenceComponentName),
      scalableDimension: COPY_COUNT_SCALABLE_DIMENSION,
      minCapacity,
      maxCapacity: options.maxCapacity ?? SCALING_DEFAULTS.maxCapacity,
      dependsOn: this.cfnInferenceComponent,
    });
    warnOnCooldowns(this, 'autoScaleCopyCount.', options.scaleOutCooldown, options.scaleInCooldown);
    addTargetTracking(this, 'TargetTracking', target.ref, {
      policyName: `${Names.uniqueId(this).slice(-200)}-target-tracking`,
      predefinedMetricType: options.target.predefinedMetricType,
      targetValue: options.target.targetValue,
      scaleOutCooldown: options.scaleOutCooldown,
      scaleInCooldown: options.scaleInCooldown,
    });

    if (scaleToZero) {
      addScaleFromZero(this, target.ref, {
        policyId: 'ScaleOutFromZero',
        alarmId: 'NoCapacityAlarm',
        policyName: `${Names.uniqueId(this).slice(-200)}-scale-out-from-zero`,
        metricAggregationType: 'Maximum',
        cooldown: Duration.seconds(60),
        alarmDescription: `Brings a copy of inference component ${this.node.path} back when a request finds none`,
        metric: this.metricNoCapacityInvocationFailures({ period: Duration.seconds(60), statistic: 'Sum' }),
        evaluationPeriods: 1,
        datapointsToAlarm: 1,
      });
    }
    this.scaledCopies = new ScalableCopyCount(this, 'AutoScaling', { scalableTarget: target });
    return this.scaledCopies;
  }

  /** The role of the model when the endpoint's role is unknown (an import without one). */
  private createModelRole(): iam.IRole {
    return createExecutionRole(this, 'Role', `Runs the model of inference component ${this.node.path}`);
  }

  /** Warns when the accelerators given hold less than the model's estimated size (an estimate: not an error). */
  private warnIfUndersized(model: ModelSourceConfig, instanceType: InstanceType, acceleratorCount: number | undefined): void {
    const neededGiB = modelAcceleratorMemoryGiB(model);
    const spec = instanceType.isUnresolved ? undefined : instanceSpecs(instanceType.name);
    if (neededGiB === undefined || acceleratorCount === undefined || !spec || spec.accelerators === 0) return;
    const givenGiB = acceleratorCount * spec.acceleratorMemoryGiB;
    if (givenGiB >= neededGiB) return;
    Annotations.of(this).addWarningV2('cdk-sagemaker-mcp:inferenceComponentUndersized',
      `acceleratorCount: ${acceleratorCount} × ${spec.acceleratorMemoryGiB} GiB (${spec.acceleratorModel ?? 'accelerator'}) of `
      + `${instanceType.name} is ${givenGiB} GiB, below the ~${neededGiB} GiB the model is estimated to need; `
      + 'a copy that does not fit fails to start (the estimate is approximate: quantization or a shorter context may make it fit)');
  }
}
