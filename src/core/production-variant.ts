import { Duration, Size } from 'aws-cdk-lib';
import { InstanceType } from './instance-type';
import { ModelSource } from './model-source';

/**
 * One instance pool of a production variant: an instance type and its priority. SageMaker provisions instances from
 * the pool with priority 1 first, falls back to the next priority when a type has no capacity (at creation and on
 * scale-out), and releases instances of the lowest-priority pool first on scale-in
 * (https://docs.aws.amazon.com/sagemaker/latest/dg/realtime-endpoints-heterogeneous.html).
 */
export interface InstancePool {
  /** The pool's instance type (`InstanceType`). */
  readonly instanceType: InstanceType;
  /** The pool's priority (`Priority`), 1-5; 1 is the highest, provisioned first. */
  readonly priority: number;
  /**
   * A model to run on this pool's instances instead of the variant's (`ModelNameOverride`), e.g. one whose image or
   * environment is built for this pool's instance type. Not available on a shared-GPU endpoint, whose config names no
   * model.
   *
   * @default - the variant's model
   */
  readonly model?: ModelSource;
}

/** The instance settings of a production variant (shared by realtime and async endpoints). */
export interface ProductionVariantOptions {
  /**
   * The instance type, e.g. `InstanceType.ML_G5_2XLARGE`. Give exactly one of the instance type and instance pools.
   *
   * @default - none: instance pools must be given
   */
  readonly instanceType?: InstanceType;
  /**
   * Up to five instance types in priority order (`InstancePools`), in place of an instance type: SageMaker falls back to
   * the next pool when one has no capacity, at creation and on scale-out. Give exactly one of the instance type and
   * instance pools. Autoscaling and metrics work on the variant as a whole; metrics also carry an `InstanceType`
   * dimension per pool.
   *
   * @default - none: the instance type must be given
   */
  readonly instancePools?: InstancePool[];
  /**
   * The total time SageMaker spends provisioning instances across all pools before the operation fails
   * (`VariantInstanceProvisionTimeoutInSeconds`, 300-3600 s). It covers capacity provisioning only, not the model
   * download or the container's startup.
   *
   * @default - SageMaker's default
   */
  readonly instanceProvisionTimeout?: Duration;
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
