import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { RolloutCapacity } from './capacity';

/** Options every rollout shares. */
export interface RolloutOptions {
  /**
   * The CloudWatch alarms SageMaker watches during the baking periods: if any is in ALARM, the update stops and traffic
   * goes back to the old fleet (1-10 alarms). Pass `[]` for a rollout without automatic rollback.
   *
   * @default - the construct's own alarms when it has them (RealtimeEndpoint: the p99 latency and 5xx-rate alarms of
   * its `alarms` prop); otherwise none, with a synth warning (a baking period without alarms watches nothing)
   */
  readonly autoRollbackOn?: cloudwatch.IAlarm[];
  /**
   * The time limit of the whole update (600 s to 8 h). For blue/green rollouts it must be longer than the baking period
   * plus the final baking period.
   *
   * @default - SageMaker's default
   */
  readonly maximumExecutionTime?: Duration;
}

/** An all-at-once blue/green rollout: all traffic moves to the new fleet, which bakes before the old one is terminated. */
export interface AllAtOnceRolloutOptions extends RolloutOptions {
  /**
   * How long the alarms watch the new fleet, with the old fleet kept for a rollback, before the old fleet is terminated
   * (0 to 1 h; the `TerminationWaitInSeconds` of the blue/green policy).
   *
   * @default Duration.minutes(10)
   */
  readonly bakingPeriod?: Duration;
}

/** A canary blue/green rollout: a small part of the traffic first, the rest after it baked. */
export interface CanaryRolloutOptions extends RolloutOptions {
  /**
   * The canary: at most 50% of the variant's instances (`RolloutCapacity.instances(n)` or `RolloutCapacity.percent(p)`).
   */
  readonly size: RolloutCapacity;
  /**
   * How long the canary bakes (the alarms watch it) before the rest of the traffic moves (0 to 1 h; the traffic
   * routing's `WaitIntervalInSeconds`).
   *
   * @default Duration.minutes(10)
   */
  readonly bakingPeriod?: Duration;
  /**
   * How long the whole new fleet bakes, with the old fleet kept, before the old fleet is terminated (0 to 1 h; the
   * blue/green policy's `TerminationWaitInSeconds`).
   *
   * @default - none: the old fleet is terminated as soon as all traffic moved
   */
  readonly finalBakingPeriod?: Duration;
}

/** A linear blue/green rollout: traffic moves in equal steps, each baking before the next. */
export interface LinearRolloutOptions extends RolloutOptions {
  /** Each step: 10-50% of the variant's instances (`RolloutCapacity.instances(n)` or `RolloutCapacity.percent(p)`). */
  readonly stepSize: RolloutCapacity;
  /**
   * How long each step bakes before the next (0 to 1 h; the traffic routing's `WaitIntervalInSeconds`).
   *
   * @default Duration.minutes(10)
   */
  readonly bakingPeriod?: Duration;
  /**
   * How long the whole new fleet bakes, with the old fleet kept, before the old fleet is terminated (0 to 1 h).
   *
   * @default - none: the old fleet is terminated as soon as all traffic moved
   */
  readonly finalBakingPeriod?: Duration;
}

/**
 * A rolling update: batches of new instances (or copies) replace old ones, each batch baking before the next. Needs
 * fewer spare instances than blue/green; for endpoints with one variant only.
 */
export interface RollingRolloutOptions extends RolloutOptions {
  /**
   * Each batch: 5-50% of the variant's instances (`RolloutCapacity.instances(n)`), of the component's copies
   * (`RolloutCapacity.copies(n)`), or `RolloutCapacity.percent(p)`.
   */
  readonly batchSize: RolloutCapacity;
  /**
   * How long each batch bakes before the next (0 to 1 h; `WaitIntervalInSeconds`).
   *
   * @default Duration.minutes(10)
   */
  readonly bakingPeriod?: Duration;
  /**
   * How many instances (copies) a rollback restores at a time.
   *
   * @default - all at once (SageMaker's default, 100%)
   */
  readonly rollbackBatchSize?: RolloutCapacity;
}
