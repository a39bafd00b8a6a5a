/**
 * The bounds every AWS call of the runtime, the MCP tools and the handlers sits inside:
 * - `boundedClient` builds any AWS SDK v3 client with a connection and a request timeout on its HTTP handler, and makes
 *   its `send` pass the current deadline's AbortSignal (`client.send(cmd, { abortSignal })`) when the caller gave none
 *   (./deadline holds the one deadline primitive);
 * - `PageGuard` caps a pagination loop and stops it on a repeated token.
 * No SDK import: the SDK builds its NodeHttpHandler from the `requestHandler` options object.
 */
import { bindDeadline } from './deadline';

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

/**
 * One AWS SDK client with timeouts and deadline-aware `send`: `boundedClient(DynamoDBClient, { region })`. A
 * `requestHandler` in `config` replaces the bounded one (the caller then owns its timeouts).
 */
export function boundedClient<C extends { send(...args: any[]): any }, Config extends object>(
  Client: new (config: Config) => C,
  config: Config = {} as Config,
  timeouts: HttpTimeouts = {},
): C {
  return bindDeadline(new Client({ requestHandler: boundedRequestHandler(timeouts), ...config }));
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
