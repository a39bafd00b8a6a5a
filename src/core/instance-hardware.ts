// The hardware of a SageMaker hosting instance type, as `InstanceSpecs` (./instance-specs.ts) describes it.

/** The kind of accelerator an instance type has. */
export enum AcceleratorKind {
  /** NVIDIA GPUs (CUDA). */
  NVIDIA_GPU = 'nvidia-gpu',
  /** AWS Inferentia chips (Neuron SDK). */
  AWS_INFERENTIA = 'aws-inferentia',
  /** AWS Trainium chips (Neuron SDK). */
  AWS_TRAINIUM = 'aws-trainium',
}

/** The hardware of one instance type. */
export interface InstanceSpec {
  /** The instance type, e.g. `ml.g5.2xlarge`. */
  readonly instanceType: string;
  /** vCPUs. */
  readonly vcpus: number;
  /** Host memory, in MiB. */
  readonly memoryMiB: number;
  /** Accelerator devices (GPUs, or Inferentia/Trainium chips); 0 for CPU-only types. */
  readonly accelerators: number;
  /**
   * The accelerator kind.
   *
   * @default - none (CPU only)
   */
  readonly acceleratorKind?: AcceleratorKind;
  /**
   * The accelerator model, e.g. `A10G`, `H100`, `Inferentia2`.
   *
   * @default - none (CPU only)
   */
  readonly acceleratorModel?: string;
  /** Memory of each accelerator device, in GiB (0 for CPU-only types). */
  readonly acceleratorMemoryGiB: number;
  /** Memory of all accelerator devices together, in GiB. */
  readonly totalAcceleratorMemoryGiB: number;
  /** Whether the instance has local NVMe instance storage (a KMS key cannot encrypt it). */
  readonly localNvme: boolean;
}
