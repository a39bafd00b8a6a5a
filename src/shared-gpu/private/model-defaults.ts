import { SizeRoundingBehavior } from 'aws-cdk-lib';
import { capacityOf } from './capacity';
import { InstanceType } from '../../core/instance-type';
import { ModelSourceConfig } from '../../core/model-source-config';

/**
 * Internal: the per-copy resources a bound model implies when an inference component leaves them out.
 * Not exported from the package.
 */
export interface ModelResourceDefaults {
  readonly acceleratorCount?: number;
  readonly minMemoryMib?: number;
}

/**
 * A model's slice of one instance, from what its source says it needs (JumpStart models: their size and precision):
 * the accelerators it needs on `instanceType`, and the same share of host memory (memory follows accelerators, so the
 * copies that fit by accelerators also fit by memory). The count is rounded up to a power of two (1, 2, 4, 8): LLM
 * containers shard the model with tensor parallelism, which splits attention heads evenly over the devices. On a
 * CPU-only type, the memory its weights need. Undefined when the source says nothing or the instance type is unknown.
 * `acceleratorsRequired` is what the model needs on `instanceType`: the bound source's figure is for the type it was
 * bound for, so another pool's type passes its own.
 */
export function modelResourceDefaults(
  model: ModelSourceConfig, instanceType: InstanceType, acceleratorsRequired: number | undefined = model.acceleratorsRequired,
): ModelResourceDefaults | undefined {
  const capacity = capacityOf(instanceType);
  if (!capacity) return undefined;
  if (capacity.acceleratorCount === 0) {
    const gib = modelAcceleratorMemoryGiB(model);
    return gib === undefined ? undefined : { minMemoryMib: Math.ceil(gib * 1024) };
  }
  const needed = acceleratorsRequired;
  if (needed === undefined) return undefined;
  const acceleratorCount = tensorParallelDegree(needed, capacity.acceleratorCount);
  return {
    acceleratorCount,
    minMemoryMib: Math.floor(capacity.memoryMib * acceleratorCount / capacity.acceleratorCount),
  };
}

/** The smallest power of two >= `needed`, capped at the instance's devices (then the copy does not fit, and says so). */
export function tensorParallelDegree(needed: number, devices: number): number {
  let degree = 1;
  while (degree < needed) degree *= 2;
  return Math.min(degree, Math.max(devices, needed));
}

/** A bound model's accelerator-memory estimate in GiB, when its source gives one. */
export function modelAcceleratorMemoryGiB(model: ModelSourceConfig): number | undefined {
  return model.acceleratorMemoryRequired?.toGibibytes({ rounding: SizeRoundingBehavior.NONE });
}
