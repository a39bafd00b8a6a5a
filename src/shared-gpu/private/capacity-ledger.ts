import { SizeRoundingBehavior, Token } from 'aws-cdk-lib';
import { CapacityProblem, CapacityProblemKind, InferenceComponentRequirement } from './binding';
import { capacityOf, checkCopyFitsInstance, checkInitialCopiesFit, CopyRequirement, InstanceCapacity } from './capacity';
import { InstanceType } from '../../core/instance-type';
import { PropValidator } from '../../private/validation';

/**
 * Internal: what a `SharedGpuEndpoint`'s instances have and what its components reserved at creation. Owned by the
 * endpoint; components reserve through `ISharedGpuEndpoint._reserveCopies`.
 */
export class CapacityLedger {
  /** The capacity of one instance, when the instance table knows the type. */
  public readonly capacity?: InstanceCapacity;
  private readonly reserved: CopyRequirement[] = [];

  constructor(private readonly instanceType: InstanceType, private readonly instanceCount: number) {
    this.capacity = capacityOf(instanceType);
  }

  /** The problems of one more component (none: it is recorded). */
  public reserve(requirement: InferenceComponentRequirement): CapacityProblem[] {
    const problems = this.problemsOf(requirement);
    if (problems.length === 0) this.reserved.push(toCopyRequirement(requirement));
    return problems;
  }

  /** The problems of one more component, recording nothing (for an endpoint whose instance pools each have a ledger). */
  public problemsOf(requirement: InferenceComponentRequirement): CapacityProblem[] {
    const req = toCopyRequirement(requirement);
    const copy = new PropValidator('capacity');
    const total = new PropValidator('capacity');
    if (this.capacity) {
      checkCopyFitsInstance(copy, req, this.capacity, this.instanceType.name);
      if (!Token.isUnresolved(this.instanceCount)) {
        checkInitialCopiesFit(total, [...this.reserved, req], this.capacity, this.instanceType.name, this.instanceCount);
      }
    }
    return [
      ...copy.problemList.map((message) => ({ kind: CapacityProblemKind.COPY_EXCEEDS_INSTANCE, message })),
      ...total.problemList.map((message) => ({ kind: CapacityProblemKind.INITIAL_COPIES_EXCEED_ENDPOINT, message })),
    ];
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
