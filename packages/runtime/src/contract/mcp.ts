/**
 * The contract between the `McpToolServer` construct, its bundled `server.lambda` handler and the runtime's MCP server
 * (`createSageMakerMcpServer`): env var names and the JSON spec of what the server exposes. The CLI reads the same spec
 * from a file. Defined once here (zod schemas, constants, and dependency-free rules); the construct library gets a
 * generated mirror (src/private/contract.generated.ts, `npx projen contract:generate`).
 */
import * as z from 'zod';
import { lines } from './describe';
import { FeatureGroupSchemaSchema } from './feature-store';

/** Env vars of the server function (`McpToolServer` sets the secret ARNs and the digest, never the spec itself). */
export const MCP_ENV = {
  /**
   * JSON `McpServerSpec` inline: what the tools expose and what they may do. For a function configured by hand (tests,
   * a small spec): `McpToolServer` never sets it, since Lambda caps a function's environment at 4 KB in total.
   */
  SPEC: 'MCP_SERVER_SPEC',
  /**
   * ARN of the Secrets Manager secret whose `SecretString` is the spec as a `McpPackedSpec` (what `McpToolServer`
   * sets). The bundled handler reads it once per cold start; CloudFormation resolves the deploy-time names in it. Set
   * exactly one of this and `MCP_SERVER_SPEC`.
   */
  SPEC_SECRET_ARN: 'MCP_SERVER_SPEC_SECRET_ARN',
  /**
   * A digest of the spec as the template writes it. The handler does not read it: it changes the function's
   * configuration whenever the spec changes, so Lambda retires the environments that read the previous one.
   */
  SPEC_DIGEST: 'MCP_SERVER_SPEC_DIGEST',
  /**
   * ARN of the Secrets Manager secret holding the key the tool handles (async jobs, training runs) are sealed with. The
   * bundled handler reads it once per cold start: the key itself never appears in the function's configuration, where
   * `lambda:GetFunctionConfiguration` would reveal it and anyone holding it could forge a handle to any output.
   */
  HANDLE_KEY_SECRET_ARN: 'MCP_HANDLE_KEY_SECRET_ARN',
} as const;

/** Env vars `McpToolServer.addToGateway` sets on the server function. */
export const MCP_GATEWAY_ENV = {
  /**
   * JSON array of the gateway target names this function serves. The handler answers an AgentCore invocation only when
   * the tool name's `<target>___` prefix is one of them; without the variable it answers none.
   */
  TARGET_NAMES: 'MCP_GATEWAY_TARGET_NAMES',
} as const;

/**
 * What separates the target name from the tool name in the name a gateway shows agents and passes to the function
 * (https://docs.aws.amazon.com/bedrock-agentcore/latest/devguide/gateway-tool-naming.html).
 */
export const MCP_GATEWAY_TOOL_DELIMITER = '___';

/**
 * The keys of `context.clientContext.custom` a gateway sets when it invokes a Lambda target; the event is the tool's
 * arguments (https://docs.aws.amazon.com/bedrock-agentcore/latest/devguide/gateway-add-target-lambda.html#gateway-building-lambda-input).
 */
export const AGENTCORE_CONTEXT_KEYS = {
  TOOL_NAME: 'bedrockAgentCoreToolName',
  GATEWAY_ID: 'bedrockAgentCoreGatewayId',
  TARGET_ID: 'bedrockAgentCoreTargetId',
  MESSAGE_VERSION: 'bedrockAgentCoreMessageVersion',
  AWS_REQUEST_ID: 'bedrockAgentCoreAwsRequestId',
  MCP_MESSAGE_ID: 'bedrockAgentCoreMcpMessageId',
} as const;

/**
 * The MCP protocol revisions that the bundled server speaks AND Amazon Bedrock AgentCore Gateway supports, newest first:
 * "AgentCore Gateway supports the following MCP versions: 2026-07-28, 2025-11-25, 2025-06-18, and 2025-03-26"
 * (https://docs.aws.amazon.com/bedrock-agentcore/latest/devguide/gateway-using.html), and a gateway accepts only the
 * versions its `supportedVersions` lists (aws-cdk-lib's `Gateway` defaults to 2025-03-26 alone). The server
 * (`@modelcontextprotocol/server` 2.4) serves 2026-07-28 through `createMcpHandler` and the 2025-era revisions of its
 * `SUPPORTED_PROTOCOL_VERSIONS` statelessly; test/mcp/protocol-revisions.test.ts checks this list against the
 * SDK. `McpGatewayProtocol.configuration()` puts it on a Gateway; clients pinned to each revision test it.
 */
export const GATEWAY_MCP_PROTOCOL_VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'] as const;

/**
 * "Function environment variables: 4 KB, for all environment variables associated with the function, in aggregate"
 * (https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html). The construct refuses an environment whose
 * names and values alone exceed it.
 */
export const LAMBDA_ENV_LIMIT_BYTES = 4_096;

/**
 * "Maximum length of a secret: 65,536 bytes" (https://docs.aws.amazon.com/secretsmanager/latest/userguide/reference_limits.html):
 * the largest spec the server's spec secret holds. The construct refuses a spec whose synth-time text alone exceeds it.
 */
export const MCP_SPEC_SECRET_LIMIT_BYTES = 65_536;

/** Handles live a week unless configured otherwise (`handleTtlSeconds`, `McpToolServerProps.handleTtl`). */
export const DEFAULT_HANDLE_TTL_SECONDS = 7 * 24 * 3600;
/** The range a handle lifetime may be configured in: an hour (an async request may queue for 6 h) to a year. */
export const HANDLE_TTL_RANGE = { min: 3600, max: 365 * 24 * 3600 } as const;
const HANDLE_TTL_EXPECTED = `expected whole seconds from ${HANDLE_TTL_RANGE.min} (1 hour) to ${HANDLE_TTL_RANGE.max} (365 days)`;

/**
 * The payload families of the `prompt` payload format (`ModelFamily` in packages/runtime/src/invoke/payloads.ts): the request
 * shape the invoke tool builds, and the `modelFamily` values a construct may configure.
 */
export const MODEL_FAMILIES = ['tgi', 'llama3', 'mistral', 'falcon', 'openai'] as const;

/**
 * What each payload family's request body is (packages/runtime/src/invoke/payloads.ts `payloadForFamily`). The construct
 * library's `ModelFamily` class and the family table of docs/realtime.md are generated from these two constants
 * (`npx projen contract:generate`).
 */
export const MODEL_FAMILY_DESCRIPTIONS: { readonly [F in typeof MODEL_FAMILIES[number]]: string } = {
  tgi: 'Text Generation Inference `/generate` body: `{"inputs": prompt, "parameters": {...}}` (TGI containers, most JumpStart `huggingface-llm-*` models)',
  llama3: 'Llama 3 through the Messages API: `{"messages": [{role, content}], "max_tokens": n}` (JumpStart `meta-textgeneration-llama-3*`)',
  mistral: 'Mistral/Mixtral instruct: an `[INST] ... [/INST]` prompt in a TGI body (JumpStart `huggingface-llm-mistral-*`, `-mixtral-*`)',
  falcon: 'Falcon: a TGI `inputs` body (JumpStart `huggingface-llm-falcon*`)',
  openai: 'OpenAI completions body vLLM\'s SageMaker server takes: `{"prompt", "max_tokens", "temperature"}` (Hugging Face Hub models served by vLLM)',
};

/** A realtime or shared-GPU endpoint the `invoke_endpoint` and `describe_endpoint` tools may call. */
export const McpRealtimeEndpointSpecSchema = z.object({
  name: z.string().min(1).describe('The endpoint name.'),
  description: z.string().optional().describe('Shown to the agent: what the model does and what input it expects.'),
  inferenceComponents: z.array(z.string()).optional().describe(lines(
    'Inference components the agent may target on a shared-GPU endpoint. When set, a call must name one of them; an',
    'endpoint without components must not be called with one.')),
  modelFamily: z.string().optional().describe(`Payload family used by the \`prompt\` payload format (${MODEL_FAMILIES.map((f) => `\`${f}\``).join(', ')}).`),
  componentModelFamilies: z.array(z.object({ component: z.string(), modelFamily: z.string() }))
    .optional().describe('Payload family per inference component, when components serve different families.'),
  targetModels: z.array(z.string()).optional().describe(lines(
    'Target models (paths under the prefix) the agent may name on a multi-model endpoint. When set, a call must name one',
    'of them; an endpoint without them must not be called with one.')),
  openAiRoute: z.boolean().optional().describe(lines(
    'The container(s) serve SageMaker\'s OpenAI-compatible route (`/openai/v1/chat/completions`: vLLM, SGLang): `prompt` and',
    'Chat Completions `json` payloads go through it (streamed as progress when asked). Default false: InvokeEndpoint.')),
}).meta({ id: 'McpRealtimeEndpointSpec', description: 'A realtime or shared-GPU endpoint the `invoke_endpoint` and `describe_endpoint` tools may call.' });
export type McpRealtimeEndpointSpec = z.infer<typeof McpRealtimeEndpointSpecSchema>;

/** An async endpoint the `start_async_inference` / `get_async_inference_result` (and `describe_endpoint`) tools may use. */
export const McpAsyncEndpointSpecSchema = z.object({
  name: z.string().min(1).describe('The endpoint name.'),
  description: z.string().optional().describe('Shown to the agent.'),
  inputBucket: z.string().min(1).describe('Bucket inputs are uploaded to.'),
  inputPrefix: z.string().optional().describe('Key prefix of uploaded inputs. Default `inputs/`.'),
  jobTableName: z.string().optional().describe('The result recorder\'s job table; without it results are found by reading the output/failure objects.'),
  invocationTimeoutSeconds: z.number().optional().describe('Default `InvocationTimeoutSeconds` of a submission.'),
  requestTtlSeconds: z.number().optional().describe('Default `RequestTTLSeconds` of a submission.'),
}).meta({
  id: 'McpAsyncEndpointSpec',
  description: 'An async endpoint the `start_async_inference` / `get_async_inference_result` (and `describe_endpoint`) tools may use.',
});
export type McpAsyncEndpointSpec = z.infer<typeof McpAsyncEndpointSpecSchema>;

/** A feature group the feature tools may read (and write when `allowWrites`). */
export const McpFeatureGroupSpecSchema = z.object({
  schema: FeatureGroupSchemaSchema,
  description: z.string().optional().describe('Shown to the agent.'),
  allowWrites: z.boolean().optional().describe('Registers `put_feature_record` for this group. Default false.'),
}).meta({ id: 'McpFeatureGroupSpec', description: 'A feature group the feature tools may read (and write when `allowWrites`).' });
export type McpFeatureGroupSpec = z.infer<typeof McpFeatureGroupSpecSchema>;

/** A pipeline `start_training` may start. */
export const McpPipelineSpecSchema = z.object({
  name: z.string().min(1).describe('The pipeline name.'),
  description: z.string().optional().describe('Shown to the agent.'),
  parameters: z.array(z.string()).optional().describe('Parameter names the agent may override; others are refused. Default: none may be overridden.'),
}).meta({ id: 'McpPipelineSpec', description: 'A pipeline `start_training` may start.' });
export type McpPipelineSpec = z.infer<typeof McpPipelineSpecSchema>;

/** A model package group `list_model_versions` may list. */
export const McpModelPackageGroupSpecSchema = z.object({
  name: z.string().min(1).describe('The model package group name.'),
  description: z.string().optional().describe('Shown to the agent.'),
}).meta({ id: 'McpModelPackageGroupSpec', description: 'A model package group `list_model_versions` may list.' });
export type McpModelPackageGroupSpec = z.infer<typeof McpModelPackageGroupSpecSchema>;

/** An endpoint `get_deployment_status` may describe (which model package version it serves, whether a rollout runs). */
export const McpDeploymentSpecSchema = z.object({
  endpointName: z.string().min(1).describe('The endpoint name.'),
  description: z.string().optional().describe('Shown to the agent.'),
}).meta({ id: 'McpDeploymentSpec', description: 'An endpoint `get_deployment_status` may describe (which model package version it serves, whether a rollout runs).' });
export type McpDeploymentSpec = z.infer<typeof McpDeploymentSpecSchema>;

/** Everything the MCP server exposes. Absent sections register no tools. */
export const McpServerSpecSchema = z.object({
  serverName: z.string().optional().describe('Server name reported to clients. Default `cdk-sagemaker-mcp`.'),
  realtimeEndpoints: z.array(McpRealtimeEndpointSpecSchema).optional().describe('Endpoints `invoke_endpoint` may call.'),
  asyncEndpoints: z.array(McpAsyncEndpointSpecSchema).optional().describe('Endpoints the async tools may use.'),
  featureGroups: z.array(McpFeatureGroupSpecSchema).optional().describe('Feature groups the feature tools may read (and write).'),
  pipelines: z.array(McpPipelineSpecSchema).optional().describe('Pipelines `start_training` may start.'),
  trainingResultsTable: z.string().optional().describe('The `PipelineEventRouter` results table; registers `get_training_result`.'),
  modelProvenance: z.boolean().optional().describe('Registers `get_model_provenance` (lineage reads; see docs/mcp.md for its IAM scope). Default false.'),
  modelPackageGroups: z.array(McpModelPackageGroupSpecSchema).optional().describe('Groups `list_model_versions` may list.'),
  deployments: z.array(McpDeploymentSpecSchema).optional().describe('Endpoints `get_deployment_status` may describe.'),
  maxEventTimeSkewSeconds: z.number().min(0, 'expected a number of seconds >= 0').optional().describe(lines(
    'Seconds an event time written by `put_feature_record` may lie past the server\'s clock; later ones are refused (the',
    'online store keeps the greatest event time, so one far-future write would freeze the record). Default 300.')),
  handleTtlSeconds: z.number().int(HANDLE_TTL_EXPECTED).min(HANDLE_TTL_RANGE.min, HANDLE_TTL_EXPECTED).max(HANDLE_TTL_RANGE.max, HANDLE_TTL_EXPECTED)
    .optional().describe('Seconds a handle stays valid after the call that issued it (3600 to 31536000). Default 604800 (7 days).'),
}).check(z.superRefine((spec, ctx) => {
  // Rules across entries, checked even when an entry is malformed (`when`), so every problem is reported at once.
  const unique = (section: 'realtimeEndpoints' | 'asyncEndpoints' | 'pipelines' | 'featureGroups' | 'modelPackageGroups' | 'deployments', path: string[], nameOf: (item: any) => unknown) => {
    const list: unknown = spec[section];
    if (!Array.isArray(list)) return;
    const seen = new Set<unknown>();
    list.forEach((item, i) => {
      const name = nameOf(item);
      if (typeof name === 'string' && seen.has(name)) ctx.addIssue({ code: 'custom', path: [section, i, ...path], message: `${JSON.stringify(name)} is listed twice` });
      seen.add(name);
    });
  };
  unique('realtimeEndpoints', ['name'], (e) => e?.name);
  unique('asyncEndpoints', ['name'], (e) => e?.name);
  unique('pipelines', ['name'], (p) => p?.name);
  unique('featureGroups', ['schema', 'featureGroupName'], (g) => g?.schema?.featureGroupName);
  unique('modelPackageGroups', ['name'], (g) => g?.name);
  unique('deployments', ['endpointName'], (d) => d?.endpointName);
  if (spec.trainingResultsTable !== undefined && !(Array.isArray(spec.pipelines) && spec.pipelines.length > 0)) {
    ctx.addIssue({ code: 'custom', path: ['trainingResultsTable'], message: 'set, but no pipelines are listed (get_training_result needs a start_training handle)' });
  }
}, { when: (payload) => typeof payload.value === 'object' && payload.value !== null }))
  .meta({ id: 'McpServerSpec', description: 'Everything the MCP server exposes. Absent sections register no tools.' });
export type McpServerSpec = z.infer<typeof McpServerSpecSchema>;

/**
 * The markers that stand for `values[i]` of a `McpPackedSpec` in its packed spec: `{"$deployTimeValue": i}` for a
 * string, `{"$deployTimeNumber": i}` for a number (CloudFormation resolves every value to text).
 */
export const MCP_PACKED_SPEC_SLOT = { STRING: '$deployTimeValue', NUMBER: '$deployTimeNumber' } as const;

/**
 * The spec as `McpToolServer` writes it into its secret. The spec's text is mostly static (descriptions, feature
 * schemas) and repetitive, so it travels gzipped; the names CloudFormation resolves at deploy time cannot be
 * compressed at synth, so each one is replaced by `{"$deployTimeValue": i}` and travels in `values[i]`. A 100-endpoint,
 * 20x50-feature spec of about 70 KB packs into a few KB, well inside Secrets Manager's 64 KB.
 */
export const McpPackedSpecSchema = z.object({
  specGzipBase64: z.string().min(1).describe('The spec\'s JSON text, deploy-time values replaced by slots, gzipped, base64-encoded.'),
  values: z.array(z.string()).describe('The deploy-time values, in slot order, as CloudFormation resolved them.'),
}).meta({ id: 'McpPackedSpec', description: 'The spec as McpToolServer writes it into its secret: the static part gzipped, the deploy-time values beside it.' });
export type McpPackedSpec = z.infer<typeof McpPackedSpecSchema>;

/** An env var holding JSON text: parsed, then checked with `schema` (its problems keep the variable's name in the path). */
const jsonEnv = <S extends z.ZodType>(schema: S, what: string) =>
  z.string(`expected ${what} as JSON text`).transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: `expected ${what} as JSON text, got text that does not parse (${(err as Error).message})` });
      return z.NEVER;
    }
  }).pipe(schema);

/**
 * The whole environment of the bundled MCP server function (src/mcp/server.lambda.ts), read in one parse at its cold
 * start: what `McpToolServer` sets (the spec's secret and digest, the handle key's secret) and what `addToGateway` adds
 * (the targets it serves); or the spec inline (`MCP_SERVER_SPEC`) for a function configured by hand. Every problem is
 * reported at once, each naming its variable and what is expected. The spec secret's text is parsed with
 * `McpServerSpecSchema` once it is read.
 */
export const McpServerFunctionEnvSchema = z.object({
  [MCP_ENV.SPEC]: jsonEnv(McpServerSpecSchema, 'the server spec (inline)').optional(),
  [MCP_ENV.SPEC_SECRET_ARN]: z.string()
    .regex(/^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:.+$/, 'expected a Secrets Manager secret ARN (arn:<partition>:secretsmanager:<region>:<account>:secret:<name>)')
    .optional(),
  [MCP_ENV.SPEC_DIGEST]: z.string().optional(),
  [MCP_ENV.HANDLE_KEY_SECRET_ARN]: z.string('expected the ARN of the Secrets Manager secret holding the handle key (McpToolServer sets it); '
    + 'the server does not start without a key: handles sealed with a per-instance key would not open on any other instance')
    .regex(/^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:.+$/, 'expected a Secrets Manager secret ARN (arn:<partition>:secretsmanager:<region>:<account>:secret:<name>)'),
  [MCP_GATEWAY_ENV.TARGET_NAMES]: jsonEnv(z.array(z.string().min(1, 'expected a non-empty target name')), 'an array of gateway target names (addToGateway sets it)')
    .optional(),
}).check(z.superRefine((env, ctx) => {
  const inline = env[MCP_ENV.SPEC] !== undefined;
  const secret = env[MCP_ENV.SPEC_SECRET_ARN] !== undefined;
  if (inline === secret) {
    ctx.addIssue({
      code: 'custom',
      path: [MCP_ENV.SPEC_SECRET_ARN],
      message: `expected the ARN of the Secrets Manager secret holding the server spec (McpToolServer sets it) or the spec inline in ${MCP_ENV.SPEC}, `
        + (inline ? 'got both' : 'got neither'),
    });
  }
}, { when: (payload) => typeof payload.value === 'object' && payload.value !== null }));

/** Problems with a configured handle lifetime (empty when valid); shared by the construct and the runtime. */
export function handleTtlProblems(field: string, value: unknown): string[] {
  if (value === undefined) return [];
  const ok = typeof value === 'number' && Number.isInteger(value) && value >= HANDLE_TTL_RANGE.min && value <= HANDLE_TTL_RANGE.max;
  return ok ? [] : [`${field}: got ${JSON.stringify(value)} seconds, ${HANDLE_TTL_EXPECTED}`];
}

/** Tool names, in the order they are registered. */
export const MCP_TOOL_NAMES = {
  INVOKE_ENDPOINT: 'invoke_endpoint',
  DESCRIBE_ENDPOINT: 'describe_endpoint',
  START_ASYNC_INFERENCE: 'start_async_inference',
  GET_ASYNC_INFERENCE_RESULT: 'get_async_inference_result',
  WAIT_FOR_ASYNC_INFERENCE: 'wait_for_async_inference',
  GET_ONLINE_FEATURES: 'get_online_features',
  PUT_FEATURE_RECORD: 'put_feature_record',
  START_TRAINING: 'start_training',
  GET_TRAINING_STATUS: 'get_training_status',
  WAIT_FOR_TRAINING_RUN: 'wait_for_training_run',
  GET_TRAINING_RESULT: 'get_training_result',
  GET_MODEL_PROVENANCE: 'get_model_provenance',
  LIST_MODEL_VERSIONS: 'list_model_versions',
  GET_DEPLOYMENT_STATUS: 'get_deployment_status',
} as const;

/** The tools a spec registers (what `tools/list` returns), in registration order. */
export function toolNamesForSpec(spec: McpServerSpec): string[] {
  const names: string[] = [];
  if (spec.realtimeEndpoints?.length) names.push(MCP_TOOL_NAMES.INVOKE_ENDPOINT);
  if (spec.realtimeEndpoints?.length || spec.asyncEndpoints?.length) names.push(MCP_TOOL_NAMES.DESCRIBE_ENDPOINT);
  if (spec.asyncEndpoints?.length) {
    names.push(MCP_TOOL_NAMES.START_ASYNC_INFERENCE, MCP_TOOL_NAMES.GET_ASYNC_INFERENCE_RESULT, MCP_TOOL_NAMES.WAIT_FOR_ASYNC_INFERENCE);
  }
  if (spec.featureGroups?.length) names.push(MCP_TOOL_NAMES.GET_ONLINE_FEATURES);
  if (spec.featureGroups?.some((g) => g.allowWrites)) names.push(MCP_TOOL_NAMES.PUT_FEATURE_RECORD);
  if (spec.pipelines?.length) {
    names.push(MCP_TOOL_NAMES.START_TRAINING, MCP_TOOL_NAMES.GET_TRAINING_STATUS, MCP_TOOL_NAMES.WAIT_FOR_TRAINING_RUN);
    if (spec.trainingResultsTable) names.push(MCP_TOOL_NAMES.GET_TRAINING_RESULT);
  }
  if (spec.modelProvenance) names.push(MCP_TOOL_NAMES.GET_MODEL_PROVENANCE);
  if (spec.modelPackageGroups?.length) names.push(MCP_TOOL_NAMES.LIST_MODEL_VERSIONS);
  if (spec.deployments?.length) names.push(MCP_TOOL_NAMES.GET_DEPLOYMENT_STATUS);
  return names;
}
