/**
 * Internal (not exported from the package): the hardware table of SageMaker hosting instance types, for sizing checks
 * at synth (an undersized instance makes the container crash with an InternalFailure that does not name the cause).
 * Figures are the EC2 instance type specifications (vCPUs, memory, accelerators and accelerator memory per device,
 * instance-store NVMe), which the `ml.` types share. `InstanceSpecs` (src/core/instance-specs.ts) is its public face.
 */
import { AcceleratorKind, InstanceSpec } from '../core/instance-hardware';

type Row = [size: string, vcpus: number, memoryGiB: number, accelerators: number];

interface Family {
  readonly kind?: AcceleratorKind;
  readonly model?: string;
  readonly memoryGiB?: number;
  readonly nvme: boolean;
  readonly rows: Row[];
}

const GPU = AcceleratorKind.NVIDIA_GPU;

/** g5 (A10G) and g6 (L4) come in the same sizes: [size, vCPU, host GiB, accelerators]. */
const G5_G6_SIZES: Row[] = [['xlarge', 4, 16, 1], ['2xlarge', 8, 32, 1], ['4xlarge', 16, 64, 1],
  ['8xlarge', 32, 128, 1], ['16xlarge', 64, 256, 1], ['12xlarge', 48, 192, 4], ['24xlarge', 96, 384, 4], ['48xlarge', 192, 768, 8]];

const ACCELERATED: Record<string, Family> = {
  g4dn: {
    kind: GPU,
    model: 'T4',
    memoryGiB: 16,
    nvme: true,
    rows: [['xlarge', 4, 16, 1], ['2xlarge', 8, 32, 1], ['4xlarge', 16, 64, 1], ['8xlarge', 32, 128, 1], ['12xlarge', 48, 192, 4], ['16xlarge', 64, 256, 1]],
  },
  g5: {
    kind: GPU,
    model: 'A10G',
    memoryGiB: 24,
    nvme: true,
    rows: G5_G6_SIZES,
  },
  g6: {
    kind: GPU,
    model: 'L4',
    memoryGiB: 24,
    nvme: true,
    rows: G5_G6_SIZES,
  },
  g6e: {
    kind: GPU,
    model: 'L40S',
    memoryGiB: 48,
    nvme: true,
    rows: [['xlarge', 4, 32, 1], ['2xlarge', 8, 64, 1], ['4xlarge', 16, 128, 1], ['8xlarge', 32, 256, 1], ['16xlarge', 64, 512, 1],
      ['12xlarge', 48, 384, 4], ['24xlarge', 96, 768, 4], ['48xlarge', 192, 1536, 8]],
  },
  p2: { kind: GPU, model: 'K80', memoryGiB: 12, nvme: false, rows: [['xlarge', 4, 61, 1], ['8xlarge', 32, 488, 8], ['16xlarge', 64, 732, 16]] },
  p3: { kind: GPU, model: 'V100', memoryGiB: 16, nvme: false, rows: [['2xlarge', 8, 61, 1], ['8xlarge', 32, 244, 4], ['16xlarge', 64, 488, 8]] },
  p3dn: { kind: GPU, model: 'V100', memoryGiB: 32, nvme: true, rows: [['24xlarge', 96, 768, 8]] },
  p4d: { kind: GPU, model: 'A100', memoryGiB: 40, nvme: true, rows: [['24xlarge', 96, 1152, 8]] },
  p4de: { kind: GPU, model: 'A100', memoryGiB: 80, nvme: true, rows: [['24xlarge', 96, 1152, 8]] },
  p5: { kind: GPU, model: 'H100', memoryGiB: 80, nvme: true, rows: [['48xlarge', 192, 2048, 8]] },
  p5e: { kind: GPU, model: 'H200', memoryGiB: 141, nvme: true, rows: [['48xlarge', 192, 2048, 8]] },
  p5en: { kind: GPU, model: 'H200', memoryGiB: 141, nvme: true, rows: [['48xlarge', 192, 2048, 8]] },
  inf1: {
    kind: AcceleratorKind.AWS_INFERENTIA,
    model: 'Inferentia',
    memoryGiB: 8,
    nvme: false,
    rows: [['xlarge', 4, 8, 1], ['2xlarge', 8, 16, 1], ['6xlarge', 24, 48, 4], ['24xlarge', 96, 192, 16]],
  },
  inf2: {
    kind: AcceleratorKind.AWS_INFERENTIA,
    model: 'Inferentia2',
    memoryGiB: 32,
    nvme: false,
    rows: [['xlarge', 4, 16, 1], ['8xlarge', 32, 128, 1], ['24xlarge', 96, 384, 6], ['48xlarge', 192, 768, 12]],
  },
  trn1: { kind: AcceleratorKind.AWS_TRAINIUM, model: 'Trainium', memoryGiB: 32, nvme: true, rows: [['2xlarge', 8, 32, 1], ['32xlarge', 128, 512, 16]] },
  trn1n: { kind: AcceleratorKind.AWS_TRAINIUM, model: 'Trainium', memoryGiB: 32, nvme: true, rows: [['32xlarge', 128, 512, 16]] },
};

const SIZE_VCPUS: Record<string, number> = {
  'medium': 2,
  'large': 2,
  'xlarge': 4,
  '2xlarge': 8,
  '4xlarge': 16,
  '8xlarge': 32,
  '9xlarge': 36,
  '12xlarge': 48,
  '16xlarge': 64,
  '18xlarge': 72,
  '24xlarge': 96,
  '32xlarge': 128,
  '48xlarge': 192,
};

/** CPU families: GiB of memory per vCPU, the sizes SageMaker hosting offers, and instance storage. */
const CPU: Record<string, { gibPerVcpu: number; sizes: string[]; nvme: boolean }> = {
  m5: { gibPerVcpu: 4, sizes: ['large', 'xlarge', '2xlarge', '4xlarge', '12xlarge', '24xlarge'], nvme: false },
  m5d: { gibPerVcpu: 4, sizes: ['large', 'xlarge', '2xlarge', '4xlarge', '12xlarge', '24xlarge'], nvme: true },
  c5: { gibPerVcpu: 2, sizes: ['large', 'xlarge', '2xlarge', '4xlarge', '9xlarge', '18xlarge'], nvme: false },
  c5d: { gibPerVcpu: 2, sizes: ['large', 'xlarge', '2xlarge', '4xlarge', '9xlarge', '18xlarge'], nvme: true },
  r5: { gibPerVcpu: 8, sizes: ['large', 'xlarge', '2xlarge', '4xlarge', '12xlarge', '24xlarge'], nvme: false },
  r5d: { gibPerVcpu: 8, sizes: ['large', 'xlarge', '2xlarge', '4xlarge', '12xlarge', '24xlarge'], nvme: true },
  m6i: { gibPerVcpu: 4, sizes: ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge', '32xlarge'], nvme: false },
  m6id: { gibPerVcpu: 4, sizes: ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge', '32xlarge'], nvme: true },
  c6i: { gibPerVcpu: 2, sizes: ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge', '32xlarge'], nvme: false },
  c6id: { gibPerVcpu: 2, sizes: ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge', '32xlarge'], nvme: true },
  r6i: { gibPerVcpu: 8, sizes: ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge', '32xlarge'], nvme: false },
  r6id: { gibPerVcpu: 8, sizes: ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge', '32xlarge'], nvme: true },
  m7i: { gibPerVcpu: 4, sizes: ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge', '48xlarge'], nvme: false },
  c7i: { gibPerVcpu: 2, sizes: ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge', '48xlarge'], nvme: false },
  r7i: { gibPerVcpu: 8, sizes: ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge', '48xlarge'], nvme: false },
};

/** Burstable types do not follow a fixed memory-per-vCPU ratio. */
const BURSTABLE: Row[] = [
  ['t2.medium', 2, 4, 0], ['t2.large', 2, 8, 0], ['t2.xlarge', 4, 16, 0], ['t2.2xlarge', 8, 32, 0],
  ['t3.medium', 2, 4, 0], ['t3.large', 2, 8, 0], ['t3.xlarge', 4, 16, 0], ['t3.2xlarge', 8, 32, 0],
];

function buildTable(): Map<string, InstanceSpec> {
  const table = new Map<string, InstanceSpec>();
  const add = (spec: InstanceSpec) => table.set(spec.instanceType, spec);
  for (const [family, f] of Object.entries(ACCELERATED)) {
    for (const [size, vcpus, memoryGiB, accelerators] of f.rows) {
      add({
        instanceType: `ml.${family}.${size}`,
        vcpus,
        memoryMiB: memoryGiB * 1024,
        accelerators,
        acceleratorKind: f.kind,
        acceleratorModel: f.model,
        acceleratorMemoryGiB: f.memoryGiB!,
        totalAcceleratorMemoryGiB: accelerators * f.memoryGiB!,
        localNvme: f.nvme,
      });
    }
  }
  for (const [family, f] of Object.entries(CPU)) {
    for (const size of f.sizes) {
      const vcpus = SIZE_VCPUS[size];
      add({
        instanceType: `ml.${family}.${size}`,
        vcpus,
        memoryMiB: vcpus * f.gibPerVcpu * 1024,
        accelerators: 0,
        acceleratorMemoryGiB: 0,
        totalAcceleratorMemoryGiB: 0,
        localNvme: f.nvme,
      });
    }
  }
  for (const [type, vcpus, memoryGiB] of BURSTABLE) {
    add({ instanceType: `ml.${type}`, vcpus, memoryMiB: memoryGiB * 1024, accelerators: 0, acceleratorMemoryGiB: 0, totalAcceleratorMemoryGiB: 0, localNvme: false });
  }
  return table;
}

let table: Map<string, InstanceSpec> | undefined;

/** The hardware of an instance type (`ml.g5.2xlarge`), or undefined when the type is not in the table. */
export function instanceSpecs(instanceType: string): InstanceSpec | undefined {
  table ??= buildTable();
  return table.get(instanceType);
}

/**
 * Families with NVMe instance storage that the table does not list (yet). CreateEndpointConfig API reference: such
 * storage is encrypted by a hardware module on the instance, and the call fails when a KmsKeyId is given for it.
 */
const NVME_FAMILIES = new Set([
  'c6id', 'c7gd', 'm6id', 'm6gd', 'r6id', 'r6gd', 'g6f', 'gr6', 'g7', 'g7e', 'p5e', 'p5en', 'trn1n', 'trn2',
]);
/** Newer families follow AWS's naming: a `d` suffix on c/m/r/x means local NVMe disks; p6 variants all have them. */
const NVME_FAMILY_PATTERN = /^([cmrx]\d+[a-z]*d|p6[a-z0-9-]*)$/;

/**
 * Whether an `ml.` instance type's storage is local NVMe: from the table when it knows the type, else by family.
 * The one answer used by the endpoint constructs (no KmsKeyId then) and by the SMCP-KMS1 check.
 */
export function hasLocalNvmeStorage(instanceType: string): boolean {
  const spec = instanceSpecs(instanceType);
  if (spec) return spec.localNvme;
  const family = instanceType.split('.')[1];
  return family !== undefined && (NVME_FAMILIES.has(family) || NVME_FAMILY_PATTERN.test(family));
}

/** Every instance type in the table. */
export function knownInstanceSpecs(): InstanceSpec[] {
  table ??= buildTable();
  return [...table.values()];
}

/**
 * Orders instance types from the smallest to the largest: by total accelerator memory, then accelerator count,
 * then host memory, then vCPUs, then name (so `ml.g5.*` sorts before an equal `ml.g6.*`).
 */
export function compareInstanceSpecs(a: InstanceSpec, b: InstanceSpec): number {
  return a.totalAcceleratorMemoryGiB - b.totalAcceleratorMemoryGiB
    || a.accelerators - b.accelerators
    || a.memoryMiB - b.memoryMiB
    || a.vcpus - b.vcpus
    || a.instanceType.localeCompare(b.instanceType);
}
