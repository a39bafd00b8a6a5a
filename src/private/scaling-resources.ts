/**
 * Internal (not exported from the package): the one implementation of Application Auto Scaling for SageMaker in this
 * library. Realtime variants, async variants (backlog scaling) and inference components all register their scalable
 * target, their target-tracking policies and their scale-from-zero step policy + alarm through these functions, with the
 * defaults below. The public handle users add policies to is `../scalable-capacity.ts`.
 */
import { Annotations, Duration, Token } from 'aws-cdk-lib';
import * as appscaling from 'aws-cdk-lib/aws-applicationautoscaling';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { Construct, IConstruct } from 'constructs';
import { PropValidator } from './validation';

/**
 * The defaults every SageMaker scaling policy here shares: scale out after 60 s, in after 300 s (a new instance or copy
 * takes minutes to load its model, so scaling in as fast as out makes the next burst wait for a cold start), and 1-8.
 */
export const SCALING_DEFAULTS = {
  minCapacity: 1,
  maxCapacity: 8,
  scaleOutCooldown: Duration.seconds(60),
  scaleInCooldown: Duration.seconds(300),
  /** A realtime variant's target `SageMakerVariantInvocationsPerInstance` (per minute). */
  targetInvocationsPerInstance: 70,
  /** An async variant's target `ApproximateBacklogSizePerInstance`. */
  targetBacklogPerInstance: 5,
  /** A serverless variant's target `SageMakerVariantProvisionedConcurrencyUtilization` (0-1). */
  targetProvisionedConcurrencyUtilization: 0.5,
} as const;

/** The message of a scaling verb called a second time on the same target (each owns a single scalable target). */
export function secondScalingCall(verb: string, target: string): string {
  return `${verb}: got a second call for ${target}, expected one call per scalable target (add more policies to the `
    + 'object the first call returned)';
}

/** The scalable dimension of an endpoint variant's instance count (ResourceId `endpoint/<name>/variant/<variant>`). */
export const VARIANT_SCALABLE_DIMENSION = 'sagemaker:variant:DesiredInstanceCount';

/**
 * The scalable dimension of a serverless variant's provisioned concurrency (ResourceId `endpoint/<name>/variant/<variant>`;
 * https://docs.aws.amazon.com/sagemaker/latest/dg/serverless-endpoints-autoscale.html).
 */
export const PROVISIONED_CONCURRENCY_SCALABLE_DIMENSION = 'sagemaker:variant:DesiredProvisionedConcurrency';

/** The scalable dimension of an inference component's copy count (ResourceId `inference-component/<name>`). */
export const COPY_COUNT_SCALABLE_DIMENSION = 'sagemaker:inference-component:DesiredCopyCount';

/** The ResourceId of an endpoint variant. */
export function variantResourceId(endpointName: string, variantName: string): string {
  return `endpoint/${endpointName}/variant/${variantName}`;
}

/** The ResourceId of an inference component. */
export function inferenceComponentResourceId(componentName: string): string {
  return `inference-component/${componentName}`;
}

/** Where a scalable target points and how far it may scale. */
export interface ScalableTargetSpec {
  readonly resourceId: string;
  readonly scalableDimension: string;
  readonly minCapacity: number;
  readonly maxCapacity: number;
  /** The scaled resource: the target must be registered after it exists. */
  readonly dependsOn: IConstruct;
}

/**
 * Registers a scalable target. No RoleARN: Application Auto Scaling then uses its service-linked role
 * (AWSServiceRoleForApplicationAutoScaling_SageMakerEndpoint), so no role is created
 * (https://docs.aws.amazon.com/autoscaling/application/userguide/application-auto-scaling-service-linked-roles.html).
 */
export function createScalableTarget(scope: Construct, id: string, spec: ScalableTargetSpec): appscaling.CfnScalableTarget {
  const target = new appscaling.CfnScalableTarget(scope, id, {
    serviceNamespace: 'sagemaker',
    resourceId: spec.resourceId,
    scalableDimension: spec.scalableDimension,
    minCapacity: spec.minCapacity,
    maxCapacity: spec.maxCapacity,
  });
  target.node.addDependency(spec.dependsOn);
  return target;
}

/** A target-tracking policy: a predefined metric, or a customized one (async backlog). */
export interface TargetTrackingSpec {
  readonly policyName: string;
  readonly targetValue: number;
  readonly scaleOutCooldown?: Duration;
  readonly scaleInCooldown?: Duration;
  /** e.g. `SageMakerVariantInvocationsPerInstance`; give this or `customizedMetric`. */
  readonly predefinedMetricType?: string;
  readonly customizedMetric?: appscaling.CfnScalingPolicy.CustomizedMetricSpecificationProperty;
  readonly disableScaleIn?: boolean;
}

/** Adds a target-tracking policy on the target whose `Ref` is `scalingTargetId`; cooldowns default to `SCALING_DEFAULTS`. */
export function addTargetTracking(scope: Construct, id: string, scalingTargetId: string, spec: TargetTrackingSpec): appscaling.CfnScalingPolicy {
  return new appscaling.CfnScalingPolicy(scope, id, {
    policyName: spec.policyName,
    policyType: 'TargetTrackingScaling',
    scalingTargetId,
    targetTrackingScalingPolicyConfiguration: {
      targetValue: spec.targetValue,
      predefinedMetricSpecification: spec.predefinedMetricType ? { predefinedMetricType: spec.predefinedMetricType } : undefined,
      customizedMetricSpecification: spec.customizedMetric,
      scaleOutCooldown: (spec.scaleOutCooldown ?? SCALING_DEFAULTS.scaleOutCooldown).toSeconds(),
      scaleInCooldown: (spec.scaleInCooldown ?? SCALING_DEFAULTS.scaleInCooldown).toSeconds(),
      disableScaleIn: spec.disableScaleIn,
    },
  });
}

/**
 * The scale-from-zero pair: target tracking cannot leave zero (a per-instance or per-copy metric is undefined with no
 * capacity), so an alarm on a "requests but no capacity" metric triggers a step policy that adds one.
 */
export interface ScaleFromZeroSpec {
  readonly policyId: string;
  readonly alarmId: string;
  readonly policyName: string;
  /** `Average` (async recipe) or `Maximum` (inference components). */
  readonly metricAggregationType: string;
  readonly cooldown: Duration;
  readonly alarmDescription: string;
  /** The metric with its statistic and period. */
  readonly metric: cloudwatch.IMetric;
  readonly evaluationPeriods: number;
  readonly datapointsToAlarm: number;
  /** @default - CloudWatch's default (missing) left unset */
  readonly treatMissingData?: cloudwatch.TreatMissingData;
}

/** Adds the step policy (ChangeInCapacity +1 at or above the threshold of 1) and the alarm whose action it is. */
export function addScaleFromZero(scope: Construct, scalingTargetId: string, spec: ScaleFromZeroSpec): cloudwatch.Alarm {
  const policy = new appscaling.CfnScalingPolicy(scope, spec.policyId, {
    policyName: spec.policyName,
    policyType: 'StepScaling',
    scalingTargetId,
    stepScalingPolicyConfiguration: {
      adjustmentType: 'ChangeInCapacity',
      metricAggregationType: spec.metricAggregationType,
      cooldown: spec.cooldown.toSeconds(),
      stepAdjustments: [{ metricIntervalLowerBound: 0, scalingAdjustment: 1 }],
    },
  });
  const alarm = new cloudwatch.Alarm(scope, spec.alarmId, {
    alarmDescription: spec.alarmDescription,
    metric: spec.metric,
    threshold: 1,
    evaluationPeriods: spec.evaluationPeriods,
    datapointsToAlarm: spec.datapointsToAlarm,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: spec.treatMissingData,
  });
  // A CfnScalingPolicy's Ref is its ARN, the alarm action Application Auto Scaling expects.
  alarm.addAlarmAction({ bind: () => ({ alarmActionArn: policy.ref }) });
  return alarm;
}

/** What a capacity range is checked against: the smallest minimum allowed, and why 0 is refused when it is. */
export interface CapacityLimits {
  readonly minCapacityFloor: number;
  /** @default - the generic "an integer >= floor" message */
  readonly zeroReason?: string;
  /** @default SCALING_DEFAULTS.minCapacity (or the floor when it is 0) */
  readonly defaultMinCapacity?: number;
}

/** The settings every scaling props type shares. */
export interface CommonScalingProps {
  readonly minCapacity?: number;
  readonly maxCapacity?: number;
  readonly scaleOutCooldown?: Duration;
  readonly scaleInCooldown?: Duration;
}

/**
 * Records every problem with a capacity range, its target values (each must be > 0) and cooldowns (whole seconds).
 * `prefix` locates the props in messages (e.g. `autoScaling.`).
 */
export function validateScaling(
  v: PropValidator, prefix: string, props: CommonScalingProps, limits: CapacityLimits, targetValues: Record<string, number | undefined> = {},
): void {
  const min = props.minCapacity ?? limits.defaultMinCapacity ?? (limits.minCapacityFloor === 0 ? 0 : SCALING_DEFAULTS.minCapacity);
  const max = props.maxCapacity ?? SCALING_DEFAULTS.maxCapacity;
  if (limits.minCapacityFloor > 0 && props.minCapacity === 0 && limits.zeroReason) {
    v.check(false, `${prefix}minCapacity`, 0, `at least ${limits.minCapacityFloor}: ${limits.zeroReason}`);
  } else {
    v.atLeast(`${prefix}minCapacity`, props.minCapacity, limits.minCapacityFloor);
  }
  v.atLeast(`${prefix}maxCapacity`, props.maxCapacity, 1);
  if (!Token.isUnresolved(min) && !Token.isUnresolved(max)) {
    v.check(max >= min, `${prefix}maxCapacity`, max, `at least minCapacity (${min})`);
  }
  for (const [name, value] of Object.entries(targetValues)) {
    if (value !== undefined && !Token.isUnresolved(value)) {
      v.check(Number.isFinite(value) && value > 0, `${prefix}${name}`, value, 'a number > 0');
    }
  }
  for (const [name, d] of [['scaleOutCooldown', props.scaleOutCooldown], ['scaleInCooldown', props.scaleInCooldown]] as const) {
    if (d !== undefined && !d.isUnresolved()) {
      const s = d.toSeconds({ integral: false });
      v.check(s >= 0 && Number.isInteger(s), `${prefix}${name}`, d.toString(), 'a whole number of seconds >= 0');
    }
  }
}

/**
 * Warns when scale-in is not slower than scale-out: a new instance or copy takes minutes to load the model, so scaling
 * in as fast as out makes the next burst wait for a cold start.
 */
export function warnOnCooldowns(scope: IConstruct, prefix: string, scaleOutCooldown?: Duration, scaleInCooldown?: Duration): void {
  const out = scaleOutCooldown ?? SCALING_DEFAULTS.scaleOutCooldown;
  const inn = scaleInCooldown ?? SCALING_DEFAULTS.scaleInCooldown;
  if (out.isUnresolved() || inn.isUnresolved()) return;
  if (out.toSeconds() >= inn.toSeconds()) {
    Annotations.of(scope).addWarningV2('cdk-sagemaker-mcp:asymmetricCooldowns',
      `${prefix}scaleOutCooldown (${out.toSeconds()} s) is not shorter than ${prefix}scaleInCooldown (${inn.toSeconds()} s); `
      + 'expected scale-out faster than scale-in (e.g. 60 s and 300 s) so that bursts do not wait for a cold start.');
  }
}
