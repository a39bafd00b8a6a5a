import { Duration } from 'aws-cdk-lib';

/**
 * Autoscaling of an async endpoint on its queue, as AWS's recipe does it
 * (https://docs.aws.amazon.com/sagemaker/latest/dg/async-inference-autoscale.html).
 */
export interface AsyncAutoScalingOptions {
  /**
   * The fewest instances. 0 lets the endpoint scale to zero while its queue is empty; the scale-from-zero alarm and
   * step policy are then added (the first request after an idle period waits for an instance to start: minutes).
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
   * Target of `ApproximateBacklogSizePerInstance` (queued requests per instance).
   *
   * @default 5
   */
  readonly targetBacklogPerInstance?: number;
  /**
   * Wait after a scale-out before another; shorter than the scale-in cooldown.
   *
   * @default Duration.seconds(60)
   */
  readonly scaleOutCooldown?: Duration;
  /**
   * Wait after a scale-in before another; longer, because a new instance takes minutes to load the model.
   *
   * @default Duration.seconds(300)
   */
  readonly scaleInCooldown?: Duration;
}
