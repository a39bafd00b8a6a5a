/**
 * `start_async_inference` (upload + InvokeEndpointAsync, returns a sealed handle at once) and
 * `get_async_inference_result` (one read: the job table when the endpoint records results, else the output and failure
 * objects). Neither call waits for the model.
 */
import * as z from 'zod';
import type { ToolContext } from './context';
import type { ToolRegistrar } from './registrar';
import { ERROR_NOTE, jsonSafe, redactInPlace, ToolRefusal, toolFailure, toolResult, ToolResult } from './results';
import { maxWaitSecondsSchema, waitUntilDone, WaitRequestContext } from './waiting';
import { isMissingObject } from '../../async/job-results';
import { AsyncJobOutput, AsyncJobsDeps, AsyncJobState, AsyncJobTimeoutError, getAsyncJob, submitAsyncJob, waitForAsyncJob } from '../../async/jobs';
import { DEFAULT_INVOCATION_TIMEOUT_SECONDS, DEFAULT_REQUEST_TTL_SECONDS } from '../../contract/async';
import { DEFAULT_HANDLE_TTL_SECONDS, McpAsyncEndpointSpec, MCP_TOOL_NAMES } from '../../contract/mcp';

export const startAsyncInputSchema = z.object({
  endpointName: z.string().min(1).describe('Name of an allow-listed async endpoint.'),
  payload: z.discriminatedUnion('format', [
    z.object({ format: z.literal('json'), data: z.unknown() }),
    z.object({ format: z.literal('text'), text: z.string(), contentType: z.string().regex(/^[\w.+-]+\/[\w.+-]+(;.*)?$/).optional() }),
  ]).describe('The input, uploaded to S3 for the endpoint (up to 1 GB).'),
  invocationTimeoutSeconds: z.number().int().min(1).max(3600).optional().describe('How long the model may work on it (1-3600 s).'),
  requestTtlSeconds: z.number().int().min(60).max(21_600).optional().describe('How long it may wait in the queue (60-21600 s, at least twice the timeout).'),
});

export const startAsyncOutputSchema = z.object({
  handle: z.string().describe('Opaque; pass it to get_async_inference_result.'),
  handleExpiresAt: z.string().describe('When the handle stops opening (ISO-8601): after the job\'s queue time and run time can have passed.'),
  status: z.literal('pending'),
  endpointName: z.string(),
  submittedAt: z.string(),
  checkAfterSeconds: z.number().int().describe('Call get_async_inference_result no sooner than this.'),
});

export const getAsyncInputSchema = z.object({
  handle: z.string().min(1).describe('The handle start_async_inference returned.'),
});

export const getAsyncOutputSchema = z.object({
  status: z.enum(['pending', 'completed', 'failed']),
  endpointName: z.string(),
  checkAfterSeconds: z.number().int().optional().describe('When pending: call again no sooner than this.'),
  completedAt: z.string().optional(),
  output: z.object({
    contentType: z.string().optional(),
    json: z.unknown().optional().describe('The parsed output; absent when it is not JSON or was truncated.'),
    text: z.string(),
    truncated: z.boolean().describe('True when the output is larger than this tool returns; read the rest from location.'),
    sizeBytes: z.number().int().optional().describe('Full size of the output object.'),
    location: z.string().describe('S3 location of the whole output.'),
  }).optional(),
  failureReason: z.string().optional(),
});

export const waitAsyncInputSchema = z.object({
  handle: z.string().min(1).describe('The handle start_async_inference returned.'),
  maxWaitSeconds: maxWaitSecondsSchema,
});

export const waitAsyncOutputSchema = getAsyncOutputSchema.extend({
  waitedSeconds: z.number().int().describe('How long this call waited.'),
});

interface AsyncHandle {
  readonly e: string;
  readonly id: string;
  readonly o: string;
  readonly f?: string;
  /** By when SageMaker has ended the job (ms since the epoch): its start plus its request TTL and invocation timeout. */
  readonly d?: number;
}

/**
 * How long after a job's end (`AsyncHandle.d`) its output or failure may still be on its way to S3. SageMaker documents
 * no figure for that write; this margin only delays the answer below, it never reports a job that is there as gone.
 */
const ASYNC_RESULT_SETTLE_MS = 15 * 60_000;

/**
 * A job whose queue time and run time are over, yet with neither an output nor a failure to read: its objects (or its
 * job table item) have expired under the bucket's lifecycle rules or been deleted. Without this a job past its
 * output's expiry would read as pending again until its handle expired.
 */
function resultGone(h: AsyncHandle, endpointName: string, what: string): ToolRefusal {
  return new ToolRefusal('AsyncResultGone', `Job ${h.id} on async endpoint ${endpointName}: ${what}. The bucket's lifecycle rules `
    + 'expired it (the endpoint\'s storage.outputExpiration and storage.failureExpiration), or it was deleted. Start the job again.');
}

/** The server's clock (`SageMakerMcpServerConfig.now`). */
const serverNow = (ctx: ToolContext) => (ctx.config.now ?? Date.now)();

/** The output and failure objects read once, as a deployment without a job table reads them. */
async function readObjectsOnce(h: AsyncHandle, spec: McpAsyncEndpointSpec, ctx: ToolContext): Promise<AsyncJobState> {
  const request = { jobId: h.id, outputLocation: h.o, failureLocation: h.f, timeoutMs: 0, maxBytes: MAX_OUTPUT_BYTES };
  try {
    return await waitForAsyncJob(request, deps(ctx, spec));
  } catch (err) {
    if (err instanceof AsyncJobTimeoutError) return { status: 'pending', jobId: h.id };
    throw err;
  }
}

/** Bytes of an output or failure object the tool reads and returns; larger ones come back truncated with their location. */
const MAX_OUTPUT_BYTES = 100_000;

function deps(ctx: ToolContext, spec: McpAsyncEndpointSpec): AsyncJobsDeps {
  return {
    sagemakerRuntime: ctx.clients.sagemakerRuntime,
    s3: ctx.clients.s3,
    dynamodb: ctx.clients.dynamodb,
    // Only the spec counts: a stray SAGEMAKER_ASYNC_* variable in the environment must not redirect the tool.
    env: {},
    config: {
      endpointName: spec.name,
      inputBucket: spec.inputBucket,
      inputPrefix: spec.inputPrefix,
      jobTableName: spec.jobTableName,
      invocationTimeoutSeconds: spec.invocationTimeoutSeconds,
      requestTtlSeconds: spec.requestTtlSeconds,
    },
  };
}

function outputOf(o: AsyncJobOutput | undefined) {
  if (!o) return undefined;
  return { contentType: o.contentType, json: o.json, text: o.text, truncated: o.truncated, sizeBytes: o.sizeBytes, location: o.location };
}

/** The error object SageMaker wrote for a failed job, its text redacted as error messages are (not its location). */
function redactedFailure(o: ReturnType<typeof outputOf>) {
  if (!o) return undefined;
  const copy = jsonSafe({ json: o.json, text: o.text });
  redactInPlace(copy, true);
  return { ...o, ...copy };
}

function endpointSpec(ctx: ToolContext, name: string): McpAsyncEndpointSpec {
  const all = ctx.config.asyncEndpoints ?? [];
  const spec = all.find((e) => e.name === name);
  if (!spec) throw new ToolRefusal('EndpointNotAllowed', `Async endpoint "${name}" is not exposed by this server. Allowed async endpoints: ${all.map((e) => e.name).join(', ')}.`);
  return spec;
}

export async function startAsyncTool(ctx: ToolContext, args: z.infer<typeof startAsyncInputSchema>): Promise<ToolResult> {
  try {
    const spec = endpointSpec(ctx, args.endpointName);
    // The job may queue RequestTTLSeconds and then run InvocationTimeoutSeconds: a handle expiring earlier could never
    // read its result, so such a start is refused before anything is submitted.
    const timeout = args.invocationTimeoutSeconds ?? spec.invocationTimeoutSeconds ?? DEFAULT_INVOCATION_TIMEOUT_SECONDS;
    const ttl = args.requestTtlSeconds ?? spec.requestTtlSeconds ?? DEFAULT_REQUEST_TTL_SECONDS;
    if (ttl + timeout > ctx.handles.ttlSeconds) {
      throw new ToolRefusal('HandleWouldExpire', `This job may take up to ${ttl + timeout} s (requestTtlSeconds ${ttl} in the queue + `
        + `invocationTimeoutSeconds ${timeout}), but handles of this server expire after ${ctx.handles.ttlSeconds} s: pass a `
        + `requestTtlSeconds of at most ${Math.max(0, ctx.handles.ttlSeconds - timeout)} (and at least twice the timeout), or ask the operator for a longer handleTtl.`);
    }
    const p = args.payload;
    const job = await submitAsyncJob({
      endpointName: spec.name,
      payload: p.format === 'json' ? JSON.stringify(p.data ?? null) : p.text,
      contentType: p.format === 'json' ? 'application/json' : p.contentType ?? 'text/plain',
      invocationTimeoutSeconds: args.invocationTimeoutSeconds,
      requestTtlSeconds: args.requestTtlSeconds,
    }, deps(ctx, spec));
    const ends = serverNow(ctx) + (ttl + timeout) * 1000;
    const { handle, expiresAt } = ctx.handles.issue('async', { e: spec.name, id: job.jobId, o: job.outputLocation, f: job.failureLocation, d: ends } satisfies AsyncHandle);
    return toolResult({
      handle,
      handleExpiresAt: expiresAt,
      status: 'pending',
      endpointName: spec.name,
      submittedAt: job.submittedAt,
      checkAfterSeconds: ctx.config.asyncCheckAfterSeconds ?? 30,
    });
  } catch (err) {
    return toolFailure(err, { endpointName: args.endpointName });
  }
}

export async function getAsyncTool(ctx: ToolContext, args: z.infer<typeof getAsyncInputSchema>): Promise<ToolResult> {
  try {
    const h = ctx.handles.open<AsyncHandle>('async', args.handle);
    const spec = endpointSpec(ctx, h.e);
    let state: AsyncJobState;
    if (spec.jobTableName) {
      // The table says whether the job finished; what is read is where SageMaker said it would write (sealed in the
      // handle), never a location taken from the table.
      const submitted = { outputLocation: h.o, failureLocation: h.f };
      try {
        state = await getAsyncJob(h.id, { fetchOutput: true, maxBytes: MAX_OUTPUT_BYTES, submitted }, deps(ctx, spec));
      } catch (err) {
        if (isMissingObject(err)) throw resultGone(h, spec.name, 'it completed, but its output is no longer in S3');
        throw err;
      }
    } else {
      state = await readObjectsOnce(h, spec, ctx);
    }
    if (state.status === 'pending' && h.d !== undefined && serverNow(ctx) > h.d + ASYNC_RESULT_SETTLE_MS) {
      // The job is over: what the table has not recorded (its item expired, or the recorder is behind) is read from S3.
      if (spec.jobTableName) state = await readObjectsOnce(h, spec, ctx);
      if (state.status === 'pending') {
        throw resultGone(h, spec.name, `it ended by ${new Date(h.d).toISOString()} (its request TTL and invocation timeout are over), `
          + 'but neither its output nor its failure can be found');
      }
    }
    const check = ctx.config.asyncCheckAfterSeconds ?? 30;
    switch (state.status) {
      case 'pending':
        return toolResult({ status: 'pending', endpointName: spec.name, checkAfterSeconds: check });
      case 'completed':
        return toolResult({ status: 'completed', endpointName: spec.name, completedAt: state.completedAt, output: outputOf(state.output) });
      case 'failed':
        return toolResult({ status: 'failed', endpointName: spec.name, completedAt: state.completedAt, failureReason: state.failureReason, output: redactedFailure(outputOf(state.failure)) });
    }
  } catch (err) {
    return toolFailure(err);
  }
}

/** get_async_inference_result again and again (same answer shape) until the job is no longer pending. */
export async function waitAsyncTool(ctx: ToolContext, args: z.infer<typeof waitAsyncInputSchema>, request?: WaitRequestContext): Promise<ToolResult> {
  const { value, waitedSeconds } = await waitUntilDone(request, {
    maxWaitSeconds: args.maxWaitSeconds,
    pollIntervalMs: ctx.config.waitPollIntervalMs,
    check: async () => {
      const result = await getAsyncTool(ctx, { handle: args.handle });
      const status = result.isError ? 'failed to check' : String(result.structuredContent?.status);
      return { done: result.isError === true || status !== 'pending', value: result, message: `async inference ${status}` };
    },
  });
  if (value.isError) return value;
  return toolResult({ ...value.structuredContent, waitedSeconds });
}

export function registerAsyncTools(server: ToolRegistrar, ctx: ToolContext): void {
  const endpoints = ctx.config.asyncEndpoints ?? [];
  if (endpoints.length === 0) return;
  const list = endpoints.map((e) => `- ${e.name}${e.description ? `: ${e.description}` : ''}`).join('\n');
  server.registerTool(MCP_TOOL_NAMES.START_ASYNC_INFERENCE, {
    title: 'Start an async inference job',
    description: 'Queues one request on a SageMaker async endpoint (long inputs, slow models, minutes of work) and returns at once '
      + 'with a handle; it never waits for the model. Then call get_async_inference_result with the handle after checkAfterSeconds. '
      + `The handle expires ${ctx.config.handleTtlSeconds ?? DEFAULT_HANDLE_TTL_SECONDS} s after the start (handleExpiresAt); a job that may queue and run longer `
      + `(requestTtlSeconds + invocationTimeoutSeconds) is refused. Async endpoints:\n${list}\n${ERROR_NOTE}`,
    inputSchema: startAsyncInputSchema,
    outputSchema: startAsyncOutputSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  }, (args: z.infer<typeof startAsyncInputSchema>) => startAsyncTool(ctx, args));
  server.registerTool(MCP_TOOL_NAMES.GET_ASYNC_INFERENCE_RESULT, {
    title: 'Get an async inference result',
    description: 'Checks once on a job started by start_async_inference: pending (call again after checkAfterSeconds), completed (with the '
      + 'model output) or failed (with the reason). A job that is over but whose result has since expired is the error AsyncResultGone '
      + `(start it again). ${ERROR_NOTE}`,
    inputSchema: getAsyncInputSchema,
    outputSchema: getAsyncOutputSchema,
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, (args: z.infer<typeof getAsyncInputSchema>) => getAsyncTool(ctx, args));
  server.registerTool(MCP_TOOL_NAMES.WAIT_FOR_ASYNC_INFERENCE, {
    title: 'Wait for an async inference result',
    description: 'Like get_async_inference_result, but keeps checking within one call until the job completes or fails, maxWaitSeconds '
      + 'pass, or this server\'s time limit for one call comes near; then answers as get_async_inference_result does (pending: call again). '
      + `Sends progress notifications while it waits when the request carries a progressToken. ${ERROR_NOTE}`,
    inputSchema: waitAsyncInputSchema,
    outputSchema: waitAsyncOutputSchema,
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, (args: z.infer<typeof waitAsyncInputSchema>, request?: WaitRequestContext) => waitAsyncTool(ctx, args, request));
}
