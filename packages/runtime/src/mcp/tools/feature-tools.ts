/**
 * `get_online_features` (GetRecord cast to the declared schema; a missing record is `found: false`, never an error) and
 * `put_feature_record` (registered only when a group allows writes; values and the event time are checked first; the
 * features not given keep their values, how depends on the group's online store: see ../features-write).
 */
import * as z from 'zod';
import type { ToolContext } from './context';
import type { ToolRegistrar } from './registrar';
import { ERROR_NOTE, ToolRefusal, toolFailure, toolResult, ToolResult } from './results';
import { McpFeatureGroupSpec, MCP_TOOL_NAMES } from '../../contract/mcp';
import { FeatureScalar, getFeatures } from '../../features/features';
import { DEFAULT_MAX_EVENT_TIME_SKEW_SECONDS, putFeatures } from '../../features/write';

export const getFeaturesInputSchema = z.object({
  featureGroupName: z.string().min(1).describe('An allow-listed feature group.'),
  recordId: z.string().min(1).describe('Value of the group\'s record identifier.'),
  featureNames: z.array(z.string().min(1)).min(1).optional().describe('Only these features; default all.'),
});

const featureValue = z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()])), z.null()]);

export const getFeaturesOutputSchema = z.object({
  featureGroupName: z.string(),
  recordId: z.string(),
  found: z.boolean().describe('False when no record exists (a cold start): features are then null.'),
  features: z.record(z.string(), featureValue).describe('Values cast to their declared types; Integral values beyond 2^53 as strings.'),
  missingFeatures: z.array(z.string()),
  expiresAt: z.string().optional(),
});

export const putFeatureInputSchema = z.object({
  featureGroupName: z.string().min(1).describe('A feature group that allows writes.'),
  record: z.record(z.string(), z.union([z.string(), z.number()]))
    .describe('Feature name to value, including the record identifier; only the features to change are needed. The event time '
      + 'defaults to now. Values must match the declared types. Scalar features only: list and vector features cannot be written '
      + 'with this tool (a write of other features keeps them).'),
});

export const putFeatureOutputSchema = z.object({
  featureGroupName: z.string(),
  recordId: z.string(),
  written: z.literal(true),
  mode: z.enum(['put', 'updated', 'merged']).describe('put: the record was written as given (it was complete, or new); '
    + 'updated: UpdateRecord changed only the given features; merged: the stored record was read and written back with the given features.'),
  eventTime: z.string().describe('The event time written.'),
  preservedFeatures: z.array(z.string()).describe('Features of the record this write kept unchanged.'),
  mergedFromEventTime: z.string().optional().describe('merged: the event time of the stored record that was read.'),
});

/** What `put_feature_record` does with the features a call leaves out, per the group's online store type. */
function writeBehaviour(g: McpFeatureGroupSpec): string {
  switch (g.schema.onlineStorageType) {
    case 'Standard_V2':
    case 'InMemory':
      return 'partial writes: UpdateRecord, other features unchanged';
    case 'None':
      return 'no online store: every feature is required';
    default:
      return 'partial writes: read, merge, write back';
  }
}

function groupList(groups: McpFeatureGroupSpec[], writes = false): string {
  return groups.map((g) => {
    const s = g.schema;
    const features = s.features.map((f) => `${f.name}:${f.type}`).join(', ');
    const behaviour = writes ? `; ${writeBehaviour(g)}` : '';
    return `- ${s.featureGroupName} (record id: ${s.recordIdentifier}; event time: ${s.eventTime}; features: ${features}${behaviour})${g.description ? `: ${g.description}` : ''}`;
  }).join('\n');
}

function groupSpec(ctx: ToolContext, name: string, forWrite: boolean): McpFeatureGroupSpec {
  const all = (ctx.config.featureGroups ?? []).filter((g) => !forWrite || g.allowWrites);
  const spec = all.find((g) => g.schema.featureGroupName === name);
  if (!spec) {
    throw new ToolRefusal(forWrite ? 'FeatureGroupWriteNotAllowed' : 'FeatureGroupNotAllowed',
      `Feature group "${name}" is not ${forWrite ? 'writable through' : 'exposed by'} this server. Allowed: ${all.map((g) => g.schema.featureGroupName).join(', ') || 'none'}.`);
  }
  return spec;
}

export async function getFeaturesTool(ctx: ToolContext, args: z.infer<typeof getFeaturesInputSchema>): Promise<ToolResult> {
  try {
    const spec = groupSpec(ctx, args.featureGroupName, false);
    const record = await getFeatures(spec.schema.featureGroupName, args.recordId, {
      schema: spec.schema,
      featureNames: args.featureNames,
      client: ctx.clients.featureStore,
    });
    return toolResult({ featureGroupName: spec.schema.featureGroupName, ...record });
  } catch (err) {
    return toolFailure(err);
  }
}

export async function putFeatureTool(ctx: ToolContext, args: z.infer<typeof putFeatureInputSchema>): Promise<ToolResult> {
  try {
    const spec = groupSpec(ctx, args.featureGroupName, true);
    const schema = spec.schema;
    // Integral values may exceed 2^53 only as strings: turn them into bigint so the runtime serializes them exactly.
    const record: Record<string, FeatureScalar> = {};
    for (const [name, value] of Object.entries(args.record)) {
      const type = schema.features.find((f) => f.name === name)?.type;
      record[name] = type === 'Integral' && typeof value === 'string' && /^[-+]?\d+$/.test(value) ? BigInt(value) : value;
    }
    const result = await putFeatures(schema.featureGroupName, record, {
      schema,
      client: ctx.clients.featureStore,
      maxEventTimeSkewSeconds: ctx.config.maxEventTimeSkewSeconds,
    });
    return toolResult({
      featureGroupName: schema.featureGroupName,
      recordId: String(args.record[schema.recordIdentifier]),
      written: true,
      mode: result.mode,
      eventTime: result.eventTime,
      preservedFeatures: result.preservedFeatures,
      mergedFromEventTime: result.mergedFromEventTime,
    });
  } catch (err) {
    return toolFailure(err);
  }
}

export function registerFeatureTools(server: ToolRegistrar, ctx: ToolContext): void {
  const groups = ctx.config.featureGroups ?? [];
  if (groups.length === 0) return;
  server.registerTool(MCP_TOOL_NAMES.GET_ONLINE_FEATURES, {
    title: 'Read online features',
    description: 'Reads the latest features of one record from the SageMaker Feature Store online store (milliseconds). '
      + 'A record that does not exist returns found=false (a cold start), not an error. Feature groups:\n'
      + `${groupList(groups)}\n${ERROR_NOTE}`,
    inputSchema: getFeaturesInputSchema,
    outputSchema: getFeaturesOutputSchema,
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, (args: z.infer<typeof getFeaturesInputSchema>) => getFeaturesTool(ctx, args));
  const writable = groups.filter((g) => g.allowWrites);
  if (writable.length === 0) return;
  server.registerTool(MCP_TOOL_NAMES.PUT_FEATURE_RECORD, {
    title: 'Write a feature record',
    description: 'Writes features of one record: online store at once, offline store within minutes. Give the record identifier and '
      + 'only the features to change: the others keep their values (UpdateRecord on Standard_V2/InMemory groups; on Standard groups '
      + 'the stored record is read and written back whole with the given features, so a concurrent write of the same record between the '
      + 'two can be lost; a group without online store needs every feature). A record that does not exist is created with the features '
      + 'given. The result says how (mode: put|updated|merged) and which features were kept (preservedFeatures). Values must have the '
      + 'declared types (a wrong type is refused before writing). The event time defaults to now; one more than '
      + `${ctx.config.maxEventTimeSkewSeconds ?? DEFAULT_MAX_EVENT_TIME_SKEW_SECONDS} s past the server clock, or older than the stored `
      + 'record\'s, is refused (FeatureEventTimeError). Writable groups:\n'
      + `${groupList(writable, true)}\n${ERROR_NOTE}`,
    inputSchema: putFeatureInputSchema,
    outputSchema: putFeatureOutputSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  }, (args: z.infer<typeof putFeatureInputSchema>) => putFeatureTool(ctx, args));
}
