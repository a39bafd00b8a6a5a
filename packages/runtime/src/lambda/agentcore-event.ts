/**
 * Amazon Bedrock AgentCore Gateway Lambda-target invocations <-> one MCP `tools/call`, so the same MCP server (its
 * allow-lists, deadlines and redaction) answers them. Internal: not part of the jsii API.
 *
 * A gateway invokes the function with the tool's arguments as the event and names the tool in the client context,
 * `context.clientContext.custom.bedrockAgentCoreToolName`, as `<target>___<tool>`, beside the gateway id, target id,
 * message version, request id and MCP message id
 * (https://docs.aws.amazon.com/bedrock-agentcore/latest/devguide/gateway-add-target-lambda.html#gateway-building-lambda-input,
 * https://docs.aws.amazon.com/bedrock-agentcore/latest/devguide/gateway-tool-naming.html). The function returns JSON the
 * gateway parses; here that is the MCP `CallToolResult` (`content`, `structuredContent`, `isError`).
 */
import type { Context } from 'aws-lambda';
import { AGENTCORE_CONTEXT_KEYS, MCP_GATEWAY_TOOL_DELIMITER } from '../contract/mcp';

/** The stateless protocol revision the call is made in: no initialize round trip, one JSON response. */
const PROTOCOL_VERSION = '2026-07-28';

/** One AgentCore Gateway Lambda-target invocation. */
export interface AgentCoreInvocation {
  /** `<target>___<tool>` as the gateway sent it. */
  readonly qualifiedName: string;
  /** The target name (before the first `___`); empty when the name has no prefix. */
  readonly targetName: string;
  /** The tool name with the target prefix stripped. */
  readonly toolName: string;
  readonly gatewayId?: string;
  readonly targetId?: string;
  readonly mcpMessageId?: string;
  readonly messageVersion?: string;
  /** The event: the tool's arguments. */
  readonly arguments: Record<string, unknown>;
}

/** The MCP `CallToolResult` the function returns to the gateway. */
export interface AgentCoreToolResult {
  readonly content: Array<{ readonly type: string; readonly text?: string }>;
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
}

/** The invocation when `context` carries AgentCore's client context (the tool name), else undefined. */
export function agentCoreInvocation(event: unknown, context?: Context): AgentCoreInvocation | undefined {
  const custom = (context?.clientContext as { custom?: Record<string, unknown> } | undefined)?.custom;
  const qualified = custom?.[AGENTCORE_CONTEXT_KEYS.TOOL_NAME];
  if (typeof qualified !== 'string') return undefined;
  const at = qualified.indexOf(MCP_GATEWAY_TOOL_DELIMITER);
  const str = (key: string) => (typeof custom?.[key] === 'string' ? custom[key] as string : undefined);
  return {
    qualifiedName: qualified,
    targetName: at < 0 ? '' : qualified.slice(0, at),
    toolName: at < 0 ? qualified : qualified.slice(at + MCP_GATEWAY_TOOL_DELIMITER.length),
    gatewayId: str(AGENTCORE_CONTEXT_KEYS.GATEWAY_ID),
    targetId: str(AGENTCORE_CONTEXT_KEYS.TARGET_ID),
    mcpMessageId: str(AGENTCORE_CONTEXT_KEYS.MCP_MESSAGE_ID),
    messageVersion: str(AGENTCORE_CONTEXT_KEYS.MESSAGE_VERSION),
    arguments: typeof event === 'object' && event !== null && !Array.isArray(event) ? event as Record<string, unknown> : {},
  };
}

/** The web Request of the MCP `tools/call` the invocation stands for (2026-07-28 stateless revision). */
export function agentCoreToolCallRequest(invocation: AgentCoreInvocation): Request {
  const body = {
    jsonrpc: '2.0',
    id: invocation.mcpMessageId ?? 1,
    method: 'tools/call',
    params: {
      name: invocation.toolName,
      arguments: invocation.arguments,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': PROTOCOL_VERSION,
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'bedrock-agentcore-gateway', version: invocation.messageVersion ?? '1.0' },
      },
    },
  };
  return new Request('https://bedrock-agentcore-gateway.invalid/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'accept': 'application/json, text/event-stream',
      'mcp-protocol-version': PROTOCOL_VERSION,
      'mcp-method': 'tools/call',
      'mcp-name': invocation.toolName,
    },
    body: JSON.stringify(body),
  });
}

/**
 * A tool name as MCP advises them (https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names:
 * 1-128 characters, ASCII letters, digits, `_`, `-` and `.`). Every tool this server registers matches it; anything else
 * (CR/LF, NUL, zero-width or look-alike Cyrillic letters) is no tool of this server, and must not reach a request header.
 */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
/** Deepest nesting of arguments accepted (every tool's own schema is a few levels deep; a JSON payload may nest more). */
export const MAX_ARGUMENT_DEPTH = 64;
/** Most values (objects, arrays, scalars) in the arguments accepted: bounds the time the schema check may take. */
export const MAX_ARGUMENT_VALUES = 200_000;

/**
 * Why the invocation cannot be a tool call of this server, as the tool error to answer, or undefined: a tool name
 * outside the MCP pattern (ToolNotServed), arguments nested deeper than MAX_ARGUMENT_DEPTH or with more than
 * MAX_ARGUMENT_VALUES values (InvalidArguments; walked without recursion, so no depth overflows the stack).
 */
export function agentCoreProblem(invocation: AgentCoreInvocation): AgentCoreToolResult | undefined {
  if (!TOOL_NAME.test(invocation.toolName)) {
    return agentCoreRefusal('ToolNotServed', `Tool ${JSON.stringify(invocation.qualifiedName.slice(0, 300))} is not served here: a tool name `
      + 'is 1-128 ASCII letters, digits, "_", "-" or "." after the "<target>___" prefix.');
  }
  const stack: Array<[unknown, number]> = [[invocation.arguments, 1]];
  let values = 0;
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (++values > MAX_ARGUMENT_VALUES) {
      return agentCoreRefusal('InvalidArguments', `The arguments hold more than ${MAX_ARGUMENT_VALUES} values; send fewer (or use start_async_inference for large inputs).`);
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_ARGUMENT_DEPTH) {
      return agentCoreRefusal('InvalidArguments', `The arguments nest deeper than ${MAX_ARGUMENT_DEPTH} levels; no tool of this server takes that.`);
    }
    for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
  return undefined;
}

/**
 * The answer to an event that is neither HTTP (function URL, API Gateway) nor an AgentCore invocation (no client context
 * naming the tool), e.g. a direct `lambda invoke` with a hand-written payload: a tool error, not a TypeError.
 */
export function unservedEventRefusal(event: unknown): AgentCoreToolResult | undefined {
  const e = (typeof event === 'object' && event !== null ? event : {}) as { httpMethod?: unknown; requestContext?: { http?: { method?: unknown } } };
  if (typeof e.httpMethod === 'string' || typeof e.requestContext?.http?.method === 'string') return undefined;
  return agentCoreRefusal('ToolNotServed', 'This invocation names no tool: the function answers Lambda function URL and API Gateway '
    + `events, and AgentCore Gateway invocations whose client context names the tool (custom.${AGENTCORE_CONTEXT_KEYS.TOOL_NAME}).`);
}

/** A refusal in the shape of every other tool failure (errorName, message, retryable). */
export function agentCoreRefusal(errorName: string, message: string): AgentCoreToolResult {
  const error = { errorName, message, retryable: false };
  return { content: [{ type: 'text', text: JSON.stringify(error) }], structuredContent: error, isError: true };
}

/**
 * The tool result in the MCP server's response. A JSON-RPC error (an unknown tool, arguments that are not an object)
 * becomes a non-retryable tool failure; anything else (a non-JSON answer) throws: a bug the Errors alarm should see.
 */
export async function responseToAgentCoreResult(response: Response): Promise<AgentCoreToolResult> {
  const text = await response.text();
  let message: { result?: AgentCoreToolResult & { resultType?: unknown; _meta?: unknown }; error?: { code?: number; message?: string } };
  try {
    message = JSON.parse(text);
  } catch {
    throw new Error(`The MCP server answered the AgentCore tool call with HTTP ${response.status} and a body that is not JSON: ${text.slice(0, 200)}`);
  }
  if (message.error) {
    const name = message.error.code === -32602 && /not found/i.test(message.error.message ?? '') ? 'UnknownTool' : 'InvalidRequest';
    return agentCoreRefusal(name, message.error.message ?? `JSON-RPC error ${message.error.code}`);
  }
  if (!message.result) throw new Error(`The MCP server answered the AgentCore tool call with HTTP ${response.status} and neither result nor error`);
  const { resultType: _resultType, _meta, ...result } = message.result;
  return result;
}
