import { JumpStartPrecision } from './model-traits';
import { AcceleratorKind, InstanceSpec } from '../core/instance-hardware';
import { compareInstanceSpecs, instanceSpecs, knownInstanceSpecs } from '../private/instance-table';

/**
 * Memory a model needs on its instance, from its family, parameter count and precision. Internal.
 *
 * required GiB = parameters (billions) x effective bytes per parameter + a fixed 7 GiB (CUDA context, the runtime's
 * KV-cache floor, activations). The effective bytes exceed the weights' own size because the KV cache and
 * activations stay 16-bit whatever the weight precision. The constants reproduce the minimum instance types commonly published for these models
 * (Llama 3 8B: ml.g5.2xlarge at 4-bit, ml.g5.12xlarge at fp16; Llama 3 70B: ml.g5.48xlarge at 4-bit; Mistral 7B:
 * ml.g5.2xlarge; Falcon 40B: ml.g5.12xlarge). JumpStart's default instance type for a version is AWS's tested
 * configuration, so the estimate is capped at that instance's memory (Llama 3.1 8B runs at fp16 on its default 24 GiB
 * ml.g5.4xlarge, which the formula alone would reject).
 */
const EFFECTIVE_BYTES_PER_PARAMETER: Record<JumpStartPrecision, number> = {
  [JumpStartPrecision.FP16]: 2.2,
  [JumpStartPrecision.FP8]: 1.1,
  [JumpStartPrecision.INT8]: 1.1,
  [JumpStartPrecision.INT4]: 1.3,
};
const FIXED_GIB = 7;
/** Stable Diffusion pipelines (UNet + VAE + text encoders at fp16) fit a 16 GiB T4/V100, JumpStart's usual default. */
const STABLE_DIFFUSION_GIB = 12;

export interface MemoryRequirement {
  /** Accelerator memory (or host memory on a CPU-only instance), in GiB, rounded up to one decimal. */
  readonly requiredGiB: number;
  /** How the figure was derived, for error messages. */
  readonly basis: string;
}

/** An instance type known to run the model (JumpStart's default for the version, at its default precision). */
export interface TestedInstance {
  readonly instanceType: string;
  readonly precision: JumpStartPrecision;
}

export function memoryRequirement(
  family: string,
  parameterBillions: number | undefined,
  precision: JumpStartPrecision,
  tested?: TestedInstance,
): MemoryRequirement | undefined {
  let estimate: MemoryRequirement;
  if (family === 'stable-diffusion') {
    estimate = { requiredGiB: STABLE_DIFFUSION_GIB, basis: 'a Stable Diffusion pipeline' };
  } else if (parameterBillions !== undefined) {
    const bytes = EFFECTIVE_BYTES_PER_PARAMETER[precision];
    estimate = {
      requiredGiB: Math.ceil((parameterBillions * bytes + FIXED_GIB) * 10) / 10,
      basis: `${parameterBillions}B parameters at ${precision} (${parameterBillions} x ${bytes} GiB + ${FIXED_GIB} GiB)`,
    };
  } else {
    return undefined;
  }
  const testedSpec = tested && instanceSpecs(tested.instanceType);
  // The tested instance bounds the need only at the precision it was tested with, or a smaller one.
  if (testedSpec && EFFECTIVE_BYTES_PER_PARAMETER[precision] <= EFFECTIVE_BYTES_PER_PARAMETER[tested.precision]
    && usableMemoryGiB(testedSpec) < estimate.requiredGiB) {
    return {
      requiredGiB: usableMemoryGiB(testedSpec),
      basis: `${estimate.basis}, capped at the ${usableMemoryGiB(testedSpec)} GiB of ${tested.instanceType}, JumpStart's default instance type for this version`,
    };
  }
  return estimate;
}

/** The memory of an instance that a model can use: all accelerators', or the host's on a CPU-only type. */
export function usableMemoryGiB(spec: InstanceSpec): number {
  return spec.accelerators > 0 ? spec.totalAcceleratorMemoryGiB : spec.memoryMiB / 1024;
}

export function fits(spec: InstanceSpec, requirement: MemoryRequirement): boolean {
  return usableMemoryGiB(spec) >= requirement.requiredGiB;
}

/**
 * The smallest instance type that fits: among `supported` when one of them does, else among the table's types with the
 * same accelerator kind (the model may then not list it; the message says so).
 */
export function minimumFittingInstance(
  requirement: MemoryRequirement,
  supported: string[],
): { instanceType: string; supported: boolean } | undefined {
  const pick = (specs: InstanceSpec[]) => specs.filter((s) => fits(s, requirement)).sort(compareInstanceSpecs)[0];
  const supportedSpecs = supported.map((t) => instanceSpecs(t)).filter((s): s is InstanceSpec => s !== undefined);
  const fromSupported = pick(supportedSpecs);
  if (fromSupported) return { instanceType: fromSupported.instanceType, supported: true };
  // Stay with the accelerator kind the model's container is built for (CUDA images do not run on Inferentia).
  const kinds = new Set(supportedSpecs.map((s) => s.acceleratorKind).filter((k) => k !== undefined));
  if (kinds.size === 0) kinds.add(AcceleratorKind.NVIDIA_GPU);
  const fromTable = pick(knownInstanceSpecs().filter((s) => s.acceleratorKind !== undefined && kinds.has(s.acceleratorKind)));
  return fromTable ? { instanceType: fromTable.instanceType, supported: false } : undefined;
}

/**
 * The least costly of `supported` that fits, by a rule that needs no prices (the bundled price table may be empty):
 * 1. fewest accelerator devices (each GPU is most of an instance's price, and one device needs no sharding);
 * 2. G-family types (T4, A10G, L4, L40S: AWS's inference GPUs) before P-family ones (V100, A100, H100: training-class
 *    GPUs, several times the price per device);
 * 3. the smallest: least accelerator memory, then host memory, then vCPUs;
 * 4. between types equal in all of these (ml.g5.xlarge and ml.g6.xlarge), JumpStart's default (`catalogDefault`).
 * Types missing from the instance table are skipped. Undefined when none fits.
 */
export function leastCostlyFittingInstance(
  requirement: MemoryRequirement, supported: ReadonlyArray<string>, catalogDefault: string,
): string | undefined {
  const pFamily = (s: InstanceSpec) => (/^ml\.p\d/.test(s.instanceType) ? 1 : 0);
  const notDefault = (s: InstanceSpec) => (s.instanceType === catalogDefault ? 0 : 1);
  return supported.map((t) => instanceSpecs(t)).filter((s): s is InstanceSpec => s !== undefined && fits(s, requirement))
    .sort((a, b) => a.accelerators - b.accelerators || pFamily(a) - pFamily(b)
      || a.totalAcceleratorMemoryGiB - b.totalAcceleratorMemoryGiB || a.memoryMiB - b.memoryMiB || a.vcpus - b.vcpus
      || notDefault(a) - notDefault(b) || a.instanceType.localeCompare(b.instanceType))[0]?.instanceType;
}

/** Accelerator devices of `spec` a model needs (for an inference component's ComputeResourceRequirements). */
export function acceleratorsNeeded(spec: InstanceSpec, requirement: MemoryRequirement): number | undefined {
  if (spec.accelerators === 0) return undefined;
  return Math.min(spec.accelerators, Math.max(1, Math.ceil(requirement.requiredGiB / spec.acceleratorMemoryGiB)));
}
