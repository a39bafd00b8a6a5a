/**
 * get_async_inference_result caps what it reads of a model output: a large output comes back truncated, with its size
 * and S3 location, over MCP (streamable HTTP) against the local SageMaker runtime, s3rver and dynalite.
 */
import { accepted } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { BUCKET, completeAsyncOutput, LocalEnv, recordAsyncJob, startLocalEnv } from '../support/local-env';
import { startMcpHttpSession, McpHttpSession } from '../support/mcp-session';

let env: LocalEnv;
let session: McpHttpSession;
const call = (name: string, args: Record<string, unknown>) => session.call(name, args);

beforeAll(async () => {
  env = await startLocalEnv();
  session = await startMcpHttpSession(env.config, 'test-client');
});

afterAll(async () => {
  await session?.close();
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
