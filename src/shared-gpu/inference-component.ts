import { Annotations, ArnFormat, Duration, Fn, IResource, Names, Resource, Stack, Token } from 'aws-cdk-lib';
import * as appscaling from 'aws-cdk-lib/aws-applicationautoscaling';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import { Construct } from 'constructs';
import { checkCopyFitsInstance, CopyRequirement } from './capacity';
import { modelAcceleratorMemoryGiB, modelResourceDefaults } from './model-defaults';
import type { SharedGpuEndpoint } from './shared-gpu-endpoint';
import { addTargetTrackingPolicy, endpointArnForName, warnOnCooldowns } from '../core/endpoint-base';
import { iamActionsFor } from '../core/iam-actions';
import { instanceSpecs } from '../core/instance-specs';
import { renderModel } from '../core/model';
import { ModelSource } from '../core/model-source';
import { PropValidator, SAGEMAKER_NAME_EXPECTED, SAGEMAKER_NAME_PATTERN } from '../core/validation';

/** An inference component: one model deployed on a shared endpoint. */
export interface IInferenceComponent extends IResource {
  /**
   * The component's name: what callers pass as `InferenceComponentName` (header `X-Amzn-SageMaker-Inference-Component`).
   *
   * @attribute
   */
  readonly inferenceComponentName: string;

  /**
   * The component's ARN.
   *
   * @attribute
   */
  readonly inferenceComponentArn: string;

  /** The name of the endpoint the component runs on. */
  readonly endpointName: string;

  /** The ARN of the endpoint the component runs on. */
  readonly endpointArn: string;

  /**
   * Grants `sagemaker:InvokeEndpoint` and `sagemaker:InvokeEndpointWithResponseStream` (streaming is an IAM action of its
   * own) on the component's endpoint and on the component. The Service Authorization Reference lists both resource
   * types for these actions; the endpoint ARN is required, so the grant lets `grantee` call every component of that
   * endpoint.
   */
  grantInvoke(grantee: iam.IGrantable): iam.Grant;

  /**
   * An invocation metric of this component, in `AWS/SageMaker` with dimension `InferenceComponentName`.
   *
   * @default - statistic Average over 5 minutes
   */
  metric(metricName: string, props?: cloudwatch.MetricOptions): cloudwatch.Metric;

  /**
   * A utilization metric of this component's copies, in `/aws/sagemaker/InferenceComponents` with dimension
   * `InferenceComponentName`.
   *
   * @default - statistic Average over 5 minutes
   */
  metricUtilization(metricName: string, props?: cloudwatch.MetricOptions): cloudwatch.Metric;
}

/** Attributes of an inference component defined elsewhere. */
export interface InferenceComponentAttributes {
  /** The component's name. */
  readonly inferenceComponentName: string;
  /** The name of the endpoint it runs on. */
  readonly endpointName: string;
}

/** What to deploy as an inference component, and the slice of an instance each copy reserves. */
export interface InferenceComponentOptions {
  /** The model: a container, an existing model, or a JumpStart model. */
  readonly model: ModelSource;

  /**
   * Accelerators (GPUs, Neuron cores' devices) one copy reserves (`NumberOfAcceleratorDevicesRequired`, an integer >= 1).
   *
   * @default - a JumpStart model's own requirement for the endpoint's instance type; required for other models on
   * instance types with accelerators; none on CPU-only types
   */
  readonly acceleratorCount?: number;

  /**
   * Host memory one copy reserves, in MB (`MinMemoryRequiredInMb`, >= 128; the API requires it).
   *
   * @default - a JumpStart model's own requirement; required for other models
   */
  readonly minMemoryMb?: number;

  /**
   * The most host memory one copy may use, in MB (`MaxMemoryRequiredInMb`, >= minMemoryMb).
   *
   * @default - no limit beyond the instance's memory
   */
  readonly maxMemoryMb?: number;

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
   * The component's name.
   *
   * @default - CloudFormation generates one; read it from `inferenceComponentName`
   */
  readonly componentName?: string;
}

/** Props of an `InferenceComponent`. */
export interface InferenceComponentProps extends InferenceComponentOptions {
  /** The shared endpoint the component runs on. */
  readonly endpoint: SharedGpuEndpoint;
}

/** How an inference component's copy count follows its load. */
export interface InferenceComponentAutoScaleOptions {
  /**
   * The fewest copies. 0 lets the component scale to zero: SageMaker then releases instances no component needs
   * (the endpoint's `instanceScaling.minInstanceCount` must be 0), and a step policy brings a copy back when a request
   * fails for lack of capacity.
   */
  readonly minCopies: number;

  /** The most copies (>= 1 and >= minCopies). */
  readonly maxCopies: number;

  /**
   * Target invocations per copy per minute (`SageMakerInferenceComponentInvocationsPerCopy`). Set this or
   * `targetConcurrentRequestsPerCopy`.
   *
   * @default - scale on concurrent requests instead
   */
  readonly targetInvocationsPerCopy?: number;

  /**
   * Target concurrent requests per copy, sampled at high resolution
   * (`SageMakerInferenceComponentConcurrentRequestsPerCopyHighResolution`): reacts faster than invocations to LLM
   * requests that last seconds. Set this or `targetInvocationsPerCopy`.
   *
   * @default - scale on invocations instead
   */
  readonly targetConcurrentRequestsPerCopy?: number;

  /**
   * The wait after a scale-in before the next one: long, so a lull does not unload a model that takes minutes to load.
   *
   * @default Duration.minutes(5)
   */
  readonly scaleInCooldown?: Duration;

  /**
   * The wait after a scale-out before the next one: short, so a burst is met quickly.
   *
   * @default Duration.minutes(1)
   */
  readonly scaleOutCooldown?: Duration;
}

abstract class InferenceComponentBase extends Resource implements IInferenceComponent {
  public abstract readonly inferenceComponentName: string;
  public abstract readonly inferenceComponentArn: string;
  public abstract readonly endpointName: string;
  public abstract readonly endpointArn: string;

  public grantInvoke(grantee: iam.IGrantable): iam.Grant {
    return iam.Grant.addToPrincipal({
      grantee,
      actions: iamActionsFor('SageMakerRuntime.InvokeEndpoint', 'SageMakerRuntime.InvokeEndpointWithResponseStream'),
      resourceArns: [this.endpointArn, this.inferenceComponentArn],
    });
  }

  public metric(metricName: string, props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.componentMetric('AWS/SageMaker', metricName, props);
  }

  public metricUtilization(metricName: string, props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.componentMetric('/aws/sagemaker/InferenceComponents', metricName, props);
  }

  /**
   * Requests sent to this component.
   *
   * @default - Sum over 5 minutes
   */
  public metricInvocations(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metric('Invocations', { statistic: 'Sum', ...props });
  }

  /**
   * Requests per copy (what `targetInvocationsPerCopy` tracks).
   *
   * @default - Sum over 5 minutes
   */
  public metricInvocationsPerCopy(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metric('InvocationsPerCopy', { statistic: 'Sum', ...props });
  }

  /**
   * Concurrent requests per copy.
   *
   * @default - Maximum over 5 minutes
   */
  public metricConcurrentRequestsPerCopy(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metric('ConcurrentRequestsPerCopy', { statistic: 'Maximum', ...props });
  }

  /**
   * Time the model takes to answer, in microseconds.
   *
   * @default - Average over 5 minutes
   */
  public metricModelLatency(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metric('ModelLatency', { statistic: 'Average', ...props });
  }

  /**
   * Time SageMaker adds to the model's, in microseconds.
   *
   * @default - Average over 5 minutes
   */
  public metricOverheadLatency(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metric('OverheadLatency', { statistic: 'Average', ...props });
  }

  /**
   * Requests the model answered with a 4xx status.
   *
   * @default - Sum over 5 minutes
   */
  public metricInvocation4XXErrors(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metric('Invocation4XXErrors', { statistic: 'Sum', ...props });
  }

  /**
   * Requests the model answered with a 5xx status.
   *
   * @default - Sum over 5 minutes
   */
  public metricInvocation5XXErrors(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metric('Invocation5XXErrors', { statistic: 'Sum', ...props });
  }

  /**
   * Requests that got no 2xx from the model (error statuses, socket errors, timeouts).
   *
   * @default - Sum over 5 minutes
   */
  public metricInvocationModelErrors(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metric('InvocationModelErrors', { statistic: 'Sum', ...props });
  }

  /**
   * Requests that failed because the component had no copy (scaled to zero): the signal that brings a copy back.
   *
   * @default - Sum over 5 minutes
   */
  public metricNoCapacityInvocationFailures(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metric('NoCapacityInvocationFailures', { statistic: 'Sum', ...props });
  }

  /**
   * GPU utilization of the component's copies, over their reservation, 0-100%.
   *
   * @default - Average over 5 minutes
   */
  public metricGpuUtilizationNormalized(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metricUtilization('GPUUtilizationNormalized', { statistic: 'Average', ...props });
  }

  /**
   * GPU memory utilization of the component's copies, 0-100%.
   *
   * @default - Average over 5 minutes
   */
  public metricGpuMemoryUtilizationNormalized(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metricUtilization('GPUMemoryUtilizationNormalized', { statistic: 'Average', ...props });
  }

  /**
   * CPU utilization of the component's copies, over their reservation, 0-100%.
   *
   * @default - Average over 5 minutes
   */
  public metricCpuUtilizationNormalized(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metricUtilization('CPUUtilizationNormalized', { statistic: 'Average', ...props });
  }

  /**
   * Memory utilization of the component's copies, over their reservation, 0-100%.
   *
   * @default - Average over 5 minutes
   */
  public metricMemoryUtilizationNormalized(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metricUtilization('MemoryUtilizationNormalized', { statistic: 'Average', ...props });
  }

  private componentMetric(namespace: string, metricName: string, props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return new cloudwatch.Metric({
      namespace,
      metricName,
      dimensionsMap: { InferenceComponentName: this.inferenceComponentName },
      statistic: 'Average',
      ...props,
    });
  }
}

/**
 * One model deployed on a `SharedGpuEndpoint` (AWS::SageMaker::InferenceComponent): each copy reserves
 * `acceleratorCount` accelerators and `minMemoryMb` of host memory on one instance. Create it with
 * `SharedGpuEndpoint.addInferenceComponent`.
 */
export class InferenceComponent extends InferenceComponentBase {
  /** An existing inference component, by name and endpoint (for grants and metrics). */
  public static fromInferenceComponentAttributes(scope: Construct, id: string, attrs: InferenceComponentAttributes): IInferenceComponent {
    const stack = Stack.of(scope);
    class Import extends InferenceComponentBase {
      public readonly inferenceComponentName = attrs.inferenceComponentName;
      public readonly inferenceComponentArn = stack.formatArn({
        service: 'sagemaker', resource: 'inference-component', resourceName: attrs.inferenceComponentName, arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
      });
      public readonly endpointName = attrs.endpointName;
      // Endpoint ARNs are lowercase; one built from a mixed-case name would never match in IAM.
      public readonly endpointArn = endpointArnForName(scope, attrs.endpointName);
    }
    return new Import(scope, id);
  }

  public readonly inferenceComponentName: string;
  public readonly inferenceComponentArn: string;
  public readonly endpointName: string;
  public readonly endpointArn: string;

  /** The endpoint the component runs on. */
  public readonly endpoint: SharedGpuEndpoint;

  /**
   * Accelerators one copy reserves.
   *
   * @default - none
   */
  public readonly acceleratorCount?: number;

  /** Host memory one copy reserves, in MB. */
  public readonly minMemoryMb: number;

  /** Copies at creation. */
  public readonly copies: number;

  /**
   * The payload family of the model, for the runtime's request builders (`llama3`, `tgi`, ...).
   *
   * @default - unknown
   */
  public readonly modelFamily?: string;

  /** The AWS::SageMaker::InferenceComponent. */
  public readonly cfnInferenceComponent: sagemaker.CfnInferenceComponent;

  /**
   * The AWS::SageMaker::Model created for the component.
   *
   * @default - none: the component runs an existing model
   */
  public readonly cfnModel?: sagemaker.CfnModel;

  private scaled = false;

  constructor(scope: Construct, id: string, props: InferenceComponentProps) {
    super(scope, id);
    const endpoint = props.endpoint;
    this.endpoint = endpoint;

    const source = props.model.bind(this, { role: endpoint.role, instanceType: endpoint.instanceType });
    const defaults = modelResourceDefaults(props.model, endpoint.instanceType);
    const capacity = endpoint._capacity();
    const acceleratorCount = props.acceleratorCount ?? defaults?.acceleratorCount;
    const minMemoryMb = props.minMemoryMb ?? defaults?.minMemoryMb;
    const copies = props.copies ?? 1;

    const v = new PropValidator(`InferenceComponent '${this.node.path}'`);
    v.pattern('componentName', props.componentName, SAGEMAKER_NAME_PATTERN, SAGEMAKER_NAME_EXPECTED, 63);
    if (acceleratorCount === undefined) {
      v.check(capacity?.acceleratorCount === 0, 'acceleratorCount', undefined,
        `the number of accelerators one copy reserves (an integer >= 1) for ${endpoint.instanceType.name}: `
        + 'only JumpStart models bring a default');
    } else {
      v.atLeast('acceleratorCount', acceleratorCount, 1);
    }
    if (minMemoryMb === undefined) {
      v.add('minMemoryMb: got nothing, expected the host memory one copy reserves, in MB (an integer >= 128): '
        + 'CreateInferenceComponent requires MinMemoryRequiredInMb, and only JumpStart models bring a default');
    } else {
      v.atLeast('minMemoryMb', minMemoryMb, 128);
    }
    v.atLeast('maxMemoryMb', props.maxMemoryMb, 128);
    if (props.maxMemoryMb !== undefined && minMemoryMb !== undefined && !Token.isUnresolved(props.maxMemoryMb) && !Token.isUnresolved(minMemoryMb)) {
      v.check(props.maxMemoryMb >= minMemoryMb, 'maxMemoryMb', props.maxMemoryMb, `at least minMemoryMb (${minMemoryMb})`);
    }
    v.atLeast('cpuCores', props.cpuCores, 0.25, { integer: false });
    // CFN's schema allows 0, but CreateInferenceComponent refuses it ("copy count an integer larger than 0"):
    // scaling to zero happens afterwards, through autoScale({ minCopies: 0 }).
    v.atLeast('copies', copies, 1);
    // Non-integral so a fraction of a second reaches the validator (which names the prop) instead of Duration throwing.
    v.range('modelDataDownloadTimeout', props.modelDataDownloadTimeout?.toSeconds({ integral: false }), 60, 3600, { unit: 'seconds' });
    v.range('containerStartupHealthCheckTimeout', props.containerStartupHealthCheckTimeout?.toSeconds({ integral: false }), 60, 3600, { unit: 'seconds' });

    const requirement: CopyRequirement = {
      label: props.componentName ?? id,
      acceleratorCount: resolvedOrUndefined(acceleratorCount),
      minMemoryMb: resolvedOrUndefined(minMemoryMb),
      cpuCores: resolvedOrUndefined(props.cpuCores),
      copies: resolvedOrUndefined(copies) ?? 0,
    };
    if (capacity && !v.hasProblems) checkCopyFitsInstance(v, requirement, capacity, endpoint.instanceType.name);
    endpoint._register(this, requirement, v);

    this.warnIfUndersized(props.model, requirement.acceleratorCount);
    this.acceleratorCount = acceleratorCount;
    this.minMemoryMb = minMemoryMb!;
    this.copies = copies;
    this.modelFamily = source.modelFamily;

    const model = renderModel(this, 'Model', source, endpoint.role);
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
          minMemoryRequiredInMb: minMemoryMb,
          maxMemoryRequiredInMb: props.maxMemoryMb,
          numberOfCpuCoresRequired: props.cpuCores,
        },
        startupParameters: startup,
      },
      runtimeConfig: { copyCount: copies },
    });
    // A component can only be placed once the endpoint is InService.
    this.cfnInferenceComponent.node.addDependency(endpoint.cfnEndpoint);

    this.inferenceComponentArn = this.cfnInferenceComponent.attrInferenceComponentArn;
    // CloudFormation returns no name attribute; a generated name is the last part of the ARN.
    this.inferenceComponentName = props.componentName
      ?? Fn.select(1, Fn.split('inference-component/', this.inferenceComponentArn));
    this.endpointName = endpoint.endpointName;
    this.endpointArn = endpoint.endpointArn;
  }

  /** Warns when the accelerators given hold less than the model's estimated size (an estimate: not an error). */
  private warnIfUndersized(model: ModelSource, acceleratorCount: number | undefined): void {
    const neededGiB = modelAcceleratorMemoryGiB(model);
    const spec = this.endpoint.instanceType.isUnresolved ? undefined : instanceSpecs(this.endpoint.instanceType.name);
    if (neededGiB === undefined || acceleratorCount === undefined || !spec || spec.accelerators === 0) return;
    const givenGiB = acceleratorCount * spec.acceleratorMemoryGiB;
    if (givenGiB >= neededGiB) return;
    Annotations.of(this).addWarningV2('cdk-sagemaker-mcp:inferenceComponentUndersized',
      `acceleratorCount: ${acceleratorCount} × ${spec.acceleratorMemoryGiB} GiB (${spec.acceleratorModel ?? 'accelerator'}) of `
      + `${this.endpoint.instanceType.name} is ${givenGiB} GiB, below the ~${neededGiB} GiB the model is estimated to need; `
      + 'a copy that does not fit fails to start (the estimate is approximate: quantization or a shorter context may make it fit)');
  }

  /**
   * Scales the component's copy count with its load (Application Auto Scaling, resource
   * `inference-component/<name>`, dimension `sagemaker:inference-component:DesiredCopyCount`), with a target-tracking
   * policy on invocations or concurrent requests per copy.
   *
   * With `minCopies: 0`, also adds what bringing a copy back from zero needs (target tracking alone never scales out
   * from zero: with no copy there is no per-copy metric): a step policy (ChangeInCapacity +1, aggregation Maximum,
   * cooldown 60 s) triggered by an alarm on `NoCapacityInvocationFailures` (Sum over 60 s, 1 of 1 datapoints,
   * `>= 1`). The alarm uses GreaterThanOrEqualToThreshold, not the AWS guide's GreaterThanThreshold: with a threshold of 1,
   * "greater than" needs two failed requests in one minute, so a single MCP tool call at zero (or one retried once a
   * minute) would never wake the model.
   */
  public autoScale(options: InferenceComponentAutoScaleOptions): void {
    const v = new PropValidator(`InferenceComponent '${this.node.path}' autoScale`);
    if (this.scaled) v.add('autoScale: got a second call, expected one call per inference component (it owns a single scalable target)');
    v.atLeast('minCopies', options.minCopies, 0);
    v.atLeast('maxCopies', options.maxCopies, 1);
    if (!Token.isUnresolved(options.minCopies) && !Token.isUnresolved(options.maxCopies)) {
      v.check(options.minCopies <= options.maxCopies, 'minCopies', options.minCopies, `at most maxCopies (${options.maxCopies})`);
    }
    const targets = [options.targetInvocationsPerCopy, options.targetConcurrentRequestsPerCopy].filter((t) => t !== undefined);
    v.check(targets.length === 1, 'targetInvocationsPerCopy / targetConcurrentRequestsPerCopy',
      targets.length === 0 ? undefined : 'both', 'exactly one of them');
    for (const [prop, value] of [['targetInvocationsPerCopy', options.targetInvocationsPerCopy], ['targetConcurrentRequestsPerCopy', options.targetConcurrentRequestsPerCopy]] as const) {
      if (value !== undefined && !Token.isUnresolved(value)) v.check(value > 0, prop, value, 'a number > 0');
    }
    const scaleToZero = options.minCopies === 0;
    const instanceScaling = this.endpoint.instanceScaling;
    // A token minInstanceCount is only known at deploy time: it may well be 0.
    if (scaleToZero && !(instanceScaling && Token.isUnresolved(instanceScaling.minInstanceCount)) && instanceScaling?.minInstanceCount !== 0) {
      v.add(`minCopies: got 0, expected the endpoint's instanceScaling.minInstanceCount to be 0 too (got ${instanceScaling ? instanceScaling.minInstanceCount : 'no instanceScaling'}): `
        + 'zero copies only stops paying once SageMaker may also release the instances, which managed instance scaling '
        + 'with MinInstanceCount 0 allows (scale to zero is for endpoints that host inference components)');
    }
    v.throwIfInvalid();

    // No RoleARN: Application Auto Scaling scales SageMaker under its service-linked role.
    const target = new appscaling.CfnScalableTarget(this, 'ScalableTarget', {
      serviceNamespace: 'sagemaker',
      resourceId: `inference-component/${this.inferenceComponentName}`,
      scalableDimension: IC_SCALABLE_DIMENSION,
      minCapacity: options.minCopies,
      maxCapacity: options.maxCopies,
    });
    target.node.addDependency(this.cfnInferenceComponent);
    this.scaled = true;

    const scaleOutCooldown = options.scaleOutCooldown ?? Duration.minutes(1);
    const scaleInCooldown = options.scaleInCooldown ?? Duration.minutes(5);
    warnOnCooldowns(this, 'autoScale.', scaleOutCooldown, scaleInCooldown);
    const byInvocations = options.targetInvocationsPerCopy !== undefined;
    addTargetTrackingPolicy(this, 'TargetTracking', target, {
      policyName: `${Names.uniqueId(this).slice(-200)}-target-tracking`,
      predefinedMetricType: byInvocations
        ? 'SageMakerInferenceComponentInvocationsPerCopy'
        : 'SageMakerInferenceComponentConcurrentRequestsPerCopyHighResolution',
      targetValue: (options.targetInvocationsPerCopy ?? options.targetConcurrentRequestsPerCopy)!,
      scaleOutCooldown,
      scaleInCooldown,
    });

    if (scaleToZero) {
      const fromZero = new appscaling.CfnScalingPolicy(this, 'ScaleOutFromZero', {
        policyName: `${Names.uniqueId(this).slice(-200)}-scale-out-from-zero`,
        policyType: 'StepScaling',
        scalingTargetId: target.ref,
        stepScalingPolicyConfiguration: {
          adjustmentType: 'ChangeInCapacity',
          metricAggregationType: 'Maximum',
          cooldown: 60,
          stepAdjustments: [{ metricIntervalLowerBound: 0, scalingAdjustment: 1 }],
        },
      });
      const alarm = new cloudwatch.Alarm(this, 'NoCapacityAlarm', {
        alarmDescription: `Brings a copy of inference component ${this.node.path} back when a request finds none`,
        metric: this.metricNoCapacityInvocationFailures({ period: Duration.seconds(60), statistic: 'Sum' }),
        threshold: 1,
        evaluationPeriods: 1,
        datapointsToAlarm: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      });
      // A CfnScalingPolicy's Ref is its ARN, the alarm action Application Auto Scaling expects.
      alarm.addAlarmAction({ bind: () => ({ alarmActionArn: fromZero.ref }) });
    }
  }
}

/** The scalable dimension of an inference component's copy count. */
const IC_SCALABLE_DIMENSION = 'sagemaker:inference-component:DesiredCopyCount';

function resolvedOrUndefined(n: number | undefined): number | undefined {
  return n === undefined || Token.isUnresolved(n) ? undefined : n;
}
