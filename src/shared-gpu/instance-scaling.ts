import { Duration } from 'aws-cdk-lib';

/** How managed instance scaling removes instances (`ScaleInPolicy.Strategy`). */
export enum SharedGpuScaleInStrategy {
  /** Release instances that no longer host any copy. */
  IDLE_RELEASE = 'IDLE_RELEASE',
  /** Move copies together so that instances empty out, then release them. */
  CONSOLIDATION = 'CONSOLIDATION',
}

/**
 * Managed instance scaling of a shared-GPU endpoint (`ManagedInstanceScaling`): SageMaker adds instances when copies
 * scaled by Application Auto Scaling no longer fit, and removes instances that copies no longer need.
 */
export interface SharedGpuInstanceScalingOptions {
  /**
   * The fewest instances (`MinInstanceCount`). 0 lets the endpoint scale to zero instances once every component has scaled to zero copies
   * (only endpoints that host inference components can).
   */
  readonly minCapacity: number;

  /** The most instances (`MaxInstanceCount`, at least 1). */
  readonly maxCapacity: number;

  /**
   * How instances are removed.
   *
   * @default - no ScaleInPolicy is sent; SageMaker's default applies
   */
  readonly scaleInStrategy?: SharedGpuScaleInStrategy;

  /**
   * The most instances removed in one scale-in step (1-100). Needs a scale-in strategy.
   *
   * @default - SageMaker's default (1)
   */
  readonly scaleInMaximumStepSize?: number;

  /**
   * The wait between scale-in steps (5 minutes to 1 day, whole minutes). Needs a scale-in strategy.
   *
   * @default - SageMaker's default (20 minutes)
   */
  readonly scaleInCooldown?: Duration;
}
