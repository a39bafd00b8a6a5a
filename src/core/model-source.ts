import { Aws, CfnMapping, Size, Stack, Token } from 'aws-cdk-lib';
import * as ecr from 'aws-cdk-lib/aws-ecr';
import * as ecrAssets from 'aws-cdk-lib/aws-ecr-assets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3Assets from 'aws-cdk-lib/aws-s3-assets';
import { Construct } from 'constructs';
import { dlcAccountFor, dlcRegions, ecrDomainSuffix } from './dlc-accounts';
import { IAM_ACTION } from './iam-actions';
import { InstanceType } from './instance-type';
import { ModelFamily } from './model-family.generated';
import { acknowledgeGrantWildcards } from './nag';
import { PropValidator, SAGEMAKER_NAME_EXPECTED, SAGEMAKER_NAME_PATTERN } from './validation';
import { CatalogImageVersionOptions, FrameworkImageOptions, HuggingFaceImageOptions, HuggingFaceTeiImageOptions } from '../images/image-options';
import * as images from '../private/images/catalog-images';
import { bindCatalogImage } from '../private/images/registry';
import { isLibraryModelRole } from '../private/model-role-nag';

/** What a container image resolves to when bound. */
export interface ContainerImageConfig {
  /** The image URI the model's container runs. */
  readonly imageUri: string;
}

/**
 * The container image a model runs. Binding grants the model's role exactly the pull rights for that repository.
 */
export abstract class ContainerImage {
  /**
   * An image in an ECR repository of yours.
   *
   * @param tag the image tag (or a digest starting with `sha256:`)
   */
  public static fromEcrRepository(repository: ecr.IRepository, tag: string = 'latest'): ContainerImage {
    return new EcrRepositoryImage(repository, tag);
  }

  /**
   * An AWS Deep Learning Container (for example `huggingface-pytorch-tgi-inference` or `djl-inference`), resolved per
   * region to the registry account that serves it. Regions that are tokens resolve through a CloudFormation mapping.
   *
   * @param repositoryName e.g. `huggingface-pytorch-tgi-inference`
   * @param tag e.g. `2.7.0-tgi3.3.6-gpu-py311-cu124-ubuntu22.04`
   */
  public static fromDlc(repositoryName: string, tag: string): ContainerImage {
    return new DlcImage(repositoryName, tag);
  }

  /**
   * Hugging Face Text Generation Inference (TGI, repository `huggingface-pytorch-tgi-inference`), from the image catalog
   * bundled with this library (the SageMaker Python SDK's `huggingface-llm` table). The URI is composed as the SDK's
   * `image_uris.retrieve` does, for the stack's region; see "Container image catalog" in the README's realtime guide.
   */
  public static huggingfaceTgi(options: CatalogImageVersionOptions): ContainerImage {
    return new CatalogImage(images.versionOnlyImage('huggingfaceTgi', 'huggingface-llm', options));
  }

  /** Hugging Face Text Embeddings Inference (TEI), GPU (`tei`) or CPU (`tei-cpu`), from the bundled image catalog. */
  public static huggingfaceTei(options: HuggingFaceTeiImageOptions): ContainerImage {
    return new CatalogImage(images.teiImage(options));
  }

  /** The Hugging Face vLLM image (`huggingface-vllm`), from the bundled image catalog. */
  public static vllm(options: CatalogImageVersionOptions): ContainerImage {
    return new CatalogImage(images.versionOnlyImage('vllm', 'huggingface-vllm', options));
  }

  /** DJL Large Model Inference (`djl-inference`, LMI), from the bundled image catalog. */
  public static djlLmi(options: CatalogImageVersionOptions): ContainerImage {
    return new CatalogImage(images.versionOnlyImage('djlLmi', 'djl-lmi', options));
  }

  /** Hugging Face transformers inference (`huggingface-pytorch-inference` / `-tensorflow-`), from the bundled image catalog. */
  public static huggingface(options: HuggingFaceImageOptions): ContainerImage {
    return new CatalogImage(images.transformersImage(options));
  }

  /** The SageMaker built-in XGBoost image (`sagemaker-xgboost`), e.g. `1.7-1`, from the bundled image catalog. */
  public static xgboost(version: string): ContainerImage {
    return new CatalogImage(images.simpleImage('xgboost', 'xgboost', version));
  }

  /** The SageMaker scikit-learn image (`sagemaker-scikit-learn`), e.g. `1.2-1`, from the bundled image catalog. */
  public static sklearn(version: string): ContainerImage {
    return new CatalogImage(images.simpleImage('sklearn', 'sklearn', version));
  }

  /** The PyTorch inference DLC (`pytorch-inference`), from the bundled image catalog. */
  public static pytorch(options: FrameworkImageOptions): ContainerImage {
    return new CatalogImage(images.frameworkImage('pytorch', 'pytorch', options));
  }

  /** The TensorFlow Serving inference DLC (`tensorflow-inference`), from the bundled image catalog. */
  public static tensorflow(options: FrameworkImageOptions): ContainerImage {
    return new CatalogImage(images.frameworkImage('tensorflow', 'tensorflow', options));
  }

  /** An image built from a local directory with a Dockerfile, published as a CDK asset (needs Docker at deploy). */
  public static fromAsset(directory: string, options: ecrAssets.DockerImageAssetOptions = {}): ContainerImage {
    return new AssetImage(directory, options);
  }

  /**
   * An image by its full ECR URI, `{account}.dkr.ecr.{region}.amazonaws.com[.cn]/{repository}:{tag}`.
   * The repository is parsed from the URI so pull rights stay scoped to it.
   */
  public static fromImageUri(imageUri: string): ContainerImage {
    return new UriImage(imageUri);
  }

  /** Resolves the image and grants `grantee` the rights to pull it. */
  public abstract bind(scope: Construct, grantee: iam.IGrantable): ContainerImageConfig;
}

/**
 * The reasons for the wildcards of a model's pull and read grants (the texts of src/private/model-role-nag.ts). A model
 * role this library created has them acknowledged by that table (known at synth: a role is registered once a model
 * uses it); a role the user gives (an imported role's grants land
 * in a Policy the role gets) has them acknowledged here, for the statements the grant adds only, so a wildcard the user
 * grants the same role stays reported.
 */
const PULL_WILDCARD_REASON = 'ecr:GetAuthorizationToken supports no resource-level permissions; image pulls are scoped to the model repository.';
const READ_WILDCARD_REASON = 'Read access to the model artifacts object or prefix only (CDK grantRead action groups).';

/** Acknowledges the cdk-nag IAM5 findings of exactly the statements an image pull grant adds to a role the user gave. */
export function acknowledgePullGrant(scope: Construct, grantee: iam.IGrantable, grant: iam.Grant): void {
  acknowledgeGrantWildcards(scope, grant, PULL_WILDCARD_REASON, () => isLibraryModelRole(grantee));
}

/** Acknowledges the cdk-nag IAM5 findings of exactly the statements a model artifacts read grant adds to a role the user gave. */
export function acknowledgeReadGrant(scope: Construct, grantee: iam.IGrantable, grant: iam.Grant): void {
  acknowledgeGrantWildcards(scope, grant, READ_WILDCARD_REASON, () => isLibraryModelRole(grantee));
}

/** Grants ECR pull on one repository, plus GetAuthorizationToken, which IAM only allows on `*`. */
export function grantEcrPull(scope: Construct, grantee: iam.IGrantable, repositoryArn: string): void {
  iam.Grant.addToPrincipal({
    grantee,
    actions: [IAM_ACTION.ecr.BatchCheckLayerAvailability, IAM_ACTION.ecr.BatchGetImage, IAM_ACTION.ecr.GetDownloadUrlForLayer],
    resourceArns: [repositoryArn],
  });
  acknowledgePullGrant(scope, grantee, iam.Grant.addToPrincipal({ grantee, actions: [IAM_ACTION.ecr.GetAuthorizationToken], resourceArns: ['*'] }));
}

class EcrRepositoryImage extends ContainerImage {
  constructor(private readonly repository: ecr.IRepository, private readonly tag: string) {
    super();
  }
  public bind(scope: Construct, grantee: iam.IGrantable): ContainerImageConfig {
    acknowledgePullGrant(scope, grantee, this.repository.grantPull(grantee));
    return { imageUri: this.repository.repositoryUriForTagOrDigest(this.tag) };
  }
}

class DlcImage extends ContainerImage {
  constructor(private readonly repositoryName: string, private readonly tag: string) {
    super();
  }
  public bind(scope: Construct, grantee: iam.IGrantable): ContainerImageConfig {
    const stack = Stack.of(scope);
    const account = dlcAccount(stack);
    const suffix = Token.isUnresolved(stack.region) ? Aws.URL_SUFFIX : ecrDomainSuffix(stack.region);
    grantEcrPull(scope, grantee, `arn:${stack.partition}:ecr:${stack.region}:${account}:repository/${this.repositoryName}`);
    return { imageUri: `${account}.dkr.ecr.${stack.region}.${suffix}/${this.repositoryName}:${this.tag}` };
  }
}

/** An image of the bundled catalog: the tag is composed at the call, the region's account and domain at bind. */
class CatalogImage extends ContainerImage {
  constructor(private readonly spec: images.CatalogImageSpec) {
    super();
  }
  public bind(scope: Construct, grantee: iam.IGrantable): ContainerImageConfig {
    const bound = bindCatalogImage(scope, this.spec.image, this.spec.subject);
    grantEcrPull(scope, grantee, bound.repositoryArn);
    return { imageUri: bound.imageUri };
  }
}

/** The DLC account of a stack's region: a literal for a known region, a mapping lookup for a token region. */
export function dlcAccount(stack: Stack): string {
  if (!Token.isUnresolved(stack.region)) {
    const account = dlcAccountFor(stack.region);
    if (!account) {
      throw new Error(`ContainerImage.fromDlc: no Deep Learning Container registry account is known for region '${stack.region}'; `
        + `expected one of ${dlcRegions().join(', ')} (or use ContainerImage.fromImageUri with the full URI)`);
    }
    return account;
  }
  const id = 'CdkSageMakerMcpDlcAccounts';
  const mapping = (stack.node.tryFindChild(id) as CfnMapping | undefined) ?? new CfnMapping(stack, id, {
    mapping: Object.fromEntries(dlcRegions().map((r) => [r, { account: dlcAccountFor(r)! }])),
  });
  return mapping.findInMap(Aws.REGION, 'account');
}

class AssetImage extends ContainerImage {
  private asset?: ecrAssets.DockerImageAsset;
  constructor(private readonly directory: string, private readonly options: ecrAssets.DockerImageAssetOptions) {
    super();
  }
  public bind(scope: Construct, grantee: iam.IGrantable): ContainerImageConfig {
    this.asset ??= new ecrAssets.DockerImageAsset(scope, 'ModelImage', { directory: this.directory, ...this.options });
    acknowledgePullGrant(scope, grantee, this.asset.repository.grantPull(grantee));
    return { imageUri: this.asset.imageUri };
  }
}

const ECR_URI = /^(\d{12})\.dkr\.ecr\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?\/([a-z0-9._/-]+)(?::[\w.-]+|@sha256:[a-f0-9]{64})$/;

class UriImage extends ContainerImage {
  constructor(private readonly imageUri: string) {
    super();
    if (!Token.isUnresolved(imageUri) && !ECR_URI.test(imageUri)) {
      throw new Error(`ContainerImage.fromImageUri: got '${imageUri}', expected an ECR image URI such as `
        + "'763104351884.dkr.ecr.us-east-1.amazonaws.com/djl-inference:0.29.0-lmi11.0.0-cu124'");
    }
  }
  public bind(scope: Construct, grantee: iam.IGrantable): ContainerImageConfig {
    const stack = Stack.of(scope);
    const m = ECR_URI.exec(this.imageUri);
    const repositoryArn = m
      ? `arn:${stack.partition}:ecr:${m[2]}:${m[1]}:repository/${m[3]}`
      // A token URI cannot be parsed at synth; pull rights then cover the stack's own account and region only.
      : `arn:${stack.partition}:ecr:${stack.region}:${stack.account}:repository/*`;
    grantEcrPull(scope, grantee, repositoryArn);
    return { imageUri: this.imageUri };
  }
}

/** Where a model's artifacts are, once bound. */
export interface ModelDataConfig {
  /** `s3://bucket/key.tar.gz` (compressed) or `s3://bucket/prefix/` (uncompressed). */
  readonly s3Uri: string;
  /**
   * True for a `.tar.gz` object (`ModelDataUrl`, or `ModelDataSource` S3Object/Gzip when `acceptEula` is set), false for
   * an uncompressed prefix (`ModelDataSource` S3Prefix).
   */
  readonly compressed: boolean;
  /**
   * Whether the model's license (EULA) has been accepted; required for gated artifacts.
   *
   * @default false
   */
  readonly acceptEula?: boolean;
}

/** Model artifacts in S3. Binding grants the model's role read access to exactly that object or prefix (and its KMS key). */
export abstract class ModelData {
  /**
   * Artifacts in a bucket: a `.tar.gz` object, or an uncompressed prefix ending in `/` (faster to load for large models:
   * SageMaker copies the files as they are instead of downloading and extracting one archive).
   */
  public static fromBucket(bucket: s3.IBucket, key: string): ModelData {
    return new BucketModelData(bucket, key);
  }

  /**
   * Artifacts at an S3 URI you already know, `s3://bucket/key.tar.gz` or `s3://bucket/prefix/` (the form
   * AWS::SageMaker::Model takes): the same location and the same read grant as `fromBucket` with
   * `s3.Bucket.fromBucketName`, without importing the bucket. A bucket encrypted with a customer managed KMS key needs
   * `fromBucket` with a bucket that knows its key (the role must also decrypt).
   *
   * @param s3Uri a literal `s3://` URI; a location known only at deploy time goes through `fromBucket`
   */
  public static fromS3Uri(s3Uri: string): ModelData {
    return new S3UriModelData(s3Uri);
  }

  /** A local `.tar.gz` file, uploaded as a CDK asset. */
  public static fromAsset(path: string, options: s3Assets.AssetOptions = {}): ModelData {
    return new AssetModelData(path, options);
  }

  /** Resolves the location and grants `grantee` read access to it. */
  public abstract bind(scope: Construct, grantee: iam.IGrantable): ModelDataConfig;
}

/** What an artifact key names: a `.tar.gz` object (compressed), an uncompressed prefix ending in `/`, or neither. */
function artifactKind(key: string): 'compressed' | 'prefix' | undefined {
  return key.endsWith('/') ? 'prefix' : key.endsWith('.tar.gz') ? 'compressed' : undefined;
}

const ARTIFACT_KEY_EXPECTED = "a '.tar.gz' object or an uncompressed prefix ending in '/'";

class BucketModelData extends ModelData {
  private readonly compressed: boolean;
  constructor(private readonly bucket: s3.IBucket, private readonly key: string) {
    super();
    const kind = Token.isUnresolved(key) ? 'compressed' : artifactKind(key);
    if (!kind) throw new Error(`ModelData.fromBucket key: got '${key}', expected ${ARTIFACT_KEY_EXPECTED}`);
    this.compressed = kind === 'compressed';
  }
  public bind(scope: Construct, grantee: iam.IGrantable): ModelDataConfig {
    acknowledgeReadGrant(scope, grantee, this.bucket.grantRead(grantee, this.compressed ? this.key : `${this.key}*`));
    return { s3Uri: this.bucket.s3UrlForObject(this.key), compressed: this.compressed };
  }
}

/**
 * Bucket names: 3-63 lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html).
 */
const S3_URI_PATTERN = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])\/(.+)$/;

class S3UriModelData extends ModelData {
  private readonly bucketName: string;
  private readonly key: string;
  private readonly compressed: boolean;
  constructor(private readonly s3Uri: string) {
    super();
    const m = Token.isUnresolved(s3Uri) ? undefined : S3_URI_PATTERN.exec(s3Uri);
    const kind = m && artifactKind(m[2]);
    if (!m || !kind) {
      throw new Error(`ModelData.fromS3Uri s3Uri: got '${s3Uri}', expected a literal s3://<bucket>/<key> whose key is ${ARTIFACT_KEY_EXPECTED} `
        + '(a location known only at deploy time goes through ModelData.fromBucket)');
    }
    this.bucketName = m[1];
    this.key = m[2];
    this.compressed = kind === 'compressed';
  }
  public bind(scope: Construct, grantee: iam.IGrantable): ModelDataConfig {
    // What `bucket.grantRead(grantee, keyPattern)` grants on a bucket imported by name: the read action groups on the
    // bucket and on the object (or everything under the prefix).
    const bucketArn = `arn:${Stack.of(scope).partition}:s3:::${this.bucketName}`;
    acknowledgeReadGrant(scope, grantee, iam.Grant.addToPrincipal({
      grantee,
      actions: [IAM_ACTION.s3['GetObject*'], IAM_ACTION.s3['GetBucket*'], IAM_ACTION.s3['List*']],
      resourceArns: [bucketArn, `${bucketArn}/${this.compressed ? this.key : `${this.key}*`}`],
    }));
    return { s3Uri: this.s3Uri, compressed: this.compressed };
  }
}

class AssetModelData extends ModelData {
  private asset?: s3Assets.Asset;
  constructor(private readonly path: string, private readonly options: s3Assets.AssetOptions) {
    super();
    if (!path.endsWith('.tar.gz')) {
      throw new Error(`ModelData.fromAsset path: got '${path}', expected a '.tar.gz' file`);
    }
  }
  public bind(scope: Construct, grantee: iam.IGrantable): ModelDataConfig {
    this.asset ??= new s3Assets.Asset(scope, 'ModelData', { path: this.path, ...this.options });
    this.asset.grantRead(grantee);
    return { s3Uri: this.asset.s3ObjectUrl, compressed: true };
  }
}

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
   * @default - a model is created from `imageUri`
   */
  readonly modelName?: string;
  /**
   * A versioned model package the model is created from (`Containers[].ModelPackageName`): its containers, images and
   * artifacts come from the package, so `imageUri` and `modelData` are unset.
   *
   * @default - none
   */
  readonly modelPackageName?: string;
  /**
   * The container image.
   *
   * @default - none (required unless `modelName` is set)
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
   * inference component's default `acceleratorCount`. JumpStart models derive it from their size and precision.
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
   * Host every model under the `modelData` prefix (container `Mode: MultiModel`); requests name one with `TargetModel`.
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

/** Options of a model created from a versioned model package (`ModelSource.fromModelPackage`). */
export interface ModelPackageSourceOptions {
  /**
   * The versions the model may be made from, for the model role's `sagemaker:DescribeModelPackage`: usually a group's
   * `modelPackageVersionsArn` (`model-package/<group>/*`).
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
   * Key pattern within `artifactsBucket` the role may read, e.g. `pipelines/*`.
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
   * `modelPackageVersionsArn`, read of `artifactsBucket` and pull of `images`.
   *
   * @param modelPackageArn `arn:<partition>:sagemaker:<region>:<account>:model-package/<group>/<version>`, or a token
   * (e.g. `ApprovedModelDeployment.modelPackageArn`, a stack parameter)
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
