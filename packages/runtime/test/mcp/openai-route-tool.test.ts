/**
 * `invoke_endpoint` on an endpoint whose spec entry says `openAiRoute` (a vLLM container): chat-shaped calls go
 * through SageMaker's OpenAI-compatible route with a bearer token, streamed as MCP progress when the client asks;
 * other payloads, and endpoints without the flag, keep InvokeEndpoint. The route stand-in and the SageMaker runtime
 * stand-in sit behind one local host, as both paths are on the runtime host
 * (https://docs.aws.amazon.com/sagemaker/latest/dg/realtime-endpoints-openai-compatible.html).
 */
import { createServer, request as httpRequest, Server } from 'http';
import { AddressInfo } from 'net';
import { noCapacity, OpenAiRouteServer, startOpenAiRouteServer } from '@cdk-sagemaker-mcp/test-stand-ins/openai-route-server';
import { ok, RUNTIME_CREDENTIALS, RUNTIME_REGION, SageMakerRuntimeServer, start } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { McpHttpSession, startMcpHttpSession } from '../support/mcp-session';

let route: OpenAiRouteServer;
let runtime: SageMakerRuntimeServer;
let host: Server;
let session: McpHttpSession;
const logged: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  route = await startOpenAiRouteServer({
    region: RUNTIME_REGION, endpoints: { 'chat-vllm': {}, 'shared': { components: ['qwen'] } }, rejectModelName: true,
  });
  runtime = await start();
  // One host: the OpenAI-compatible paths to the route stand-in, everything else to the runtime stand-in.
  host = createServer((req, res) => {
    const target = new URL(/\/openai\/v1\//.test(req.url ?? '') ? route.url : runtime.endpoint);
    const upstream = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  session = await startMcpHttpSession({
    region: RUNTIME_REGION,
    credentials: RUNTIME_CREDENTIALS,
    log: (entry) => logged.push(entry),
    endpoints: { sagemakerRuntime: `http://127.0.0.1:${(host.address() as AddressInfo).port}` },
    realtimeEndpoints: [
      { name: 'chat-vllm', openAiRoute: true, description: 'Qwen on vLLM' },
      { name: 'shared', inferenceComponents: ['qwen'], openAiRoute: true },
      { name: 'chat-tgi', modelFamily: 'tgi' },
    ],
  }, 'openai-route');
});

afterAll(async () => {
  await session?.close();
  host.closeAllConnections();
  await new Promise<void>((resolve) => host.close(() => resolve()));
  await runtime?.stop();
  await route?.stop();
});

beforeEach(() => {
  route.requests.splice(0);
  runtime.clear();
});

test('a prompt to a vLLM endpoint goes through the route, with a bearer token and an empty model', async () => {
  const result = await session.call('invoke_endpoint', { endpointName: 'chat-vllm', payload: { format: 'prompt', prompt: 'hello there', system: 'Be brief.', maxNewTokens: 64 } });
  expect(result.isError).toBeFalsy();
  expect(result.structuredContent).toMatchObject({ endpointName: 'chat-vllm', generatedText: 'You said: hello there', attempts: 1 });
  expect(route.requests).toHaveLength(1);
  expect(route.requests[0].body).toEqual({
    model: '', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hello there' }], max_tokens: 64, stream: false,
  });
  expect(String(route.requests[0].headers.authorization)).toMatch(/^Bearer sagemaker-api-key-[A-Za-z0-9+/]+=*$/);
  expect(runtime.requestsFor('chat-vllm')).toHaveLength(0);
});

test('a Chat Completions json body to an inference component goes through the route, streamed as progress when asked', async () => {
  const notes: Array<{ progress: number; message?: string }> = [];
  const result: any = await session.client.callTool({
    name: 'invoke_endpoint',
    arguments: { endpointName: 'shared', inferenceComponentName: 'qwen', payload: { format: 'json', data: { messages: [{ role: 'user', content: 'one two' }] } } },
  }, { onprogress: (p) => notes.push(p) });
  expect(result.isError).toBeFalsy();
  expect(result.structuredContent.generatedText).toBe('You said: one two');
  expect(route.requests[0]).toMatchObject({ inferenceComponentName: 'qwen', body: { stream: true } });
  expect(notes.map((n) => n.message).join('')).toBe('You said: one two');
  expect(notes.map((n) => n.progress)).toEqual([1, 2, 3, 4]);
});

test('a component scaled to zero comes back as a retryable error', async () => {
  route.script('shared/qwen', noCapacity('qwen'), noCapacity('qwen'), noCapacity('qwen'));
  const result = await session.call('invoke_endpoint', { endpointName: 'shared', inferenceComponentName: 'qwen', payload: { format: 'prompt', prompt: 'hi' } });
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toMatchObject({ errorName: 'TransientEndpointError', retryable: true });
  // The server logs the failure whole, but a bearer token never reaches a log.
  expect(logged.length).toBeGreaterThan(0);
  expect(JSON.stringify(logged)).not.toContain('sagemaker-api-key-');
});

test('other payloads on the route endpoint, and every call to a TGI endpoint, keep InvokeEndpoint', async () => {
  runtime.setDefault('chat-vllm', ok({ generated_text: 'raw' }));
  runtime.setDefault('chat-tgi', ok([{ generated_text: 'tgi says hi' }]));
  const text = await session.call('invoke_endpoint', { endpointName: 'chat-vllm', payload: { format: 'json', data: { prompt: 'raw completion' } } });
  const tgi = await session.call('invoke_endpoint', { endpointName: 'chat-tgi', payload: { format: 'prompt', prompt: 'hi' } });
  expect(text.isError).toBeFalsy();
  expect(tgi.structuredContent.generatedText).toBe('tgi says hi');
  expect(runtime.requestsFor('chat-vllm')).toHaveLength(1);
  expect(runtime.requestsFor('chat-tgi')).toHaveLength(1);
  expect(route.requests).toHaveLength(0);
});

test('the tool description tells the agent which endpoints take chat payloads', async () => {
  const { tools } = await session.client.listTools();
  const invoke = tools.find((t) => t.name === 'invoke_endpoint')!;
  expect(invoke.description).toMatch(/- chat-vllm \[OpenAI chat: prompt, or json \{"messages": \[\.\.\.\]\} as Chat Completions\]: Qwen on vLLM/);
  expect(invoke.description).not.toMatch(/- chat-tgi \[family: tgi\] \[OpenAI chat/);
});
