/** The container image a model runs, from ECR, a Deep Learning Container, the bundled catalog or a local asset. */
import { Aws, Stack, Token } from 'aws-cdk-lib';
import * as ecr from 'aws-cdk-lib/aws-ecr';
import * as ecrAssets from 'aws-cdk-lib/aws-ecr-assets';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { CatalogImageVersionOptions, FrameworkImageOptions, HuggingFaceImageOptions, HuggingFaceTeiImageOptions } from '../images/image-options';
import { dlcAccount } from '../private/dlc-accounts';
import { grantEcrPull } from '../private/ecr-pull';
import * as images from '../private/images/catalog-images';
import { ecrDomain, bindCatalogImage } from '../private/images/registry';
import { acknowledgePullGrant } from '../private/model-role-nag';

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
    const suffix = Token.isUnresolved(stack.region) ? Aws.URL_SUFFIX : ecrDomain(stack.region);
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
