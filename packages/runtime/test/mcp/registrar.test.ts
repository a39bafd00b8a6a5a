/**
 * A tool's deadline is data: `invoke_endpoint` declares its own (its invoke deadline plus 2 s) when it registers, which
 * beats the server's `toolDeadlineMs`, and `toolDeadlines` beats both (packages/runtime/src/mcp/tools/registrar.ts).
 */
import { ok, SageMakerRuntimeServer, start } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { createSageMakerMcpHandler, SageMakerMcpServerConfig } from 'cdk-sagemaker-mcp-runtime/mcp';

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'registrar', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

let runtime: SageMakerRuntimeServer;
let base: SageMakerMcpServerConfig;

beforeAll(async () => {
  runtime = await start();
  const c = runtime.clientConfig();
  base = { region: c.region, credentials: c.credentials, endpoints: { sagemakerRuntime: c.endpoint }, realtimeEndpoints: [{ name: 'slow' }], log: () => undefined };
  // The endpoint answers long after every deadline below.
  runtime.setDefault('slow', ok([1], { delayMs: 3_000 }));
});
afterAll(() => runtime.stop());

/** The error message of one 2026-07-28 `tools/call invoke_endpoint` under `config`. */
async function invokeError(config: SageMakerMcpServerConfig): Promise<string> {
  const handler = createSageMakerMcpHandler(config);
  try {
    const response = await handler.fetch(new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'invoke_endpoint' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'invoke_endpoint', arguments: { endpointName: 'slow', payload: { format: 'json', data: [1] } }, _meta: MODERN_META } }),
    }));
    const body = await response.json() as { result: { isError?: boolean; structuredContent: { message: string } } };
    expect(body.result.isError).toBe(true);
    return body.result.structuredContent.message;
  } finally {
    await handler.close();
  }
}

test('invoke_endpoint\'s declared deadline beats toolDeadlineMs: its own invoke deadline answers', async () => {
  const message = await invokeError({ ...base, invokeDeadlineMs: 150, toolDeadlineMs: 50 });
  expect(message).toMatch(/did not answer within the 150 ms deadline/);
});

test('toolDeadlines beats the declared deadline', async () => {
  const message = await invokeError({ ...base, invokeDeadlineMs: 60_000, toolDeadlines: { invoke_endpoint: 150 } });
  expect(message).toMatch(/^Tool invoke_endpoint did not finish within its deadline of 150 ms/);
});
