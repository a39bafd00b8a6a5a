/**
 * JSON-RPC batches (an array body) through the tool server's HTTP handler, with the SageMaker runtime stand-in counting
 * the endpoint calls: refused before any call under every revision from 2025-06-18 on, bounded under 2025-03-26.
 */
import { ok } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { postToHandler, useRuntimeStandIn } from '../support/runtime-stand-in';

const env = useRuntimeStandIn('clf');

const invoke = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'invoke_endpoint', arguments: { endpointName: 'clf', payload: { format: 'json', data: [id] } } } });
const list = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list', params: {} });

async function post(body: unknown, version?: string): Promise<{ status: number; json: any; calls: number }> {
  env.server.setDefault('clf', ok([1]));
  const before = env.server.requests.length;
  const { status, json } = await postToHandler(env.config, body, version ? { 'mcp-protocol-version': version } : {});
  return { status, json, calls: env.server.requests.length - before };
}

describe('JSON-RPC batches', () => {
  test.each(['2025-06-18', '2025-11-25', '2026-07-28'])('under %s an array body is refused (400, -32600) and no endpoint is called', async (version) => {
    const { status, json, calls } = await post([invoke(1), invoke(2), invoke(3)], version);
    expect(status).toBe(400);
    expect(json).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining(`JSON-RPC batches are not part of MCP ${version}`) } });
    expect(calls).toBe(0);
  });

  test.each([['2025-03-26', '2025-03-26'], ['no version header (assumed 2025-03-26)', undefined]])(
    '%s: a batch of more than one tools/call is refused before any endpoint call', async (_what, version) => {
      const { status, json, calls } = await post([invoke(1), invoke(2), invoke(3)], version);
      expect(status).toBe(400);
      expect(json.error).toEqual({ code: -32600, message: expect.stringContaining('at most 10 messages and 1 tools/call (got 3 and 3)') });
      expect(calls).toBe(0);
    });

  test('2025-03-26: more than 10 messages are refused', async () => {
    const { status, json } = await post(Array.from({ length: 11 }, (_, i) => list(i + 1)), '2025-03-26');
    expect(status).toBe(400);
    expect(json.error.message).toContain('(got 11 and 0)');
  });

  test('2025-03-26: a batch within the bounds is served, each message answered', async () => {
    const { status, json, calls } = await post([invoke(1), list(2)], '2025-03-26');
    expect(status).toBe(200);
    expect(json.map((m: { id: number }) => m.id).sort()).toEqual([1, 2]);
    expect(calls).toBe(1);
  });

  test('a single message is not a batch: served under 2025-06-18 as before', async () => {
    const { status, json, calls } = await post(invoke(4), '2025-06-18');
    expect(status).toBe(200);
    expect(json.result.structuredContent.json).toEqual([1]);
    expect(calls).toBe(1);
  });
});
