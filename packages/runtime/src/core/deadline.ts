/**
 * The one deadline primitive of the runtime, for every AWS call, tool call and handler:
 * - `startDeadline` arms one timer and one AbortSignal (aborted when the deadline passes, or when any signal it was
 *   given aborts) and says which of the two ended the work;
 * - `abortable` races work against such a signal, so a deadline holds even where an SDK step ignores the abort;
 * - `withDeadline` runs work under a deadline made current for its async context (nested ones keep the earlier), and
 *   `bindDeadline` makes an AWS SDK client's `send` pass the current deadline's signal.
 */
import { AsyncLocalStorage } from 'async_hooks';

/** The work did not finish within its deadline. The same request may succeed later. */
export class DeadlineExceededError extends Error {
  public readonly name = 'DeadlineExceeded';
  public readonly code = 'DeadlineExceeded';
  public readonly retryable = true;
  constructor(public readonly what: string, public readonly deadlineMs: number) {
    super(`${what} did not finish within its deadline of ${deadlineMs} ms; nothing is known to have failed, retry later`);
  }
}

/** One armed deadline. */
export interface Deadline {
  /** Aborted when the deadline passes (reason: DeadlineExceededError) or when a given signal aborts (its reason). */
  readonly signal: AbortSignal;
  readonly deadlineMs: number;
  /** Epoch ms at which the deadline passes. */
  readonly expiresAt: number;
  /** True when the deadline (not a given signal) ended the work. */
  expired(): boolean;
  /** Stops the timer and the forwarding of the given signals; call it when the work is done. */
  dispose(): void;
}

export interface StartDeadlineOptions {
  /** Signals that end the work too (a caller's abort, an outer deadline). @default - none */
  readonly signals?: ReadonlyArray<AbortSignal | undefined>;
  /** Pass no later than this epoch ms (an outer deadline's). @default - now + deadlineMs */
  readonly notAfter?: number;
}

/** Arms a deadline of `deadlineMs` for `what`. */
export function startDeadline(what: string, deadlineMs: number, options: StartDeadlineOptions = {}): Deadline {
  const controller = new AbortController();
  const expiresAt = Math.min(Date.now() + deadlineMs, options.notAfter ?? Infinity);
  let expired = false;
  // An infinite deadline arms no timer (setTimeout would fire at once): it only forwards the signals.
  const timer = Number.isFinite(expiresAt) ? setTimeout(() => {
    expired = true;
    // Built when the deadline passes, not up front: most calls finish in time, and an Error captures a stack.
    controller.abort(new DeadlineExceededError(what, deadlineMs));
  }, Math.max(0, expiresAt - Date.now())) : undefined;
  const listeners: Array<[AbortSignal, () => void]> = [];
  for (const source of options.signals ?? []) {
    if (!source) continue;
    if (source.aborted) controller.abort(source.reason);
    const listener = () => controller.abort(source.reason);
    source.addEventListener('abort', listener, { once: true });
    listeners.push([source, listener]);
  }
  return {
    signal: controller.signal,
    deadlineMs,
    expiresAt,
    expired: () => expired,
    dispose: () => {
      clearTimeout(timer);
      for (const [source, listener] of listeners) source.removeEventListener('abort', listener);
    },
  };
}

export interface AbortableOptions {
  /**
   * Wait one `setImmediate` after the abort before rejecting, so an error the work raises for the abort in the same
   * turn (the SDK's AbortError, with its attempt count) wins over the signal's reason. @default true
   */
  readonly grace?: boolean;
}

/**
 * `work`, or the signal's reason once `signal` aborts, whichever comes first: what makes a deadline hold even when a
 * step of the SDK ignores the abort. The SDK honours `abortSignal` in its retry middleware (token and backoff waits)
 * and in its own HTTP handlers, but nothing aborts the steps in between: a credential provider that never answers, or
 * a custom `requestHandler` that ignores `abortSignal`, would hold the call for ever; this race ends it then. `work`
 * is not stopped when it loses; its later outcome is dropped, a rejection included (no unhandled rejection).
 */
export function abortable<T>(work: Promise<T>, signal: AbortSignal, options: AbortableOptions = {}): Promise<T> {
  const grace = options.grace ?? true;
  return new Promise<T>((resolve, reject) => {
    let pending: ReturnType<typeof setImmediate> | undefined;
    const onAbort = () => {
      if (grace) pending = setImmediate(() => reject(signal.reason));
      else reject(signal.reason);
    };
    const settled = () => {
      signal.removeEventListener('abort', onAbort);
      if (pending) clearImmediate(pending);
    };
    work.then(
      (value) => {
        settled();
        resolve(value);
      },
      (err: unknown) => {
        settled();
        reject(err);
      },
    );
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

const scope = new AsyncLocalStorage<Deadline>();

/** The deadline the current async context runs under, if any. */
export function currentDeadline(): Deadline | undefined {
  return scope.getStore();
}

/**
 * Runs `fn` under a deadline of `deadlineMs` (nested deadlines keep the earlier one): SDK calls of bound clients
 * inside it are aborted when it passes, and the returned promise rejects with `DeadlineExceededError` then even if
 * `fn` is still waiting on something that ignores the signal.
 */
export async function withDeadline<T>(what: string, deadlineMs: number, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const outer = currentDeadline();
  const deadline = startDeadline(what, deadlineMs, { signals: [outer?.signal], notAfter: outer?.expiresAt });
  try {
    // No grace: the deadline's own error is the answer, whatever the work raises for the abort.
    return await abortable(scope.run(deadline, () => fn(deadline.signal)), deadline.signal, { grace: false });
  } finally {
    deadline.dispose();
  }
}

interface Sendable {
  send(...args: any[]): any;
}

const BOUND = Symbol.for('cdk-sagemaker-mcp.bounded');

/**
 * Makes `client.send` pass the current deadline's signal as `abortSignal` when the call gives none, so every call made
 * inside `withDeadline` (also in code that never heard of deadlines) is aborted when the deadline passes.
 */
export function bindDeadline<C extends Sendable>(client: C): C {
  const c = client as C & { [BOUND]?: true };
  if (c[BOUND]) return client;
  const send = c.send.bind(client);
  c.send = (command: unknown, optionsOrCb?: unknown, cb?: unknown) => {
    const signal = currentDeadline()?.signal;
    if (!signal || typeof optionsOrCb === 'function') return send(command, optionsOrCb, cb);
    const options = (optionsOrCb ?? {}) as { abortSignal?: unknown };
    return send(command, options.abortSignal ? options : { ...options, abortSignal: signal }, cb);
  };
  Object.defineProperty(c, BOUND, { value: true });
  return client;
}
