/**
 * get_async_inference_result caps what it reads of a model output: a large output comes back truncated, with its size
 * and S3 location, over MCP (streamable HTTP) against the local SageMaker runtime, s3rver and dynalite.
 */
import { createServer, Server } from 'http';
import { AddressInfo } from 'net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { BUCKET, completeAsyncOutput, LocalEnv, recordAsyncJob, startLocalEnv } from './local-env';
import { createSageMakerMcpHandler } from '../../src/runtime/mcp-server';
import { accepted } from '../support/sagemaker-runtime-server';

let env: LocalEnv;
let http: Server;
let client: Client;

type CallResult = { isError?: boolean; structuredContent?: any };
const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallResult;

beforeAll(async () => {
  env = await startLocalEnv();
  http = createServer(toNodeHandler(createSageMakerMcpHandler(env.config)));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
  client = new Client({ name: 'test-client', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`)));
});

afterAll(async () => {
  await client?.close();
  await new Promise<void>((resolve) => http?.close(() => resolve()));
  await env?.stop();
});

async function completedJob(jobId: string, output: unknown) {
  env.runtime.script('doc-summarizer', accepted({ inferenceId: jobId }));
  const { handle } = (await call('start_async_inference', { endpointName: 'doc-summarizer', payload: { format: 'text', text: 'doc' } })).structuredContent;
  await completeAsyncOutput(env, `outputs/${jobId}.out`, output);
  await recordAsyncJob(env, jobId, `s3://${BUCKET}/outputs/${jobId}.out`);
  return call('get_async_inference_result', { handle });
}

describe('get_async_inference_result output size', () => {
  test('an output over 100 KB comes back truncated, with its size and location, and without parsed JSON', async () => {
    // GIVEN a 200 KB JSON output
    const big = { summary: 's'.repeat(200_000) };
    // WHEN
    const result = await completedJob('big-1', big);
    // THEN
    expect(result.isError).toBeFalsy();
    const output = result.structuredContent.output;
    expect(output).toMatchObject({ truncated: true, sizeBytes: JSON.stringify(big).length, location: `s3://${BUCKET}/outputs/big-1.out` });
    expect(output.json).toBeUndefined();
    expect(output.text).toBe(JSON.stringify(big).slice(0, 100_000));
  });

  test('a small output is whole, parsed, and says where it is', async () => {
    const result = await completedJob('small-1', { summary: 'short' });
    expect(result.structuredContent.output).toEqual({
      contentType: 'application/json',
      json: { summary: 'short' },
      text: '{"summary":"short"}',
      truncated: false,
      sizeBytes: 19,
      location: `s3://${BUCKET}/outputs/small-1.out`,
    });
  });
});
