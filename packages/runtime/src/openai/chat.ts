/**
 * A chat client for SageMaker's OpenAI-compatible route, `POST {base}/chat/completions` with a bearer token
 * (https://docs.aws.amazon.com/sagemaker/latest/dg/realtime-endpoints-openai-compatible.html): one answer, or a
 * server-sent-event stream assembled into one answer while each chunk is handed to the caller. Bounded like every AWS
 * call of the runtime (one overall deadline, `withDeadline`), retried only on what a later attempt can get past, and
 * its errors classified like InvokeEndpoint's (core/errors.ts).
 *
 * What AWS does not document about this route (error bodies, the `[DONE]` terminator, limits) follows what a gateway
 * that calls it reports (stdapi.ai, https://github.com/stdapi-ai/stdapi.ai): see docs/openai.md.
 */
import { bearerTokenProvider } from './bearer-token';
import { DEFAULT_TOOL_DEADLINE_MS, withDeadline } from '../core/bounded';
import {
  classifyError, EndpointRequestError, EndpointValidationError, ModelInvocationError, SageMakerMcpError, TransientEndpointError,
} from '../core/errors';
import { backoffDelayMs, DEFAULT_RETRY, RetryOptions } from '../core/retry';

/** One message of a chat. `content` is text or OpenAI content parts. */
export interface ChatMessage {
  readonly role: string;
  readonly content: unknown;
  readonly [key: string]: unknown;
}

/** An OpenAI Chat Completions request body; `model` may be left empty (AWS: SageMaker routes by the URL). */
export interface ChatCompletionRequest {
  readonly messages: ChatMessage[];
  readonly model?: string;
  readonly max_tokens?: number;
  readonly temperature?: number;
  readonly [key: string]: unknown;
}

/** The parts of a `chat.completion` this client reads; the rest passes through untouched. */
export interface ChatCompletion {
  readonly id?: string;
  readonly object?: string;
  readonly model?: string;
  readonly choices: Array<{ index: number; message: { role: string; content: string | null; [key: string]: unknown }; finish_reason: string | null }>;
  readonly usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };
  readonly [key: string]: unknown;
}

/** One `chat.completion.chunk` of a stream. */
export interface ChatCompletionChunk {
  readonly id?: string;
  readonly choices: Array<{
    index: number;
    delta: { role?: string; content?: string | null; [key: string]: unknown };
    finish_reason?: string | null;
  }>;
  readonly usage?: ChatCompletion['usage'];
  readonly [key: string]: unknown;
}

/** Per-call options. */
export interface ChatCallOptions {
  /** Told the number of each HTTP attempt as it starts (1, then 2 on a retry, ...). @default - none */
  readonly onAttempt?: (attempt: number) => void;
}

/** Which endpoint (and inference component) to call, in which region. */
export interface OpenAiRouteTarget {
  readonly endpointName: string;
  /** Addressed in the path (AWS: "include its name in the URL path"). @default - none: a single-model endpoint */
  readonly inferenceComponentName?: string;
  /** @default - `AWS_REGION`, then `AWS_DEFAULT_REGION` */
  readonly region?: string;
}

export interface SageMakerChatClientOptions extends OpenAiRouteTarget {
  /**
   * Where tokens come from (called per request; cache in it).
   *
   * @default - `bearerTokenProvider({ region })`: the AWS SDK's default credential chain, 12-hour tokens, cached
   */
  readonly token?: () => Promise<string>;
  /**
   * The base URL, for a local stand-in or a VPC endpoint.
   *
   * @default - `openAiBaseUrl(target)`
   */
  readonly baseUrl?: string;
  /**
   * Overall limit of one call (retries and the whole stream included), in ms.
   *
   * @default 30000
   */
  readonly deadlineMs?: number;
  /** @default - 3 attempts, only for transient errors, and never once a stream has delivered a chunk */
  readonly retry?: RetryOptions;
}

const NAME = /^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$/;

/**
 * `https://runtime.sagemaker.{region}.amazonaws.com/endpoints/{endpoint}[/inference-components/{ic}]/openai/v1`
 * (`.amazonaws.com.cn` in China regions), the base URL an OpenAI client takes.
 */
export function openAiBaseUrl(target: OpenAiRouteTarget): string {
  const region = target.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION;
  if (!region) throw new Error('region: got none (and AWS_REGION is not set), expected the endpoint\'s region such as us-east-1');
  checkName('endpointName', target.endpointName);
  if (target.inferenceComponentName !== undefined) checkName('inferenceComponentName', target.inferenceComponentName);
  const suffix = region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com';
  const ic = target.inferenceComponentName === undefined ? '' : `/inference-components/${target.inferenceComponentName}`;
  return `https://runtime.sagemaker.${region}.${suffix}/endpoints/${target.endpointName}${ic}/openai/v1`;
}

/** Chat Completions on one endpoint or inference component over SageMaker's OpenAI-compatible route. */
export class SageMakerChatClient {
  public readonly baseUrl: string;
  private readonly token: () => Promise<string>;
  private readonly deadlineMs: number;
  private readonly retry: RetryOptions;
  private readonly endpointName: string;

  public constructor(options: SageMakerChatClientOptions) {
    this.baseUrl = (options.baseUrl ?? openAiBaseUrl(options)).replace(/\/+$/, '');
    this.token = options.token ?? bearerTokenProvider({ region: options.region });
    this.deadlineMs = options.deadlineMs ?? DEFAULT_TOOL_DEADLINE_MS;
    this.retry = options.retry ?? {};
    this.endpointName = options.inferenceComponentName === undefined
      ? options.endpointName
      : `${options.endpointName}/${options.inferenceComponentName}`;
  }

  /** One answer (`stream: false`). */
  public async complete(request: ChatCompletionRequest, options: ChatCallOptions = {}): Promise<ChatCompletion> {
    return this.call('chat completion', { ...request, stream: false }, options, async (response) => (await response.json()) as ChatCompletion);
  }

  /**
   * A streamed answer (`stream: true`): `onChunk` gets each `chat.completion.chunk` as it arrives; the result is the
   * chunks assembled into one `chat.completion` (content concatenated per choice, the last finish reason and usage).
   * Reads `data:` server-sent events up to `data: [DONE]` or the end of the body, and JSON lines too.
   */
  public async stream(
    request: ChatCompletionRequest,
    onChunk: (chunk: ChatCompletionChunk) => void | Promise<void> = () => undefined,
    options: ChatCallOptions = {},
  ): Promise<ChatCompletion> {
    let delivered = false;
    return this.call('streamed chat completion', { ...request, stream: true }, options, async (response) => {
      const assembled = new Assembler();
      for await (const chunk of readChunks(response)) {
        delivered = true;
        assembled.add(chunk);
        await onChunk(chunk);
      }
      return assembled.result();
    }, () => delivered);
  }

  private async call<T>(
    what: string, body: object, options: ChatCallOptions, read: (response: Response) => Promise<T>, started: () => boolean = () => false,
  ): Promise<T> {
    const maxAttempts = this.retry.maxAttempts ?? DEFAULT_RETRY.maxAttempts;
    return withDeadline(`${what} on ${this.endpointName}`, this.deadlineMs, async (signal) => {
      for (let attempt = 1; ; attempt++) {
        options.onAttempt?.(attempt);
        try {
          const response = await fetch(`${this.baseUrl}/chat/completions`, {
            method: 'POST',
            headers: {
              'authorization': `Bearer ${await this.token()}`,
              'content-type': 'application/json',
              'accept': 'application/json, text/event-stream',
            },
            body: JSON.stringify(body),
            signal,
          });
          if (!response.ok) throw await routeError(response, this.endpointName, attempt);
          return await read(response);
        } catch (err) {
          const error = err instanceof SageMakerMcpError
            ? err
            : classifyError(signal.aborted ? signal.reason ?? err : err, { endpointName: this.endpointName, attempts: attempt });
          if (!error.retryable || attempt >= maxAttempts || started() || signal.aborted) throw error;
          await new Promise((resolve) => setTimeout(resolve, backoffDelayMs(attempt - 1, this.retry)));
        }
      }
    });
  }
}

/** The route's error as a library error. Shapes per stdapi.ai's measurements (AWS documents none). */
async function routeError(response: Response, endpointName: string, attempts: number): Promise<SageMakerMcpError> {
  const text = await response.text().catch(() => '');
  let message = text;
  let code: string | undefined;
  try {
    const parsed = JSON.parse(text);
    const e = parsed?.error ?? parsed;
    message = String(e?.message ?? e?.Message ?? text);
    code = typeof e?.code === 'string' ? e.code : typeof e?.type === 'string' ? e.type : undefined;
  } catch {
    // not JSON: keep the text
  }
  const status = response.status;
  const requestId = response.headers.get('x-amzn-requestid') ?? undefined;
  const details = { httpStatusCode: status, endpointName, attempts, code: code ?? `HTTP${status}`, requestId };
  const where = ` (endpoint "${endpointName}")`;
  // A component or endpoint scaled to zero answers 400 "... has no capacity": the request that brings a copy back.
  if (/has no capacity/i.test(message)) {
    return new TransientEndpointError(`SageMaker endpoint has no capacity yet${where}: ${message.replace(/\.\s*$/, '')}. A copy is starting; retry in a minute.`,
      { ...details, code: 'NoCapacity' });
  }
  const container = /Received (client|server) error \((\d{3})\) from [^ ]+ with message "([\s\S]*)"/.exec(message);
  if (container) {
    return new ModelInvocationError(`The model container${where} answered ${container[2]}: ${container[3]}. Retrying the same input reproduces this.`, {
      ...details, code: 'ModelError', originalStatusCode: Number(container[2]), originalMessage: container[3],
    });
  }
  if (status === 429 || status >= 500) return new TransientEndpointError(`SageMaker endpoint temporarily unavailable${where}: ${status} ${message}`, details);
  if (status === 400 || status === 404 || status === 413 || status === 422) {
    return new EndpointValidationError(`SageMaker rejected the request${where}: ${status} ${message}`, details);
  }
  return new EndpointRequestError(`SageMaker OpenAI-compatible route refused the call${where}: ${status} ${message}`, details);
}

/** Chunks of an SSE (`data: {...}` events, `data: [DONE]`) or JSON-lines body. */
async function* readChunks(response: Response): AsyncGenerator<ChatCompletionChunk> {
  if (!response.body) return;
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(bytes, { stream: true });
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      const chunk = parseLine(line);
      if (chunk === 'done') return;
      if (chunk) yield chunk;
    }
  }
  const last = parseLine((buffer + decoder.decode()).trim());
  if (last && last !== 'done') yield last;
}

function parseLine(line: string): ChatCompletionChunk | 'done' | undefined {
  const data = line.startsWith('data:') ? line.slice(5).trim() : line;
  if (data === '[DONE]') return 'done';
  if (!data.startsWith('{')) return undefined; // comments, `event:`/`id:` fields, blank lines
  const parsed = JSON.parse(data);
  if (parsed?.error) {
    throw new ModelInvocationError(`The model's response stream failed: ${String(parsed.error.message ?? JSON.stringify(parsed.error))}`, { code: 'StreamError' });
  }
  return parsed as ChatCompletionChunk;
}

class Assembler {
  private first?: ChatCompletionChunk;
  private readonly choices = new Map<number, { role: string; content: string; finish_reason: string | null }>();
  private usage?: ChatCompletion['usage'];

  public add(chunk: ChatCompletionChunk): void {
    this.first ??= chunk;
    if (chunk.usage) this.usage = chunk.usage;
    for (const c of chunk.choices ?? []) {
      const choice = this.choices.get(c.index) ?? { role: 'assistant', content: '', finish_reason: null };
      if (c.delta?.role) choice.role = c.delta.role;
      if (typeof c.delta?.content === 'string') choice.content += c.delta.content;
      if (c.finish_reason) choice.finish_reason = c.finish_reason;
      this.choices.set(c.index, choice);
    }
  }

  public result(): ChatCompletion {
    return {
      id: this.first?.id,
      object: 'chat.completion',
      model: this.first?.model as string | undefined,
      choices: [...this.choices.entries()].sort(([a], [b]) => a - b)
        .map(([index, c]) => ({ index, message: { role: c.role, content: c.content }, finish_reason: c.finish_reason })),
      ...(this.usage ? { usage: this.usage } : {}),
    };
  }
}

function checkName(prop: string, name: string): void {
  if (!NAME.test(name)) throw new Error(`${prop}: got '${name}', expected a SageMaker name (1-63 letters, digits and hyphens, not starting or ending with a hyphen)`);
}
