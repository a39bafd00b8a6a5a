import { Duration, Names, Resource } from 'aws-cdk-lib';
import * as appscaling from 'aws-cdk-lib/aws-applicationautoscaling';
import { Construct } from 'constructs';
import { addTargetTracking, validateScaling } from '../../private/scaling-resources';
import { PropValidator } from '../../private/validation';

/** A target-tracking policy on a predefined SageMaker metric, added with a `scaleOn...` method. */
export interface SageMakerTargetTrackingOptions {
  /** The value of the metric the policy keeps the capacity at (> 0). */
  readonly targetValue: number;
  /**
   * Wait after a scale-out before another. Keep it shorter than the scale-in cooldown: bursts need capacity fast.
   *
   * @default Duration.seconds(60)
   */
  readonly scaleOutCooldown?: Duration;
  /**
   * Wait after a scale-in before another. Longer than scale-out, because new capacity takes minutes to load the model.
   *
   * @default Duration.seconds(300)
   */
  readonly scaleInCooldown?: Duration;
  /**
   * Only scale out; leave scale-in to other policies.
   *
   * @default false
   */
  readonly disableScaleIn?: boolean;
  /**
   * The policy's name, unique among the policies of this scalable target.
   *
   * @default - a name unique in the stack, derived from the policy's construct path
   */
  readonly policyName?: string;
}

/** What a `ScalableCapacity` wraps. */
export interface ScalableCapacityProps {
  /** The registered scalable target (AWS::ApplicationAutoScaling::ScalableTarget) policies are added to. */
  readonly scalableTarget: appscaling.CfnScalableTarget;
}

/**
 * The capacity of a SageMaker resource that Application Auto Scaling scales: an endpoint variant's instance count or an
 * inference component's copy count. The endpoint constructs return it from their scaling methods, so that more
 * policies can be added: SageMaker's own metrics with its scaling methods named after them, any metric with its
 * target-tracking or step scaling method, and any `aws-applicationautoscaling` policy (it is an `IScalableTarget`).
 *
 * The scalable target has no RoleARN: Application Auto Scaling uses its SageMaker service-linked role.
 */
export abstract class ScalableCapacity extends Resource implements appscaling.IScalableTarget {
  /** The scalable target's id (its `Ref`), what scaling policies name as `ScalingTargetId`. */
  public readonly scalableTargetId: string;
  /** The scalable target's ResourceId, e.g. `endpoint/<name>/variant/<variant>` or `inference-component/<name>`. */
  public readonly resourceId: string;
  /** The scalable dimension, e.g. `sagemaker:variant:DesiredInstanceCount`. */
  public readonly scalableDimension: string;
  /** The fewest instances or copies. */
  public readonly minCapacity: number;
  /** The most instances or copies. */
  public readonly maxCapacity: number;

  protected constructor(scope: Construct, id: string, props: ScalableCapacityProps) {
    super(scope, id);
    const target = props.scalableTarget;
    this.scalableTargetId = target.ref;
    this.resourceId = target.resourceId;
    this.scalableDimension = target.scalableDimension;
    this.minCapacity = target.minCapacity;
    this.maxCapacity = target.maxCapacity;
  }

  /** The reference `aws-applicationautoscaling` policies use (its resource id is the target's id, as `ScalableTarget` gives it). */
  public get scalableTargetRef(): appscaling.ScalableTargetReference {
    return { resourceId: this.scalableTargetId, scalableDimension: this.scalableDimension, serviceNamespace: 'sagemaker' };
  }

  /**
   * Adds a target-tracking policy on any CloudWatch metric (or a predefined one), e.g. GPU utilization.
   */
  public scaleToTrackMetric(id: string, props: appscaling.BasicTargetTrackingScalingPolicyProps): appscaling.TargetTrackingScalingPolicy {
    return new appscaling.TargetTrackingScalingPolicy(this, id, { ...props, scalingTarget: this });
  }

  /**
   * Adds a step-scaling policy on a metric, with the alarms it needs, e.g. to add capacity on a queue-depth metric.
   */
  public scaleOnMetric(id: string, props: appscaling.BasicStepScalingPolicyProps): appscaling.StepScalingPolicy {
    return new appscaling.StepScalingPolicy(this, id, { ...props, scalingTarget: this });
  }

  /**
   * Adds a target-tracking policy on one of SageMaker's predefined scaling metrics (the `scaleOn...` methods of the
   * subclasses name them).
   *
   * @param predefinedMetricType e.g. `SageMakerVariantInvocationsPerInstance`
   */
  protected trackPredefinedMetric(id: string, predefinedMetricType: string, options: SageMakerTargetTrackingOptions): appscaling.CfnScalingPolicy {
    const v = new PropValidator(`${this.constructor.name} '${this.node.path}' policy '${id}'`);
    validateScaling(v, '', { scaleOutCooldown: options.scaleOutCooldown, scaleInCooldown: options.scaleInCooldown },
      { minCapacityFloor: 0 }, { targetValue: options.targetValue });
    v.throwIfInvalid();
    const policy = addTargetTracking(this, id, this.scalableTargetId, {
      policyName: 'placeholder',
      predefinedMetricType,
      targetValue: options.targetValue,
      scaleOutCooldown: options.scaleOutCooldown,
      scaleInCooldown: options.scaleInCooldown,
      disableScaleIn: options.disableScaleIn,
    });
    policy.policyName = options.policyName ?? Names.uniqueId(policy);
    return policy;
  }
}
