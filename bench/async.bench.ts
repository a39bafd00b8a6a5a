/**
 * How soon a finished async job is known: the job table (`getAsyncJob`, one GetItem after the recorder's PutItem)
 * vs a hand-written S3 polling loop (GetObject output, GetObject failure, sleep 2 s x1.2 capped at 10 s), both against the
 * local servers (dynalite, s3rver), interleaved job by job.
 *
 * The polling intervals AND the job durations are scaled down by the same factor (1/50) so a run takes seconds; the
 * baseline's latency is dominated by the sleep it is in when the result lands, which scales back up linearly.
 * Not measured (no local equivalent): SageMaker -> SNS -> SQS -> Lambda delivery before the recorder's write.
 */
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Bench, BenchRow, median } from './harness';
import { getAsyncJob } from '../packages/runtime/src/async/jobs';
import { parseAsyncNotification, recordAsyncResult } from '../packages/runtime/src/async/recorder';
import { clientConfig, s3ClientConfig, startDynalite, startS3rver } from '@cdk-sagemaker-mcp/test-stand-ins/local-aws';

const SCALE = 1 / 50;
/** Job durations of 30 s, 60 s and 120 s, scaled. */
const JOB_MS = [30_000, 60_000, 120_000].map((ms) => ms * SCALE);
const ROUNDS = 4;
const BUCKET = 'bench-async';
const TABLE = 'bench-async-jobs';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A hand-written S3 poller, the usual way to wait for an async result: output then `<base>.failure`, sequentially, then sleep. */
async function s3Poll(s3: S3Client, key: string): Promise<{ detectedAt: number; calls: number }> {
  const failureKey = `${key.replace(/\.[^.]*$/, '')}.failure`;
  let interval = 2_000 * SCALE;
  let calls = 0;
  for (;;) {
    for (const k of [key, failureKey]) {
      calls++;
      try {
        const obj = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: k }));
        await obj.Body!.transformToString();
        return { detectedAt: performance.now(), calls };
      } catch (e) {
        if (!(e instanceof NoSuchKey)) throw e;
      }
    }
    await sleep(interval);
    interval = Math.min(interval * 1.2, 10_000 * SCALE);
  }
}

export const bench: Bench = {
  title: 'async job result: job table read vs a hand-written S3 polling loop',
  async run(): Promise<BenchRow[]> {
    const [s3rver, dynalite] = await Promise.all([startS3rver([BUCKET]), startDynalite()]);
    const s3 = new S3Client(s3ClientConfig(s3rver));
    const dynamodb = new DynamoDBClient(clientConfig(dynalite));
    const deps = { s3, dynamodb, config: { jobTableName: TABLE } };
    // Counts the requests getAsyncJob actually sends (rather than assuming one).
    let reads = 0;
    dynamodb.middlewareStack.add((next, context) => async (args) => {
      if (context.commandName === 'GetItemCommand') reads++;
      return next(args);
    }, { step: 'initialize', name: 'countReads' });
    await dynamodb.send(new CreateTableCommand({
      TableName: TABLE,
      AttributeDefinitions: [{ AttributeName: 'inferenceId', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'inferenceId', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    }));
    const oursMs: number[] = [];
    const pollMs: number[] = [];
    const pollCalls: number[] = [];
    const oursCalls: number[] = [];
    let n = 0;
    try {
      for (let round = 0; round < ROUNDS; round++) {
        for (const jobMs of JOB_MS) {
          const id = `job-${n++}`;
          // Poller: it runs while the job does; the output lands after jobMs.
          const key = `outputs/${id}.out`;
          const polling = s3Poll(s3, key);
          await sleep(jobMs);
          await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: '{"summary":"..."}' }));
          const pollWrittenAt = performance.now();
          const poll = await polling;
          pollMs.push(poll.detectedAt - pollWrittenAt);
          pollCalls.push(poll.calls);

          // Ours: the recorder writes the job item; the next check_job_status call is one GetItem.
          const record = parseAsyncNotification({
            inferenceId: id,
            invocationStatus: 'Completed',
            eventTime: new Date().toISOString(),
            requestParameters: { endpointName: 'bench' },
            responseParameters: { outputLocation: `s3://${BUCKET}/${key}` },
          });
          await recordAsyncResult(record, TABLE, deps);
          const oursWrittenAt = performance.now();
          const readsBefore = reads;
          const state = await getAsyncJob(id, {}, deps);
          if (state.status !== 'completed') throw new Error(`expected ${id} completed, got ${state.status}`);
          oursMs.push(performance.now() - oursWrittenAt);
          oursCalls.push(reads - readsBefore);
        }
      }
    } finally {
      s3.destroy();
      dynamodb.destroy();
      await Promise.all([s3rver.stop(), dynalite.stop()]);
    }
    const jobs = `${JOB_MS.length} durations x ${ROUNDS}`;
    return [
      {
        name: `time from result written to the caller knowing it (median of ${jobs} jobs)`,
        ours: median(oursMs),
        baseline: median(pollMs),
        unit: 'ms',
        baselineLabel: 'hand-written S3 polling loop',
        note: `polling intervals and job durations scaled by 1/50 on both sides; unscaled, the loop's wait is ~${Math.round(median(pollMs) / SCALE / 1000)} s; `
          + 'ours excludes SNS->SQS->Lambda delivery',
      },
      {
        name: `S3/DynamoDB reads to learn one result (median of ${jobs} jobs of 30-120 s)`,
        ours: median(oursCalls),
        baseline: median(pollCalls),
        unit: 'requests',
        baselineLabel: 'hand-written S3 polling loop (2 GetObject per iteration)',
        note: 'ours: one GetItem per check_job_status call (plus one PutItem by the recorder per job)',
      },
    ];
  },
};
