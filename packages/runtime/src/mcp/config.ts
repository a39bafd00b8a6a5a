/**
 * Reading an MCP server configuration: the spec a construct wrote into its spec secret (or one given inline in
 * `MCP_SERVER_SPEC`), a CLI config file, or an object given in code. Every one is parsed with the zod schemas of ./contract/mcp (the spec) extended by the fields
 * only a configuration has (region, endpoints, deadlines, ...), and every problem is reported at once, each naming the
 * field path and what was expected.
 */
import { gunzipSync } from 'zlib';
import * as z from 'zod';
import { MCP_GATEWAY_ENV, McpPackedSpecSchema, MCP_PACKED_SPEC_SLOT, McpServerFunctionEnvSchema, McpServerSpec, McpServerSpecSchema, MCP_ENV } from '../contract/mcp';
import { contractProblems, parseContract, parseJsonText } from '../contract/parse';
import type { SageMakerMcpServerConfig, ToolCallOutcome } from './tools/context';

/** Thrown for a configuration that cannot serve: each problem names the field, the value and the expectation. */
export class McpConfigError extends Error {
  public readonly retryable = false;
  constructor(public readonly problems: readonly string[], source?: string) {
    super(`Invalid MCP server configuration${source ? ` (${source})` : ''}:\n  - ${problems.join('\n  - ')}`);
    this.name = 'McpConfigError';
  }
}

const milliseconds = z.number().int('expected a positive integer of milliseconds').positive('expected a positive integer of milliseconds');
const seconds = z.number().positive('expected a number of seconds > 0');

/** `SageMakerMcpServerConfig` as a schema: the spec plus how to reach AWS and the bounds of each call. */
export const SageMakerMcpServerConfigSchema = McpServerSpecSchema.safeExtend({
  region: z.string().min(1).optional(),
  credentials: z.object({
    accessKeyId: z.string().min(1),
    secretAccessKey: z.string().min(1),
    sessionToken: z.string().optional(),
  }).optional(),
  endpoints: z.object({
    sagemakerRuntime: z.string().optional(),
    sagemaker: z.string().optional(),
    featureStoreRuntime: z.string().optional(),
    dynamodb: z.string().optional(),
    s3: z.string().optional(),
    athena: z.string().optional(),
  }).optional(),
  handleKey: z.string().optional(),
  ephemeralHandleKey: z.boolean().optional(),
  s3ForcePathStyle: z.boolean().optional(),
  asyncCheckAfterSeconds: seconds.optional(),
  trainingCheckAfterSeconds: seconds.optional(),
  invokeDeadlineMs: milliseconds.optional(),
  toolDeadlineMs: milliseconds.optional(),
  waitPollIntervalMs: milliseconds.optional(),
  toolDeadlines: z.record(z.string(), milliseconds).optional(),
  httpTimeouts: z.object({ connectionTimeoutMs: milliseconds.optional(), requestTimeoutMs: milliseconds.optional() }).optional(),
  log: z.custom<(entry: Record<string, unknown>) => void>((v) => typeof v === 'function', 'expected a function').optional(),
  onToolCall: z.custom<(outcome: ToolCallOutcome) => void>((v) => typeof v === 'function', 'expected a function').optional(),
});

// Every configuration the interface allows is one the schema accepts (the compiler checks the two stay in step).
type Accepts<T> = SageMakerMcpServerConfig extends T ? true : never;
const _schemaAcceptsTheInterface: Accepts<z.input<typeof SageMakerMcpServerConfigSchema>> = true;
void _schemaAcceptsTheInterface;

/** Fields whose values never appear in a problem. */
const SECRET_FIELDS = ['handleKey', 'credentials'];

/**
 * Checks a configuration (an object, or its JSON text) and returns it as given, typed. `source` names where it came
 * from in every problem (`MCP_SERVER_SPEC` gives `MCP_SERVER_SPEC.asyncEndpoints[0].inputBucket: ...`).
 */
export function parseMcpServerSpec<T extends McpServerSpec>(input: unknown, source?: string): T {
  const value = typeof input === 'string' ? parseJsonText(input, source ?? 'spec') : { value: input };
  if (value.problem) throw new McpConfigError([value.problem]);
  const problems = contractProblems(SageMakerMcpServerConfigSchema, value.value, { source, secretFields: SECRET_FIELDS });
  if (problems.length > 0) throw new McpConfigError(problems);
  // The value as given (not zod's copy): unknown fields and the `log` function stay as they are.
  return value.value as T;
}

/**
 * A spec given as JSON text (`MCP_SERVER_SPEC`, or the `SecretString` of the secret `MCP_SERVER_SPEC_SECRET_ARN` names),
 * parsed with the contract's schema: every problem at once, each prefixed with `source`.
 */
export function mcpServerSpecFromText(text: string, source: string): McpServerSpec {
  const value = parseJsonText(text, source);
  if (value.problem) throw new McpConfigError([value.problem]);
  const problems = contractProblems(McpServerSpecSchema, value.value, { source });
  if (problems.length > 0) throw new McpConfigError(problems);
  return value.value as McpServerSpec;
}

/**
 * The spec as `McpToolServer` writes it into its secret (a `McpPackedSpec`: the static part gzipped, the deploy-time
 * values beside it), unpacked and parsed with the contract's schema: every problem at once, each prefixed with `source`.
 */
export function mcpServerSpecFromSecretText(text: string, source: string): McpServerSpec {
  const envelope = parseJsonText(text, source);
  if (envelope.problem) throw new McpConfigError([envelope.problem]);
  const envelopeProblems = contractProblems(McpPackedSpecSchema, envelope.value, { source });
  if (envelopeProblems.length > 0) throw new McpConfigError(envelopeProblems);
  const packed = envelope.value as z.infer<typeof McpPackedSpecSchema>;
  let staticText: string;
  try {
    staticText = gunzipSync(Buffer.from(packed.specGzipBase64, 'base64')).toString('utf8');
  } catch (err) {
    throw new McpConfigError([`${source}.specGzipBase64: expected gzipped JSON in base64, got data that does not decompress (${(err as Error).message})`]);
  }
  const staticValue = parseJsonText(staticText, `${source}.specGzipBase64`);
  if (staticValue.problem) throw new McpConfigError([staticValue.problem]);
  const slotProblems: string[] = [];
  const used = new Set<number>();
  const fill = (value: unknown, path: string): unknown => {
    if (Array.isArray(value)) return value.map((v, i) => fill(v, `${path}[${i}]`));
    if (!value || typeof value !== 'object') return value;
    const keys = Object.keys(value);
    const slot = keys.length === 1 ? keys[0] : undefined;
    if (slot === MCP_PACKED_SPEC_SLOT.STRING || slot === MCP_PACKED_SPEC_SLOT.NUMBER) {
      const i = (value as Record<string, unknown>)[slot];
      if (typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= packed.values.length) {
        slotProblems.push(`${path}: expected a slot index from 0 to ${packed.values.length - 1} (values), got ${JSON.stringify(i)}`);
        return undefined;
      }
      used.add(i);
      // A number resolves to its decimal text; anything else is left for the spec's schema to refuse.
      const resolved = packed.values[i];
      return slot === MCP_PACKED_SPEC_SLOT.NUMBER && /^-?\d+(\.\d+)?$/.test(resolved) ? Number(resolved) : resolved;
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, path ? `${path}.${k}` : k)]));
  };
  const spec = fill(staticValue.value, '');
  if (used.size !== packed.values.length) slotProblems.push(`${source}.values: got ${packed.values.length} values, of which ${used.size} are used by the spec`);
  if (slotProblems.length > 0) throw new McpConfigError(slotProblems.map((p) => (p.startsWith(source) ? p : `${source}.${p}`)));
  const problems = contractProblems(McpServerSpecSchema, spec, { source });
  if (problems.length > 0) throw new McpConfigError(problems);
  return spec as McpServerSpec;
}

/**
 * The spec given inline to a function (`MCP_ENV.SPEC`), parsed with the contract's schema. The handle key is not in the
 * environment: the bundled handler reads it from the secret named by `MCP_ENV.HANDLE_KEY_SECRET_ARN` (see
 * ../lambda/mcp-server.ts, which reads its whole environment with `mcpServerFunctionConfigFromEnv`).
 */
export function mcpServerConfigFromEnv(env: Record<string, string | undefined> = process.env): SageMakerMcpServerConfig {
  const raw = env[MCP_ENV.SPEC];
  if (!raw) throw new McpConfigError([`${MCP_ENV.SPEC}: not set, expected the JSON server spec`]);
  return mcpServerSpecFromText(raw, MCP_ENV.SPEC);
}

/** What the bundled server function reads from its environment at a cold start. */
export interface McpServerFunctionConfig {
  /** The server spec given inline (`MCP_SERVER_SPEC`); none when it is in a secret. */
  readonly spec?: McpServerSpec;
  /** The secret holding the server spec (`MCP_SERVER_SPEC_SECRET_ARN`, what `McpToolServer` sets); none when inline. */
  readonly specSecretArn?: string;
  /** The secret holding the handle key (`MCP_HANDLE_KEY_SECRET_ARN`). */
  readonly handleKeySecretArn: string;
  /** The AgentCore Gateway targets it serves (`MCP_GATEWAY_TARGET_NAMES`); none when it is on no gateway. */
  readonly gatewayTargetNames: readonly string[];
}

/**
 * The bundled server function's whole environment in one parse with the contract's `McpServerFunctionEnvSchema`: a
 * misconfigured function fails its start with every problem at once, each naming the variable and what is expected
 * (`MCP_HANDLE_KEY_SECRET_ARN: expected the ARN of the Secrets Manager secret ..., but it is not set`).
 */
export function mcpServerFunctionConfigFromEnv(env: Record<string, string | undefined> = process.env): McpServerFunctionConfig {
  const parsed = parseContract(McpServerFunctionEnvSchema, env, { fail: (problems) => new McpConfigError(problems, 'the server function\'s environment') });
  return {
    ...(parsed[MCP_ENV.SPEC] !== undefined ? { spec: parsed[MCP_ENV.SPEC] } : {}),
    ...(parsed[MCP_ENV.SPEC_SECRET_ARN] !== undefined ? { specSecretArn: parsed[MCP_ENV.SPEC_SECRET_ARN] } : {}),
    handleKeySecretArn: parsed[MCP_ENV.HANDLE_KEY_SECRET_ARN],
    gatewayTargetNames: parsed[MCP_GATEWAY_ENV.TARGET_NAMES] ?? [],
  };
}
