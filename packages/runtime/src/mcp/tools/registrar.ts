/**
 * How a tool is registered, and the one wrapper every tool runs in.
 *
 * `ToolRegistrar` is the structural view of `McpServer.registerTool` the tool modules write to, so they stay testable
 * and the SDK's types stay at one edge. A tool may declare its own `deadlineMs` there (data, not an import: see
 * ./invoke-tools); `wrapTools` strips it before the SDK sees the config.
 *
 * `wrapTools` gives each tool, in one callback:
 * - its arguments parsed with its own zod schema, so an invalid call fails like every other failure (`InvalidArguments`,
 *   redacted, logged). Why not the SDK's validation: `McpServer` (2.4) answers an invalid call with a plain-text result
 *   built by its private `createToolError`, with no option to shape it; its public input type, a Standard Schema, lets
 *   the tool advertise its JSON Schema unchanged while accepting any value;
 * - its JSON Schemas converted once per process. Why not the SDK's cache: `McpServer` caches them per instance, and the
 *   stateless HTTP entry builds an instance per request (the SDK refuses an instance still serving);
 * - a deadline (../../core/deadline `withDeadline`: the context's clients are aborted when it passes, and the call
 *   answers a retryable `DeadlineExceeded` at that moment);
 * - its outcome reported (`config.onToolCall`), and a failure logged whole under a correlation id while the agent gets
 *   it redacted (../../core/errors `redactForAgent`) with the id to quote; `structuredContent` on errors only for
 *   2026-07-28 clients (2025-era SDK clients validate it against the output schema even when `isError` is set).
 */
import { randomUUID } from 'crypto';
import type * as z from 'zod';
import type { ToolContext } from './context';
import { ToolRefusal, toolFailure, ToolResult } from './results';
import { tryParseContract } from '../../contract/parse';
import { DEFAULT_TOOL_DEADLINE_MS } from '../../core/bounded';
import { DeadlineExceededError, withDeadline } from '../../core/deadline';
import { maskAccount, redactForAgent, redactSigning } from '../../core/errors';

export interface ToolConfig {
  title?: string;
  description?: string;
  inputSchema?: z.ZodType;
  outputSchema?: z.ZodType;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
  /** This tool's deadline when not the server's `toolDeadlineMs` (`toolDeadlines` still overrides it). */
  deadlineMs?: number;
}

/** Minimal structural view of McpServer.registerTool, so tools stay testable and the SDK types stay at one edge. */
export interface ToolRegistrar {
  registerTool(name: string, config: ToolConfig, cb: (args: any, ctx: any) => Promise<ToolResult>): unknown;
}

/** The deadline of one call of tool `name` under `config`; `declaredMs` is the tool's own (`ToolConfig.deadlineMs`). */
export function toolDeadlineMs(config: ToolContext['config'], name: string, declaredMs?: number): number {
  return config.toolDeadlines?.[name] ?? declaredMs ?? config.toolDeadlineMs ?? DEFAULT_TOOL_DEADLINE_MS;
}

export interface WrapToolsOptions {
  /** Errors carry `structuredContent` (2026-07-28 clients). @default false */
  readonly structuredErrors?: boolean;
  /** Register this tool alone (a request that names the one tool it calls). @default - every tool */
  readonly only?: string;
}

/** Registers each tool on `server` inside the one wrapper described above. */
export function wrapTools(server: ToolRegistrar, ctx: ToolContext, options: WrapToolsOptions = {}): ToolRegistrar {
  return {
    registerTool: (name, config, cb) => {
      if (options.only !== undefined && name !== options.only) return undefined;
      const { deadlineMs: declared, inputSchema, outputSchema, ...rest } = config;
      const limit = toolDeadlineMs(ctx.config, name, declared);
      return server.registerTool(name, {
        ...rest,
        ...(inputSchema ? { inputSchema: advertisedOnly(inputSchema) } : {}),
        ...(outputSchema ? { outputSchema: cachedJsonSchema(outputSchema, outputSchema['~standard'].validate) } : {}),
      }, async (args, extra) => {
        const started = Date.now();
        let signal: AbortSignal | undefined;
        let result: ToolResult;
        try {
          result = await withDeadline(`Tool ${name}`, limit, (s) => {
            signal = s;
            if (!inputSchema) return cb(args, extra);
            const { data, problems } = tryParseContract(inputSchema, args ?? {}, { source: 'arguments' });
            if (problems) throw new ToolRefusal('InvalidArguments', `Invalid arguments for tool ${name}: ${problems.join('; ')}`);
            return cb(data, extra);
          });
        } catch (err) {
          result = toolFailure(err);
        }
        // A tool that caught the abort itself answered with that; the deadline is the truth.
        if (result.isError && signal?.aborted && signal.reason instanceof DeadlineExceededError) result = toolFailure(signal.reason);
        reportOutcome(ctx, name, result, Date.now() - started);
        if (!result.isError) return result;
        const failure = agentFacingFailure(ctx, name, result);
        if (options.structuredErrors) return failure;
        const { structuredContent: _omitted, ...textOnly } = failure;
        return textOnly;
      });
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Schemas: advertised as Standard Schemas (https://standardschema.dev) whose JSON Schema is converted once per process

/** The parts of Standard Schema the MCP SDK reads. */
interface StandardSchemaProps {
  readonly version: 1;
  readonly vendor: string;
  readonly validate: (value: unknown) => unknown;
  readonly jsonSchema?: {
    readonly input: (options: { target: string }) => Record<string, unknown>;
    readonly output: (options: { target: string }) => Record<string, unknown>;
  };
}

const cachedByValidation = new WeakMap<object, WeakMap<object, z.ZodType>>();

/**
 * `schema` as a Standard Schema validating with `validate` whose JSON Schema conversions are computed once per target.
 * One object per (module-level, immutable) schema and validation, so nothing of a request is kept.
 */
function cachedJsonSchema(schema: z.ZodType, validate: (value: unknown) => unknown): z.ZodType {
  let byValidate = cachedByValidation.get(schema);
  if (!byValidate) cachedByValidation.set(schema, (byValidate = new WeakMap()));
  const hit = byValidate.get(validate);
  if (hit) return hit;
  const std = (schema as unknown as { '~standard': StandardSchemaProps })['~standard'];
  const json = std.jsonSchema;
  const memo = (convert: (options: { target: string }) => Record<string, unknown>) => {
    const byTarget = new Map<string, Record<string, unknown>>();
    return (o: { target: string }) => {
      const key = JSON.stringify(o ?? {});
      let result = byTarget.get(key);
      if (!result) byTarget.set(key, (result = convert(o)));
      return result;
    };
  };
  const wrapped = {
    '~standard': {
      version: 1 as const,
      vendor: std.vendor,
      validate,
      ...(json ? { jsonSchema: { input: memo((o) => json.input(o)), output: memo((o) => json.output(o)) } } : {}),
    },
  } as unknown as z.ZodType;
  byValidate.set(validate, wrapped);
  return wrapped;
}

/** Accepts any value: the wrapper parses with the tool's zod schema itself. */
const acceptAny = (value: unknown) => ({ value });

/** The tool's input schema as advertised (its JSON Schema unchanged), validation left to the wrapper. */
function advertisedOnly(schema: z.ZodType): z.ZodType {
  return cachedJsonSchema(schema, acceptAny);
}

// ---------------------------------------------------------------------------------------------------------------
// Failures and outcomes

/** One JSON line on stderr: stdout carries the stdio transport. */
function stderrLog(entry: Record<string, unknown>): void {
  process.stderr.write(`${JSON.stringify({ level: 'error', message: 'MCP tool call failed', ...entry })}\n`);
}

/** The failure the agent sees: redacted, with a correlation id; the whole failure goes to the log under that id. */
export function agentFacingFailure(ctx: ToolContext, tool: string, result: ToolResult): ToolResult {
  const error = { ...(result.structuredContent ?? safeParse(result.content[0]?.text)) } as Record<string, unknown>;
  const correlationId = randomUUID();
  try {
    // The log keeps ARNs and account ids for the operator, never signing material (../../core/errors redactSigning).
    const logged = Object.fromEntries(Object.entries(error).map(([k, v]) => [k, typeof v === 'string' ? redactSigning(v) : v]));
    (ctx.config.log ?? stderrLog)({ tool, correlationId, caller: ctx.caller, error: logged });
  } catch {
    // A failing log sink must not turn an answer into a crash.
  }
  const redacted: Record<string, unknown> = { ...error, correlationId };
  if (typeof error.message === 'string') redacted.message = redactForAgent(error.message);
  if (typeof error.logStreamArn === 'string') redacted.logStreamArn = maskAccount(error.logStreamArn);
  return { content: [{ type: 'text', text: JSON.stringify(redacted) }], structuredContent: redacted, isError: true };
}

function safeParse(text: string | undefined): Record<string, unknown> {
  try {
    return JSON.parse(text ?? '{}');
  } catch {
    return { errorName: 'Error', message: text ?? '', retryable: false };
  }
}

/** Tells `config.onToolCall` (metrics) how the call went: the tool's name and outcome only. */
function reportOutcome(ctx: ToolContext, tool: string, result: ToolResult, durationMs: number): void {
  if (!ctx.config.onToolCall) return;
  const errorName = result.isError ? (result.structuredContent ?? safeParse(result.content[0]?.text)).errorName : undefined;
  try {
    ctx.config.onToolCall({ tool, ok: !result.isError, errorName: result.isError ? String(errorName ?? 'Error') : undefined, durationMs });
  } catch {
    // Metrics must not turn an answer into a crash.
  }
}
