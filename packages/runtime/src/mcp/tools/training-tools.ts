/**
 * `start_training` (StartPipelineExecution with the session id as correlation id; returns a sealed handle at once),
 * `get_training_status` (DescribePipelineExecution + steps), `get_training_result` (the router's results table) and
 * `get_model_provenance` (a bounded ML Lineage walk from a training run or a model package).
 */
import { randomUUID } from 'crypto';
import * as z from 'zod';
import type { ToolContext } from './context';
import type { ToolRegistrar } from './registrar';
import { ERROR_NOTE, ToolRefusal, toolFailure, toolResult, ToolResult } from './results';
import { maxWaitSecondsSchema, waitUntilDone, WaitRequestContext } from './waiting';
import { DEFAULT_HANDLE_TTL_SECONDS, MCP_TOOL_NAMES, McpPipelineSpec } from '../../contract/mcp';
import { FINAL_PIPELINE_STATUSES, SESSION_ID_PATTERN } from '../../contract/pipelines';
import { getModelProvenance } from '../../lineage/lineage';
import { getTrainingResultByExecution, getTrainingStatus, startTraining } from '../../pipelines/pipelines';

export const startTrainingInputSchema = z.object({
  pipelineName: z.string().min(1).describe('An allow-listed pipeline.'),
  parameters: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional()
    .describe('Pipeline parameter overrides; only the parameters listed for the pipeline are accepted.'),
  sessionId: z.string().regex(SESSION_ID_PATTERN).max(512).optional()
    .describe('Correlation id recorded with the run; reuse it when retrying so that a retry does not start a second run. Runs are scoped to the caller: another caller passing the same id starts its own run. Default: the MCP session id, else a new id (returned).'),
});

export const startTrainingOutputSchema = z.object({
  handle: z.string().describe('Opaque; pass it to get_training_status / get_training_result.'),
  handleExpiresAt: z.string().describe('When the handle stops opening (ISO-8601).'),
  status: z.literal('Executing'),
  pipelineName: z.string(),
  sessionId: z.string(),
  checkAfterSeconds: z.number().int(),
});

export const trainingHandleInputSchema = z.object({
  handle: z.string().min(1).describe('The handle start_training returned.'),
});

export const trainingStatusOutputSchema = z.object({
  pipelineName: z.string(),
  status: z.string().describe('Executing, Stopping, Stopped, Failed or Succeeded.'),
  final: z.boolean(),
  failureReason: z.string().optional(),
  sessionId: z.string().optional(),
  steps: z.array(z.object({ name: z.string(), status: z.string(), failureReason: z.string().optional() })),
  stepsTruncated: z.enum(['page-cap', 'repeated-token']).optional()
    .describe('Set when not every page of steps was read (the page cap, or the service repeated a page token).'),
  checkAfterSeconds: z.number().int().optional().describe('When not final: check again no sooner than this.'),
});

export const waitTrainingInputSchema = trainingHandleInputSchema.extend({ maxWaitSeconds: maxWaitSecondsSchema });

export const waitTrainingOutputSchema = trainingStatusOutputSchema.extend({
  waitedSeconds: z.number().int().describe('How long this call waited.'),
});

export const trainingResultOutputSchema = z.object({
  pipelineName: z.string(),
  status: z.string().describe('pending (no final event recorded yet), Executing, Stopping, Stopped, Failed or Succeeded.'),
  sessionId: z.string(),
  failureReason: z.string().optional(),
  failedStep: z.string().optional(),
  startedAt: z.string().optional(),
  endedAt: z.string().optional(),
  checkAfterSeconds: z.number().int().optional(),
});

export const provenanceInputSchema = z.object({
  handle: z.string().min(1).optional().describe('A start_training handle: walks forward from that run to what it produced.'),
  modelPackageArn: z.string().regex(/^arn:aws[a-z-]*:sagemaker:[a-z0-9-]+:\d{12}:model-package\/.+$/).optional()
    .describe('A model package: walks backward to the data, jobs and runs that produced it.'),
  maxDepth: z.number().int().min(1).max(5).optional().describe('Hops to follow (default 3).'),
});

export const provenanceOutputSchema = z.object({
  direction: z.enum(['backward', 'forward']),
  nodes: z.array(z.object({
    kind: z.string(),
    depth: z.number().int(),
    arn: z.string().describe('The entity ARN; for an entity outside what this server exposes, a marker such as "outside-scope-1".'),
    outsideScope: z.boolean().optional().describe('True when the entity is outside what this server exposes: summarised, not described.'),
    name: z.string().optional(),
    lineageType: z.string().optional(),
    details: z.record(z.string(), z.unknown()).optional(),
    describeError: z.string().optional(),
  })),
  edges: z.array(z.object({ sourceArn: z.string(), destinationArn: z.string(), associationType: z.string().optional() })),
  truncated: z.boolean(),
});

interface TrainingHandle {
  readonly p: string;
  readonly x: string;
  readonly s: string;
}

function pipelineSpec(ctx: ToolContext, name: string): McpPipelineSpec {
  const all = ctx.config.pipelines ?? [];
  const spec = all.find((p) => p.name === name);
  if (!spec) throw new ToolRefusal('PipelineNotAllowed', `Pipeline "${name}" is not exposed by this server. Allowed pipelines: ${all.map((p) => p.name).join(', ')}.`);
  return spec;
}

function openHandle(ctx: ToolContext, handle: string): TrainingHandle {
  const h = ctx.handles.open<TrainingHandle>('training', handle);
  pipelineSpec(ctx, h.p);
  return h;
}

export async function startTrainingTool(ctx: ToolContext, args: z.infer<typeof startTrainingInputSchema>,
  mcpSessionId?: string): Promise<ToolResult> {
  try {
    const spec = pipelineSpec(ctx, args.pipelineName);
    const allowed = spec.parameters ?? [];
    const refused = Object.keys(args.parameters ?? {}).filter((p) => !allowed.includes(p));
    if (refused.length > 0) {
      throw new ToolRefusal('PipelineParameterNotAllowed', `Pipeline "${spec.name}" does not accept overrides of ${refused.join(', ')}. Overridable: ${allowed.join(', ') || 'none'}.`);
    }
    const sessionId = args.sessionId ?? (mcpSessionId && SESSION_ID_PATTERN.test(mcpSessionId) ? mcpSessionId : randomUUID());
    // The caller is part of the idempotency token: another caller reusing this sessionId starts its own run.
    const request = { pipelineName: spec.name, parameters: args.parameters, sessionId, caller: ctx.caller };
    const started = await startTraining(request, { sagemaker: ctx.clients.sagemaker });
    const { handle, expiresAt } = ctx.handles.issue('training', { p: spec.name, x: started.executionArn, s: sessionId } satisfies TrainingHandle);
    return toolResult({ handle, handleExpiresAt: expiresAt, status: 'Executing', pipelineName: spec.name, sessionId, checkAfterSeconds: ctx.config.trainingCheckAfterSeconds ?? 60 });
  } catch (err) {
    return toolFailure(err);
  }
}

export async function trainingStatusTool(ctx: ToolContext, args: z.infer<typeof trainingHandleInputSchema>): Promise<ToolResult> {
  try {
    const h = openHandle(ctx, args.handle);
    const status = await getTrainingStatus(h.x, { sagemaker: ctx.clients.sagemaker });
    const final = (FINAL_PIPELINE_STATUSES as readonly string[]).includes(status.status);
    return toolResult({
      pipelineName: h.p,
      status: status.status,
      final,
      failureReason: status.failureReason,
      sessionId: status.sessionId ?? h.s,
      steps: status.steps,
      stepsTruncated: status.stepsTruncated,
      checkAfterSeconds: final ? undefined : ctx.config.trainingCheckAfterSeconds ?? 60,
    });
  } catch (err) {
    return toolFailure(err);
  }
}

/** get_training_status again and again (same answer shape) until the run is final. */
export async function waitTrainingTool(
  ctx: ToolContext, args: z.infer<typeof waitTrainingInputSchema>, request?: WaitRequestContext,
): Promise<ToolResult> {
  const { value, waitedSeconds } = await waitUntilDone(request, {
    maxWaitSeconds: args.maxWaitSeconds,
    pollIntervalMs: ctx.config.waitPollIntervalMs,
    check: async () => {
      const result = await trainingStatusTool(ctx, { handle: args.handle });
      const s = result.structuredContent as { status?: string; final?: boolean; steps?: Array<{ status: string }> } | undefined;
      if (result.isError || !s) return { done: true, value: result, message: 'training run: failed to check' };
      const succeeded = (s.steps ?? []).filter((step) => step.status === 'Succeeded').length;
      return { done: s.final === true, value: result, message: `training run ${s.status}: ${succeeded} of ${(s.steps ?? []).length} steps succeeded` };
    },
  });
  if (value.isError) return value;
  return toolResult({ ...value.structuredContent, waitedSeconds });
}

export async function trainingResultTool(ctx: ToolContext, args: z.infer<typeof trainingHandleInputSchema>): Promise<ToolResult> {
  try {
    const h = openHandle(ctx, args.handle);
    const record = await getTrainingResultByExecution(h.x, { tableName: ctx.config.trainingResultsTable!, dynamodb: ctx.clients.dynamodb });
    const check = ctx.config.trainingCheckAfterSeconds ?? 60;
    if (!record) return toolResult({ pipelineName: h.p, status: 'pending', sessionId: h.s, checkAfterSeconds: check });
    const final = (FINAL_PIPELINE_STATUSES as readonly string[]).includes(record.status);
    return toolResult({
      pipelineName: h.p,
      status: record.status,
      sessionId: record.sessionId ?? h.s,
      failureReason: record.failureReason,
      failedStep: record.failedStep,
      startedAt: record.startedAt || undefined,
      endedAt: record.endedAt,
      checkAfterSeconds: final ? undefined : check,
    });
  } catch (err) {
    return toolFailure(err);
  }
}

export async function provenanceTool(ctx: ToolContext, args: z.infer<typeof provenanceInputSchema>): Promise<ToolResult> {
  try {
    if ((args.handle === undefined) === (args.modelPackageArn === undefined)) {
      throw new ToolRefusal('InvalidArguments', 'Pass exactly one of handle (a training run) and modelPackageArn.');
    }
    const root = args.handle ? openHandle(ctx, args.handle).x : args.modelPackageArn!;
    const direction = args.handle ? 'forward' : 'backward';
    // Only what this server exposes is described; everything else is summarised (see getModelProvenance `scope`).
    const pipelines = (ctx.config.pipelines ?? []).map((p) => p.name);
    const graph = await getModelProvenance(root, {
      direction, maxDepth: args.maxDepth ?? 3, maxNodes: 100, sagemaker: ctx.clients.sagemaker, scope: { pipelines },
    });
    return toolResult({ direction, nodes: graph.nodes, edges: graph.edges, truncated: graph.truncated });
  } catch (err) {
    return toolFailure(err);
  }
}

export function registerTrainingTools(server: ToolRegistrar, ctx: ToolContext): void {
  const pipelines = ctx.config.pipelines ?? [];
  if (pipelines.length > 0) {
    const list = pipelines.map((p) => `- ${p.name} (overridable parameters: ${(p.parameters ?? []).join(', ') || 'none'})${p.description ? `: ${p.description}` : ''}`).join('\n');
    server.registerTool(MCP_TOOL_NAMES.START_TRAINING, {
      title: 'Start a training run',
      description: 'Starts a SageMaker pipeline execution (training takes minutes to hours) and returns at once with a handle. '
        + 'Pass a sessionId of your choosing and reuse it on retries: the same pipeline, parameters and sessionId from the same caller never start a second run; '
        + 'without a sessionId each call may start a new run. Then poll get_training_status '
        + `(or get_training_result) with the handle after checkAfterSeconds. The handle expires ${ctx.config.handleTtlSeconds ?? DEFAULT_HANDLE_TTL_SECONDS} s after the start `
        + `(handleExpiresAt). Pipelines:\n${list}\n${ERROR_NOTE}`,
      inputSchema: startTrainingInputSchema,
      outputSchema: startTrainingOutputSchema,
      // Idempotent only when the caller passes the same sessionId (stateless HTTP has no MCP session to fall back on).
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    }, (args: z.infer<typeof startTrainingInputSchema>, extra: { sessionId?: string }) => startTrainingTool(ctx, args, extra?.sessionId));
    server.registerTool(MCP_TOOL_NAMES.GET_TRAINING_STATUS, {
      title: 'Get a training run\'s status',
      description: 'Returns the live status of a run started by start_training, with every step\'s status and failure reason. '
        + `When final is false, call again no sooner than checkAfterSeconds; when final is true, stop polling. ${ERROR_NOTE}`,
      inputSchema: trainingHandleInputSchema,
      outputSchema: trainingStatusOutputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    }, (args: z.infer<typeof trainingHandleInputSchema>) => trainingStatusTool(ctx, args));
    server.registerTool(MCP_TOOL_NAMES.WAIT_FOR_TRAINING_RUN, {
      title: 'Wait for a training run',
      description: 'Like get_training_status, but keeps checking within one call until the run is final, maxWaitSeconds pass, or this '
        + 'server\'s time limit for one call comes near; then answers as get_training_status does (final false: call again). '
        + `Sends progress notifications (status and steps done) while it waits when the request carries a progressToken. ${ERROR_NOTE}`,
      inputSchema: waitTrainingInputSchema,
      outputSchema: waitTrainingOutputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    }, (args: z.infer<typeof waitTrainingInputSchema>, request?: WaitRequestContext) => waitTrainingTool(ctx, args, request));
    if (ctx.config.trainingResultsTable) {
      server.registerTool(MCP_TOOL_NAMES.GET_TRAINING_RESULT, {
        title: 'Get a training run\'s recorded result',
        description: 'Returns the result recorded when a run started by start_training changed status (final status, failed step and '
          + `reason, start and end times); "pending" until the first status event arrives. ${ERROR_NOTE}`,
        inputSchema: trainingHandleInputSchema,
        outputSchema: trainingResultOutputSchema,
        annotations: { readOnlyHint: true, openWorldHint: false },
      }, (args: z.infer<typeof trainingHandleInputSchema>) => trainingResultTool(ctx, args));
    }
  }
  if (ctx.config.modelProvenance) {
    server.registerTool(MCP_TOOL_NAMES.GET_MODEL_PROVENANCE, {
      title: 'Get model provenance',
      description: 'Walks SageMaker ML Lineage (at most 100 entities): from a training run handle forward to what it produced, or from a '
        + 'model package backward to the datasets, jobs and runs behind it. Described: runs of the pipelines this server exposes and '
        + 'their direct inputs and outputs; any other entity appears as its kind and a marker (outsideScope: true). '
        + `${ERROR_NOTE}`,
      inputSchema: provenanceInputSchema,
      outputSchema: provenanceOutputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    }, (args: z.infer<typeof provenanceInputSchema>) => provenanceTool(ctx, args));
  }
}
