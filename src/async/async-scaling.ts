/**
 * Internal: the backlog scaling of an async endpoint, on the library's one scaling implementation
 * (`../core/scaling/private/scaling-resources.ts`).
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { Construct, IConstruct } from 'constructs';
import { AsyncAutoScalingOptions } from './async-scaling-props';
import { ScalableInstanceCount } from '../core/scaling/scalable-instance-count';
import {
  addScaleFromZero, addTargetTracking, createScalableTarget, SCALING_DEFAULTS, VARIANT_SCALABLE_DIMENSION, validateScaling, variantResourceId,
  warnOnCooldowns,
} from '../private/scaling-resources';
import { PropValidator } from '../private/validation';


/** Internal: where the scaling resources attach. */
export interface BacklogScalingTarget {
  readonly endpointName: string;
  readonly variantName: string;
  readonly endpoint: IConstruct;
  readonly hasBacklogWithoutCapacity: cloudwatch.Metric;
}

/** What `addBacklogScaling` created. */
export interface BacklogScaling {
  readonly capacity: ScalableInstanceCount;
  /** The scale-from-zero alarm, with `minCapacity: 0`. */
  readonly scaleFromZeroAlarm?: cloudwatch.Alarm;
}

/** Records every problem with the scaling props (0 is a valid minimum for async variants). */
export function validateBacklogScaling(v: PropValidator, props: AsyncAutoScalingOptions): void {
  validateScaling(v, 'autoScaling.', props, { minCapacityFloor: 0, defaultMinCapacity: SCALING_DEFAULTS.minCapacity },
    { targetBacklogPerInstance: props.targetBacklogPerInstance });
}

/**
 * Target tracking on ApproximateBacklogSizePerInstance with asymmetric cooldowns; with minCapacity 0 also the
 * documented scale-from-zero pair (HasBacklogWithoutCapacity alarm -> +1 step policy), as AWS's recipe does it
 * (https://docs.aws.amazon.com/sagemaker/latest/dg/async-inference-autoscale.html). The resources keep their ids
 * directly under `scope` (the endpoint); the returned capacity (`<scope>/AutoScaling`) holds the policies users add.
 */
export function addBacklogScaling(scope: Construct, props: AsyncAutoScalingOptions, target: BacklogScalingTarget): BacklogScaling {
  const minCapacity = props.minCapacity ?? SCALING_DEFAULTS.minCapacity;
  warnOnCooldowns(scope, 'autoScaling.', props.scaleOutCooldown, props.scaleInCooldown);

  const scalableTarget = createScalableTarget(scope, 'ScalableTarget', {
    resourceId: variantResourceId(target.endpointName, target.variantName),
    scalableDimension: VARIANT_SCALABLE_DIMENSION,
    minCapacity,
    maxCapacity: props.maxCapacity ?? SCALING_DEFAULTS.maxCapacity,
    dependsOn: target.endpoint,
  });
  addTargetTracking(scope, 'BacklogScalingPolicy', scalableTarget.ref, {
    policyName: 'ApproximateBacklogSizePerInstance-ScalingPolicy',
    targetValue: props.targetBacklogPerInstance ?? SCALING_DEFAULTS.targetBacklogPerInstance,
    scaleOutCooldown: props.scaleOutCooldown,
    scaleInCooldown: props.scaleInCooldown,
    customizedMetric: {
      metricName: 'ApproximateBacklogSizePerInstance',
      namespace: 'AWS/SageMaker',
      dimensions: [{ name: 'EndpointName', value: target.endpointName }],
      statistic: 'Average',
    },
  });
  const capacity = new ScalableInstanceCount(scope, 'AutoScaling', { scalableTarget });
  if (minCapacity !== 0) return { capacity };

  // Target tracking cannot leave zero (backlog per instance is undefined with no instance): AWS's recipe, verbatim.
  const scaleFromZeroAlarm = addScaleFromZero(scope, scalableTarget.ref, {
    policyId: 'ScaleFromZeroPolicy',
    alarmId: 'ScaleFromZeroAlarm',
    policyName: 'HasBacklogWithoutCapacity-ScalingPolicy',
    metricAggregationType: 'Average',
    cooldown: Duration.seconds(300),
    alarmDescription: 'Requests are queued and the async endpoint has no instance: add one',
    metric: target.hasBacklogWithoutCapacity.with({ statistic: 'Average', period: Duration.minutes(1) }),
    evaluationPeriods: 2,
    datapointsToAlarm: 2,
    treatMissingData: cloudwatch.TreatMissingData.MISSING,
  });
  return { capacity, scaleFromZeroAlarm };
}
