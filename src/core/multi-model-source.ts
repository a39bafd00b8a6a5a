import { Token } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { ContainerImage } from './container-image';
import { ModelSource } from './model-source';
import { ModelSourceBindOptions, ModelSourceConfig } from './model-source-config';
import { acknowledgeReadGrant } from '../private/model-role-nag';
import { PropValidator, TARGET_MODEL_EXPECTED, TARGET_MODEL_PATTERN } from '../private/validation';

/** Options of a multi-model source. */
export interface MultiModelOptions {
  /**
   * The target models (paths relative to the prefix, e.g. `churn/2024-06.tar.gz`) that the MCP `invoke_endpoint` tool
   * may name; requests for any other are refused before they reach SageMaker. The runtime's `prewarm` loads them.
   *
   * @default - none: the MCP tool refuses every target model
   */
  readonly targetModels?: string[];
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
}

/**
 * A multi-model endpoint's model: one container in `Mode: MultiModel` that loads, on first request, any
 * `.tar.gz` under an S3 prefix, named per request by `TargetModel`. AWS lists which containers support it and on
 * which instances (GPU only through Triton): https://docs.aws.amazon.com/sagemaker/latest/dg/multi-model-support.html;
 * `SageMakerMcpChecks` rule SMCP-MM1 checks a template against that page.
 */
export class MultiModelSource extends ModelSource {
  /**
   * Every `.tar.gz` under `prefix` of `bucket`, served by `image` (which must support multi-model endpoints).
   *
   * @param prefix the S3 prefix of the models, ending in `/`
   */
  public static fromBucket(image: ContainerImage, bucket: s3.IBucket, prefix: string, options: MultiModelOptions = {}): MultiModelSource {
    return new MultiModelSource(image, bucket, prefix, options);
  }

  /** The target models declared in the options (the MCP tool's allow-list). */
  public readonly targetModels: string[];

  private constructor(
    private readonly image: ContainerImage,
    private readonly bucket: s3.IBucket,
    private readonly prefix: string,
    private readonly options: MultiModelOptions,
  ) {
    super();
    const v = new PropValidator('MultiModelSource.fromBucket');
    if (!Token.isUnresolved(prefix)) {
      v.check(prefix.endsWith('/') && !prefix.startsWith('/'), 'prefix', prefix, "an S3 prefix ending in '/' (not starting with '/'), e.g. 'models/'");
    }
    const targets = options.targetModels ?? [];
    for (const t of targets) v.pattern('targetModels', t, TARGET_MODEL_PATTERN, `${TARGET_MODEL_EXPECTED} (a path relative to the prefix)`);
    v.check(new Set(targets).size === targets.length, 'targetModels', targets, 'each target model at most once');
    v.throwIfInvalid();
    this.targetModels = [...targets];
  }

  public bind(scope: Construct, options: ModelSourceBindOptions): ModelSourceConfig {
    // Read access to the prefix only: SageMaker downloads each target model with the model's role.
    acknowledgeReadGrant(scope, options.role, this.bucket.grantRead(options.role, `${this.prefix}*`));
    return {
      imageUri: this.image.bind(scope, options.role).imageUri,
      modelData: { s3Uri: this.bucket.s3UrlForObject(this.prefix), compressed: false },
      environment: this.options.environment,
      enableNetworkIsolation: this.options.enableNetworkIsolation,
      multiModel: true,
      targetModels: this.targetModels,
    };
  }
}
