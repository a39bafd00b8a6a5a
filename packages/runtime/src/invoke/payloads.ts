/**
 * Request builders and response parsers for the model families an MCP tool typically calls. Payload shape differs
 * by container and prompt format, so pick it from the JumpStart model id (familyOfModelId) or name it.
 */
import { EncodedBody, jsonBody } from './codecs';
import type { MODEL_FAMILIES } from '../contract/mcp';

/** A payload family: one of the contract's `MODEL_FAMILIES`. */
export type ModelFamily = typeof MODEL_FAMILIES[number];

export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

export interface GenerationParams {
  readonly maxNewTokens?: number;
  readonly temperature?: number;
  readonly topP?: number;
  readonly stop?: readonly string[];
  /** System instructions (a system message for llama3; prepended to the instruction for mistral). */
  readonly system?: string;
  /** Extra container parameters, passed through unchanged. */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** A TGI-style /generate body. */
export interface PromptPayload {
  readonly inputs: string;
  readonly parameters: Record<string, unknown>;
}

/** TGI /generate parameters; `return_full_text: false` keeps the prompt out of `generated_text`. */
function tgiParameters(params: GenerationParams): Record<string, unknown> {
  const parameters: Record<string, unknown> = { return_full_text: false };
  if (params.maxNewTokens !== undefined) parameters.max_new_tokens = params.maxNewTokens;
  if (params.temperature !== undefined) parameters.temperature = params.temperature;
  if (params.topP !== undefined) parameters.top_p = params.topP;
  if (params.stop !== undefined) parameters.stop = [...params.stop];
  return { ...parameters, ...params.extra };
}

/** TGI text generation: `{"inputs": prompt, "parameters": {...}}`. */
export function tgiPayload(prompt: string, params: GenerationParams = {}): PromptPayload {
  return { inputs: params.system ? `${params.system}\n\n${prompt}` : prompt, parameters: tgiParameters(params) };
}

/** The OpenAI-style generation fields both the Messages API and the completions body take, then `extra`. */
function openAiParameters(body: Record<string, unknown>, params: GenerationParams): Record<string, unknown> {
  const payload: Record<string, unknown> = { ...body };
  if (params.maxNewTokens !== undefined) payload.max_tokens = params.maxNewTokens;
  if (params.temperature !== undefined) payload.temperature = params.temperature;
  if (params.topP !== undefined) payload.top_p = params.topP;
  if (params.stop !== undefined) payload.stop = [...params.stop];
  return { ...payload, ...params.extra };
}

/**
 * Llama 3 through the Messages API that TGI (≥1.4) and LMI containers serve on /invocations when the body has
 * `messages`: `{"messages": [...], "max_tokens": n, ...}`, answered as a chat completion (`choices[0].message.content`).
 */
export function llama3MessagesPayload(messages: string | readonly ChatMessage[], params: GenerationParams = {}): Record<string, unknown> {
  const list: ChatMessage[] = typeof messages === 'string' ? [{ role: 'user', content: messages }] : [...messages];
  if (params.system && !list.some((m) => m.role === 'system')) list.unshift({ role: 'system', content: params.system });
  return openAiParameters({ messages: list }, params);
}

/** The Llama 3 instruct chat template, for containers that only take a prompt string. */
export function llama3Prompt(messages: string | readonly ChatMessage[], system?: string): string {
  const list: ChatMessage[] = typeof messages === 'string' ? [{ role: 'user', content: messages }] : [...messages];
  if (system && !list.some((m) => m.role === 'system')) list.unshift({ role: 'system', content: system });
  const turns = list.map((m) => `<|start_header_id|>${m.role}<|end_header_id|>\n\n${m.content}<|eot_id|>`).join('');
  return `<|begin_of_text|>${turns}<|start_header_id|>assistant<|end_header_id|>\n\n`;
}

/** Llama 3 as a TGI /generate request: the chat template in `inputs`, `return_full_text: false`. */
export function llama3PromptPayload(messages: string | readonly ChatMessage[], params: GenerationParams = {}): PromptPayload {
  return { inputs: llama3Prompt(messages, params.system), parameters: tgiParameters(params) };
}

/** Mistral instruct: `[INST] ... [/INST]` (no system role: system text goes first inside the instruction). */
export function mistralPayload(prompt: string, params: GenerationParams = {}): PromptPayload {
  const instruction = params.system ? `${params.system}\n\n${prompt}` : prompt;
  return { inputs: `[INST] ${instruction} [/INST]`, parameters: tgiParameters(params) };
}

/**
 * An OpenAI completions body, which vLLM's SageMaker server takes on /invocations: `{"prompt": ..., "max_tokens": n,
 * "temperature": t}`, answered with `choices[0].text` (AWS's vLLM quick start,
 * https://github.com/aws/model-hosting-container-standards/blob/main/docs/sagemaker/01_quickstart.md, "Making
 * Inference Requests"). System text goes before the prompt, as for TGI.
 */
export function openAiCompletionPayload(prompt: string, params: GenerationParams = {}): Record<string, unknown> {
  return openAiParameters({ prompt: params.system ? `${params.system}\n\n${prompt}` : prompt }, params);
}

/** The request body for `family`, ready for invokeEndpoint. */
export function payloadForFamily(family: ModelFamily, prompt: string, params: GenerationParams = {}): EncodedBody {
  switch (family) {
    case 'llama3':
      return jsonBody(llama3MessagesPayload(prompt, params));
    case 'mistral':
      return jsonBody(mistralPayload(prompt, params));
    case 'openai':
      return jsonBody(openAiCompletionPayload(prompt, params));
    case 'falcon':
    case 'tgi':
      return jsonBody(tgiPayload(prompt, params));
  }
}

const FAMILY_BY_MODEL_ID: ReadonlyArray<[RegExp, ModelFamily]> = [
  [/^meta-(textgeneration|vlm)-llama-(guard-)?3/, 'llama3'],
  [/^huggingface-llm-(mistral|mixtral)-/, 'mistral'],
  [/^huggingface-llm-falcon/, 'falcon'],
  [/^huggingface-llm-/, 'tgi'],
];

/** The payload family of a JumpStart model id, or undefined when it is not a known text-generation family. */
export function familyOfModelId(modelId: string): ModelFamily | undefined {
  return FAMILY_BY_MODEL_ID.find(([pattern]) => pattern.test(modelId))?.[1];
}

export interface LabelScore {
  readonly label: string;
  readonly score: number;
}

export interface Classification {
  /** The best label. */
  readonly label: string;
  readonly score: number;
  /** Every label returned, best first. */
  readonly scores: readonly LabelScore[];
}

function isLabelScore(value: unknown): value is LabelScore {
  return typeof value === 'object' && value !== null
    && typeof (value as LabelScore).label === 'string' && typeof (value as LabelScore).score === 'number';
}

/**
 * Parses text-classification output: `[{label, score}]`, `[[{label, score}, ...]]` (return_all_scores / top_k),
 * `{label, score}`, or JumpStart's `{labels: [...], probabilities: [...]}`.
 */
export function parseClassification(output: unknown): Classification {
  let candidates: LabelScore[] | undefined;
  if (Array.isArray(output)) {
    const first = output[0];
    const list: unknown[] = Array.isArray(first) ? first : output;
    if (list.length > 0 && list.every(isLabelScore)) candidates = list as LabelScore[];
  } else if (isLabelScore(output)) {
    candidates = [output];
  } else if (typeof output === 'object' && output !== null) {
    const { labels, probabilities } = output as { labels?: unknown; probabilities?: unknown };
    if (Array.isArray(labels) && Array.isArray(probabilities) && labels.length === probabilities.length && labels.length > 0) {
      candidates = labels.map((label, i) => ({ label: String(label), score: Number(probabilities[i]) }));
    }
  }
  if (!candidates) {
    throw new Error(`Unrecognised text-classification output: expected [{label, score}] or {labels, probabilities}, got ${preview(output)}`);
  }
  const scores = [...candidates].map(({ label, score }) => ({ label, score })).sort((a, b) => b.score - a.score);
  return { label: scores[0].label, score: scores[0].score, scores };
}

/**
 * Generated text of TGI / LMI / Messages API output: `[{generated_text}]`, `{generated_text}`, `{generation}`,
 * `[{generation}]`, `{choices: [{message: {content}}]}` or `{choices: [{text}]}`.
 */
export function parseGeneratedText(output: unknown): string {
  const item = Array.isArray(output) ? output[0] : output;
  if (typeof item === 'string') return item;
  if (typeof item === 'object' && item !== null) {
    const o = item as Record<string, unknown>;
    if (typeof o.generated_text === 'string') return o.generated_text;
    if (typeof o.generation === 'string') return o.generation;
    if (Array.isArray(o.choices) && o.choices.length > 0) {
      const choice = o.choices[0] as { message?: { content?: unknown }; text?: unknown };
      if (typeof choice.message?.content === 'string') return choice.message.content;
      if (typeof choice.text === 'string') return choice.text;
    }
  }
  throw new Error(`Unrecognised generation output: expected generated_text, generation or choices, got ${preview(output)}`);
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
