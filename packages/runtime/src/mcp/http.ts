/**
 * The stateless streamable HTTP entry of the tool server: the MCP SDK's `createMcpHandler` for 2026-07-28 requests and,
 * for 2025-era requests (2025-11-25, 2025-06-18, 2025-03-26), a per-request stateless transport of our own, so that
 * each answers one JSON body unless the request asks for progress.
 *
 * Why not the SDK's own legacy fallback: it builds its `WebStandardStreamableHTTPServerTransport` with the default
 * `enableJsonResponse: false`, so every 2025-era POST (even `tools/list`) is answered as `text/event-stream`. The 2025
 * transports let a server "either return Content-Type: text/event-stream ... or Content-Type: application/json"
 * (https://modelcontextprotocol.io/specification/2025-06-18/basic/transports#sending-messages-to-the-server): here a
 * request whose `params._meta.progressToken` is set (a client that wants progress notifications,
 * https://modelcontextprotocol.io/specification/2025-06-18/basic/utilities/progress) gets SSE, every other one a JSON
 * body. The 2026-07-28 path does the same on its own (`responseMode: 'auto'`: JSON unless a notification is sent).
 *
 * The body is read once, bounded like the SDK reads it, and handed to the SDK parsed (`parsedBody`), which then
 * neither clones nor reads the request again.
 */
import {
  createMcpHandler,
  CreateMcpHandlerOptions,
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  isJsonContentType,
  isLegacyRequest,
  McpHttpHandler,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { McpCallerAuthInfo } from './tools/caller';

/** What the server factory of ./mcp-server takes (structural here, so this module does not import that one). */
type Factory = (build?: { era?: 'legacy' | 'modern'; authInfo?: McpCallerAuthInfo; requestInfo?: Request }) => McpServer;
type FetchOptions = Parameters<McpHttpHandler['fetch']>[1];

function jsonRpcError(status: number, code: number, message: string, id: unknown = null): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id }, { status });
}

/** The request body as text, or `undefined` when it is larger than `maxBytes` (declared or actual). */
async function readBounded(request: Request, maxBytes: number): Promise<string | undefined> {
  if (Number(request.headers.get('content-length')) > maxBytes) return undefined;
  if (!request.body) return '';
  const reader = request.body.getReader();
  const decoder = new TextDecoder();
  let received = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    text += decoder.decode(value, { stream: true });
  }
}

/**
 * JSON-RPC batches. MCP 2025-06-18 removed them ("Remove support for JSON-RPC batching",
 * https://modelcontextprotocol.io/specification/2025-06-18/changelog), so an array body is refused (400, -32600) under
 * every revision from then on. 2025-03-26 still has them, and a server that sees no `MCP-Protocol-Version` header
 * "SHOULD assume protocol version 2025-03-26" (2025-06-18 transports, "Protocol Version Header"): those batches are
 * served, bounded as a whole, because every answer of a batch travels in one response and a Lambda response holds
 * at most 6 MB, while one tool answer may be 5 MB.
 */
export const MAX_BATCH_MESSAGES = 10;
/** At most this many `tools/call` requests in one (2025-03-26) batch. */
export const MAX_BATCH_TOOL_CALLS = 1;

/** Why an array body is refused, or undefined when it may be served. */
export function batchRefusal(body: unknown, protocolVersionHeader: string | null): string | undefined {
  if (!Array.isArray(body)) return undefined;
  const version = protocolVersionHeader?.trim();
  if (version && version !== '2025-03-26') {
    return `Invalid Request: JSON-RPC batches are not part of MCP ${version.slice(0, 40)} (removed in 2025-06-18); send one message per request`;
  }
  const calls = body.filter((m) => (m as { method?: unknown } | null)?.method === 'tools/call').length;
  if (body.length > MAX_BATCH_MESSAGES || calls > MAX_BATCH_TOOL_CALLS) {
    return `Invalid Request: a batch may hold at most ${MAX_BATCH_MESSAGES} messages and ${MAX_BATCH_TOOL_CALLS} tools/call `
      + `(got ${body.length} and ${calls}): every answer travels in one response; send the rest in further requests`;
  }
  return undefined;
}

/** Whether a (2025-era) message or batch asks for progress notifications. */
export function wantsProgress(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => {
    const meta = (m as { params?: { _meta?: { progressToken?: unknown } } } | null)?.params?._meta;
    return meta?.progressToken !== undefined && meta.progressToken !== null;
  });
}

/** 2025-era serving: a fresh server and stateless transport per POST, JSON unless the request wants progress. */
function legacyStateless(factory: Factory, onerror?: (error: Error) => void) {
  return async (request: Request, parsedBody: unknown, authInfo: NonNullable<FetchOptions>['authInfo']): Promise<Response> => {
    if (request.method.toUpperCase() !== 'POST') return jsonRpcError(405, -32000, 'Method not allowed.');
    try {
      const server = factory({ era: 'legacy', ...(authInfo ? { authInfo } : {}), requestInfo: request });
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: !wantsProgress(parsedBody),
      });
      await server.connect(transport);
      const teardown = () => {
        transport.close().catch(() => undefined);
        server.close().catch(() => undefined);
      };
      const response = await transport.handleRequest(request, { ...(authInfo ? { authInfo } : {}), parsedBody });
      if (!response.body || !(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
        teardown();
        return response;
      }
      // A stream: tear down once it has been read to the end (or cancelled).
      const reader = response.body.getReader();
      const body = new ReadableStream<Uint8Array>({
        pull: async (controller) => {
          try {
            const { done, value } = await reader.read();
            if (done) {
              teardown();
              controller.close();
            } else {
              controller.enqueue(value);
            }
          } catch (error) {
            teardown();
            controller.error(error);
          }
        },
        cancel: (reason) => {
          teardown();
          return reader.cancel(reason).catch(() => undefined);
        },
      });
      return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    } catch (error) {
      try {
        onerror?.(error instanceof Error ? error : new Error(String(error)));
      } catch {
        // a failing error sink does not change the answer
      }
      return jsonRpcError(500, -32603, 'Internal server error', (parsedBody as { id?: unknown } | undefined)?.id ?? null);
    }
  };
}

/**
 * A web-standard `{ fetch }` handler serving every supported protocol revision statelessly from one server factory.
 * `options.legacy` is ignored: 2025-era requests are always served (statelessly).
 */
export function statelessMcpHttpHandler(factory: Factory, options: CreateMcpHandlerOptions = {}): McpHttpHandler {
  const maxBytes = options.maxRequestBodySize ?? DEFAULT_MAX_REQUEST_BODY_SIZE;
  const modern = createMcpHandler(factory, { ...options, legacy: 'reject' });
  const legacy = legacyStateless(factory, options.onerror);
  const fetch: McpHttpHandler['fetch'] = async (request, requestOptions) => {
    const authInfo = requestOptions?.authInfo;
    if (request.method.toUpperCase() !== 'POST') {
      return (await isLegacyRequest(request)) ? legacy(request, undefined, authInfo) : modern.fetch(request, requestOptions);
    }
    // The SDK answers a non-JSON content type (415) before it reads anything.
    if (!isJsonContentType(request.headers.get('content-type'))) return modern.fetch(request, requestOptions);
    let parsedBody = requestOptions?.parsedBody;
    if (parsedBody === undefined) {
      let text: string | undefined;
      try {
        text = await readBounded(request, maxBytes);
      } catch {
        return jsonRpcError(400, -32700, 'Parse error: the request body could not be read');
      }
      if (text === undefined) return jsonRpcError(413, -32000, `Payload Too Large: Request body must not exceed ${maxBytes} bytes`);
      try {
        parsedBody = text.length ? JSON.parse(text) : undefined;
      } catch {
        parsedBody = undefined;
      }
      if (parsedBody === undefined) return jsonRpcError(400, -32700, 'Parse error: Invalid JSON');
    }
    const refusal = batchRefusal(parsedBody, request.headers.get('mcp-protocol-version'));
    if (refusal) return jsonRpcError(400, -32600, refusal);
    return (await isLegacyRequest(request, parsedBody))
      ? legacy(request, parsedBody, authInfo)
      : modern.fetch(request, { ...requestOptions, parsedBody });
  };
  return { ...modern, fetch };
}
