/**
 * A 2026-07-28 `tools/call` builds a server with only the tool its `Mcp-Name` header names (the SDK's HTTP entry
 * refuses a header that disagrees with `params.name` before the factory runs); every other request gets every tool.
 */
import { ok } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { McpServer } from '@modelcontextprotocol/server';
import { modernCallHeaders, modernMeta, postToHandler, useRuntimeStandIn } from '../support/runtime-stand-in';
import { sageMakerMcpServerFactory } from 'cdk-sagemaker-mcp-runtime/mcp';

const MODERN_META = modernMeta('per-request-tools');
const callInvoke = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'invoke_endpoint', arguments: { endpointName: 'clf', payload: { format: 'json', data: [1] } }, _meta: MODERN_META },
});

const env = useRuntimeStandIn('clf');

function request(headers: Record<string, string>): Request {
  return new Request('http://127.0.0.1/mcp', { method: 'POST', headers });
}

function registered(server: McpServer, names: string[]): string[] {
  return names.filter((n) => server.toolInputSchemaJson(n) !== undefined);
}

describe('tools registered per request', () => {
  const both = ['invoke_endpoint', 'describe_endpoint'];

  test('a modern tools/call registers only the tool its Mcp-Name header names', () => {
    const factory = sageMakerMcpServerFactory(env.config);
    const server = factory({ era: 'modern', requestInfo: request({ 'mcp-method': 'tools/call', 'mcp-name': 'invoke_endpoint' }) });
    expect(registered(server, both)).toEqual(['invoke_endpoint']);
  });

  test.each([
    ['a 2025-era request (headers unchecked)', { era: 'legacy' as const, requestInfo: request({ 'mcp-method': 'tools/call', 'mcp-name': 'invoke_endpoint' }) }],
    ['a modern tools/list', { era: 'modern' as const, requestInfo: request({ 'mcp-method': 'tools/list' }) }],
    ['a name this server does not serve', { era: 'modern' as const, requestInfo: request({ 'mcp-method': 'tools/call', 'mcp-name': 'delete_everything' }) }],
    ['no request at all (stdio, a bare McpServer)', {}],
  ])('%s registers every tool', (_what, build) => {
    expect(registered(sageMakerMcpServerFactory(env.config)(build), both)).toEqual(both);
  });

  test('a tools/call whose Mcp-Name header disagrees with params.name is refused, and the endpoint is never called', async () => {
    env.server.setDefault('clf', ok([1]));
    const before = env.server.requests.length;
    // GIVEN a header naming describe_endpoint and a body calling invoke_endpoint
    const { json } = await postToHandler(env.config, callInvoke(7), modernCallHeaders('describe_endpoint'));
    // THEN the SDK answers the header mismatch as a JSON-RPC error
    expect(json.error?.code).toBe(-32020);
    expect(env.server.requests.length).toBe(before);
  });

  test('a modern tools/call through the handler answers with its one tool', async () => {
    env.server.setDefault('clf', ok([{ label: 'greeting' }]));
    const { json } = await postToHandler(env.config, callInvoke(8), modernCallHeaders('invoke_endpoint'));
    expect(json.result?.structuredContent?.json).toEqual([{ label: 'greeting' }]);
  });
});
