/**
 * The documented ranges of SageMaker's deployment guardrails, and the checks on them. Internal to src/rollouts.
 *
 * Sources (SageMaker API reference, mirrored by the CloudFormation resource reference):
 * - TrafficRoutingConfig: `WaitIntervalInSeconds` 0-3600; `CanarySize` "must be less than or equal to 50% of the
 *   variant's total instance count"; `LinearStepSize` "must be 10-50% of the variant's total instance count"
 *   (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_TrafficRoutingConfig.html).
 * - BlueGreenUpdatePolicy: `TerminationWaitInSeconds` 0-3600 (default 0); `MaximumExecutionTimeoutInSeconds` 600-28800,
 *   "should be larger than the total waiting time specified in TerminationWaitInSeconds and WaitIntervalInSeconds"
 *   (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_BlueGreenUpdatePolicy.html).
 * - RollingUpdatePolicy: `MaximumBatchSize` "between 5% to 50% of the variant's total instance count";
 *   `WaitIntervalInSeconds` 0-3600; `MaximumExecutionTimeoutInSeconds` 600-28800; `RollbackMaximumBatchSize` defaults to
 *   100% (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_RollingUpdatePolicy.html), and the same for
 *   inference components, in copies
 *   (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_InferenceComponentRollingUpdatePolicy.html).
 * - CapacitySize `Value`: an integer >= 1 (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_CapacitySize.html).
 * - AutoRollbackConfig `Alarms`: 1-10 (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_AutoRollbackConfig.html).
 */
import { Duration } from 'aws-cdk-lib';
import { PropValidator } from '../../private/validation';
import { RolloutCapacity } from '../capacity';

export const WAIT_MAX_SECONDS = 3600;
export const EXECUTION_MIN_SECONDS = 600;
export const EXECUTION_MAX_SECONDS = 28800;
export const MAX_ROLLBACK_ALARMS = 10;

/** Share of the fleet (percent) one step may move: [min, max]. */
export const STEP_SHARE = {
  canary: [0, 50],
  linear: [10, 50],
  rolling: [5, 50],
  rollback: [0, 100],
} as const;
export type StepKind = keyof typeof STEP_SHARE;

/** A duration in whole seconds within [min, max]; tokens pass. Returns the seconds when known. */
export function seconds(v: PropValidator, prop: string, d: Duration | undefined, min: number, max: number): number | undefined {
  if (d === undefined || d.isUnresolved()) return undefined;
  const s = d.toSeconds({ integral: false });
  const ok = Number.isInteger(s) && s >= min && s <= max;
  v.check(ok, prop, d.toHumanString(), `a whole number of seconds between ${min} and ${max} (${humanRange(min, max)})`);
  return ok ? s : undefined;
}

function humanRange(min: number, max: number): string {
  const h = (s: number) => (s % 3600 === 0 && s > 0 ? `${s / 3600} h` : s % 60 === 0 && s > 0 ? `${s / 60} min` : `${s} s`);
  return `${h(min)} to ${h(max)}`;
}

/**
 * A step's capacity on its own: an integer >= 1 of an allowed unit, a percentage within the step's documented share.
 * The share of an instance (or copy) count is checked when the fleet size is known (`capacityAgainstFleet`).
 */
export function capacity(v: PropValidator, prop: string, c: RolloutCapacity, kind: StepKind): void {
  v.check(Number.isInteger(c.value) && c.value >= 1, prop, c.value, 'an integer >= 1 (the API\'s CapacitySize Value)');
  if (!c.isPercent) return;
  const [min, max] = STEP_SHARE[kind];
  v.check(c.value >= Math.max(1, min) && c.value <= max, prop, c.toString(),
    `a percentage between ${Math.max(1, min)} and ${max} (${describe(kind)})`);
}

/** An instance or copy count against the fleet it steps through: the share must lie within the documented bounds. */
export function capacityAgainstFleet(v: PropValidator, prop: string, c: RolloutCapacity, kind: StepKind, fleet: number, what: string): void {
  if (c.isPercent || !Number.isInteger(c.value) || c.value < 1) return;
  const [min, max] = STEP_SHARE[kind];
  const share = (100 * c.value) / fleet;
  v.check(share >= min && share <= max, prop, c.toString(),
    `${describe(kind)}: with ${fleet} ${what}, ${allowedCounts(min, max, fleet, what)}`);
}

function allowedCounts(min: number, max: number, fleet: number, what: string): string {
  const lo = Math.max(1, Math.ceil((min * fleet) / 100));
  const hi = Math.floor((max * fleet) / 100);
  return lo <= hi ? `between ${lo} and ${hi} ${what}` : `no count fits (use at least ${Math.ceil(100 / max)} ${what})`;
}

function describe(kind: StepKind): string {
  switch (kind) {
    case 'canary': return 'a canary is at most 50% of the variant\'s instances';
    case 'linear': return 'a linear step is 10-50% of the variant\'s instances';
    case 'rolling': return 'a rolling batch is 5-50% of the fleet';
    default: return 'a rollback batch is at most 100% of the fleet';
  }
}
