/**
 * InvokeEndpointWithResponseStream as an async iterator of text. UTF-8 is decoded across PayloadPart boundaries;
 * with `format: 'tgi'` the `data:` lines of TGI / LMI / Messages-API streams are turned into token text.
 * A failed call is retried only until the first PayloadPart arrives: after that, a retry would repeat output the
 * caller has already seen, so the error is thrown instead.
 */
import { CallSignal, DEFAULT_DEADLINE_MS, failureOf, InvokeEndpointInput, InvokeOptions, resolveClient } from './invoke';
import { sageMakerRuntimeSdk } from '../core/aws-sdk';
import { abortable, Deadline, startDeadline } from '../core/deadline';
import { isTransient, TransientEndpointError } from '../core/errors';
import { backoffDelayMs, DEFAULT_RETRY, withRetryOptions } from '../core/retry';

/** The same request as `invokeEndpoint`; `accept` is sent as `X-Amzn-SageMaker-Accept` on the streaming API. */
export type InvokeStreamInput = InvokeEndpointInput;

/** Default longest pause between two PayloadParts once the stream has started. */
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 60_000;

/**
 * `deadlineMs` (default 70 s) bounds the wait for the FIRST PayloadPart, retries included; after that a generation
 * may run as long as it keeps sending, and `idleTimeoutMs` bounds each pause between parts instead.
 */
export interface InvokeStreamOptions extends InvokeOptions {
  /**
   * Longest pause between two PayloadParts (and between the first part and the end) before the stream is abandoned
   * with TransientEndpointError code `StreamIdleTimeout`. @default 60000
   */
  readonly idleTimeoutMs?: number;
  /**
   * `'text'`: the decoded bytes as they arrive. `'tgi'`: parse `data:`-prefixed (or bare) JSON lines and yield the token
   * text (`token.text` without special tokens, `choices[0].delta.content`, `choices[0].text`). @default 'text'
   */
  readonly format?: 'text' | 'tgi';
}

/** Splits a byte stream into lines and extracts token text from TGI / LMI / OpenAI-style stream lines. */
class TokenLineParser {
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
function tokenOfLine(rawLine: string): string | undefined {
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

/**
 * The call's abort signal: the caller's signal and the consumer's early close, plus a deadline that runs until the
 * first PayloadPart and an idle timer that runs after it (re-armed by every part).
 */
class StreamSignal implements CallSignal {
  private readonly controller = new AbortController();
  private readonly sources: Deadline;
  private phase: Deadline;
  private kind: 'deadline' | 'idle' = 'deadline';

  constructor(deadlineMs: number, private readonly idleMs: number, sources: Array<AbortSignal | undefined>) {
    // The caller's signals never expire on their own: an unarmed (infinite) deadline only forwards them.
    this.sources = startDeadline('InvokeEndpointWithResponseStream', Infinity, { signals: sources });
    this.phase = this.arm(deadlineMs, 'deadline');
  }

  public get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** A PayloadPart arrived: the deadline no longer applies, the idle clock restarts. */
  public partReceived(): void {
    this.phase.dispose();
    this.phase = this.arm(this.idleMs, 'idle');
  }

  public expired(): boolean {
    return this.kind === 'deadline' && this.phase.expired();
  }

  public idleExceeded(): boolean {
    return this.kind === 'idle' && this.phase.expired();
  }

  public dispose(): void {
    this.phase.dispose();
    this.sources.dispose();
  }

  private arm(ms: number, kind: 'deadline' | 'idle'): Deadline {
    this.kind = kind;
    const phase = startDeadline(`InvokeEndpointWithResponseStream ${kind}`, ms, { signals: [this.sources.signal] });
    phase.signal.addEventListener('abort', () => this.controller.abort(phase.signal.reason), { once: true });
    if (phase.signal.aborted) this.controller.abort(phase.signal.reason);
    return phase;
  }
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
 * The next event of `events`, or the signal's reason once the deadline, the idle timer or the caller aborts it (see
 * `abortable`): a stream that stops yielding while its request handler ignores the abort still ends.
 */
function untilAborted<T>(events: AsyncIterator<T>, signal: AbortSignal): Promise<IteratorResult<T>> {
  return abortable(events.next(), signal);
}

/**
 * Ends a response stream the loop stops reading, without waiting: an async generator's `return()` waits behind a read
 * still pending, which, from a handler that ignores the abort, may never settle.
 */
function release(events: AsyncIterator<unknown>): void {
  void Promise.resolve().then(() => events.return?.()).catch(() => undefined);
}

/**
 * Streams the endpoint's response as text chunks. Errors are the classified errors of ./errors: ModelStreamError
 * (ModelInvocationTimeExceeded) becomes ModelInvocationError, InternalStreamFailure and StreamBroken become
 * TransientEndpointError. Breaking out of the loop closes the HTTP response.
 *
 * Time limits: `deadlineMs` until the first PayloadPart (a long generation is not cut off at 70 s), then
 * `idleTimeoutMs` between parts; either ends the stream with TransientEndpointError (`DeadlineExceeded` /
 * `StreamIdleTimeout`).
 */
export async function* invokeEndpointStream(input: InvokeStreamInput, options: InvokeStreamOptions = {}): AsyncGenerator<string, void, undefined> {
  const client = resolveClient(options);
  const stop = new AbortController();
  const idleMs = options.idleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS;
  if (!Number.isFinite(idleMs) || idleMs <= 0) throw new RangeError(`idleTimeoutMs: got ${idleMs}, expected a positive number of milliseconds`);
  const call = new StreamSignal(options.deadlineMs ?? DEFAULT_DEADLINE_MS, idleMs, [options.signal, stop.signal]);
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
        const { InvokeEndpointWithResponseStreamCommand } = sageMakerRuntimeSdk();
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
        // The request and each read are raced against the signal (abortable, untilAborted): the deadline and the idle
        // timer end the stream even when the request handler ignores the abort.
        const out = await abortable(withRetryOptions({ maxAttempts: 1 }, () => client.send(command, { abortSignal: call.signal })), call.signal);
        const decoder = new TextDecoder('utf-8');
        const lines = options.format === 'tgi' ? new TokenLineParser() : undefined;
        const events = out.Body?.[Symbol.asyncIterator]();
        let drained = false;
        try {
          while (events) {
            const next = await untilAborted(events, call.signal);
            if (next.done) {
              drained = true;
              break;
            }
            const bytes = next.value.PayloadPart?.Bytes;
            if (!bytes) continue;
            receivedPayload = true;
            call.partReceived();
            const text = decoder.decode(bytes, { stream: true });
            for (const chunk of lines ? lines.push(text) : [text]) {
              if (chunk) yield chunk;
            }
          }
        } finally {
          // The consumer's break, or a read the abort won: let go of the stream (a no-op on one whose read failed).
          if (events && !drained) release(events);
        }
        const tail = decoder.decode();
        for (const chunk of lines ? [...lines.push(tail), ...lines.flush()] : [tail]) {
          if (chunk) yield chunk;
        }
        finished = true;
        return;
      } catch (err) {
        const canRetry = !receivedPayload && attempt < maxAttempts && !call.signal.aborted && isTransient(err);
        if (call.idleExceeded()) {
          throw new TransientEndpointError(`SageMaker endpoint "${input.endpointName}" sent no PayloadPart for ${idleMs} ms (idle timeout)`, {
            code: 'StreamIdleTimeout', endpointName: input.endpointName, attempts: attempt, cause: err,
          });
        }
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
