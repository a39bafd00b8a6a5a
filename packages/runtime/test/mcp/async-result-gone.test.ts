/**
 * An async job whose result has expired is over, never pending again. Once its request TTL and invocation timeout have
 * passed (plus 15 minutes for SageMaker's write to S3), SageMaker has written its output or failure
 * (https://docs.aws.amazon.com/sagemaker/latest/dg/async-inference-check-predictions.html); if neither can be found,
 * the bucket's lifecycle rules have expired them, and get_async_inference_result says so with a non-retryable
 * `AsyncResultGone` instead of `pending`. Over MCP (streamable HTTP) against the local SageMaker runtime, s3rver and
 * dynalite, with the server's clock (`now`) set by the test.
 */
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { accepted } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { BUCKET, completeAsyncOutput, LocalEnv, recordAsyncJob, startLocalEnv } from '../support/local-env';
import { startMcpHttpSession, McpHttpSession } from '../support/mcp-session';

let env: LocalEnv;
let session: McpHttpSession;
const call = (name: string, args: Record<string, unknown>) => session.call(name, args);

const START = Date.parse('2026-12-01T12:00:00.000Z');
let clock = START;
// The job may queue 600 s and run 60 s: it has ended by START + 660 s.
const JOB = { requestTtlSeconds: 600, invocationTimeoutSeconds: 60 };
const ENDED = START + 660_000;
const SETTLE = 15 * 60_000;

beforeAll(async () => {
  env = await startLocalEnv();
  session = await startMcpHttpSession({ ...env.config, now: () => clock }, 'test-client');
});

afterAll(async () => {
  await session?.close();
  await env?.stop();
});

beforeEach(() => {
  clock = START;
});

const setClock = (ms: number) => {
  clock = ms;
};

async function start(endpointName: string, jobId: string): Promise<string> {
  env.runtime.script(endpointName, accepted({ inferenceId: jobId }));
  const started = await call('start_async_inference', { endpointName, payload: { format: 'text', text: 'doc' }, ...JOB });
  expect(started.isError).toBeFalsy();
  return started.structuredContent.handle;
}

describe.each([
  ['without a job table', 'batch-scorer'],
  ['with a job table', 'doc-summarizer'],
])('%s', (_, endpointName) => {
  test('a job with nothing to read is pending until it has ended and settled, then AsyncResultGone', async () => {
    const handle = await start(endpointName, `${endpointName}-gone`);

    setClock(ENDED + SETTLE);
    expect((await call('get_async_inference_result', { handle })).structuredContent).toMatchObject({ status: 'pending' });

    setClock(ENDED + SETTLE + 1);
    const gone = await call('get_async_inference_result', { handle });
    expect(gone.isError).toBe(true);
    expect(gone.structuredContent).toMatchObject({ errorName: 'AsyncResultGone', retryable: false });
    expect(gone.content[0].text).toMatch(/ended by 2026-12-01T12:11:00.000Z .* neither its output nor its failure can be found.*storage.outputExpiration/);
  });

  test('an output written after the job ended is still read, whatever the clock says', async () => {
    // GIVEN an output in S3 that no job table records (the recorder is behind, or there is no table)
    const jobId = `${endpointName}-late`;
    const handle = await start(endpointName, jobId);
    await completeAsyncOutput(env, `outputs/${jobId}.out`, { summary: 'late' });
    // WHEN it is read long after the job ended
    setClock(ENDED + 24 * 3600_000);
    const result = await call('get_async_inference_result', { handle });
    // THEN
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ status: 'completed', output: { json: { summary: 'late' } } });
  });
});

test('a job the table records as completed, whose output has expired, is AsyncResultGone', async () => {
  // GIVEN
  const jobId = 'recorded-then-expired';
  const handle = await start('doc-summarizer', jobId);
  await completeAsyncOutput(env, `outputs/${jobId}.out`, { summary: 'short' });
  await recordAsyncJob(env, jobId, `s3://${BUCKET}/outputs/${jobId}.out`);
  expect((await call('get_async_inference_result', { handle })).structuredContent).toMatchObject({ status: 'completed' });
  // WHEN the lifecycle rule expires the output
  await env.s3.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: `outputs/${jobId}.out` }));
  const gone = await call('get_async_inference_result', { handle });
  // THEN
  expect(gone.structuredContent).toMatchObject({ errorName: 'AsyncResultGone', retryable: false });
  expect(gone.content[0].text).toMatch(/it completed, but its output is no longer in S3/);
});

test('wait_for_async_inference stops waiting at AsyncResultGone', async () => {
  const handle = await start('batch-scorer', 'waited-gone');
  setClock(ENDED + SETTLE + 1);
  const gone = await call('wait_for_async_inference', { handle, maxWaitSeconds: 60 });
  expect(gone.structuredContent).toMatchObject({ errorName: 'AsyncResultGone' });
});
