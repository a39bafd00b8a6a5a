import { ModelFamily } from '../../core/model-family.generated';
import { latestVersion } from '../../private/images/catalog';
import { ImageKey } from '../../private/images/catalog-format';

/** The container a Hub model runs in, picked from its task. */
export type HubContainer = 'tgi' | 'vllm' | 'tei' | 'transformers';

export const TEXT_GENERATION_TASKS = ['text-generation', 'text2text-generation'];
export const EMBEDDING_TASKS = ['feature-extraction', 'sentence-similarity'];

/**
 * The payload family of each container (what the MCP tool server's invoke builders read): none for TEI and transformers,
 * whose bodies the invoke tool does not build (packages/runtime/src/invoke/payloads.ts).
 */
export const MODEL_FAMILY: Record<HubContainer, ModelFamily | undefined> = {
  tgi: ModelFamily.TGI,
  // vLLM's SageMaker server takes OpenAI completion bodies, not TGI's `inputs` (see openAiCompletionPayload in
  // packages/runtime/src/invoke/payloads.ts).
  vllm: ModelFamily.OPENAI,
  tei: undefined,
  transformers: undefined,
};

/** The catalog image of a container for a processor. */
export function imageKeyFor(container: HubContainer, gpu: boolean): ImageKey {
  switch (container) {
    case 'tgi': return 'huggingface-llm';
    case 'vllm': return 'huggingface-vllm';
    case 'tei': return gpu ? 'huggingface-tei' : 'huggingface-tei-cpu';
    default: return 'huggingface';
  }
}

/** The container version used when none is given: the newest in the catalog (the SDK's rule for TGI and TEI). */
export function defaultContainerVersion(container: HubContainer): string {
  return latestVersion(imageKeyFor(container, true));
}

/**
 * Where each container reads the Hub token of a gated or private model. All of them are set, so the token reaches the
 * container whatever its version:
 * - `HF_TOKEN`: TGI 2.x and later and TEI (https://huggingface.co/docs/text-generation-inference/reference/launcher,
 *   https://aws.github.io/deep-learning-containers/tei/deployment/sagemaker/);
 * - `HUGGING_FACE_HUB_TOKEN`: TGI before 2.0 and the SageMaker vLLM containers
 *   (https://github.com/aws/model-hosting-container-standards/blob/main/docs/sagemaker/01_quickstart.md);
 * - `HF_API_TOKEN`: the transformers inference toolkit (https://github.com/aws/sagemaker-huggingface-inference-toolkit).
 */
export function tokenVariables(container: HubContainer): string[] {
  return container === 'transformers' ? ['HF_TOKEN', 'HUGGING_FACE_HUB_TOKEN', 'HF_API_TOKEN'] : ['HF_TOKEN', 'HUGGING_FACE_HUB_TOKEN'];
}

export interface ContainerEnvironmentInput {
  readonly container: HubContainer;
  /** A Hub id, or `/opt/ml/model` when the weights come from S3. */
  readonly modelId: string;
  readonly task: string;
  /** Accelerators of the instance, when known. */
  readonly gpus?: number;
  readonly maxInputTokens?: number;
  readonly maxTotalTokens?: number;
  /** The Hub revision (commit hash, branch or tag). */
  readonly revision?: string;
}

/**
 * The documented environment of each container:
 * - TGI: `HF_MODEL_ID`, `SM_NUM_GPUS` (tensor-parallel shards = GPUs of the instance), `MAX_INPUT_TOKENS`,
 *   `MAX_TOTAL_TOKENS` (https://huggingface.co/blog/sagemaker-huggingface-llm and the TGI launcher's options,
 *   https://huggingface.co/docs/text-generation-inference/reference/launcher; TGI before 2.1 reads
 *   `MAX_INPUT_LENGTH` instead of `MAX_INPUT_TOKENS`);
 * - vLLM: `SM_VLLM_MODEL`, `SM_VLLM_TENSOR_PARALLEL_SIZE`, `SM_VLLM_MAX_MODEL_LEN` (`SM_VLLM_*` become vLLM's CLI
 *   arguments, https://github.com/aws/model-hosting-container-standards/blob/main/docs/sagemaker/01_quickstart.md),
 *   and `HF_MODEL_ID`;
 * - TEI: `HF_MODEL_ID` (https://aws.github.io/deep-learning-containers/tei/deployment/sagemaker/);
 * - transformers: `HF_MODEL_ID` and `HF_TASK` (https://github.com/aws/sagemaker-huggingface-inference-toolkit#environment-variables).
 * A revision pin: `HF_MODEL_REVISION` for the toolkit ("allows you to define/pin a revision of the model", same page)
 * and for TGI and TEI, whose SageMaker entrypoints export it as the launcher's `REVISION`
 * (https://github.com/huggingface/text-generation-inference/blob/main/sagemaker-entrypoint.sh,
 * https://github.com/huggingface/text-embeddings-inference/blob/main/sagemaker-entrypoint.sh); `SM_VLLM_REVISION` for
 * vLLM, whose entrypoint turns each `SM_VLLM_*` variable into a CLI argument, here `--revision`
 * (https://github.com/vllm-project/vllm/blob/main/sagemaker-entrypoint.sh).
 */
export function containerEnvironment(input: ContainerEnvironmentInput): Record<string, string> {
  const env: Record<string, string> = { HF_MODEL_ID: input.modelId };
  if (input.revision !== undefined && input.container !== 'vllm') env.HF_MODEL_REVISION = input.revision;
  const set = (name: string, value: number | undefined) => {
    if (value !== undefined) env[name] = String(value);
  };
  switch (input.container) {
    case 'tgi':
      set('SM_NUM_GPUS', input.gpus);
      set('MAX_INPUT_TOKENS', input.maxInputTokens);
      set('MAX_TOTAL_TOKENS', input.maxTotalTokens);
      break;
    case 'vllm':
      env.SM_VLLM_MODEL = input.modelId;
      if (input.revision !== undefined) env.SM_VLLM_REVISION = input.revision;
      set('SM_VLLM_TENSOR_PARALLEL_SIZE', input.gpus);
      set('SM_VLLM_MAX_MODEL_LEN', input.maxTotalTokens);
      break;
    case 'transformers':
      env.HF_TASK = input.task;
      break;
    default:
      break;
  }
  return env;
}
