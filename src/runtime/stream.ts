/**
 * InvokeEndpointWithResponseStream as an async iterator of text. UTF-8 is decoded across PayloadPart boundaries;
 * with `format: 'tgi'` the `data:` lines of TGI / LMI / Messages-API streams are turned into token text.
 * A failed call is retried only until the first PayloadPart arrives: after that, a retry would repeat output the
 * caller has already seen, so the error is thrown instead.
 */
import { InvokeEndpointWithResponseStreamCommand } from '@aws-sdk/client-sagemaker-runtime';
import { isTransient } from './errors';
import { callSignal, failureOf, InvokeEndpointInput, InvokeOptions, resolveClient } from './invoke';
import { backoffDelayMs, DEFAULT_RETRY, withRetryOptions } from './retry';

/** The same request as `invokeEndpoint`; `accept` is sent as `X-Amzn-SageMaker-Accept` on the streaming API. */
export type InvokeStreamInput = InvokeEndpointInput;

export interface InvokeStreamOptions extends InvokeOptions {
  /**
   * `'text'`: the decoded bytes as they arrive. `'tgi'`: parse `data:`-prefixed (or bare) JSON lines and yield the token
   * text (`token.text` without special tokens, `choices[0].delta.content`, `choices[0].text`). @default 'text'
   */
  readonly format?: 'text' | 'tgi';
}

/** Splits a byte stream into lines and extracts token text from TGI / LMI / OpenAI-style stream lines. */
export class TokenLineParser {
  private pending = '';

  /** Feeds decoded text; returns the token texts of the lines it completed. */
  public push(text: string): string[] {
    this.pending += text;
    const lines = this.pending.split('\n');
    this.pending = lines.pop() ?? '';
    return lines.map(tokenOfLine).filter((t): t is string => t !== undefined && t !== '');
  }

  /** Token text of a last line that had no newline. */
  public flush(): string[] {
    const last = tokenOfLine(this.pending);
    this.pending = '';
    return last ? [last] : [];
  }
}

/** Token text of one stream line, or undefined for keep-alives, `[DONE]`, events without text, and special tokens. */
export function tokenOfLine(rawLine: string): string | undefined {
  let line = rawLine.trim();
  if (line.startsWith('data:')) line = line.slice(5).trim();
  if (!line || line === '[DONE]' || !line.startsWith('{')) return undefined;
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const token = parsed.token as { text?: unknown; special?: unknown } | undefined;
  if (token && typeof token.text === 'string') return token.special === true ? undefined : token.text;
  const choices = parsed.choices as Array<{ delta?: { content?: unknown }; text?: unknown }> | undefined;
  if (Array.isArray(choices) && choices.length > 0) {
    if (typeof choices[0].delta?.content === 'string') return choices[0].delta.content;
    if (typeof choices[0].text === 'string') return choices[0].text;
  }
  return undefined;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Streams the endpoint's response as text chunks. Errors are the classified errors of ./errors: ModelStreamError
 * (ModelInvocationTimeExceeded) becomes ModelInvocationError, InternalStreamFailure and StreamBroken become
 * TransientEndpointError. Breaking out of the loop closes the HTTP response.
 */
export async function* invokeEndpointStream(input: InvokeStreamInput, options: InvokeStreamOptions = {}): AsyncGenerator<string, void, undefined> {
  const client = resolveClient(options);
  const stop = new AbortController();
  const call = callSignal(options.deadlineMs, options.signal, stop.signal);
  const maxAttempts = options.maxAttempts ?? DEFAULT_RETRY.maxAttempts;
  const context = { endpointName: input.endpointName, contentType: input.contentType, deadlineMs: options.deadlineMs };
  const body = typeof input.body === 'string' ? new TextEncoder().encode(input.body) : input.body;
  let finished = false;
  try {
    for (let attempt = 1; ; attempt++) {
      let receivedPayload = false;
      try {
        // This loop owns retries for streams (the SDK cannot retry an error that arrives inside the stream), so the
        // SDK makes exactly one attempt per iteration.
        const command = new InvokeEndpointWithResponseStreamCommand({
          EndpointName: input.endpointName,
          Body: body,
          ContentType: input.contentType,
          Accept: input.accept,
          TargetVariant: input.targetVariant,
          InferenceComponentName: input.inferenceComponentName,
          CustomAttributes: input.customAttributes,
          InferenceId: input.inferenceId,
        });
        const out = await withRetryOptions({ maxAttempts: 1 }, () => client.send(command, { abortSignal: call.signal }));
        const decoder = new TextDecoder('utf-8');
        const lines = options.format === 'tgi' ? new TokenLineParser() : undefined;
        for await (const event of out.Body ?? []) {
          const bytes = event.PayloadPart?.Bytes;
          if (!bytes) continue;
          receivedPayload = true;
          const text = decoder.decode(bytes, { stream: true });
          for (const chunk of lines ? lines.push(text) : [text]) {
            if (chunk) yield chunk;
          }
        }
        const tail = decoder.decode();
        for (const chunk of lines ? [...lines.push(tail), ...lines.flush()] : [tail]) {
          if (chunk) yield chunk;
        }
        finished = true;
        return;
      } catch (err) {
        const canRetry = !receivedPayload && attempt < maxAttempts && !call.signal.aborted && isTransient(err);
        if (!canRetry) throw failureOf(err, call, { ...context, attempts: attempt }, options.signal);
        try {
          await sleep(backoffDelayMs(attempt - 1, options.backoff), call.signal);
        } catch (abortErr) {
          throw failureOf(abortErr, call, { ...context, attempts: attempt }, options.signal);
        }
      }
    }
  } finally {
    // An early `break` by the consumer lands here with the response still open: abort it so the socket is freed.
    if (!finished) stop.abort(new Error('stream closed by the consumer'));
    call.dispose();
  }
}
