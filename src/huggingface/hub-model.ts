import { Annotations } from 'aws-cdk-lib';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import {
  containerEnvironment,
  defaultContainerVersion,
  EMBEDDING_TASKS,
  HubContainer,
  imageKeyFor,
  MODEL_FAMILY,
  TEXT_GENERATION_TASKS,
  tokenVariables,
} from './private/containers';
import { ContainerImage } from '../core/container-image';
import { InstanceType } from '../core/instance-type';
import { ModelData } from '../core/model-data';
import { ModelFamily } from '../core/model-family.generated';
import { ModelSource } from '../core/model-source';
import { ModelSourceBindOptions, ModelSourceConfig } from '../core/model-source-config';
import { ImageProcessor } from '../images/image-options';
import { JumpStartPrecision } from '../jumpstart/model-traits';
import { fits, MemoryRequirement, memoryRequirement, minimumFittingInstance, usableMemoryGiB } from '../jumpstart/sizing';
import { instanceSpecs } from '../private/instance-table';
import { PropValidator } from '../private/validation';

/** The server for text-generation models. */
export enum TextGenerationServer {
  /** Hugging Face Text Generation Inference (`inputs` + `parameters` JSON). */
  TGI = 'tgi',
  /** vLLM (the Hugging Face vLLM image; OpenAI completion bodies: payload family `openai`). */
  VLLM = 'vllm',
}

/** Options of `HuggingFaceHubModel.of`. */
export interface HuggingFaceHubModelOptions {
  /**
   * The model's pipeline task on the Hub (`text-generation`, `feature-extraction`, `sentence-similarity`,
   * `text-classification`, ...). Text generation runs on TGI (or vLLM), embeddings on TEI, others on the transformers
   * container with `HF_TASK`.
   */
  readonly task: string;
  /**
   * The text-generation server.
   *
   * @default TextGenerationServer.TGI
   */
  readonly textGenerationServer?: TextGenerationServer;
  /**
   * The container version (TGI `3.3`, TEI `1.8`, vLLM `0.21`, transformers `4.51`). Pin it: a newer catalog would
   * otherwise replace the model's image.
   *
   * @default - the newest version in the bundled image catalog
   */
  readonly containerVersion?: string;
  /**
   * The Hub revision to load: a commit hash (pins the exact files), a branch or a tag. Written as the container's
   * documented variable: `HF_MODEL_REVISION` (TGI, TEI, transformers), `SM_VLLM_REVISION` (vLLM's `--revision`).
   * Without it the container loads the repository's default branch as it is at each start, so a push to the model
   * repository changes what a new instance serves.
   *
   * @default - the default branch, at whatever commit it has when an instance starts
   */
  readonly revision?: string;
  /**
   * Parameters, in billions, for the instance sizing check and the default instance type.
   *
   * @default - unknown: no sizing check
   */
  readonly parameterBillions?: number;
  /**
   * Weight precision, for the sizing check (set the container's quantization in `environment`).
   *
   * @default JumpStartPrecision.FP16
   */
  readonly precision?: JumpStartPrecision;
  /**
   * TGI `MAX_INPUT_TOKENS`: the longest prompt, in tokens.
   *
   * @default - the container's own default (from the model's config)
   */
  readonly maxInputTokens?: number;
  /**
   * TGI `MAX_TOTAL_TOKENS` (prompt + generated), or vLLM `SM_VLLM_MAX_MODEL_LEN`.
   *
   * @default - the container's own default (from the model's config)
   */
  readonly maxTotalTokens?: number;
  /**
   * A Secrets Manager secret holding a Hugging Face token, for gated or private models. It is written into the
   * template as a `{{resolve:secretsmanager:...}}` dynamic reference (not the token), but CloudFormation resolves it
   * into the SageMaker model's environment (`HF_TOKEN`, `HUGGING_FACE_HUB_TOKEN`, and `HF_API_TOKEN` for transformers),
   * where anyone allowed `sagemaker:DescribeModel` can read it (synth warns, and the `SMCP-SEC1` check flags it).
   * Recommended instead: the model data, the model copied from the Hub to S3, which needs no token.
   *
   * @default - no token (public models)
   */
  readonly hubToken?: secretsmanager.ISecret;
  /**
   * The JSON key of the token in the Hub token secret.
   *
   * @default - the whole secret string is the token
   */
  readonly hubTokenJsonField?: string;
  /**
   * The model's files, copied from the Hub to S3 beforehand (uncompressed prefix or `.tar.gz`): SageMaker mounts them at
   * `/opt/ml/model` and `HF_MODEL_ID` is set to that path, so no Hub token is needed and network isolation works. The
   * recommended way to serve a gated or private model (a Hub token ends up readable in the model's environment).
   *
   * @default - the container downloads the model from the Hub at start
   */
  readonly modelData?: ModelData;
  /**
   * Container environment variables, applied over the ones this source sets.
   *
   * @default - none
   */
  readonly environment?: { [key: string]: string };
  /**
   * Run the container without network access (needs the model data: the Hub is then unreachable).
   *
   * @default false
   */
  readonly enableNetworkIsolation?: boolean;
}

const S3_MODEL_PATH = '/opt/ml/model';
const HUB_ID = /^[A-Za-z0-9][\w.-]*(\/[\w.-]+)?$/;
/** A Git revision as the Hub takes it (a commit hash, branch or tag, which may hold `/`); no white space. */
const REVISION = /^\S{1,256}$/;

/**
 * A model from the Hugging Face Hub, served by the container its task calls for: TGI (or vLLM) for text generation,
 * TEI for embeddings (GPU or CPU image by instance), the transformers container with `HF_TASK` otherwise. The image
 * comes from the bundled image catalog for the stack's region; the environment is the containers' documented one.
 */
export class HuggingFaceHubModel extends ModelSource {
  /** A Hub model by id, e.g. `meta-llama/Llama-3.1-8B-Instruct`. */
  public static of(modelId: string, options: HuggingFaceHubModelOptions): HuggingFaceHubModel {
    return new HuggingFaceHubModel(modelId, options);
  }

  /** The Hub model id. */
  public readonly modelId: string;
  /** The task. */
  public readonly task: string;
  /** The container: `tgi`, `vllm`, `tei` or `transformers`. */
  public readonly container: string;
  /** The container version (catalog version or alias). */
  public readonly containerVersion: string;
  /**
   * The payload family the MCP invoke tool builds: `ModelFamily.TGI` (TGI) or `ModelFamily.OPENAI` (vLLM).
   *
   * @returns no value for the TEI (embeddings) and transformers containers, whose bodies the invoke tool does not build
   * (`container` says which serves the model: https://github.com/cdk-sagemaker-mcp/cdk-sagemaker-mcp/blob/main/docs/realtime.md)
   */
  public readonly modelFamily?: ModelFamily;
  /** The instance type used when the endpoint names none: the smallest that fits when the size is known. */
  public readonly defaultInstanceType: InstanceType;
  /** The environment variables that carry the Hub token (empty without a Hub token). */
  public readonly tokenEnvironmentVariables: string[];

  private readonly kind: HubContainer;
  private readonly requirement?: MemoryRequirement;

  private constructor(modelId: string, private readonly options: HuggingFaceHubModelOptions) {
    super();
    const v = new PropValidator('HuggingFaceHubModel.of');
    v.pattern('modelId', modelId, HUB_ID, "a Hub model id such as 'org/name'", 96)
      .pattern('task', options.task, /^[a-z0-9-]+$/, "a Hub pipeline task such as 'text-generation'")
      .range('parameterBillions', options.parameterBillions, 0.001, 10_000, { integer: false })
      .range('maxInputTokens', options.maxInputTokens, 1, 10_000_000)
      .range('maxTotalTokens', options.maxTotalTokens, 2, 10_000_000);
    if (options.maxInputTokens !== undefined && options.maxTotalTokens !== undefined) {
      v.check(options.maxInputTokens < options.maxTotalTokens, 'maxInputTokens', options.maxInputTokens,
        `less than maxTotalTokens (${options.maxTotalTokens}): the total counts the prompt and the generated tokens`);
    }
    v.check(!options.enableNetworkIsolation || options.modelData !== undefined, 'enableNetworkIsolation', true,
      'modelData set: without it the container downloads the model from the Hub, which an isolated container cannot reach');
    v.check(!(options.modelData && options.hubToken), 'hubToken', 'a secret', 'nothing when modelData is set: the model is read from S3');
    v.pattern('revision', options.revision, REVISION, 'a commit hash, branch or tag: 1-256 characters without white space', 256);
    v.check(!(options.modelData && options.revision !== undefined), 'revision', options.revision,
      'nothing when modelData is set: the model is read from S3 (pin the revision when you copy it there)');
    this.kind = TEXT_GENERATION_TASKS.includes(options.task) ? (options.textGenerationServer === TextGenerationServer.VLLM ? 'vllm' : 'tgi')
      : EMBEDDING_TASKS.includes(options.task) ? 'tei' : 'transformers';
    if (options.textGenerationServer !== undefined && !TEXT_GENERATION_TASKS.includes(options.task)) {
      v.add(`textGenerationServer: got '${options.textGenerationServer}', expected nothing for task '${options.task}' `
        + `(it applies to ${TEXT_GENERATION_TASKS.join(', ')})`);
    }
    const max = (this.kind === 'tgi' || this.kind === 'vllm') ? undefined : options.maxTotalTokens ?? options.maxInputTokens;
    v.check(max === undefined, options.maxTotalTokens !== undefined ? 'maxTotalTokens' : 'maxInputTokens', max,
      `nothing for the ${this.kind} container (token limits apply to text generation)`);
    v.check(this.kind !== 'vllm' || options.maxInputTokens === undefined, 'maxInputTokens', options.maxInputTokens,
      'nothing for vLLM (set maxTotalTokens, its SM_VLLM_MAX_MODEL_LEN)');
    v.throwIfInvalid();

    this.modelId = modelId;
    this.task = options.task;
    this.container = this.kind;
    this.containerVersion = options.containerVersion ?? defaultContainerVersion(this.kind);
    this.modelFamily = MODEL_FAMILY[this.kind];
    this.tokenEnvironmentVariables = options.hubToken ? tokenVariables(this.kind) : [];
    if (options.parameterBillions !== undefined) {
      this.requirement = memoryRequirement(this.kind, options.parameterBillions, options.precision ?? JumpStartPrecision.FP16);
    }
    const fitting = this.requirement && minimumFittingInstance(this.requirement, [])?.instanceType;
    this.defaultInstanceType = InstanceType.of(fitting ?? (this.kind === 'transformers' ? 'ml.m5.xlarge' : this.kind === 'tei' ? 'ml.g5.xlarge' : 'ml.g5.2xlarge'));
    // Compose the image now (GPU variant) so an unknown containerVersion fails at the call.
    this.image(true);
  }

  public bind(scope: Construct, options: ModelSourceBindOptions): ModelSourceConfig {
    const instanceType = options.instanceType ?? this.defaultInstanceType;
    const v = new PropValidator(`HuggingFaceHubModel '${this.modelId}'`);
    if (instanceType.isUnresolved) {
      v.add('instanceType: got an unresolved token, expected a concrete instance type: the container, its image and '
        + 'SM_NUM_GPUS follow the instance');
      v.throwIfInvalid();
    }
    const family = instanceType.name.split('.')[1] ?? '';
    const gpu = /^[gp]/.test(family);
    const spec = instanceSpecs(instanceType.name);
    if (/^(inf|trn)/.test(family)) {
      v.add(`instanceType: got '${instanceType.name}', expected a GPU or CPU instance: the catalog's Hugging Face images are not built for Neuron`);
    } else if ((this.kind === 'tgi' || this.kind === 'vllm') && !gpu) {
      v.add(`instanceType: got '${instanceType.name}', expected an NVIDIA GPU instance (ml.g*, ml.p*) for the ${this.kind} container`);
    }
    if (this.requirement && spec && !fits(spec, this.requirement)) {
      const minimum = minimumFittingInstance(this.requirement, [])?.instanceType;
      v.add(`instanceType: got '${instanceType.name}' (${usableMemoryGiB(spec)} GiB), expected at least ${this.requirement.requiredGiB} GiB `
        + `for ${this.requirement.basis}${minimum ? `: the smallest that fits is ${minimum}` : ''}`);
    }
    v.throwIfInvalid();

    const modelData = this.options.modelData?.bind(scope, options.role);
    const environment: Record<string, string> = containerEnvironment({
      container: this.kind,
      modelId: modelData ? S3_MODEL_PATH : this.modelId,
      task: this.task,
      gpus: gpu && spec ? spec.accelerators : undefined,
      maxInputTokens: this.options.maxInputTokens,
      maxTotalTokens: this.options.maxTotalTokens,
      revision: this.options.revision,
    });
    if (this.options.hubToken) {
      // A dynamic reference: CloudFormation resolves it at deploy, so the template holds no token (the model's
      // environment does). https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/dynamic-references-secretsmanager.html
      const value = this.options.hubTokenJsonField
        ? this.options.hubToken.secretValueFromJson(this.options.hubTokenJsonField)
        : this.options.hubToken.secretValue;
      for (const name of this.tokenEnvironmentVariables) environment[name] = value.unsafeUnwrap();
      // "Don't include any sensitive data in your environment variables"
      // (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_ContainerDefinition.html): DescribeModel returns them.
      Annotations.of(scope).addWarningV2('cdk-sagemaker-mcp:hubTokenInModelEnvironment',
        `HuggingFaceHubModel '${this.modelId}': hubToken is resolved by CloudFormation into the model's environment `
        + `(${this.tokenEnvironmentVariables.join(', ')}), where anyone allowed sagemaker:DescribeModel on the model can read the token, `
        + 'and rotating it replaces the model. Recommended: copy the model from the Hub to S3 once and pass it as modelData (no token at all).');
    }
    Object.assign(environment, this.options.environment ?? {});
    return {
      imageUri: this.image(gpu).bind(scope, options.role).imageUri,
      modelData,
      environment,
      enableNetworkIsolation: this.options.enableNetworkIsolation,
      modelFamily: this.modelFamily,
    };
  }

  private image(gpu: boolean): ContainerImage {
    const version = this.containerVersion;
    const processor = gpu ? ImageProcessor.GPU : ImageProcessor.CPU;
    switch (imageKeyFor(this.kind, gpu)) {
      case 'huggingface-llm': return ContainerImage.huggingfaceTgi({ version });
      case 'huggingface-vllm': return ContainerImage.vllm({ version });
      case 'huggingface': return ContainerImage.huggingface({ version, processor });
      default: return ContainerImage.huggingfaceTei({ version, processor });
    }
  }
}
