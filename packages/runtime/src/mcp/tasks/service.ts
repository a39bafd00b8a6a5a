/**
 * Tasks without a task table. A task id is a sealed handle (../tools/handles.ts, kind `task`: AES-256-GCM, random IV,
 * so unguessable and unforgeable) holding the caller, the tool and the state the tool needs to find its work again (for
 * `start_async_inference` what the job's handle seals, for `start_training` the run's). Where the work stands is read from where
 * the work lives (the async job table or output objects, the pipeline execution), on every `tasks/get`. So:
 * - a task exists as soon as its work was accepted by SageMaker, before `CreateTaskResult` is sent, and any instance
 *   holding the handle key resolves it (a Lambda fleet, a restarted CLI);
 * - a task outlives the instance that created it, and nothing is kept in process memory;
 * - a terminal status stays terminal because the services' own are final (a job's output, a pipeline's Succeeded,
 *   Failed or Stopped never change);
 * - another principal's task, an expired one and a forged one are the same -32602.
 */
import { CreateTaskResult, GetTaskResult, TaskError, taskNotFound } from './protocol';
import type { HandleCodec } from '../tools/handles';
import { HandleExpiredError, InvalidHandleError } from '../tools/handles';
import type { ToolResult } from '../tools/results';

/** Where a task's work stands, as its tool reads it. */
export type TaskOutcome =
  | { readonly status: 'working'; readonly statusMessage?: string }
  | { readonly status: 'completed'; readonly result: ToolResult; readonly at?: string }
  | { readonly status: 'cancelled'; readonly statusMessage?: string; readonly at?: string }
  | { readonly status: 'failed'; readonly error: TaskError; readonly at?: string };

/** How a tool starts: its work as a task (the state to seal into the task id), or an answer at once. */
export type TaskStart = { readonly state: Record<string, unknown> } | { readonly result: ToolResult };

/** A tool that may answer a declaring `tools/call` with a task. */
export interface TaskToolDefinition {
  readonly name: string;
  /** The tool cannot serve without a task: a 2026-07-28 call that does not declare the extension gets -32021. */
  readonly requiresTask?: boolean;
  /** Suggested ms between `tasks/get` calls. @default - the service's `pollIntervalMs` */
  readonly pollIntervalMs?: number;
  /** Starts the work; `runSync` is the tool's ordinary answer (what a non-declaring call gets). */
  start(args: Record<string, unknown>, runSync: () => Promise<ToolResult>): Promise<TaskStart>;
  poll(state: Record<string, unknown>): Promise<TaskOutcome>;
  /** Asks the work to stop (cooperative); absent when it cannot be stopped. Never called on a terminal task. */
  cancel?(state: Record<string, unknown>): Promise<void>;
}

interface SealedTask {
  /** Caller ('' when none is known). */
  readonly c: string;
  /** Tool name. */
  readonly t: string;
  /** The tool's state. */
  readonly s: Record<string, unknown>;
  /** Created at (ms since the epoch). */
  readonly a: number;
}

export interface TaskServiceOptions {
  readonly codec: HandleCodec;
  readonly tools: readonly TaskToolDefinition[];
  /** Suggested ms between `tasks/get` calls. */
  readonly pollIntervalMs: number;
  /** @default Date.now */
  readonly now?: () => number;
}

export interface TaskService {
  tool(name: string): TaskToolDefinition | undefined;
  create(caller: string | undefined, tool: string, state: Record<string, unknown>): CreateTaskResult;
  get(caller: string | undefined, taskId: string): Promise<GetTaskResult>;
  cancel(caller: string | undefined, taskId: string): Promise<{ resultType: 'complete' }>;
  update(caller: string | undefined, taskId: string): Promise<{ resultType: 'complete' }>;
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

export function createTaskService(options: TaskServiceOptions): TaskService {
  const { codec, pollIntervalMs } = options;
  const now = options.now ?? Date.now;
  const ttlMs = codec.ttlSeconds * 1000;
  const byName = new Map(options.tools.map((t) => [t.name, t]));

  /** The task, if it is the caller's and still valid; -32602 otherwise, whatever the reason. */
  const open = (caller: string | undefined, taskId: string): { task: SealedTask; tool: TaskToolDefinition } => {
    let task: SealedTask;
    try {
      task = codec.open<SealedTask>('task', taskId);
    } catch (err) {
      if (err instanceof HandleExpiredError) throw taskNotFound(true);
      if (err instanceof InvalidHandleError) throw taskNotFound();
      throw err;
    }
    const tool = byName.get(task.t);
    if (task.c !== (caller ?? '') || !tool || typeof task.s !== 'object' || task.s === null) throw taskNotFound();
    return { task, tool };
  };

  const intervalOf = (tool: string) => byName.get(tool)?.pollIntervalMs ?? pollIntervalMs;
  const base = (taskId: string, task: SealedTask) => ({
    taskId,
    createdAt: new Date(task.a).toISOString(),
    ttlMs,
    pollIntervalMs: intervalOf(task.t),
  });

  return {
    tool: (name) => byName.get(name),
    create(caller, tool, state) {
      const at = now();
      const { handle: taskId } = codec.issue('task', { c: caller ?? '', t: tool, s: state, a: at } satisfies SealedTask);
      const created = new Date(at).toISOString();
      return { resultType: 'task', taskId, status: 'working', createdAt: created, lastUpdatedAt: created, ttlMs, pollIntervalMs: intervalOf(tool) };
    },
    async get(caller, taskId) {
      const { task, tool } = open(caller, taskId);
      const outcome = await tool.poll(task.s);
      const shared = base(taskId, task);
      switch (outcome.status) {
        case 'working':
          return { resultType: 'complete', ...shared, status: 'working', lastUpdatedAt: shared.createdAt, ...(outcome.statusMessage ? { statusMessage: outcome.statusMessage } : {}) };
        case 'completed':
          return { resultType: 'complete', ...shared, status: 'completed', lastUpdatedAt: outcome.at ?? new Date(now()).toISOString(), result: { ...outcome.result, resultType: 'complete' } };
        case 'cancelled':
          return { resultType: 'complete', ...shared, status: 'cancelled', lastUpdatedAt: outcome.at ?? new Date(now()).toISOString(), ...(outcome.statusMessage ? { statusMessage: outcome.statusMessage } : {}) };
        case 'failed':
          return { resultType: 'complete', ...shared, status: 'failed', lastUpdatedAt: outcome.at ?? new Date(now()).toISOString(), error: outcome.error };
      }
    },
    async cancel(caller, taskId) {
      const { task, tool } = open(caller, taskId);
      // Cancelling a terminal task is acknowledged like any other (the extension's rule; -32602 is for unknown ids).
      if (tool.cancel && !TERMINAL.has((await tool.poll(task.s)).status)) await tool.cancel(task.s);
      return { resultType: 'complete' };
    },
    async update(caller, taskId) {
      // No tool of this server asks for input (no task is ever input_required): the responses are ignored, as the
      // extension says of keys that are not outstanding.
      open(caller, taskId);
      return { resultType: 'complete' };
    },
  };
}
