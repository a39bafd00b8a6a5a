import { Duration } from 'aws-cdk-lib';

/** Target tracking on a production variant's instance count. */
export interface VariantAutoScalingOptions {
  /**
   * The fewest instances. Realtime endpoints keep at least one: only async and inference-component endpoints scale to zero.
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
   * Target of `SageMakerVariantInvocationsPerInstance`: invocations per instance per minute.
   *
   * @default 70
   */
  readonly targetInvocationsPerInstance?: number;
  /**
   * Wait after a scale-out before another. Keep it shorter than the scale-in cooldown: bursts need capacity fast.
   *
   * @default Duration.seconds(60)
   */
  readonly scaleOutCooldown?: Duration;
  /**
   * Wait after a scale-in before another. Longer than scale-out, because a new instance takes minutes to load the model.
   *
   * @default Duration.seconds(300)
   */
  readonly scaleInCooldown?: Duration;
  /**
   * Also track `SageMakerVariantConcurrentRequestsPerModelHighResolution` (10-second metrics, faster reaction to bursts)
   * at this many concurrent requests per model copy.
   *
   * @default - no concurrency policy
   */
  readonly targetConcurrentRequestsPerModel?: number;
}

/** Instance count autoscaling of a `RealtimeEndpoint`: which variant, and how it scales. */
export interface RealtimeAutoScalingOptions extends VariantAutoScalingOptions {
  /**
   * The variant to scale.
   *
   * @default - the endpoint's default variant (its first)
   */
  readonly variantName?: string;
}
