/**
 * Where an endpoint's model comes from: a container image (./container-image.ts) with optional artifacts
 * (./model-data.ts), a versioned model package, or an existing model. Binding one gives a `ModelSourceConfig`
 * (./model-source-config.ts); the multi-model and JumpStart sources are in ./multi-model-source.ts and src/jumpstart/.
 */
import { Token } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { ContainerImage } from './container-image';
import { ModelData } from './model-data';
import { ModelFamily } from './model-family.generated';
import { ModelSourceBindOptions, ModelSourceConfig } from './model-source-config';
import { IAM_ACTION } from '../private/iam-actions';
import { acknowledgeReadGrant } from '../private/model-role-nag';
import { PropValidator, SAGEMAKER_NAME_EXPECTED, SAGEMAKER_NAME_PATTERN } from '../private/validation';

/** Options of a model built from a container image. */
export interface ContainerModelOptions {
  /**
   * The model artifacts.
   *
   * @default - the image holds everything the model needs
   */
  readonly modelData?: ModelData;
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
   * The payload family the MCP invoke tool builds for this model (`ModelFamily.LLAMA3`, ...).
   *
   * @default - unknown
   */
  readonly modelFamily?: ModelFamily;
}

/** Options of a model created from a versioned model package (a `ModelSource` from a model package). */
export interface ModelPackageSourceOptions {
  /**
   * The versions the model may be made from, for the model role's `sagemaker:DescribeModelPackage`: usually a group's
   * versions ARN (`model-package/<group>/*`).
   *
   * @default - the given ARN itself (it must then be a literal, not a token such as a stack parameter)
   */
  readonly modelPackageVersionsArn?: string;
  /**
   * The bucket holding the versions' artifacts (the pipeline's output bucket): the model role may read them.
   *
   * @default - no S3 read (the images hold everything)
   */
  readonly artifactsBucket?: s3.IBucket;
  /**
   * Key pattern within the artifacts bucket the role may read, e.g. `pipelines/*`.
   *
   * @default '*'
   */
  readonly artifactsKeyPattern?: string;
  /**
   * The images the versions' containers run (e.g. `ContainerImage.xgboost('1.7-1')`): bound only for the model role's
   * pull rights; the image URI used is the package's own.
   *
   * @default - none (pull rights must come from elsewhere)
   */
  readonly images?: ContainerImage[];
  /**
   * The payload family the MCP invoke tool builds for this model (`ModelFamily.LLAMA3`, ...).
   *
   * @default - unknown
   */
  readonly modelFamily?: ModelFamily;
}

/** Where an endpoint's model comes from: a container (with optional artifacts), an existing model, or JumpStart. */
export abstract class ModelSource {
  /**
   * A model created from a versioned model package (`AWS::SageMaker::Model` with `Containers[].ModelPackageName`): the
   * package's containers, images and artifacts. The model role gets `sagemaker:DescribeModelPackage` on
   * the model package versions, read of the artifacts bucket and pull of the images.
   *
   * @param modelPackageArn `arn:<partition>:sagemaker:<region>:<account>:model-package/<group>/<version>`, or a token
   * (e.g. the model package ARN of an `ApprovedModelDeployment`, a stack parameter)
   */
  public static fromModelPackage(modelPackageArn: string, options: ModelPackageSourceOptions = {}): ModelSource {
    const v = new PropValidator('ModelSource.fromModelPackage');
    v.pattern('modelPackageArn', modelPackageArn, MODEL_PACKAGE_ARN, 'arn:<partition>:sagemaker:<region>:<account>:model-package/<group>/<version>');
    v.check(!Token.isUnresolved(modelPackageArn) || options.modelPackageVersionsArn !== undefined, 'modelPackageVersionsArn', undefined,
      'the versions the model may be made from (e.g. a group\'s modelPackageVersionsArn): modelPackageArn is a token');
    v.throwIfInvalid();
    return new ModelPackageModelSource(modelPackageArn, options);
  }

  /** A model built from a container image and optional artifacts. */
  public static fromContainer(image: ContainerImage, options: ContainerModelOptions = {}): ModelSource {
    return new ContainerModelSource(image, options);
  }

  /**
   * A model that already exists, by name. Its own execution role must already allow what the container needs.
   */
  public static fromModelName(modelName: string): ModelSource {
    new PropValidator('ModelSource.fromModelName')
      .pattern('modelName', modelName, SAGEMAKER_NAME_PATTERN, SAGEMAKER_NAME_EXPECTED, 63)
      .throwIfInvalid();
    return new ExistingModelSource(modelName);
  }

  /** Resolves the source and grants `options.role` what the model needs. */
  public abstract bind(scope: Construct, options: ModelSourceBindOptions): ModelSourceConfig;
}

class ContainerModelSource extends ModelSource {
  constructor(private readonly image: ContainerImage, private readonly options: ContainerModelOptions) {
    super();
  }
  public bind(scope: Construct, options: ModelSourceBindOptions): ModelSourceConfig {
    return {
      imageUri: this.image.bind(scope, options.role).imageUri,
      modelData: this.options.modelData?.bind(scope, options.role),
      environment: this.options.environment,
      enableNetworkIsolation: this.options.enableNetworkIsolation,
      modelFamily: this.options.modelFamily,
    };
  }
}

const MODEL_PACKAGE_ARN = /^arn:aws[a-z-]*:sagemaker:[a-z0-9-]+:\d{12}:model-package\/[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}\/\d+$/;

class ModelPackageModelSource extends ModelSource {
  constructor(private readonly modelPackageArn: string, private readonly options: ModelPackageSourceOptions) {
    super();
  }
  public bind(scope: Construct, options: ModelSourceBindOptions): ModelSourceConfig {
    // Acknowledged for cdk-nag with the model role's other wildcards (src/private/model-role-nag.ts).
    iam.Grant.addToPrincipal({
      grantee: options.role,
      actions: [IAM_ACTION.sagemaker.DescribeModelPackage],
      resourceArns: [this.options.modelPackageVersionsArn ?? this.modelPackageArn],
    });
    const read = this.options.artifactsBucket?.grantRead(options.role, this.options.artifactsKeyPattern ?? '*');
    if (read) acknowledgeReadGrant(scope, options.role, read);
    for (const image of this.options.images ?? []) image.bind(scope, options.role);
    return { modelPackageName: this.modelPackageArn, modelFamily: this.options.modelFamily };
  }
}

class ExistingModelSource extends ModelSource {
  constructor(private readonly modelName: string) {
    super();
  }
  public bind(): ModelSourceConfig {
    return { modelName: this.modelName };
  }
}
