import { capacityOf } from './capacity';
import { InstanceType } from '../core/instance-type';
import { ModelSource } from '../core/model-source';
import { JumpStartModel } from '../jumpstart/jumpstart-model';

/**
 * Internal: the per-copy resources a model source implies when an inference component leaves them out.
 * Not exported from the package.
 */
export interface ModelResourceDefaults {
  readonly acceleratorCount?: number;
  readonly minMemoryMb?: number;
}

/**
 * A JumpStart model's slice of one instance: the accelerators its size and precision need on `instanceType`, and the
 * same share of host memory (memory follows accelerators, so the copies that fit by accelerators also fit by memory).
 * The count is rounded up to a power of two (1, 2, 4, 8): LLM containers shard the model with tensor parallelism,
 * which splits attention heads evenly over the devices. On a CPU-only type, the memory its weights need. Undefined for other sources, or when the model's size is unknown.
 */
export function modelResourceDefaults(model: ModelSource, instanceType: InstanceType): ModelResourceDefaults | undefined {
  if (!(model instanceof JumpStartModel)) return undefined;
  const capacity = capacityOf(instanceType);
  if (!capacity) return undefined;
  if (capacity.acceleratorCount === 0) {
    const gib = model.resourceRequirements.minAcceleratorMemoryGiB;
    return { minMemoryMb: gib === undefined ? undefined : Math.ceil(gib * 1024) };
  }
  const needed = model.acceleratorsRequired(instanceType);
  if (needed === undefined) return undefined;
  const acceleratorCount = tensorParallelDegree(needed, capacity.acceleratorCount);
  return {
    acceleratorCount,
    minMemoryMb: Math.floor(capacity.memoryMib * acceleratorCount / capacity.acceleratorCount),
  };
}

/** The smallest power of two >= `needed`, capped at the instance's devices (then the copy does not fit, and says so). */
export function tensorParallelDegree(needed: number, devices: number): number {
  let degree = 1;
  while (degree < needed) degree *= 2;
  return Math.min(degree, Math.max(devices, needed));
}

/** A JumpStart model's accelerator-memory estimate in GiB, when known. */
export function modelAcceleratorMemoryGiB(model: ModelSource): number | undefined {
  return model instanceof JumpStartModel ? model.resourceRequirements.minAcceleratorMemoryGiB : undefined;
}
