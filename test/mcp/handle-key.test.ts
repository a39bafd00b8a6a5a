/**
 * The handle key of the MCP server Lambda: read from Secrets Manager at cold start (the function's environment carries
 * only the secret's ARN), shared by every container, and required; handles expire. The BUNDLED handler
 * (assets/mcp/server.lambda) behind a stand-in function URL, a real MCP client, the real Secrets Manager client talking
 * to packages/test-stand-ins/src/secrets-manager-server, and the local SageMaker control plane (training handles).
 */
import { createServer, Server } from 'http';
import { AddressInfo } from 'net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { APIGatewayProxyStructuredResultV2, LambdaFunctionURLEvent } from 'aws-lambda';
import { setBundledServerEnv } from './bundled-server-lambda';
import { FUNCTION_URL_EVENT as fixture, functionUrlEvent } from './function-url-event';
import { SageMakerControlServer, startSageMakerControlServer } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-control-server';
import { SecretsManagerServer, startSecretsManagerServer } from '@cdk-sagemaker-mcp/test-stand-ins/secrets-manager-server';
import { MCP_ENV, MCP_GATEWAY_ENV } from 'cdk-sagemaker-mcp-runtime/internal/contract';
import { createHandleCodec, createSageMakerMcpServer, HandleExpiredError, MissingHandleKeyError } from 'cdk-sagemaker-mcp-runtime/mcp';

type Handler = (e: LambdaFunctionURLEvent) => Promise<APIGatewayProxyStructuredResultV2>;
type CallResult = { isError?: boolean; structuredContent?: any };

const KEY = 'the-handle-key-only-secrets-manager-holds';
const SPEC = { pipelines: [{ name: 'churn-training', parameters: [] }] };
const saved = { ...process.env };
let control: SageMakerControlServer;
let secrets: SecretsManagerServer;
let keyArn: string;
const open: Array<{ client: Client; http: Server }> = [];

/** A cold container: the bundle loaded afresh (module state, the handle key included, starts empty). */
function coldContainer(): Handler {
  let handler: Handler | undefined;
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    handler = require('../../assets/mcp/server.lambda/index.js').handler;
  });
  return handler!;
}

/** A real MCP client connected, through a stand-in function URL, to `handler`. */
async function connect(handler: Handler): Promise<(name: string, args: Record<string, unknown>) => Promise<CallResult>> {
  const http = createServer(async (req, res) => {
    try {
      const result = await handler(await functionUrlEvent(req));
      res.writeHead(result.statusCode ?? 200, result.headers as Record<string, string>);
      res.end(result.body);
    } catch (err) {
      // What a function URL answers for a failed invocation.
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ Message: (err as Error).message }));
    }
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
  const client = new Client({ name: 'handle-key-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  open.push({ client, http });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`)));
  return async (name, args) => (await client.callTool({ name, arguments: args })) as CallResult;
}

const reads = () => secrets.requests.filter((r) => r.operation === 'GetSecretValue').length;

beforeAll(async () => {
  [control, secrets] = await Promise.all([startSageMakerControlServer(), startSecretsManagerServer()]);
  control.addPipeline('churn-training');
  keyArn = secrets.putSecret('mcp-handle-key', KEY);
});

beforeEach(() => {
  setBundledServerEnv({
    secretsEndpoint: secrets.endpoint,
    handleKeySecretArn: keyArn,
    spec: SPEC,
    endpoints: { AWS_ENDPOINT_URL_SAGEMAKER: control.endpoint },
  });
});

afterEach(async () => {
  for (const { client, http } of open.splice(0)) {
    await client.close();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  }
  process.env = { ...saved };
});

afterAll(async () => {
  await Promise.all([control?.stop(), secrets?.stop()]);
});

describe('bundled server.lambda', () => {
  test('reads the key from Secrets Manager once per cold start; a handle issued by one container opens in another', async () => {
    // GIVEN a cold container
    const before = reads();
    const callA = await connect(coldContainer());

    // WHEN it issues a handle and answers a few more calls
    const started = await callA('start_training', { pipelineName: 'churn-training', sessionId: 'sess-key-1' });
    expect(started.isError).toBeFalsy();
    const { handle } = started.structuredContent;
    expect((await callA('get_training_status', { handle })).isError).toBeFalsy();
    expect((await callA('get_training_status', { handle })).isError).toBeFalsy();

    // THEN it read the secret exactly once, by the ARN in its environment
    expect(reads() - before).toBe(1);
    expect(secrets.requests.at(-1)).toEqual({ operation: 'GetSecretValue', body: { SecretId: keyArn } });

    // AND another container (scale-out) opens the handle: the same key, not a per-process one
    const callB = await connect(coldContainer());
    const status = await callB('get_training_status', { handle });
    expect(status.isError).toBeFalsy();
    expect(status.structuredContent).toMatchObject({ pipelineName: 'churn-training', status: 'Executing' });
    expect(reads() - before).toBe(2);
  });

  test('a handle sealed with any other key is refused; a genuine one past its expiry is refused as expired, not retryable', async () => {
    // GIVEN a genuine handle, its payload (the test holds the key), and the same payload sealed 8 days ago
    const call = await connect(coldContainer());
    const { handle } = (await call('start_training', { pipelineName: 'churn-training', sessionId: 'sess-key-2' })).structuredContent;
    const payload = createHandleCodec(KEY).open<Record<string, unknown>>('training', handle);
    const eightDaysAgo = Date.now() - 8 * 24 * 3600 * 1000;
    const expired = createHandleCodec(KEY, { now: () => eightDaysAgo }).seal('training', payload);
    const forged = createHandleCodec('a-guessed-key').seal('training', payload);

    // WHEN
    const [expiredResult, forgedResult] = [await call('get_training_status', { handle: expired }), await call('get_training_status', { handle: forged })];

    // THEN
    expect(expiredResult).toMatchObject({ isError: true, structuredContent: { errorName: 'HandleExpiredError', retryable: false } });
    expect(expiredResult.structuredContent.message).toContain(`expired at ${new Date(eightDaysAgo + 7 * 24 * 3600 * 1000).toISOString()}`);
    expect(forgedResult).toMatchObject({ isError: true, structuredContent: { errorName: 'InvalidHandleError', retryable: false } });
  });

  test('handles live 7 days by default, or handleTtlSeconds from the spec', async () => {
    // GIVEN two containers: the default lifetime, and one hour
    const callDefault = await connect(coldContainer());
    const weekly = (await callDefault('start_training', { pipelineName: 'churn-training', sessionId: 'sess-ttl-1' })).structuredContent.handle;
    process.env[MCP_ENV.SPEC] = JSON.stringify({ ...SPEC, handleTtlSeconds: 3600 });
    const callHourly = await connect(coldContainer());
    const hourly = (await callHourly('start_training', { pipelineName: 'churn-training', sessionId: 'sess-ttl-2' })).structuredContent.handle;

    // THEN each opens just before its expiry and not just after (checked with the key and a moved clock)
    const at = (offsetMs: number) => createHandleCodec(KEY, { now: () => Date.now() + offsetMs });
    const minute = 60_000;
    expect(() => at(3600_000 - minute).open('training', hourly)).not.toThrow();
    expect(() => at(3600_000 + minute).open('training', hourly)).toThrow(HandleExpiredError);
    expect(() => at(7 * 24 * 3600_000 - minute).open('training', weekly)).not.toThrow();
    expect(() => at(7 * 24 * 3600_000 + minute).open('training', weekly)).toThrow(HandleExpiredError);
  });

  test('without MCP_HANDLE_KEY_SECRET_ARN the server does not start: the invocation fails naming the variable', async () => {
    // GIVEN a cold container whose environment names no key secret
    delete process.env[MCP_ENV.HANDLE_KEY_SECRET_ARN];
    const handler = coldContainer();
    // WHEN / THEN
    await expect(handler({ ...fixture, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' }))
      .rejects.toThrow(/MCP_HANDLE_KEY_SECRET_ARN: expected the ARN of the Secrets Manager secret.*but it is not set/s);
  });

  test('a secret it cannot read fails the start naming the permission; the next invocation tries again', async () => {
    // GIVEN a cold container whose role may not yet read the secret (the grant has not propagated)
    process.env[MCP_ENV.HANDLE_KEY_SECRET_ARN] = keyArn;
    secrets.denyReads(keyArn, true);
    const handler = coldContainer();
    const request = { ...fixture, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' };
    await expect(handler(request)).rejects.toThrow(/AccessDeniedException.*secretsmanager:GetSecretValue/s);
    // WHEN the secret becomes readable (the grant propagated)
    secrets.denyReads(keyArn, false);
    // THEN the same container starts
    const result = await handler(request);
    expect(result.statusCode).not.toBe(500);
  });

  test('a malformed environment fails the start with every problem at once, each naming its variable', async () => {
    // GIVEN a cold container with a spec that is not JSON, a key secret that is no ARN and gateway targets not an array
    const prior = { spec: process.env[MCP_ENV.SPEC], arn: process.env[MCP_ENV.HANDLE_KEY_SECRET_ARN] };
    process.env[MCP_ENV.SPEC] = '{"realtimeEndpoints": [';
    process.env[MCP_ENV.HANDLE_KEY_SECRET_ARN] = 'mcp-handle-key';
    process.env[MCP_GATEWAY_ENV.TARGET_NAMES] = '{"a":1}';
    try {
      const handler = coldContainer();
      const before = reads();
      // WHEN / THEN one error, three lines, and no secret read
      const error = await handler({ ...fixture, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' }).catch((e: Error) => e);
      expect((error as Error).message).toMatch(/MCP_SERVER_SPEC: expected the server spec .* as JSON text, got text that does not parse/);
      expect((error as Error).message).toMatch(/MCP_HANDLE_KEY_SECRET_ARN: expected a Secrets Manager secret ARN/);
      expect((error as Error).message).toMatch(/MCP_GATEWAY_TARGET_NAMES: expected an array/);
      expect(reads()).toBe(before);
    } finally {
      process.env[MCP_ENV.SPEC] = prior.spec;
      process.env[MCP_ENV.HANDLE_KEY_SECRET_ARN] = prior.arn;
      delete process.env[MCP_GATEWAY_ENV.TARGET_NAMES];
    }
  });
});

describe('runtime configuration', () => {
  const handleTools = { pipelines: [{ name: 'churn-training' }], region: 'us-east-1' };

  test('a server with handle tools and no key refuses to start, naming the option', () => {
    expect(() => createSageMakerMcpServer(handleTools)).toThrow(MissingHandleKeyError);
    expect(() => createSageMakerMcpServer(handleTools)).toThrow(/handleKey: not set.*ephemeralHandleKey: true/s);
  });

  test('a per-process key only when asked for; a server without handle tools needs no key', () => {
    expect(() => createSageMakerMcpServer({ ...handleTools, ephemeralHandleKey: true })).not.toThrow();
    expect(() => createSageMakerMcpServer({ realtimeEndpoints: [{ name: 'churn-xgb' }] })).not.toThrow();
  });

  test('handleTtlSeconds outside 1 hour .. 365 days is refused', () => {
    expect(() => createSageMakerMcpServer({ ...handleTools, handleKey: 'k', handleTtlSeconds: 60 }))
      .toThrow(/handleTtlSeconds: expected whole seconds from 3600 \(1 hour\) to 31536000 \(365 days\), got 60/);
  });
});
