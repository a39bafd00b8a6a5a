import { SizeRoundingBehavior, Token } from 'aws-cdk-lib';
import { capacityOf, checkCopyFitsInstance, checkInitialCopiesFit, CopyRequirement, InstanceCapacity } from './capacity';
import { InstanceType } from '../../core/instance-type';
import { PropValidator } from '../../core/validation';
import { InferenceComponentRequirement } from '../shared-gpu-endpoint-interface';

/**
 * Internal: what a `SharedGpuEndpoint`'s instances have and what its components reserved at creation. Owned by the
 * endpoint; components reserve through `ISharedGpuEndpoint.reserveCopies`.
 */
export class CapacityLedger {
  /** The capacity of one instance, when the instance table knows the type. */
  public readonly capacity?: InstanceCapacity;
  private readonly reserved: CopyRequirement[] = [];

  constructor(private readonly instanceType: InstanceType, private readonly instanceCount: number) {
    this.capacity = capacityOf(instanceType);
  }

  /** The problems of one more component (none: it is recorded). */
  public reserve(requirement: InferenceComponentRequirement): string[] {
    const req = toCopyRequirement(requirement);
    const v = new PropValidator('capacity');
    if (this.capacity) {
      checkCopyFitsInstance(v, req, this.capacity, this.instanceType.name);
      if (!Token.isUnresolved(this.instanceCount)) {
        checkInitialCopiesFit(v, [...this.reserved, req], this.capacity, this.instanceType.name, this.instanceCount);
      }
    }
    if (!v.hasProblems) this.reserved.push(req);
    return v.problemList;
  }
}

function toCopyRequirement(r: InferenceComponentRequirement): CopyRequirement {
  const mib = r.minMemory?.toMebibytes({ rounding: SizeRoundingBehavior.NONE });
  return {
    label: r.label,
    acceleratorCount: r.acceleratorCount,
    minMemoryMib: mib === undefined || Token.isUnresolved(mib) ? undefined : mib,
    cpuCores: r.cpuCores,
    copies: r.copies,
  };
}
