/**
 * How every tool answers: `structuredContent` plus the same JSON as text (for clients that only read text), and
 * failures as `isError: true` with the `ToolError` shape of ../errors, so an agent can decide whether to retry.
 */
import * as z from 'zod';
import { ErrorContext, isTransient, redactForAgent, SageMakerMcpError, toToolError, ToolError } from '../../core/errors';

/** The result shape of `tools/call` (kept structural so this module does not depend on the SDK's types). */
export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** JSON-safe copy: bigint (Integral features beyond 2^53) as decimal strings, undefined fields dropped. */
export function jsonSafe<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))) as T;
}

/** Keys whose string values are failure reasons AWS (or a container) wrote: redacted like error messages. */
const FAILURE_KEYS = new Set(['failureReason']);

/**
 * Redacts (../errors `redactForAgent`: ARNs, account ids, signatures, key ids) the strings of `value` in place: every
 * string when `all`, else only those under FAILURE_KEYS. Walked without recursion (a model's JSON may nest deep).
 */
export function redactInPlace(value: unknown, all = false): void {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    const entries = node as Record<string, unknown>;
    for (const key of Object.keys(entries)) {
      const v = entries[key];
      if (typeof v === 'string') {
        if (all || FAILURE_KEYS.has(key)) entries[key] = redactForAgent(v);
      } else {
        stack.push(v);
      }
    }
  }
}

/**
 * A successful result: the JSON-safe data, with failure reasons (a failed endpoint's, pipeline step's or async job's)
 * redacted as errors are (docs/reliability.md), as `structuredContent` and its one text copy.
 */
export function toolResult(data: Record<string, unknown>): ToolResult {
  const safe = jsonSafe(data);
  redactInPlace(safe);
  return { content: [{ type: 'text', text: JSON.stringify(safe) }], structuredContent: safe };
}

/** A refusal by this server (not allow-listed, bad handle, bad value): never retryable. */
export class ToolRefusal extends Error {
  public readonly retryable = false;
  constructor(public readonly errorName: string, message: string) {
    super(message);
    this.name = errorName;
  }
}

/**
 * Any failure as a tool error. Library errors go through `toToolError`; other errors that say whether they are
 * `retryable` (refusals, bad handles, bad requests) keep their name; raw SDK errors of the control plane, DynamoDB or S3
 * keep their AWS error name and are retryable when `isTransient` says so.
 */
export function toolFailure(err: unknown, context: ErrorContext = {}): ToolResult {
  const e = (err ?? {}) as { name?: string; message?: string; retryable?: unknown; $metadata?: unknown };
  let error: ToolError;
  if (err instanceof SageMakerMcpError) {
    error = toToolError(err, context);
  } else if (typeof e.retryable === 'boolean' && e.$metadata === undefined) {
    error = { errorName: e.name ?? 'Error', message: e.message ?? String(err), retryable: e.retryable };
  } else if (e.$metadata !== undefined || e.name === 'TrainingRequestError') {
    error = { errorName: e.name ?? 'Error', message: e.message ?? String(err), retryable: isTransient(err) && e.name !== 'TrainingRequestError' };
  } else {
    error = toToolError(err, context);
  }
  return { content: [{ type: 'text', text: JSON.stringify(error) }], structuredContent: { ...error }, isError: true };
}

/** The schema of a tool error (documented in every tool description; not validated by the SDK for isError results). */
export const toolErrorSchema = z.object({
  errorName: z.string(),
  message: z.string(),
  retryable: z.boolean(),
  originalStatusCode: z.number().optional(),
  logStreamArn: z.string().optional(),
  correlationId: z.string().optional().describe('Quote it to the operator: the server logged the whole error under this id.'),
});

export const ERROR_NOTE = 'On failure the result has isError=true and {errorName, message, retryable, originalStatusCode?, logStreamArn?, correlationId}: '
  + 'retry only when retryable is true (DeadlineExceeded, throttling, 5xx); account ids, ARNs and signatures are redacted from messages, quote correlationId to the operator.';
