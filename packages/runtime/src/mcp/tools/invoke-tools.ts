/**
 * `invoke_endpoint` (allow-listed realtime / shared-GPU endpoints and components; JSON, CSV, text or prompt payloads)
 * and `describe_endpoint` (DescribeEndpoint of an allow-listed endpoint, reduced to what an agent can act on). On an
 * endpoint whose spec entry says `openAiRoute`, chat-shaped calls (`prompt`, or a Chat Completions `json` body) go
 * through SageMaker's OpenAI-compatible route instead of InvokeEndpoint, streamed as progress when the client asked.
 */
import * as z from 'zod';
import type { ToolContext } from './context';
import { ERROR_NOTE, ToolRefusal, toolFailure, toolResult, ToolResult } from './results';
import type { WaitRequestContext } from './waiting';
import { MCP_TOOL_NAMES, MODEL_FAMILIES } from '../../contract/mcp';
import { sageMakerSdk } from '../../core/aws-sdk';
import { currentDeadline } from '../../core/bounded';
import { CSV_CONTENT_TYPE, csvLines, EncodedBody, jsonBody, parseCsv } from '../../invoke/codecs';
import { DEFAULT_DEADLINE_MS, invokeEndpoint } from '../../invoke/invoke';
import { ModelFamily, parseGeneratedText, payloadForFamily } from '../../invoke/payloads';
import { bearerTokenProvider } from '../../openai/bearer-token';
import { ChatCompletionRequest, SageMakerChatClient } from '../../openai/chat';

/**
 * The largest `invoke_endpoint` result, measured as a Lambda front door carries it: the serialized result
 * (structuredContent and its one text copy) escaped once more as the string body of a function URL or API Gateway
 * result. 5 MB leaves room for the JSON-RPC envelope, SSE framing and headers below Lambda's 6 MB response payload
 * limit (https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html). A larger answer is truncated,
 * flagged `truncated` with its `bodyBytes`; use start_async_inference for large outputs.
 */
export const MAX_INVOKE_RESULT_BYTES = 5_000_000;

const csvValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const invokeInputSchema = z.object({
  endpointName: z.string().min(1).describe('Name of an allow-listed endpoint (listed in this tool\'s description).'),
  inferenceComponentName: z.string().min(1).optional()
    .describe('Required on a shared-GPU endpoint: one of its allow-listed inference components. Omit otherwise.'),
  targetModel: z.string().min(1).max(1024).optional()
    .describe('Required on a multi-model endpoint: one of its allow-listed target models. Omit otherwise.'),
  payload: z.discriminatedUnion('format', [
    z.object({
      format: z.literal('json'),
      data: z.unknown().describe('Any JSON value; sent as application/json.'),
    }),
    z.object({
      format: z.literal('csv'),
      rows: z.array(z.array(csvValue).min(1)).min(1).describe('Feature vectors, one row per record, no header; sent as text/csv.'),
    }),
    z.object({
      format: z.literal('text'),
      text: z.string(),
      contentType: z.string().regex(/^[\w.+-]+\/[\w.+-]+(;.*)?$/).optional().describe('Default text/plain.'),
    }),
    z.object({
      format: z.literal('prompt'),
      prompt: z.string().min(1),
      system: z.string().optional(),
      maxNewTokens: z.number().int().min(1).max(32_768).optional(),
      temperature: z.number().min(0).max(2).optional(),
      topP: z.number().gt(0).max(1).optional(),
      modelFamily: z.enum(MODEL_FAMILIES).optional().describe('Payload shape; default the endpoint\'s configured family, else tgi.'),
    }),
  ]).describe('The request body. Pick the format the model expects: json, csv (tabular models such as XGBoost), text, or prompt (text-generation models).'),
  accept: z.string().optional().describe('Accept header; default the container\'s choice.'),
  targetVariant: z.string().optional().describe('Production variant to route to (A/B tests).'),
});

export const invokeOutputSchema = z.object({
  endpointName: z.string(),
  inferenceComponentName: z.string().optional(),
  targetModel: z.string().optional(),
  contentType: z.string().optional(),
  invokedProductionVariant: z.string().optional(),
  json: z.unknown().optional().describe('The response parsed as JSON, when it is JSON.'),
  csv: z.array(z.array(z.string())).optional().describe('The response parsed as CSV rows, when it is CSV.'),
  text: z.string().optional().describe('The response body as text, when it is neither JSON nor CSV (or was truncated).'),
  generatedText: z.string().optional().describe('For prompt payloads: the generated text, when recognised.'),
  truncated: z.boolean().optional().describe(`True when the answer was larger than the result cap (${MAX_INVOKE_RESULT_BYTES} bytes): text then holds its beginning only.`),
  bodyBytes: z.number().int().optional().describe('The size of the whole response body, when truncated.'),
  attempts: z.number().int().describe('HTTP attempts made, retries included.'),
});

export const describeEndpointInputSchema = z.object({
  endpointName: z.string().min(1).describe('Name of an allow-listed endpoint.'),
});

export const describeEndpointOutputSchema = z.object({
  endpointName: z.string(),
  status: z.string().describe('InService, Creating, Updating, SystemUpdating, RollingBack, OutOfService, Deleting or Failed.'),
  failureReason: z.string().optional(),
  creationTime: z.string().optional(),
  lastModifiedTime: z.string().optional(),
  variants: z.array(z.object({
    variantName: z.string(),
    currentInstanceCount: z.number().optional(),
    desiredInstanceCount: z.number().optional(),
    currentWeight: z.number().optional(),
  })),
  asyncInference: z.boolean().describe('True for an async endpoint (use start_async_inference).'),
});

type InvokeArgs = z.infer<typeof invokeInputSchema>;

/** Minimal structural view of McpServer.registerTool, so tools stay testable and the SDK types stay at one edge. */
export interface ToolRegistrar {
  registerTool(name: string, config: {
    title?: string;
    description?: string;
    inputSchema?: z.ZodType;
    outputSchema?: z.ZodType;
    annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
  }, cb: (args: any, ctx: any) => Promise<ToolResult>): unknown;
}

function endpointList(ctx: ToolContext): string {
  return (ctx.config.realtimeEndpoints ?? []).map((e) => {
    const components = e.inferenceComponents?.length
      ? ` [components: ${e.inferenceComponents.map((c) => {
        const family = e.componentModelFamilies?.find((f) => f.component === c)?.modelFamily;
        return family ? `${c} (family ${family})` : c;
      }).join(', ')}]`
      : '';
    const targets = e.targetModels?.length ? ` [target models: ${e.targetModels.join(', ')}]` : '';
    const family = e.modelFamily ? ` [family: ${e.modelFamily}]` : '';
    const chat = e.openAiRoute ? ' [OpenAI chat: prompt, or json {"messages": [...]} as Chat Completions]' : '';
    return `- ${e.name}${components}${targets}${family}${chat}${e.description ? `: ${e.description}` : ''}`;
  }).join('\n');
}

function encode(args: InvokeArgs, family: ModelFamily): EncodedBody {
  const p = args.payload;
  switch (p.format) {
    case 'json':
      return jsonBody(p.data ?? null);
    case 'csv':
      return { body: new TextEncoder().encode(csvLines(p.rows)), contentType: CSV_CONTENT_TYPE };
    case 'text':
      return { body: new TextEncoder().encode(p.text), contentType: p.contentType ?? 'text/plain' };
    case 'prompt':
      return payloadForFamily(p.modelFamily ?? family, p.prompt, {
        system: p.system, maxNewTokens: p.maxNewTokens, temperature: p.temperature, topP: p.topP,
      });
  }
}

/** The Chat Completions request of a chat-shaped call: a prompt, or a JSON body with a `messages` array. */
export function chatRequestOf(payload: InvokeArgs['payload']): ChatCompletionRequest | undefined {
  if (payload.format === 'prompt') {
    const messages = [...(payload.system ? [{ role: 'system', content: payload.system }] : []), { role: 'user', content: payload.prompt }];
    const options = { max_tokens: payload.maxNewTokens, temperature: payload.temperature, top_p: payload.topP };
    // AWS: "you can leave this field empty"; vLLM refuses an endpoint name in it.
    return { model: '', messages, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) };
  }
  if (payload.format === 'json' && typeof payload.data === 'object' && payload.data !== null && !Array.isArray(payload.data)
    && Array.isArray((payload.data as { messages?: unknown }).messages)) {
    return { model: '', ...(payload.data as ChatCompletionRequest) };
  }
  return undefined;
}

/** One token provider per server configuration: tokens are cached (15 minutes each, AWS: the shortest that works). */
const tokenProviders = new WeakMap<ToolContext, () => Promise<string>>();

function chatClient(ctx: ToolContext, endpointName: string, inferenceComponentName: string | undefined): SageMakerChatClient {
  const region = ctx.config.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION;
  let token = tokenProviders.get(ctx);
  if (!token) {
    token = bearerTokenProvider({ region, credentials: ctx.config.credentials, expiresInSeconds: 900 });
    tokenProviders.set(ctx, token);
  }
  // An endpoint override (a stand-in, a VPC endpoint) serves the route on the same host as InvokeEndpoint.
  const override = ctx.config.endpoints?.sagemakerRuntime?.replace(/\/+$/, '');
  const baseUrl = override
    ? `${override}/endpoints/${endpointName}${inferenceComponentName ? `/inference-components/${inferenceComponentName}` : ''}/openai/v1`
    : undefined;
  return new SageMakerChatClient({
    endpointName, inferenceComponentName, region, token, baseUrl, deadlineMs: ctx.config.invokeDeadlineMs ?? DEFAULT_DEADLINE_MS,
  });
}

/** Calls the OpenAI-compatible route; each streamed piece of text is a progress notification when the client asked. */
async function chatOverRoute(
  ctx: ToolContext, args: InvokeArgs, request: ChatCompletionRequest, extra: WaitRequestContext | undefined,
): Promise<ToolResult> {
  const client = chatClient(ctx, args.endpointName, args.inferenceComponentName);
  let attempts = 0;
  const onAttempt = (n: number) => {
    attempts = n;
  };
  const progressToken = extra?.mcpReq?._meta?.progressToken;
  const notify = extra?.mcpReq?.notify;
  let pieces = 0;
  const completion = progressToken !== undefined && notify
    ? await client.stream(request, async (chunk) => {
      const text = chunk.choices?.[0]?.delta?.content;
      if (!text) return;
      pieces++;
      await notify({ method: 'notifications/progress', params: { progressToken, progress: pieces, message: text } }).catch(() => undefined);
    }, { onAttempt })
    : await client.complete(request, { onAttempt });
  const content = completion.choices?.[0]?.message?.content;
  const head = { endpointName: args.endpointName, inferenceComponentName: args.inferenceComponentName, contentType: 'application/json' };
  const whole = toolResult({ ...head, json: completion, generatedText: typeof content === 'string' ? content : undefined, attempts });
  if (invokeResultBytes(whole) <= MAX_INVOKE_RESULT_BYTES) return whole;
  const text = JSON.stringify(completion);
  return truncatedResult(head, text, Buffer.byteLength(text), attempts);
}

export async function invokeTool(ctx: ToolContext, args: InvokeArgs, extra?: WaitRequestContext): Promise<ToolResult> {
  const allowed = ctx.config.realtimeEndpoints ?? [];
  const endpoint = allowed.find((e) => e.name === args.endpointName);
  let contentType: string | undefined;
  try {
    if (!endpoint) {
      throw new ToolRefusal('EndpointNotAllowed', `Endpoint "${args.endpointName}" is not exposed by this server. Allowed endpoints: ${allowed.map((e) => e.name).join(', ')}.`);
    }
    const components = endpoint.inferenceComponents ?? [];
    if (components.length > 0 && (!args.inferenceComponentName || !components.includes(args.inferenceComponentName))) {
      throw new ToolRefusal('InferenceComponentNotAllowed', `Endpoint "${endpoint.name}" serves inference components; name one of: ${components.join(', ')} (got ${args.inferenceComponentName ? `"${args.inferenceComponentName}"` : 'none'}).`);
    }
    if (components.length === 0 && args.inferenceComponentName) {
      throw new ToolRefusal('InferenceComponentNotAllowed', `Endpoint "${endpoint.name}" has no allow-listed inference components: omit inferenceComponentName.`);
    }
    // A multi-model endpoint loads whatever TargetModel names from its S3 prefix: only the allow-listed ones may be named.
    const targets = endpoint.targetModels ?? [];
    if (targets.length > 0 && (!args.targetModel || !targets.includes(args.targetModel))) {
      throw new ToolRefusal('TargetModelNotAllowed', `Endpoint "${endpoint.name}" is a multi-model endpoint; name one of these target models: ${targets.join(', ')} (got ${args.targetModel ? `"${args.targetModel}"` : 'none'}).`);
    }
    if (targets.length === 0 && args.targetModel) {
      throw new ToolRefusal('TargetModelNotAllowed', `Endpoint "${endpoint.name}" has no allow-listed target models: omit targetModel.`);
    }
    const chat = endpoint.openAiRoute && !args.targetModel && !args.targetVariant ? chatRequestOf(args.payload) : undefined;
    if (chat) {
      contentType = 'application/json';
      return await chatOverRoute(ctx, args, chat, extra);
    }
    const family = endpoint.componentModelFamilies?.find((f) => f.component === args.inferenceComponentName)?.modelFamily ?? endpoint.modelFamily;
    const body = encode(args, (family as ModelFamily | undefined) ?? 'tgi');
    contentType = body.contentType;
    const out = await invokeEndpoint({
      endpointName: endpoint.name,
      body: body.body,
      contentType: body.contentType,
      accept: args.accept,
      targetVariant: args.targetVariant,
      inferenceComponentName: args.inferenceComponentName,
      targetModel: args.targetModel,
    }, { client: ctx.clients.sagemakerRuntime, deadlineMs: ctx.config.invokeDeadlineMs, signal: currentDeadline()?.signal });
    const text = out.text();
    const responseType = out.contentType ?? '';
    let json: unknown;
    if (/json/i.test(responseType) || /^\s*[[{"]/.test(text)) {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    const csv = responseType.startsWith(CSV_CONTENT_TYPE) ? parseCsv(text.trim()) : undefined;
    let generatedText: string | undefined;
    if (args.payload.format === 'prompt' && json !== undefined) {
      try {
        generatedText = parseGeneratedText(json);
      } catch {
        generatedText = undefined;
      }
    }
    const head = {
      endpointName: endpoint.name,
      inferenceComponentName: args.inferenceComponentName,
      targetModel: args.targetModel,
      contentType: out.contentType,
      invokedProductionVariant: out.invokedProductionVariant,
    };
    // The answer once: parsed (json or csv) when it parses, else as text (the MCP text block repeats it once, as the
    // spec's compatibility advice for structured content says).
    const asText = json === undefined && csv === undefined ? text : undefined;
    const whole = toolResult({ ...head, json, csv, text: asText, generatedText, attempts: out.attempts });
    return invokeResultBytes(whole) <= MAX_INVOKE_RESULT_BYTES ? whole : truncatedResult(head, text, out.body.length, out.attempts);
  } catch (err) {
    return toolFailure(err, { endpointName: args.endpointName, contentType });
  }
}

/** The bytes `result` takes inside a Lambda result's string body (see MAX_INVOKE_RESULT_BYTES). */
export function invokeResultBytes(result: ToolResult): number {
  return Buffer.byteLength(JSON.stringify(JSON.stringify(result)));
}

/** The beginning of the answer as text, as long as fits MAX_INVOKE_RESULT_BYTES, flagged `truncated`. */
function truncatedResult(head: Record<string, unknown>, text: string, bodyBytes: number, attempts: number): ToolResult {
  let keep = text.length;
  for (;;) {
    let part = text.slice(0, keep);
    if (/[\ud800-\udbff]$/.test(part)) part = part.slice(0, -1); // never half a surrogate pair
    const result = toolResult({ ...head, text: part, truncated: true, bodyBytes, attempts });
    const size = invokeResultBytes(result);
    if (size <= MAX_INVOKE_RESULT_BYTES) return result;
    keep = Math.floor(keep * (MAX_INVOKE_RESULT_BYTES / size) * 0.98);
  }
}

export async function describeEndpointTool(ctx: ToolContext, args: z.infer<typeof describeEndpointInputSchema>): Promise<ToolResult> {
  const realtime = (ctx.config.realtimeEndpoints ?? []).map((e) => e.name);
  const asyncNames = (ctx.config.asyncEndpoints ?? []).map((e) => e.name);
  try {
    if (!realtime.includes(args.endpointName) && !asyncNames.includes(args.endpointName)) {
      throw new ToolRefusal('EndpointNotAllowed', `Endpoint "${args.endpointName}" is not exposed by this server. Allowed endpoints: ${[...realtime, ...asyncNames].join(', ')}.`);
    }
    const out = await ctx.clients.sagemaker.send(new (sageMakerSdk().DescribeEndpointCommand)({ EndpointName: args.endpointName }));
    return toolResult({
      endpointName: out.EndpointName ?? args.endpointName,
      status: out.EndpointStatus ?? 'Unknown',
      failureReason: out.FailureReason,
      creationTime: out.CreationTime?.toISOString(),
      lastModifiedTime: out.LastModifiedTime?.toISOString(),
      variants: (out.ProductionVariants ?? []).map((v) => ({
        variantName: v.VariantName ?? '',
        currentInstanceCount: v.CurrentInstanceCount,
        desiredInstanceCount: v.DesiredInstanceCount,
        currentWeight: v.CurrentWeight,
      })),
      asyncInference: out.AsyncInferenceConfig !== undefined || asyncNames.includes(args.endpointName),
    });
  } catch (err) {
    return toolFailure(err);
  }
}

export function registerInvokeTools(server: ToolRegistrar, ctx: ToolContext): void {
  const realtime = ctx.config.realtimeEndpoints ?? [];
  if (realtime.length > 0) {
    server.registerTool(MCP_TOOL_NAMES.INVOKE_ENDPOINT, {
      title: 'Invoke a SageMaker endpoint',
      description: 'Sends one request to a SageMaker real-time endpoint and returns the model\'s answer (within about a minute). '
        + 'Use the payload format the model expects. Endpoints you may call:\n'
        + `${endpointList(ctx)}\n`
        + `For long or batch work use start_async_inference instead. An answer larger than ${MAX_INVOKE_RESULT_BYTES / 1e6} MB comes back `
        + `truncated (truncated=true, bodyBytes). ${ERROR_NOTE} A ModelError (the container rejected the input) is not retryable: change the input.`,
      inputSchema: invokeInputSchema,
      outputSchema: invokeOutputSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    }, (args: InvokeArgs, extra?: WaitRequestContext) => invokeTool(ctx, args, extra));
  }
  if (realtime.length > 0 || (ctx.config.asyncEndpoints ?? []).length > 0) {
    const names = [...realtime.map((e) => e.name), ...(ctx.config.asyncEndpoints ?? []).map((e) => e.name)];
    server.registerTool(MCP_TOOL_NAMES.DESCRIBE_ENDPOINT, {
      title: 'Describe a SageMaker endpoint',
      description: 'Returns the status of an endpoint (InService, Creating, Updating, Failed, ...), its variants and instance counts. '
        + `Check it before invoking an endpoint that failed with a retryable error. Endpoints: ${names.join(', ')}. ${ERROR_NOTE}`,
      inputSchema: describeEndpointInputSchema,
      outputSchema: describeEndpointOutputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    }, (args: z.infer<typeof describeEndpointInputSchema>) => describeEndpointTool(ctx, args));
  }
}
