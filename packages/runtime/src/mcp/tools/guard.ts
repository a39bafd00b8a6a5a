/**
 * What wraps every tool: a deadline (../bounded `withDeadline`: every SDK call of the context's clients is aborted when
 * it passes, and the call answers a retryable `DeadlineExceeded` error at that moment), and, for failures, a
 * correlation id: the whole error is logged with it, and the agent gets the error with account ids, ARNs and request
 * signatures redacted (../errors `redactForAgent`) plus the id to quote.
 */
import { randomUUID } from 'crypto';
import type { ToolContext } from './context';
import type { ToolRegistrar } from './invoke-tools';
import { toolFailure, ToolResult } from './results';
import { MCP_TOOL_NAMES } from '../../contract/mcp';
import { DEFAULT_TOOL_DEADLINE_MS } from '../../core/bounded';
import { DeadlineExceededError, withDeadline } from '../../core/deadline';
import { maskAccount, redactForAgent, redactSigning } from '../../core/errors';
import { DEFAULT_DEADLINE_MS as DEFAULT_INVOKE_DEADLINE_MS } from '../../invoke/invoke';

/** `invoke_endpoint` answers its own (more specific) deadline error first; the tool deadline is this much later. */
const INVOKE_DEADLINE_SLACK_MS = 2_000;

/** The deadline of one call of tool `name` under `config`. */
export function toolDeadlineMs(config: ToolContext['config'], name: string): number {
  const explicit = config.toolDeadlines?.[name];
  if (explicit !== undefined) return explicit;
  if (name === MCP_TOOL_NAMES.INVOKE_ENDPOINT) return (config.invokeDeadlineMs ?? DEFAULT_INVOKE_DEADLINE_MS) + INVOKE_DEADLINE_SLACK_MS;
  return config.toolDeadlineMs ?? DEFAULT_TOOL_DEADLINE_MS;
}

/** One JSON line on stderr: stdout carries the stdio transport. */
function stderrLog(entry: Record<string, unknown>): void {
  process.stderr.write(`${JSON.stringify({ level: 'error', message: 'MCP tool call failed', ...entry })}\n`);
}

/** The failure the agent sees: redacted, with a correlation id; the whole failure goes to the log under that id. */
export function agentFacingFailure(ctx: ToolContext, tool: string, result: ToolResult): ToolResult {
  const error = { ...(result.structuredContent ?? safeParse(result.content[0]?.text)) } as Record<string, unknown>;
  const correlationId = randomUUID();
  try {
    // The log keeps ARNs and account ids for the operator, never signing material (../errors redactSigning).
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

/** Registers each tool with its deadline, the agent-facing error shape, and its outcome reported (`onToolCall`). */
export function guardTools(server: ToolRegistrar, ctx: ToolContext): ToolRegistrar {
  return {
    registerTool: (name, config, cb) => server.registerTool(name, config, async (args, extra) => {
      const limit = toolDeadlineMs(ctx.config, name);
      const started = Date.now();
      let signal: AbortSignal | undefined;
      let result: ToolResult;
      try {
        result = await withDeadline(`Tool ${name}`, limit, (s) => {
          signal = s;
          return cb(args, extra);
        });
      } catch (err) {
        result = toolFailure(err);
      }
      // A tool that caught the abort itself answered with that; the deadline is the truth.
      if (result.isError && signal?.aborted && signal.reason instanceof DeadlineExceededError) result = toolFailure(signal.reason);
      reportOutcome(ctx, name, result, Date.now() - started);
      return result.isError ? agentFacingFailure(ctx, name, result) : result;
    }),
  };
}
