import { Duration } from 'aws-cdk-lib';
import * as appscaling from 'aws-cdk-lib/aws-applicationautoscaling';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { Construct, IConstruct } from 'constructs';
import { AsyncAutoScalingProps } from './async-scaling-props';
import {
  addTargetTrackingPolicy, addVariantScalableTarget, validateVariantAutoScaling, VARIANT_SCALING_DEFAULTS, warnOnCooldowns,
} from '../core/endpoint-base';
import { PropValidator } from '../core/validation';

export const ASYNC_SCALING_DEFAULTS = { minCapacity: 1, targetBacklogPerInstance: 5 } as const;

/** Internal: where the scaling resources attach. */
export interface BacklogScalingTarget {
  readonly endpointName: string;
  readonly variantName: string;
  readonly endpoint: IConstruct;
  readonly hasBacklogWithoutCapacity: cloudwatch.Metric;
}

/** Records every problem with the scaling props (0 is a valid minimum for async variants). */
export function validateBacklogScaling(v: PropValidator, props: AsyncAutoScalingProps): void {
  validateVariantAutoScaling(v, 'autoScaling.', {
    minCapacity: props.minCapacity ?? ASYNC_SCALING_DEFAULTS.minCapacity,
    maxCapacity: props.maxCapacity,
    targetValues: { targetBacklogPerInstance: props.targetBacklogPerInstance },
    scaleOutCooldown: props.scaleOutCooldown,
    scaleInCooldown: props.scaleInCooldown,
  }, { minCapacityFloor: 0 });
}

/**
 * Target tracking on ApproximateBacklogSizePerInstance with asymmetric cooldowns; with minCapacity 0 also the
 * documented scale-from-zero pair (HasBacklogWithoutCapacity alarm -> +1 step policy). Returns that alarm, if any.
 */
export function addBacklogScaling(scope: Construct, props: AsyncAutoScalingProps, target: BacklogScalingTarget): cloudwatch.Alarm | undefined {
  const minCapacity = props.minCapacity ?? ASYNC_SCALING_DEFAULTS.minCapacity;
  const scaleOutCooldown = props.scaleOutCooldown ?? VARIANT_SCALING_DEFAULTS.scaleOutCooldown;
  const scaleInCooldown = props.scaleInCooldown ?? VARIANT_SCALING_DEFAULTS.scaleInCooldown;
  warnOnCooldowns(scope, 'autoScaling.', scaleOutCooldown, scaleInCooldown);

  const scalableTarget = addVariantScalableTarget(scope, 'ScalableTarget', {
    endpointName: target.endpointName,
    variantName: target.variantName,
    minCapacity,
    maxCapacity: props.maxCapacity ?? VARIANT_SCALING_DEFAULTS.maxCapacity,
    endpoint: target.endpoint,
  });
  addTargetTrackingPolicy(scope, 'BacklogScalingPolicy', scalableTarget, {
    policyName: 'ApproximateBacklogSizePerInstance-ScalingPolicy',
    targetValue: props.targetBacklogPerInstance ?? ASYNC_SCALING_DEFAULTS.targetBacklogPerInstance,
    scaleOutCooldown,
    scaleInCooldown,
    customizedMetric: {
      metricName: 'ApproximateBacklogSizePerInstance',
      namespace: 'AWS/SageMaker',
      dimensions: [{ name: 'EndpointName', value: target.endpointName }],
      statistic: 'Average',
    },
  });
  if (minCapacity !== 0) return undefined;

  // Target tracking cannot leave zero (backlog per instance is undefined with no instance): AWS's recipe, verbatim.
  const stepPolicy = new appscaling.CfnScalingPolicy(scope, 'ScaleFromZeroPolicy', {
    policyName: 'HasBacklogWithoutCapacity-ScalingPolicy',
    policyType: 'StepScaling',
    scalingTargetId: scalableTarget.ref,
    stepScalingPolicyConfiguration: {
      adjustmentType: 'ChangeInCapacity',
      metricAggregationType: 'Average',
      cooldown: 300,
      stepAdjustments: [{ metricIntervalLowerBound: 0, scalingAdjustment: 1 }],
    },
  });
  const alarm = new cloudwatch.Alarm(scope, 'ScaleFromZeroAlarm', {
    alarmDescription: 'Requests are queued and the async endpoint has no instance: add one',
    metric: target.hasBacklogWithoutCapacity.with({ statistic: 'Average', period: Duration.minutes(1) }),
    evaluationPeriods: 2,
    datapointsToAlarm: 2,
    threshold: 1,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: cloudwatch.TreatMissingData.MISSING,
  });
  alarm.addAlarmAction({ bind: () => ({ alarmActionArn: stepPolicy.ref }) });
  return alarm;
}
