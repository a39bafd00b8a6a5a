/**
 * Live streaming on Lambda (McpToolServer `responseStreaming`: function URL InvokeMode RESPONSE_STREAM): the MCP
 * answer is written to the Lambda response stream as the server produces it, read here incrementally through the
 * stand-in for the runtime's streaming globals (packages/test-stand-ins/src/lambda-response-stream.ts). A `wait_for_async_inference`
 * that asks for progress: its first progress notification leaves the function while the job is still pending, before
 * the tool has a result; the buffered path keeps answering one body. And the bundled handler's streaming export.
 */
import type { LambdaFunctionURLEvent } from 'aws-lambda';
import { setBundledServerEnv } from './bundled-server-lambda';
import { FUNCTION_URL_EVENT } from './function-url-event';
import { BUCKET, completeAsyncOutput, LocalEnv, recordAsyncJob, startLocalEnv } from '../../packages/runtime/test/support/local-env';
import { installAwsLambdaGlobals, invokeStreaming, isStreamingHandler } from '@cdk-sagemaker-mcp/test-stand-ins/lambda-response-stream';
import { accepted, ok } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { startSecretsManagerServer } from '@cdk-sagemaker-mcp/test-stand-ins/secrets-manager-server';
import { awsLambdaStreaming, writeResponseToStream } from 'cdk-sagemaker-mcp-runtime/internal/lambda';
import { createSageMakerMcpHandler } from 'cdk-sagemaker-mcp-runtime/mcp';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'streaming-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

function toolsCall(id: number, name: string, args: Record<string, unknown>, progressToken?: string): Request {
  return new Request('https://abc.lambda-url.us-east-1.on.aws/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: { ...META, ...(progressToken ? { progressToken } : {}) } } }),
  });
}

let restore: () => void;
beforeAll(() => {
  restore = installAwsLambdaGlobals();
});
afterAll(() => restore());

describe('a streamed wait_for_async_inference', () => {
  let env: LocalEnv;
  beforeAll(async () => {
    env = await startLocalEnv();
  });
  afterAll(() => env?.stop());

  test('its first progress notification leaves the function before the tool has a result', async () => {
    const handler = createSageMakerMcpHandler({ ...env.config, waitPollIntervalMs: 100, toolDeadlines: { wait_for_async_inference: 20_000 } });
    try {
      // GIVEN a job SageMaker accepted and has not finished
      env.runtime.script('doc-summarizer', accepted({ inferenceId: 'streamed-job' }));
      const started = await (await handler.fetch(toolsCall(1, 'start_async_inference', { endpointName: 'doc-summarizer', payload: { format: 'text', text: 'doc' } }))).json() as any;
      const handle = started.result.structuredContent.handle;
      // WHEN a client that asks for progress waits for it, through a RESPONSE_STREAM function URL
      const invocation = invokeStreaming(awsLambdaStreaming()!.streamifyResponse(async (_event: unknown, stream) => {
        const response = await handler.fetch(toolsCall(2, 'wait_for_async_inference', { handle, maxWaitSeconds: 15 }, 'p-1'));
        await writeResponseToStream(response, stream, awsLambdaStreaming()!);
      }) as never, {});
      // THEN the prelude says SSE
      const prelude = await invocation.prelude();
      expect(prelude).toMatchObject({ statusCode: 200, headers: { 'content-type': 'text/event-stream' } });
      // AND a progress notification arrives while the job is still pending (nothing has completed it yet)
      let seen = '';
      while (!seen.includes('notifications/progress')) {
        const chunk = await invocation.nextText();
        if (chunk === undefined) throw new Error(`stream ended before any progress: ${seen}`);
        seen += chunk;
      }
      expect(seen).toContain('async inference pending');
      expect(seen).not.toContain('"result"');
      // WHEN the job completes, as SageMaker and the result recorder would
      await completeAsyncOutput(env, 'outputs/streamed-job.out', { summary: 'done' });
      await recordAsyncJob(env, 'streamed-job', `s3://${BUCKET}/outputs/streamed-job.out`);
      // THEN the result follows on the same stream, last
      const all = seen + await invocation.rest();
      await invocation.done;
      const frames = all.split('\n\n').filter((f) => f.startsWith('event: message')).map((f) => JSON.parse(f.slice(f.indexOf('data: ') + 6)));
      expect(frames[0].method).toBe('notifications/progress');
      expect(frames[frames.length - 1]).toMatchObject({ id: 2, result: { structuredContent: { status: 'completed', output: { json: { summary: 'done' } } } } });
    } finally {
      await handler.close();
    }
  });

  test('an answer without notifications is one JSON body on the stream', async () => {
    const handler = createSageMakerMcpHandler(env.config);
    try {
      env.runtime.setDefault('churn-xgb', ok([0.5]));
      const invocation = invokeStreaming(awsLambdaStreaming()!.streamifyResponse(async (_event: unknown, stream) => {
        await writeResponseToStream(await handler.fetch(toolsCall(3, 'invoke_endpoint', { endpointName: 'churn-xgb', payload: { format: 'json', data: [1] } })), stream, awsLambdaStreaming()!);
      }) as never, {});
      expect(await invocation.prelude()).toMatchObject({ statusCode: 200, headers: { 'content-type': 'application/json' } });
      expect(JSON.parse(await invocation.rest())).toMatchObject({ id: 3, result: { structuredContent: { json: [0.5] } } });
    } finally {
      await handler.close();
    }
  });
});

describe('the bundled handler (assets/mcp/server.lambda) in RESPONSE_STREAM mode', () => {
  const saved = { ...process.env };
  let streamingHandler: (event: unknown, stream: any, context?: unknown) => Promise<void>;
  let secrets: Awaited<ReturnType<typeof startSecretsManagerServer>>;

  beforeAll(async () => {
    secrets = await startSecretsManagerServer();
    setBundledServerEnv({
      secretsEndpoint: secrets.endpoint,
      handleKeySecretArn: secrets.putSecret('mcp-handle-key', 'streaming-test-key'),
      spec: { realtimeEndpoints: [{ name: 'churn-xgb' }] },
    });
    // Loaded after the globals are installed, as the Lambda runtime provides them before the handler module loads.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    streamingHandler = require('../../assets/mcp/server.lambda/index.js').streamingHandler;
  });
  afterAll(async () => {
    process.env = saved;
    await secrets?.stop();
  });

  test('exports a streamifyResponse handler that answers a function URL request with a prelude and the body', async () => {
    expect(isStreamingHandler(streamingHandler)).toBe(true);
    const event: LambdaFunctionURLEvent = {
      ...FUNCTION_URL_EVENT,
      isBase64Encoded: false,
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: { _meta: META } }),
      headers: { ...FUNCTION_URL_EVENT.headers, 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
    };
    const invocation = invokeStreaming(streamingHandler, event);
    expect(await invocation.prelude()).toMatchObject({ statusCode: 200, headers: { 'content-type': 'application/json' } });
    const body = JSON.parse(await invocation.rest());
    expect(body.result.tools.map((t: any) => t.name)).toContain('invoke_endpoint');
    await invocation.done;
  });

  test('an AgentCore Lambda-target invocation gets the buffered JSON result, with no HTTP prelude', async () => {
    const context = { clientContext: { custom: { bedrockAgentCoreToolName: 'other___describe_endpoint', bedrockAgentCoreGatewayId: 'gw-1' } } };
    const invocation = invokeStreaming(streamingHandler, { endpointName: 'churn-xgb' }, context);
    expect(await invocation.prelude()).toBeUndefined();
    const result = JSON.parse(await invocation.rest());
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result)).toContain('ToolNotServed');
    await invocation.done;
  });
});
