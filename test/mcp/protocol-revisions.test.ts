/**
 * The server answers clients pinned to each protocol revision it supports (MCP_PROTOCOL_REVISIONS: 2026-07-28,
 * sessionless, opened with `server/discover`; 2025-11-25, 2025-06-18 and 2025-03-26, opened with `initialize`), over
 * stateless streamable HTTP (the runtime's handler and the bundled Lambda behind a stand-in function URL), with the MCP
 * SDK's own client pinned to each: it lists and calls tools. Each answer is one JSON body unless the request asks for
 * progress (`_meta.progressToken`), then an SSE stream. Over stdio (the bundled CLI, spawned): a slow suite,
 * ./protocol-revisions-stdio.test.ts.
 */
import { createServer, Server } from 'http';
import { AddressInfo } from 'net';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { APIGatewayProxyStructuredResultV2, LambdaFunctionURLEvent } from 'aws-lambda';
import { setBundledServerEnv } from './bundled-server-lambda';
import { functionUrlEvent } from './function-url-event';
import { listAndCall, MODERN, pinnedClient } from './pinned-client';
import { LOCAL_CREDENTIALS } from '@cdk-sagemaker-mcp/test-stand-ins/local-aws';
import { ok, SageMakerRuntimeServer, start } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { SecretsManagerServer, startSecretsManagerServer } from '@cdk-sagemaker-mcp/test-stand-ins/secrets-manager-server';
import { GATEWAY_MCP_PROTOCOL_VERSIONS } from 'cdk-sagemaker-mcp-runtime/internal/contract';
import { createSageMakerMcpHandler, MCP_PROTOCOL_REVISIONS } from 'cdk-sagemaker-mcp-runtime/mcp';


let runtime: SageMakerRuntimeServer;
let secrets: SecretsManagerServer;
const servers: Server[] = [];
/** Content types of every answer to a POST, per front door. */
const answered: Record<string, string[]> = { runtime: [], lambda: [] };
const urls: Record<string, string> = {};
const saved = { ...process.env };

async function listen(name: string, server: Server): Promise<void> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  urls[name] = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

beforeAll(async () => {
  runtime = await start();
  secrets = await startSecretsManagerServer();
  runtime.setDefault('clf', ok([{ label: 'greeting', score: 0.97 }]));
  const c = runtime.clientConfig();
  const config = { region: c.region, credentials: { ...LOCAL_CREDENTIALS }, endpoints: { sagemakerRuntime: c.endpoint }, realtimeEndpoints: [{ name: 'clf' }] };

  // The runtime's handler on node:http (what the CLI's --http serves).
  const node = toNodeHandler(createSageMakerMcpHandler(config));
  await listen('runtime', createServer((req, res) => {
    const writeHead = res.writeHead.bind(res);
    res.writeHead = ((status: number, ...rest: any[]) => {
      if (req.method === 'POST') answered.runtime.push(String(res.getHeader('content-type') ?? (rest.find((r) => r && typeof r === 'object')?.['content-type'] ?? rest.find((r) => r && typeof r === 'object')?.['Content-Type'] ?? '')));
      return writeHead(status, ...rest);
    }) as typeof res.writeHead;
    void node(req, res);
  }));

  // The bundled Lambda handler behind a stand-in buffered function URL (assets/mcp/server.lambda: `npx projen bundle`).
  setBundledServerEnv({
    secretsEndpoint: secrets.endpoint,
    handleKeySecretArn: secrets.putSecret('mcp-handle-key', 'revisions-test-key'),
    spec: { realtimeEndpoints: [{ name: 'clf' }] },
    region: c.region,
    endpoints: { AWS_ENDPOINT_URL_SAGEMAKER_RUNTIME: c.endpoint },
  });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const handler = require('../../assets/mcp/server.lambda/index.js').handler as (e: LambdaFunctionURLEvent) => Promise<APIGatewayProxyStructuredResultV2>;
  await listen('lambda', createServer(async (req, res) => {
    const result = await handler(await functionUrlEvent(req));
    const headers = (result.headers ?? {}) as Record<string, string>;
    if (req.method === 'POST') answered.lambda.push(headers['content-type'] ?? '');
    res.writeHead(result.statusCode ?? 200, headers);
    res.end(result.isBase64Encoded ? Buffer.from(result.body ?? '', 'base64') : result.body);
  }));
});

afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  await runtime?.stop();
  await secrets?.stop();
  process.env = saved;
});

test('the revisions served are the four the server supports, newest first', () => {
  expect(MCP_PROTOCOL_REVISIONS).toEqual(['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26']);
});

test('the AgentCore Gateway\'s default supportedVersions (the contract\'s list) are exactly the revisions the server answers', () => {
  // McpGatewayProtocol.SUPPORTED_VERSIONS and addToGateway's check read GATEWAY_MCP_PROTOCOL_VERSIONS: a revision the
  // server stops answering (an SDK upgrade) or one added to the contract without a server must fail here.
  expect([...GATEWAY_MCP_PROTOCOL_VERSIONS]).toEqual([...MCP_PROTOCOL_REVISIONS]);
});

describe.each(['runtime', 'lambda'])('streamable HTTP (%s handler)', (door) => {
  test.each([...MCP_PROTOCOL_REVISIONS])('a client pinned to %s lists and calls tools, each answer one JSON body', async (revision) => {
    const client = pinnedClient(revision);
    const before = answered[door].length;
    await client.connect(new StreamableHTTPClientTransport(new URL(urls[door])));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(revision);
      expect(client.getProtocolEra()).toBe(revision === MODERN ? 'modern' : 'legacy');
      await listAndCall(client);
    } finally {
      await client.close();
    }
    const types = answered[door].slice(before).filter((t) => t !== '');
    expect(types.length).toBeGreaterThanOrEqual(3);
    for (const type of types) expect(type).toMatch(/^application\/json/);
  });

  test.each(['2025-06-18', '2025-03-26'])('a %s request that asks for progress is answered as an SSE stream', async (revision) => {
    // A 2025-era stateless server takes a request without a session: initialize is not required.
    const response = await fetch(urls[door], {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-protocol-version': revision },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'invoke_endpoint', arguments: { endpointName: 'clf', payload: { format: 'json', data: [1] } }, _meta: { progressToken: 'p1' } } }),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(await response.text()).toContain('greeting');
  });
});
