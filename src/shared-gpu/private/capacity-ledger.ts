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

  /**
   * The problems of one more component (none: it is recorded). `requirements` holds the component's slice per instance
   * type (`instanceType` set) or for every type (unset): the ledger takes the one for its own type.
   */
  public reserve(requirements: InferenceComponentRequirement[]): CapacityProblem[] {
    const problems = this.problemsOf(requirements);
    const requirement = this.requirementOf(requirements);
    if (problems.length === 0 && requirement) this.reserved.push(toCopyRequirement(requirement));
    return problems;
  }

  /** The problems of one more component, recording nothing (for an endpoint whose instance pools each have a ledger). */
  public problemsOf(requirements: InferenceComponentRequirement[]): CapacityProblem[] {
    const requirement = this.requirementOf(requirements);
    if (!requirement) return [];
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

  private requirementOf(requirements: InferenceComponentRequirement[]): InferenceComponentRequirement | undefined {
    return requirements.find((r) => r.instanceType === this.instanceType.name) ?? requirements.find((r) => r.instanceType === undefined);
  }
}

function toCopyRequirement(r: InferenceComponentRequirement): CopyRequirement {
  const mib = r.minMemory?.toMebibytes({ rounding: SizeRoundingBehavior.NONE });
  return {
    label: r.label,
    propNames: r.propNames,
    acceleratorCount: r.acceleratorCount,
    minMemoryMib: mib === undefined || Token.isUnresolved(mib) ? undefined : mib,
    cpuCores: r.cpuCores,
    copies: r.copies,
  };
}
