/**
 * The bounds every AWS call of the runtime, the MCP tools and the handlers sits inside:
 * - `boundedClient` builds any AWS SDK v3 client with a connection and a request timeout on its HTTP handler, and makes
 *   its `send` pass the current deadline's AbortSignal (`client.send(cmd, { abortSignal })`) when the caller gave none;
 * - `withDeadline` runs work under one overall deadline (an AbortSignal plus a timer that settles the call even if
 *   something ignores the signal);
 * - `PageGuard` caps a pagination loop and stops it on a repeated token.
 * No SDK import: the SDK builds its NodeHttpHandler from the `requestHandler` options object.
 */
import { AsyncLocalStorage } from 'async_hooks';

/** TCP connect limit of every client built here. */
export const DEFAULT_CONNECTION_TIMEOUT_MS = 5_000;
/** Per-attempt limit until the response headers (the SDK's `requestTimeout`, made an error, not a warning). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
/** Overall limit of one MCP tool call, retries included. */
export const DEFAULT_TOOL_DEADLINE_MS = 30_000;
/** Pages one pagination loop reads at most. */
export const DEFAULT_MAX_PAGES = 50;

export interface HttpTimeouts {
  /** @default 5000 */
  readonly connectionTimeoutMs?: number;
  /** @default 10000 */
  readonly requestTimeoutMs?: number;
}

/** The `requestHandler` client option: the SDK's NodeHttpHandler with both timeouts, a timed-out attempt an error. */
export function boundedRequestHandler(timeouts: HttpTimeouts = {}) {
  return {
    connectionTimeout: timeouts.connectionTimeoutMs ?? DEFAULT_CONNECTION_TIMEOUT_MS,
    requestTimeout: timeouts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    throwOnRequestTimeout: true,
  };
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

/**
 * One AWS SDK client with timeouts and deadline-aware `send`: `boundedClient(DynamoDBClient, { region })`. A
 * `requestHandler` in `config` replaces the bounded one (the caller then owns its timeouts).
 */
export function boundedClient<C extends Sendable, Config extends object>(
  Client: new (config: Config) => C,
  config: Config = {} as Config,
  timeouts: HttpTimeouts = {},
): C {
  return bindDeadline(new Client({ requestHandler: boundedRequestHandler(timeouts), ...config }));
}

// ---------------------------------------------------------------------------------------------------------------
// Deadlines

/** The work did not finish within its deadline. The same request may succeed later. */
export class DeadlineExceededError extends Error {
  public readonly name = 'DeadlineExceeded';
  public readonly code = 'DeadlineExceeded';
  public readonly retryable = true;
  constructor(public readonly what: string, public readonly deadlineMs: number) {
    super(`${what} did not finish within its deadline of ${deadlineMs} ms; nothing is known to have failed, retry later`);
  }
}

export interface Deadline {
  readonly signal: AbortSignal;
  readonly deadlineMs: number;
  /** Epoch ms at which the deadline passes. */
  readonly expiresAt: number;
}

const scope = new AsyncLocalStorage<Deadline>();

/** The deadline the current async context runs under, if any. */
export function currentDeadline(): Deadline | undefined {
  return scope.getStore();
}

/**
 * Runs `fn` under a deadline of `deadlineMs` (nested deadlines keep the earlier one): SDK calls of bounded clients
 * inside it are aborted when it passes, and the returned promise rejects with `DeadlineExceededError` then even if
 * `fn` is still waiting on something that ignores the signal.
 */
export async function withDeadline<T>(what: string, deadlineMs: number, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const outer = currentDeadline();
  const expiresAt = Math.min(Date.now() + deadlineMs, outer?.expiresAt ?? Infinity);
  const controller = new AbortController();
  const forward = () => controller.abort(outer?.signal.reason);
  outer?.signal.addEventListener('abort', forward, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Built when the deadline passes, not up front: most calls finish in time, and an Error captures a stack.
      const error = new DeadlineExceededError(what, deadlineMs);
      controller.abort(error);
      reject(error);
    }, Math.max(0, expiresAt - Date.now()));
  });
  expired.catch(() => undefined);
  try {
    const deadline: Deadline = { signal: controller.signal, deadlineMs, expiresAt };
    return await Promise.race([scope.run(deadline, () => fn(controller.signal)), expired]);
  } finally {
    clearTimeout(timer);
    outer?.signal.removeEventListener('abort', forward);
  }
}

/** True when `err` is (or was caused by) a deadline. */
export function isDeadlineExceeded(err: unknown): err is DeadlineExceededError {
  return err instanceof DeadlineExceededError || (err as { name?: unknown })?.name === 'DeadlineExceeded';
}

// ---------------------------------------------------------------------------------------------------------------
// Pagination

/**
 * Bounds one pagination loop: `while (token = guard.next(page.NextToken))`. Stops (and says why) after `maxPages`
 * pages or when the service returns a token it returned before, which would otherwise repeat the loop for ever.
 */
export class PageGuard {
  private readonly seen = new Set<string>();
  private pages = 0;
  /** Why the loop stopped early, when it did. */
  public stoppedBecause?: 'page-cap' | 'repeated-token';

  constructor(public readonly what: string, public readonly maxPages: number = DEFAULT_MAX_PAGES) {
    if (!Number.isInteger(maxPages) || maxPages < 1) throw new Error(`maxPages: got ${maxPages}, expected a positive integer`);
  }

  /** Counts one page read; returns the token to request the next page with, or undefined to stop. */
  public next(token: string | undefined): string | undefined {
    this.pages++;
    if (token === undefined || token === null || token === '') return undefined;
    if (this.seen.has(token)) {
      this.stoppedBecause = 'repeated-token';
      return undefined;
    }
    if (this.pages >= this.maxPages) {
      this.stoppedBecause = 'page-cap';
      return undefined;
    }
    this.seen.add(token);
    return token;
  }

  /** True when the loop stopped before the service said there was nothing more. */
  public get truncated(): boolean {
    return this.stoppedBecause !== undefined;
  }

  /** Pages read so far. */
  public get pagesRead(): number {
    return this.pages;
  }
}
