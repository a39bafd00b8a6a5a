/**
 * A 2026-07-28 `tools/call` builds a server with only the tool its `Mcp-Name` header names (the SDK's HTTP entry
 * refuses a header that disagrees with `params.name` before the factory runs); every other request gets every tool.
 */
import { ok, SageMakerRuntimeServer, start } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { McpServer } from '@modelcontextprotocol/server';
import { createSageMakerMcpHandler, sageMakerMcpServerFactory, SageMakerMcpServerConfig } from 'cdk-sagemaker-mcp-runtime/mcp';

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'per-request-tools', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

let runtime: SageMakerRuntimeServer;
let config: SageMakerMcpServerConfig;

beforeAll(async () => {
  runtime = await start();
  const c = runtime.clientConfig();
  config = { region: c.region, credentials: c.credentials, endpoints: { sagemakerRuntime: c.endpoint }, realtimeEndpoints: [{ name: 'clf' }] };
});
afterAll(() => runtime.stop());

function request(headers: Record<string, string>): Request {
  return new Request('http://127.0.0.1/mcp', { method: 'POST', headers });
}

function registered(server: McpServer, names: string[]): string[] {
  return names.filter((n) => server.toolInputSchemaJson(n) !== undefined);
}

describe('tools registered per request', () => {
  const both = ['invoke_endpoint', 'describe_endpoint'];

  test('a modern tools/call registers only the tool its Mcp-Name header names', () => {
    const factory = sageMakerMcpServerFactory(config);
    const server = factory({ era: 'modern', requestInfo: request({ 'mcp-method': 'tools/call', 'mcp-name': 'invoke_endpoint' }) });
    expect(registered(server, both)).toEqual(['invoke_endpoint']);
  });

  test.each([
    ['a 2025-era request (headers unchecked)', { era: 'legacy' as const, requestInfo: request({ 'mcp-method': 'tools/call', 'mcp-name': 'invoke_endpoint' }) }],
    ['a modern tools/list', { era: 'modern' as const, requestInfo: request({ 'mcp-method': 'tools/list' }) }],
    ['a name this server does not serve', { era: 'modern' as const, requestInfo: request({ 'mcp-method': 'tools/call', 'mcp-name': 'delete_everything' }) }],
    ['no request at all (stdio, a bare McpServer)', {}],
  ])('%s registers every tool', (_what, build) => {
    expect(registered(sageMakerMcpServerFactory(config)(build), both)).toEqual(both);
  });

  test('a tools/call whose Mcp-Name header disagrees with params.name is refused, and the endpoint is never called', async () => {
    runtime.setDefault('clf', ok([1]));
    const before = runtime.requests.length;
    const handler = createSageMakerMcpHandler(config);
    try {
      // GIVEN a header naming describe_endpoint and a body calling invoke_endpoint
      const response = await handler.fetch(new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'describe_endpoint' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'invoke_endpoint', arguments: { endpointName: 'clf', payload: { format: 'json', data: [1] } }, _meta: MODERN_META } }),
      }));
      // THEN the SDK answers the header mismatch as a JSON-RPC error
      const body = await response.json() as { error?: { code: number } };
      expect(body.error?.code).toBe(-32020);
      expect(runtime.requests.length).toBe(before);
    } finally {
      await handler.close();
    }
  });

  test('a modern tools/call through the handler answers with its one tool', async () => {
    runtime.setDefault('clf', ok([{ label: 'greeting' }]));
    const handler = createSageMakerMcpHandler(config);
    try {
      const response = await handler.fetch(new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'invoke_endpoint' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'invoke_endpoint', arguments: { endpointName: 'clf', payload: { format: 'json', data: [1] } }, _meta: MODERN_META } }),
      }));
      const body = await response.json() as { result?: { structuredContent?: { json?: unknown } } };
      expect(body.result?.structuredContent?.json).toEqual([{ label: 'greeting' }]);
    } finally {
      await handler.close();
    }
  });
});
