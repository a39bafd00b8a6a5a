import { Annotations, Duration, Fn, Names, Size, SizeRoundingBehavior, Token } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import { Construct } from 'constructs';
import { CopyScalingTarget } from './copy-scaling-target';
import { IInferenceComponent, InferenceComponentAttributes } from './inference-component-interface';
import { InferenceComponentRequirement, SharedGpuEndpointBinding } from './private/binding';
import { capacityOf } from './private/capacity';
import { importInferenceComponent, InferenceComponentBase } from './private/inference-component-base';
import { modelAcceleratorMemoryGiB, modelResourceDefaults } from './private/model-defaults';
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
   * @default - the share of the instance's memory that goes with the default `acceleratorCount` (JumpStart models);
   * required for other models
   */
  readonly minMemory?: Size;

  /**
   * The most host memory one copy may use (`MaxMemoryRequiredInMb`, >= minMemory).
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
   * The component's name. Give one when an alarm on the component's metrics is a rollback alarm of its `rollout`: a
   * generated name reaches the metrics through the component's ARN, which would make a dependency cycle.
   *
   * @default - CloudFormation generates one; read it from `inferenceComponentName`
   */
  readonly componentName?: string;

  /**
   * How SageMaker replaces the copies when the component's model or specification changes: `Rollout.rolling(...)` with
   * batches in copies (`RolloutCapacity.copies(n)`) or percent, rolled back when `autoRollbackOn` alarms fire. Inference
   * components have no blue/green policies (see https://github.com/cdk-sagemaker-mcp/cdk-sagemaker-mcp/blob/main/docs/rollouts.md).
   *
   * @default - SageMaker's default update, without baking periods or rollback alarms
   */
  readonly rollout?: Rollout;
}

/** Props of an `InferenceComponent`. */
export interface InferenceComponentProps extends InferenceComponentOptions {
  /**
   * The shared endpoint the component runs on: a `SharedGpuEndpoint`, or one imported with
   * `SharedGpuEndpoint.fromSharedGpuEndpointAttributes`.
   */
  readonly endpoint: ISharedGpuEndpoint;
}

/** How an inference component's copy count follows its load. */
export interface InferenceComponentAutoScalingOptions {
  /**
   * The fewest copies. 0 lets the component scale to zero: SageMaker then releases instances no component needs
   * (the endpoint's `instanceScaling.minCapacity` must be 0), and a step policy brings a copy back when a request
   * fails for lack of capacity.
   *
   * @default 1
   */
  readonly minCapacity?: number;

  /**
   * The most copies (>= 1 and >= minCapacity).
   *
   * @default 8
   */
  readonly maxCapacity?: number;

  /**
   * The metric the copy count tracks and its target per copy: `CopyScalingTarget.invocationsPerCopy(n)` or
   * `CopyScalingTarget.concurrentRequestsPerCopy(n)` (faster for LLM requests that last seconds).
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
 * One model deployed on a shared endpoint (AWS::SageMaker::InferenceComponent): each copy reserves `acceleratorCount`
 * accelerators and `minMemory` of host memory on one instance. Create it with `SharedGpuEndpoint.addInferenceComponent`,
 * or with `new InferenceComponent(...)` on an imported endpoint.
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
    const role = this.binding.role ?? this.createModelRole();

    // What the model needs goes inline on a created role (the endpoint's or this component's, createExecutionRole); a
    // given role gets its DefaultPolicy.
    const source = props.model.bind(this, { role, instanceType });
    recordModelImage(this, source.imageUri);
    const defaults = instanceType ? modelResourceDefaults(source, instanceType) : undefined;
    const capacity = instanceType ? capacityOf(instanceType) : undefined;
    const acceleratorCount = props.acceleratorCount ?? defaults?.acceleratorCount;
    const minMemoryMib = props.minMemory !== undefined ? mebibytes(props.minMemory) : defaults?.minMemoryMib;
    const maxMemoryMib = props.maxMemory !== undefined ? mebibytes(props.maxMemory) : undefined;
    const copies = props.copies ?? 1;

    const v = new PropValidator(`InferenceComponent '${this.node.path}'`);
    v.pattern('componentName', props.componentName, SAGEMAKER_NAME_PATTERN, SAGEMAKER_NAME_EXPECTED, 63);
    if (acceleratorCount === undefined) {
      // An imported endpoint of unknown instance type may be CPU-only: no accelerators is then a valid answer.
      v.check(instanceType === undefined || capacity?.acceleratorCount === 0, 'acceleratorCount', undefined,
        `the number of accelerators one copy reserves (an integer >= 1) for ${instanceType?.name}: `
        + 'only models whose source knows its needs (JumpStart) bring a default');
    } else {
      v.atLeast('acceleratorCount', acceleratorCount, 1);
    }
    if (minMemoryMib === undefined) {
      v.add('minMemory: got nothing, expected the host memory one copy reserves (a whole number of MiB >= 128): '
        + 'CreateInferenceComponent requires MinMemoryRequiredInMb, and only models whose source knows its needs (JumpStart) bring a default');
    } else {
      checkMemory(v, 'minMemory', minMemoryMib);
    }
    if (maxMemoryMib !== undefined) checkMemory(v, 'maxMemory', maxMemoryMib, resolvedOrUndefined(minMemoryMib));
    v.atLeast('cpuCores', props.cpuCores, 0.25, { integer: false });
    // CFN's schema allows 0, but CreateInferenceComponent refuses it ("copy count an integer larger than 0"):
    // scaling to zero happens afterwards, through autoScaleCopyCount({ minCapacity: 0 }).
    v.atLeast('copies', copies, 1);
    // Non-integral so a fraction of a second reaches the validator (which names the prop) instead of Duration throwing.
    v.range('modelDataDownloadTimeout', props.modelDataDownloadTimeout?.toSeconds({ integral: false }), 60, 3600, { unit: 'seconds' });
    v.range('containerStartupHealthCheckTimeout', props.containerStartupHealthCheckTimeout?.toSeconds({ integral: false }), 60, 3600, { unit: 'seconds' });

    if (!v.hasProblems) {
      const requirement: InferenceComponentRequirement = {
        label: props.componentName ?? id,
        acceleratorCount: resolvedOrUndefined(acceleratorCount),
        minMemory: resolvedOrUndefined(minMemoryMib) === undefined ? undefined : Size.mebibytes(minMemoryMib!),
        cpuCores: resolvedOrUndefined(props.cpuCores),
        copies: resolvedOrUndefined(copies) ?? 0,
      };
      endpoint._reserveCopies(this, requirement).forEach((problem) => v.add(problem.message));
    }
    v.throwIfInvalid();

    if (instanceType) this.warnIfUndersized(source, instanceType, resolvedOrUndefined(acceleratorCount));
    this.acceleratorCount = acceleratorCount;
    this.minMemory = Size.mebibytes(minMemoryMib!);
    this.copies = copies;
    this.modelFamily = source.modelFamily;

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
      specification: {
        modelName: model.modelName,
        computeResourceRequirements: {
          numberOfAcceleratorDevicesRequired: acceleratorCount,
          minMemoryRequiredInMb: minMemoryMib,
          maxMemoryRequiredInMb: maxMemoryMib,
          numberOfCpuCoresRequired: props.cpuCores,
        },
        startupParameters: startup,
      },
      runtimeConfig: { copyCount: copies },
    });
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
   * policy on the metric of `options.target` (invocations or concurrent requests per copy).
   *
   * With `minCapacity: 0`, also adds what bringing a copy back from zero needs (target tracking alone never scales out
   * from zero: with no copy there is no per-copy metric): a step policy (ChangeInCapacity +1, aggregation Maximum,
   * cooldown 60 s) triggered by an alarm on `NoCapacityInvocationFailures` (Sum over 60 s, 1 of 1 datapoints,
   * `>= 1`). The alarm uses GreaterThanOrEqualToThreshold, not the AWS guide's GreaterThanThreshold: with a threshold of 1,
   * "greater than" needs two failed requests in one minute, so a single MCP tool call at zero (or one retried once a
   * minute) would never wake the model.
   *
   * Once per component: a second call throws. With `minCapacity: 0`, call the endpoint's `autoScaleInstanceCount`
   * (with `minCapacity: 0`) first, or give it `instanceScaling`.
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

/** A Size in MiB, fractions kept so that validation names the prop (a token stays a token). */
function mebibytes(size: Size): number {
  return size.toMebibytes({ rounding: SizeRoundingBehavior.NONE });
}

/** A whole number of MiB >= 128 (and, for `maxMemory`, >= minMemory); tokens pass. */
function checkMemory(v: PropValidator, prop: string, mib: number, minMemoryMib?: number): void {
  if (Token.isUnresolved(mib)) return;
  if (!Number.isInteger(mib) || mib < 128) {
    v.add(`${prop}: got ${mib} MiB, expected a whole number of MiB >= 128`);
  } else if (minMemoryMib !== undefined && mib < minMemoryMib) {
    v.add(`${prop}: got ${mib} MiB, expected at least minMemory (${minMemoryMib} MiB)`);
  }
}

function resolvedOrUndefined(n: number | undefined): number | undefined {
  return n === undefined || Token.isUnresolved(n) ? undefined : n;
}
