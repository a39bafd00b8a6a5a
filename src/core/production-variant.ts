import { Duration, Size } from 'aws-cdk-lib';
import { InstanceType } from './instance-type';

/** The instance settings of a production variant (shared by realtime and async endpoints). */
export interface ProductionVariantOptions {
  /** The instance type, e.g. `InstanceType.ML_G5_2XLARGE`. */
  readonly instanceType: InstanceType;
  /**
   * Instances the variant starts with (autoscaling, when enabled, takes over from there).
   *
   * @default 1
   */
  readonly initialInstanceCount?: number;
  /**
   * The variant's share of traffic relative to the other variants' weights.
   *
   * @default 1
   */
  readonly initialVariantWeight?: number;
  /**
   * The size of the EBS volume attached to each instance (1-512 GB). Instance types with NVMe instance storage (g5, p4d,
   * ...) have no such volume.
   *
   * @default - SageMaker's default for the instance type
   */
  readonly volumeSize?: Size;
  /**
   * How long SageMaker may take to download the model artifacts to an instance (60-3600 s).
   *
   * @default - SageMaker's default (large models need more)
   */
  readonly modelDataDownloadTimeout?: Duration;
  /**
   * How long the container may take to pass its first health check (60-3600 s).
   *
   * @default - SageMaker's default (large models need more)
   */
  readonly containerStartupHealthCheckTimeout?: Duration;
}
