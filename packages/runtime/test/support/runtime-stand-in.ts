/**
 * The SageMaker runtime stand-in alone, started once per test file, with a tool-server config whose one realtime
 * endpoint it serves: for tests of the server's HTTP entry that need no other service.
 */
import { SageMakerRuntimeServer, start } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { createSageMakerMcpHandler, SageMakerMcpServerConfig } from 'cdk-sagemaker-mcp-runtime/mcp';

export interface RuntimeStandIn {
  readonly server: SageMakerRuntimeServer;
  readonly config: SageMakerMcpServerConfig;
}

/** Starts the stand-in before the file's tests and stops it after them; read `server` and `config` inside a test. */
export function useRuntimeStandIn(endpointName: string, extra: Partial<SageMakerMcpServerConfig> = {}): RuntimeStandIn {
  const env = {} as { server: SageMakerRuntimeServer; config: SageMakerMcpServerConfig };
  beforeAll(async () => {
    env.server = await start();
    const c = env.server.clientConfig();
    env.config = {
      region: c.region,
      credentials: c.credentials,
      endpoints: { sagemakerRuntime: c.endpoint },
      realtimeEndpoints: [{ name: endpointName }],
      ...extra,
    };
  });
  afterAll(() => env.server.stop());
  return env;
}

/** The `_meta` a 2026-07-28 request carries in place of the initialize handshake. */
export function modernMeta(clientName: string): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: clientName, version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
}

/**
 * One POST of `body` to a fresh HTTP handler for `config` (closed after), with the headers a streamable-HTTP client
 * sends plus `headers`.
 */
export async function postToHandler(
  config: SageMakerMcpServerConfig, body: unknown, headers: Record<string, string> = {},
): Promise<{ status: number; json: any }> {
  const handler = createSageMakerMcpHandler(config);
  try {
    const response = await handler.fetch(new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    }));
    return { status: response.status, json: await response.json() };
  } finally {
    await handler.close();
  }
}

/** The headers of a 2026-07-28 `tools/call` of `tool`. */
export const modernCallHeaders = (tool: string): Record<string, string> =>
  ({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': tool });
