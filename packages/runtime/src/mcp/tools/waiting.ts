/**
 * The `wait_for_*` tools: check a job again and again within one tool call, until it is done, the caller's
 * `maxWaitSeconds` pass, or the tool's deadline comes near (then the last status is the answer: the agent calls
 * again). When the request carries `_meta.progressToken`, each check sends an MCP progress notification
 * (https://modelcontextprotocol.io/specification/2025-06-18/basic/utilities/progress: "progress" increases with each
 * notification, "total" when known); a client that does not ask gets the same final result and no notifications.
 *
 * Over streamable HTTP the notifications go out on the request's SSE stream (the SDK's default `auto` response mode
 * upgrades the response to SSE at the first one); over stdio, on stdout. Everything here is per request: the token,
 * the deadline, the cancel signal.
 */
import * as z from 'zod';
import { currentDeadline } from '../../core/deadline';

/** How often a wait checks again, unless `SageMakerMcpServerConfig.waitPollIntervalMs` says otherwise. */
export const DEFAULT_WAIT_POLL_INTERVAL_MS = 5_000;
/** Kept free before the tool deadline for the last check and the answer. */
const DEADLINE_MARGIN_MS = 2_000;

export const maxWaitSecondsSchema = z.number().int().min(1).max(900).optional()
  .describe('Longest to wait, in seconds (default: as long as this server lets one call run). The answer then says pending: call again.');

/** The part of the MCP SDK's handler context a wait reads (kept structural: the SDK types stay at one edge). */
export interface WaitRequestContext {
  readonly mcpReq?: {
    readonly _meta?: { readonly progressToken?: string | number };
    readonly signal?: AbortSignal;
    readonly notify?: (notification: { method: string; params?: Record<string, unknown> }) => Promise<void>;
  };
}

export interface Check<T> {
  readonly done: boolean;
  readonly value: T;
  /** One line for the progress notification (e.g. "Executing: 2 of 5 steps succeeded"). */
  readonly message: string;
}

export interface WaitOutcome<T> {
  readonly value: T;
  readonly waitedSeconds: number;
}

/** Sleeps `ms`, or less when `signal` aborts. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Runs `check` until it says done or the wait budget (the smaller of `maxWaitSeconds` and the tool deadline less a
 * margin) is spent, sending one progress notification per check when the request asked for them.
 */
export async function waitUntilDone<T>(request: WaitRequestContext | undefined, options: {
  readonly maxWaitSeconds?: number;
  readonly pollIntervalMs?: number;
  readonly check: () => Promise<Check<T>>;
}): Promise<WaitOutcome<T>> {
  const started = Date.now();
  const deadline = currentDeadline();
  const byCaller = options.maxWaitSeconds !== undefined ? started + options.maxWaitSeconds * 1000 : Infinity;
  const byDeadline = deadline ? deadline.expiresAt - Math.min(DEADLINE_MARGIN_MS, deadline.deadlineMs / 4) : started + 60_000;
  const until = Math.min(byCaller, byDeadline);
  const interval = options.pollIntervalMs ?? DEFAULT_WAIT_POLL_INTERVAL_MS;
  const token = request?.mcpReq?._meta?.progressToken;
  const cancelled = request?.mcpReq?.signal;
  const totalSeconds = Math.max(0, Math.round((until - started) / 1000));
  for (let checks = 1; ; checks++) {
    const state = await options.check();
    const waitedSeconds = Math.round((Date.now() - started) / 1000);
    // Past the tool deadline the call has already answered (../../core/deadline.ts withDeadline settles it then): a check that
    // ignored the signal must not send a notification after the result, nor after the client cancelled.
    if (deadline?.signal.aborted || cancelled?.aborted) return { value: state.value, waitedSeconds };
    if (token !== undefined && request?.mcpReq?.notify) {
      // progress must increase with each notification: the number of checks made does.
      await request.mcpReq.notify({
        method: 'notifications/progress',
        params: { progressToken: token, progress: checks, message: `${state.message} (waited ${waitedSeconds} s of at most ${totalSeconds} s)` },
      }).catch(() => undefined);
    }
    const next = Date.now() + interval;
    if (state.done || next > until || cancelled?.aborted || deadline?.signal.aborted) return { value: state.value, waitedSeconds };
    await pause(interval, anySignal(cancelled, deadline?.signal));
  }
}

function anySignal(...signals: Array<AbortSignal | undefined>): AbortSignal | undefined {
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  return present.length > 1 ? AbortSignal.any(present) : present[0];
}
