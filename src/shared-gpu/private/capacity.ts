import { InstanceType } from '../../core/instance-type';
import { instanceSpecs } from '../../private/instance-table';
import { PropValidator } from '../../private/validation';

/**
 * Internal: what one instance offers to inference-component copies, and the fit checks.
 * Not exported from the package.
 */

/** The resources of one instance that copies can reserve. */
export interface InstanceCapacity {
  readonly acceleratorCount: number;
  /** Host memory in MiB (`MinMemoryRequiredInMb` is compared against it). */
  readonly memoryMib: number;
  readonly vcpus: number;
  /** Whether the instance has NVMe instance storage (then `KmsKeyId` is refused by CreateEndpointConfig). */
  readonly nvme: boolean;
}

/** The props a requirement's values came from, for messages (default: the component's own). */
export interface CopyPropNames {
  readonly acceleratorCount: string;
  readonly minMemory: string;
  readonly cpuCores: string;
}

/** What one inference component asks for. */
export interface CopyRequirement {
  /** How the component is named in messages. */
  readonly label: string;
  readonly propNames?: CopyPropNames;
  readonly acceleratorCount?: number;
  readonly minMemoryMib?: number;
  readonly cpuCores?: number;
  readonly copies: number;
}

/** The capacity of one instance of `instanceType`, or undefined when it is a token or not in the specs table. */
export function capacityOf(instanceType: InstanceType): InstanceCapacity | undefined {
  if (instanceType.isUnresolved) return undefined;
  const spec = instanceSpecs(instanceType.name);
  if (!spec) return undefined;
  return { acceleratorCount: spec.accelerators, memoryMib: spec.memoryMiB, vcpus: spec.vcpus, nvme: spec.localNvme };
}

/** Records a problem for each resource one copy asks for beyond what one instance has (a copy never spans instances). */
export function checkCopyFitsInstance(v: PropValidator, req: CopyRequirement, cap: InstanceCapacity, instanceType: string): void {
  const one = `one ${instanceType} instance`;
  const prop = req.propNames ?? { acceleratorCount: 'acceleratorCount', minMemory: 'minMemory', cpuCores: 'cpuCores' };
  if (req.acceleratorCount !== undefined) {
    v.check(req.acceleratorCount <= cap.acceleratorCount, prop.acceleratorCount, req.acceleratorCount,
      `at most ${cap.acceleratorCount}: each copy runs on a single instance and ${one} has ${cap.acceleratorCount} accelerator(s)`);
  }
  if (req.minMemoryMib !== undefined && req.minMemoryMib > cap.memoryMib) {
    v.add(`${prop.minMemory}: got ${req.minMemoryMib} MiB, expected at most ${cap.memoryMib} MiB: each copy runs on a single instance and `
      + `${one} has ${cap.memoryMib} MiB of host memory`);
  }
  if (req.cpuCores !== undefined) {
    v.check(req.cpuCores <= cap.vcpus, prop.cpuCores, req.cpuCores,
      `at most ${cap.vcpus}: each copy runs on a single instance and ${one} has ${cap.vcpus} vCPUs`);
  }
}

/**
 * Records a problem when the initial copies of all components, together, need more than the endpoint's instances have.
 * This is a necessary condition only: copies cannot span instances, so a total that fits can still fail to place.
 */
export function checkInitialCopiesFit(
  v: PropValidator, all: CopyRequirement[], cap: InstanceCapacity, instanceType: string, instanceCount: number,
): void {
  const have = (per: number) => per * instanceCount;
  const fleet = `${instanceCount} × ${instanceType}`;
  const sum = (pick: (r: CopyRequirement) => number | undefined) => all.reduce((t, r) => t + r.copies * (pick(r) ?? 0), 0);
  const breakdown = (pick: (r: CopyRequirement) => number | undefined) =>
    all.filter((r) => pick(r) && r.copies).map((r) => `${r.label}: ${r.copies} × ${pick(r)}`).join(', ');

  const accelerators = sum((r) => r.acceleratorCount);
  if (accelerators > have(cap.acceleratorCount)) {
    v.add(`copies: the initial copies of all inference components need ${accelerators} accelerators (${breakdown((r) => r.acceleratorCount)}), `
      + `expected at most ${have(cap.acceleratorCount)}: the endpoint's ${fleet} have ${cap.acceleratorCount} each `
      + '(raise initialInstanceCount, pick a larger instance type, or start with fewer copies)');
  }
  const memory = sum((r) => r.minMemoryMib);
  if (memory > have(cap.memoryMib)) {
    v.add(`copies: the initial copies of all inference components need ${memory} MiB of memory (${breakdown((r) => r.minMemoryMib)}), `
      + `expected at most ${have(cap.memoryMib)}: the endpoint's ${fleet} have ${cap.memoryMib} MiB each `
      + '(raise initialInstanceCount, pick a larger instance type, or start with fewer copies)');
  }
  const cpus = sum((r) => r.cpuCores);
  if (cpus > have(cap.vcpus)) {
    v.add(`copies: the initial copies of all inference components need ${cpus} CPU cores (${breakdown((r) => r.cpuCores)}), `
      + `expected at most ${have(cap.vcpus)}: the endpoint's ${fleet} have ${cap.vcpus} vCPUs each `
      + '(raise initialInstanceCount, pick a larger instance type, or start with fewer copies)');
  }
}
