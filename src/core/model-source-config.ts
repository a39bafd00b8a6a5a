/** What binding a model source takes and gives: the contract between every `ModelSource` and the endpoints. */
import { Size } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { InstanceType } from './instance-type';
import { ModelDataConfig } from './model-data';
import { ModelFamily } from './model-family.generated';

/** What binding a model source needs. */
export interface ModelSourceBindOptions {
  /** The role the model runs with; the source grants it what it needs (ECR pull, S3 read, KMS decrypt). */
  readonly role: iam.IRole;
  /**
   * The instance type the model will run on (per-instance images, environment and sizing checks).
   *
   * @default - the source's own default (JumpStart: the catalog's default instance type)
   */
  readonly instanceType?: InstanceType;
}

/** A bound model: either an existing model by name, or what to create one from. */
export interface ModelSourceConfig {
  /**
   * An existing SageMaker model; when set nothing else is used and no model is created.
   *
   * @default - a model is created from the image URI
   */
  readonly modelName?: string;
  /**
   * A versioned model package the model is created from (`Containers[].ModelPackageName`): its containers, images and
   * artifacts come from the package, so the image URI and the model data are unset.
   *
   * @default - none
   */
  readonly modelPackageName?: string;
  /**
   * The container image.
   *
   * @default - none (required unless a model name is set)
   */
  readonly imageUri?: string;
  /**
   * The model artifacts.
   *
   * @default - the image holds everything the model needs
   */
  readonly modelData?: ModelDataConfig;
  /**
   * Container environment variables.
   *
   * @default - none
   */
  readonly environment?: { [key: string]: string };
  /**
   * Run the container without network access.
   *
   * @default false
   */
  readonly enableNetworkIsolation?: boolean;
  /**
   * The payload family the MCP invoke tool builds for this model (a `ModelFamily`).
   *
   * @default - unknown
   */
  readonly modelFamily?: ModelFamily;
  /**
   * Accelerator devices (GPUs, Neuron devices) of one instance of the bound instance type the model needs, for an
   * inference component's default accelerator count. JumpStart models derive it from their size and precision.
   *
   * @default - unknown
   */
  readonly acceleratorsRequired?: number;
  /**
   * The accelerator memory the model is estimated to need in all, for sizing checks. JumpStart models derive it from
   * their size and precision.
   *
   * @default - unknown
   */
  readonly acceleratorMemoryRequired?: Size;
  /**
   * Host every model under the model data prefix (container `Mode: MultiModel`); requests name one with `TargetModel`.
   *
   * @default false
   */
  readonly multiModel?: boolean;
  /**
   * The target models (paths relative to the prefix) callers may name, for the MCP tool's allow-list.
   *
   * @default - none declared
   */
  readonly targetModels?: string[];
}
