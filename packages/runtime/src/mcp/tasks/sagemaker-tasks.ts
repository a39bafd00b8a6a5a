/**
 * The tools of this server that answer as tasks: `start_async_inference` (the task ends with what
 * `get_async_inference_result` reads once the job is done; a job cannot be stopped, so a cancel is acknowledged and
 * the job runs on) and `start_training` (ends with the run's final status; a cancel stops the pipeline execution, and
 * the task ends `cancelled` once SageMaker reports it Stopped). Each keeps what its tool seals into a handle today, so
 * a task reads exactly what the handle-based tools read.
 */
import { randomUUID } from 'crypto';
import { ProtocolError } from '@modelcontextprotocol/server';
import type { TaskOutcome, TaskToolDefinition } from './service';
import { MCP_TOOL_NAMES } from '../../contract/mcp';
import { sageMakerSdk } from '../../core/aws-sdk';
import { withDeadline } from '../../core/deadline';
import { getAsyncTool } from '../tools/async-tools';
import type { ToolContext } from '../tools/context';
import type { HandleKind } from '../tools/handles';
import { toolDeadlineMs } from '../tools/registrar';
import type { ToolResult } from '../tools/results';
import { trainingStatusTool } from '../tools/training-tools';

/**
 * What the tool's ordinary answer sealed into its handle becomes the task's state (the task id is sealed with the same
 * key and expires no later, so the handle itself need not travel inside it); a refusal or error is answered as it is.
 */
async function startWithHandle(ctx: ToolContext, kind: HandleKind, runSync: () => Promise<ToolResult>) {
  const result = await runSync();
  const handle = result.structuredContent?.handle;
  return result.isError || typeof handle !== 'string' ? { result } : { state: ctx.handles.open<Record<string, unknown>>(kind, handle) };
}

/** A handle for the tools' reads, sealed afresh from a task's state. */
const handleOf = (ctx: ToolContext, kind: HandleKind, state: Record<string, unknown>) => ctx.handles.seal(kind, state);

/**
 * A read that failed (throttling, a network error, the deadline) is not the task's outcome: `tasks/get` answers -32603
 * and the requester asks again. The tool error's name and retryability are told, never its message (it may carry ARNs).
 */
function unreadable(result: ToolResult): ProtocolError {
  const e = (result.structuredContent ?? {}) as { errorName?: unknown; retryable?: unknown };
  const name = typeof e.errorName === 'string' ? e.errorName : 'Error';
  const expired = name === 'HandleExpiredError';
  return new ProtocolError(expired ? -32602 : -32603, expired ? 'Failed to retrieve task: Task has expired'
    : `The task's state could not be read (${name}${e.retryable === true ? ', retryable' : ''}); call tasks/get again.`);
}

const bounded = <T>(ctx: ToolContext, tool: string, fn: () => Promise<T>) => withDeadline(`tasks/get of ${tool}`, toolDeadlineMs(ctx.config, tool), fn);

function asyncInferenceTask(ctx: ToolContext): TaskToolDefinition {
  const name = MCP_TOOL_NAMES.START_ASYNC_INFERENCE;
  return {
    name,
    pollIntervalMs: Math.round((ctx.config.asyncCheckAfterSeconds ?? 30) * 1000),
    start: (_args, runSync) => startWithHandle(ctx, 'async', runSync),
    async poll(state): Promise<TaskOutcome> {
      const result = await bounded(ctx, name, () => getAsyncTool(ctx, { handle: handleOf(ctx, 'async', state) }));
      // A job whose result is gone is over: that answer is the task's, not a read to retry.
      if (result.isError && result.structuredContent?.errorName === 'AsyncResultGone') return { status: 'completed', result };
      if (result.isError) throw unreadable(result);
      const s = result.structuredContent as { status: string; completedAt?: string };
      if (s.status === 'pending') return { status: 'working', statusMessage: 'The async inference is queued or running.' };
      // A failed inference is the tool's answer (isError), not a protocol error: the task is completed.
      return { status: 'completed', result: s.status === 'failed' ? { ...result, isError: true } : result, at: s.completedAt };
    },
  };
}

function trainingTask(ctx: ToolContext): TaskToolDefinition {
  const name = MCP_TOOL_NAMES.START_TRAINING;
  return {
    name,
    pollIntervalMs: Math.round((ctx.config.trainingCheckAfterSeconds ?? 60) * 1000),
    start: (_args, runSync) => startWithHandle(ctx, 'training', runSync),
    async poll(state): Promise<TaskOutcome> {
      const result = await bounded(ctx, name, () => trainingStatusTool(ctx, { handle: handleOf(ctx, 'training', state) }));
      if (result.isError) throw unreadable(result);
      const s = result.structuredContent as { status: string; final: boolean };
      if (!s.final) return { status: 'working', statusMessage: `The pipeline execution is ${s.status}.` };
      if (s.status === 'Stopped') return { status: 'cancelled', statusMessage: 'The pipeline execution was stopped.' };
      return { status: 'completed', result: s.status === 'Succeeded' ? result : { ...result, isError: true } };
    },
    async cancel(state) {
      const { StopPipelineExecutionCommand } = sageMakerSdk();
      await bounded(ctx, name, () => ctx.clients.sagemaker.send(new StopPipelineExecutionCommand({
        // The run's execution ARN, as start_training sealed it (TrainingHandle.x).
        PipelineExecutionArn: String(state.x),
        ClientRequestToken: randomUUID(),
      })));
    },
  };
}

/** The task tools a configuration serves (none without async endpoints or pipelines). */
export function sageMakerTaskTools(ctx: ToolContext): TaskToolDefinition[] {
  return [
    ...((ctx.config.asyncEndpoints?.length ?? 0) > 0 ? [asyncInferenceTask(ctx)] : []),
    ...((ctx.config.pipelines?.length ?? 0) > 0 ? [trainingTask(ctx)] : []),
  ];
}
