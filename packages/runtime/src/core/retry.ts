/**
 * A retry strategy for the AWS SDK's own retry middleware that retries only what ./errors calls transient, with capped,
 * fully jittered exponential backoff. Per-call overrides travel in an AsyncLocalStorage scope, so one client serves
 * calls with different budgets without a second retry loop on top of the SDK's.
 */
import { AsyncLocalStorage } from 'async_hooks';
import { isTransient } from './errors';

export interface RetryOptions {
  /** Total HTTP attempts including the first. @default 3 */
  readonly maxAttempts?: number;
  /** Backoff base: attempt n waits a random time in [0, min(maxDelayMs, baseDelayMs * 2^(n-1))]. @default 100 */
  readonly baseDelayMs?: number;
  /** Cap of one backoff wait. @default 5000 */
  readonly maxDelayMs?: number;
}

export const DEFAULT_RETRY: Required<RetryOptions> = { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 5_000 };

const callScope = new AsyncLocalStorage<RetryOptions>();

/** Runs `fn` with retry settings that override the client's for every SDK call made inside it. */
export function withRetryOptions<T>(options: RetryOptions | undefined, fn: () => Promise<T>): Promise<T> {
  return options && Object.values(options).some((v) => v !== undefined) ? callScope.run(options, fn) : fn();
}

/** Full-jitter capped exponential backoff for the retry after `retriesSoFar` retries. */
export function backoffDelayMs(retriesSoFar: number, options: RetryOptions = {}): number {
  const base = options.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs;
  const cap = options.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs;
  const ceiling = Math.min(cap, base * 2 ** retriesSoFar);
  return Math.floor(Math.random() * ceiling);
}

interface Token {
  getRetryCount(): number;
  getRetryDelay(): number;
}

class RetryToken implements Token {
  public constructor(private readonly count: number, private readonly delay: number) {}
  public getRetryCount(): number {
    return this.count;
  }
  public getRetryDelay(): number {
    return this.delay;
  }
}

/**
 * Implements the SDK's `RetryStrategyV2` (acquireInitialRetryToken / refreshRetryTokenForRetry / recordSuccess); pass
 * it as `retryStrategy` in a client config. Unlike the SDK's standard strategy it retries InternalDependencyException
 * (530) and never retries ModelError, and it has no shared retry quota: the caller's deadline bounds the total time.
 */
export class TransientOnlyRetryStrategy {
  public readonly mode = 'standard';
  private readonly defaults: Required<RetryOptions>;

  public constructor(options: RetryOptions = {}) {
    this.defaults = {
      maxAttempts: options.maxAttempts ?? DEFAULT_RETRY.maxAttempts,
      baseDelayMs: options.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs,
      maxDelayMs: options.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs,
    };
  }

  /** The settings in force for the current call. */
  public current(): Required<RetryOptions> {
    const scoped = callScope.getStore();
    return {
      maxAttempts: scoped?.maxAttempts ?? this.defaults.maxAttempts,
      baseDelayMs: scoped?.baseDelayMs ?? this.defaults.baseDelayMs,
      maxDelayMs: scoped?.maxDelayMs ?? this.defaults.maxDelayMs,
    };
  }

  public async acquireInitialRetryToken(_scope: string): Promise<Token> {
    return new RetryToken(0, 0);
  }

  public async refreshRetryTokenForRetry(token: Token, errorInfo: { error?: unknown }): Promise<Token> {
    const settings = this.current();
    const retries = token.getRetryCount();
    if (retries + 1 >= settings.maxAttempts || !isTransient(errorInfo.error)) {
      // The middleware rethrows the original error when no token is granted.
      throw new Error('no retry token: not transient or attempts exhausted');
    }
    return new RetryToken(retries + 1, backoffDelayMs(retries, settings));
  }

  public recordSuccess(_token: Token): void {
    // No retry quota to refill: the deadline is what bounds retries.
  }
}
