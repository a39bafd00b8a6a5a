/**
 * get_async_inference_result reads where SageMaker said it would write (the locations sealed in the handle by
 * start_async_inference), not a location taken from the job table: the table only says whether the job finished.
 * Over MCP (streamable HTTP, a real client) against the local SageMaker runtime, s3rver and dynalite.
 */
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { accepted } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { BUCKET, completeAsyncOutput, JOB_TABLE, LocalEnv, recordAsyncJob, startLocalEnv } from '../support/local-env';
import { startMcpHttpSession, McpHttpSession } from '../support/mcp-session';

let env: LocalEnv;
let session: McpHttpSession;
const call = (name: string, args: Record<string, unknown>) => session.call(name, args);

beforeAll(async () => {
  env = await startLocalEnv();
  session = await startMcpHttpSession(env.config, 'binding-test');
});

afterAll(async () => {
  await session?.close();
  await env?.stop();
});

async function start(jobId: string): Promise<string> {
  env.runtime.script('doc-summarizer', accepted({ inferenceId: jobId }));
  const started = await call('start_async_inference', { endpointName: 'doc-summarizer', payload: { format: 'text', text: 'doc' } });
  expect(started.isError).toBeFalsy();
  return started.structuredContent.handle;
}

test('a job item pointing at another object does not redirect the read: the handle\'s output location is read', async () => {
  // GIVEN another caller's output in the same bucket, and this job's own output
  await completeAsyncOutput(env, 'outputs/someone-elses-job.out', { secret: 'not yours' });
  const handle = await start('bind-1');
  await completeAsyncOutput(env, 'outputs/bind-1.out', { summary: 'yours' });
  // AND a job item (as a forged notification would have written it) naming the other object
  await recordAsyncJob(env, 'bind-1', `s3://${BUCKET}/outputs/someone-elses-job.out`);

  // WHEN
  const result = await call('get_async_inference_result', { handle });

  // THEN
  expect(result.isError).toBeFalsy();
  expect(result.structuredContent).toMatchObject({
    status: 'completed',
    output: { json: { summary: 'yours' }, location: `s3://${BUCKET}/outputs/bind-1.out` },
  });
  expect(JSON.stringify(result)).not.toContain('not yours');
});

test('a Failed item naming another failure object: the handle\'s failure location is read', async () => {
  // GIVEN
  await completeAsyncOutput(env, 'failures/someone-elses-job-error.out', { secret: 'not yours' });
  const handle = await start('bind-2');
  await completeAsyncOutput(env, 'failures/bind-2-error.out', { error: 'model raised' });
  await env.dynamodb.send(new PutItemCommand({
    TableName: JOB_TABLE,
    Item: {
      inferenceId: { S: 'bind-2' },
      status: { S: 'Failed' },
      failureReason: { S: 'ClientError: Received server error (500) from model.' },
      failureLocation: { S: `s3://${BUCKET}/failures/someone-elses-job-error.out` },
      completedAt: { S: '2024-01-01T00:00:10.000Z' },
      eventTimeMs: { N: '1704067210000' },
    },
  }));

  // WHEN
  const result = await call('get_async_inference_result', { handle });

  // THEN
  expect(result.structuredContent).toMatchObject({
    status: 'failed',
    failureReason: 'ClientError: Received server error (500) from model.',
    output: { json: { error: 'model raised' }, location: `s3://${BUCKET}/failures/bind-2-error.out` },
  });
  expect(JSON.stringify(result)).not.toContain('not yours');
});
