/**
 * The wire shapes and errors of the MCP Tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663, protocol
 * 2026-07-28): https://github.com/modelcontextprotocol/ext-tasks/blob/main/specification/draft/tasks.md
 */
import { MissingRequiredClientCapabilityError, ProtocolError } from '@modelcontextprotocol/server';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const CLIENT_CAPABILITIES_META = 'io.modelcontextprotocol/clientCapabilities';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'cancelled' | 'failed';

/** A JSON-RPC error object, as a `failed` task carries it. */
export interface TaskError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** `Task`: flat, in `CreateTaskResult` and `GetTaskResult` alike. */
export interface Task {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** ISO-8601. */
  readonly createdAt: string;
  /** ISO-8601. */
  readonly lastUpdatedAt: string;
  /** Integer ms the task is kept after its creation (null: unlimited). */
  readonly ttlMs: number | null;
  /** Integer ms the requester should wait between `tasks/get` calls. */
  readonly pollIntervalMs?: number;
}

export interface CreateTaskResult extends Task {
  readonly resultType: 'task';
}

/** `tasks/get`: the task, plus its `result` when `completed` or its `error` when `failed`. */
export interface GetTaskResult extends Task {
  readonly resultType: 'complete';
  readonly result?: Record<string, unknown>;
  readonly error?: TaskError;
}

/**
 * Whether a request's own `_meta` (the 2026-07-28 per-request envelope) declares the extension. The spec: a server
 * "MUST NOT return `CreateTaskResult` to a client that did not include the extension capability on its request,
 * regardless of prior declarations".
 */
export function declaresTasks(meta: unknown): boolean {
  if (typeof meta !== 'object' || meta === null) return false;
  const caps = (meta as Record<string, unknown>)[CLIENT_CAPABILITIES_META] as { extensions?: Record<string, unknown> } | undefined;
  const declared = caps?.extensions?.[TASKS_EXTENSION];
  return typeof declared === 'object' && declared !== null;
}

/** -32021 with `data.requiredCapabilities` (HTTP 400 on the SDK's streamable HTTP path). */
export function missingTasksCapability(): MissingRequiredClientCapabilityError {
  return new MissingRequiredClientCapabilityError({ requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } as never,
    `This request needs the ${TASKS_EXTENSION} extension: declare it in params._meta["${CLIENT_CAPABILITIES_META}"].extensions.`);
}

/** -32602, the answer for an unknown, expired or someone else's task alike (the spec's example messages). */
export function taskNotFound(expired = false): ProtocolError {
  return new ProtocolError(-32602, `Failed to retrieve task: ${expired ? 'Task has expired' : 'Task not found'}`);
}
