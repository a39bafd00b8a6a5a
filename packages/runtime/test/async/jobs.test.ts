/**
 * The async-jobs runtime with the real SDK v3 clients against the local SageMaker runtime server (async path),
 * s3rver and dynalite.
 */
import { readFileSync } from 'fs';
import { createServer, request as httpRequest, Server } from 'http';
import { AddressInfo } from 'net';
import { join } from 'path';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { SageMakerRuntimeClient } from '@aws-sdk/client-sagemaker-runtime';
import { clientConfig, LocalService, s3ClientConfig, startDynalite, startS3rver } from '@cdk-sagemaker-mcp/test-stand-ins/local-aws';
import { accepted, fail, SageMakerRuntimeServer, startSageMakerRuntimeServer } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import {
  AsyncJobRequestError, AsyncJobsDeps, AsyncJobTimeoutError, asyncJobsConfigFromEnv, AsyncResultAccessDeniedError, fetchObject,
  getAsyncJob, submitAsyncJob, waitForAsyncJob,
} from 'cdk-sagemaker-mcp-runtime/async';
import { EndpointValidationError, TransientEndpointError } from 'cdk-sagemaker-mcp-runtime/core';
import { ASYNC_ENV } from 'cdk-sagemaker-mcp-runtime/internal/contract';
import { parseAsyncNotification, recordAsyncResult } from 'cdk-sagemaker-mcp-runtime/internal/lambda';

const BUCKET = 'async-io';
const TABLE = 'async-jobs';
const ENDPOINT = 'doc-processor-async';
const FIXTURES = join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'events');
const success = JSON.parse(readFileSync(join(FIXTURES, 'async-inference-sns-message.success.json'), 'utf8'));
const error = JSON.parse(readFileSync(join(FIXTURES, 'async-inference-sns-message.error.json'), 'utf8'));

let sm: SageMakerRuntimeServer;
let s3rver: LocalService;
let dynalite: LocalService;
let deps: AsyncJobsDeps;
let s3: S3Client;

beforeAll(async () => {
  [sm, s3rver, dynalite] = await Promise.all([
    startSageMakerRuntimeServer({ asyncOutputPath: `s3://${BUCKET}/outputs`, asyncFailurePath: `s3://${BUCKET}/failures` }),
    startS3rver([BUCKET]),
    startDynalite(),
  ]);
  s3 = new S3Client(s3ClientConfig(s3rver));
  const dynamodb = new DynamoDBClient(clientConfig(dynalite));
  await dynamodb.send(new CreateTableCommand({
    TableName: TABLE,
    AttributeDefinitions: [{ AttributeName: 'inferenceId', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'inferenceId', KeyType: 'HASH' }],
    BillingMode: 'PAY_PER_REQUEST',
  }));
  deps = {
    sagemakerRuntime: new SageMakerRuntimeClient(sm.clientConfig()),
    s3,
    dynamodb,
    env: {
      [ASYNC_ENV.ENDPOINT_NAME]: ENDPOINT,
      [ASYNC_ENV.INPUT_BUCKET]: BUCKET,
      [ASYNC_ENV.INPUT_PREFIX]: 'inputs/',
      [ASYNC_ENV.JOB_TABLE_NAME]: TABLE,
      [ASYNC_ENV.INVOCATION_TIMEOUT_SECONDS]: '300',
      [ASYNC_ENV.REQUEST_TTL_SECONDS]: '900',
    },
  };
});

beforeEach(() => sm.clear());

afterAll(async () => {
  deps.sagemakerRuntime?.destroy();
  deps.dynamodb?.destroy();
  s3.destroy();
  await Promise.all([sm.stop(), s3rver.stop(), dynalite.stop()]);
});

/** The bucket and key of an `s3://bucket/key` location (the form the tests write). */
function s3Location(location: string): { bucket: string; key: string } {
  const m = /^s3:\/\/([^/]+)\/(.+)$/.exec(location);
  if (!m) throw new Error(`test helper: not an s3:// location: ${location}`);
  return { bucket: m[1], key: m[2] };
}

async function objectText(location: string): Promise<string> {
  const { bucket, key } = s3Location(location);
  const res = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return res.Body!.transformToString();
}

async function put(location: string, body: string, contentType = 'application/json') {
  const { bucket, key } = s3Location(location);
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType }));
}

describe('submitAsyncJob', () => {
  test('uploads the payload to the input prefix and calls InvokeEndpointAsync with the contract config', async () => {
    // WHEN
    const job = await submitAsyncJob({ payload: { document: 'hello' }, inferenceId: 'job-1' }, deps);

    // THEN the input is in S3 under the configured prefix, keyed by the job id plus a random suffix
    expect(job.inputLocation).toMatch(new RegExp(`^s3://${BUCKET}/inputs/job-1-[0-9a-f-]{36}$`));
    expect(JSON.parse(await objectText(job.inputLocation))).toEqual({ document: 'hello' });
    // AND the request carried the location, the id and both limits as headers (InvokeEndpointAsync API reference:
    // https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_runtime_InvokeEndpointAsync.html)
    const [request] = sm.requestsFor(ENDPOINT, 'async');
    expect(request.path).toBe(`/endpoints/${ENDPOINT}/async-invocations`);
    expect(request.headers).toMatchObject({
      'x-amzn-sagemaker-inputlocation': job.inputLocation,
      'x-amzn-sagemaker-inference-id': 'job-1',
      'x-amzn-sagemaker-content-type': 'application/json',
      'x-amzn-sagemaker-invocationtimeoutseconds': '300',
      'x-amzn-sagemaker-requestttlseconds': '900',
    });
    expect(request.body.length).toBe(0);
    // AND the 202's locations come back at once
    expect(job).toMatchObject({
      jobId: 'job-1',
      outputLocation: `s3://${BUCKET}/outputs/job-1.out`,
      failureLocation: `s3://${BUCKET}/failures/job-1-error.out`,
      invocationTimeoutSeconds: 300,
      requestTtlSeconds: 900,
    });
    expect(Date.parse(job.submittedAt)).not.toBeNaN();
  });

  test('uses the InferenceId SageMaker returns and a random id when none is given', async () => {
    sm.script(ENDPOINT, accepted({ inferenceId: 'server-assigned' }));
    const job = await submitAsyncJob({ payload: 'text body', contentType: 'text/plain' }, deps);

    expect(job.jobId).toBe('server-assigned');
    const sent = sm.requestsFor(ENDPOINT, 'async')[0].headers['x-amzn-sagemaker-inference-id'];
    expect(sent).toMatch(/^[0-9a-f-]{36}$/);
    expect(await objectText(job.inputLocation)).toBe('text body');
  });

  test('a reused inferenceId does not overwrite the input of a job still queued', async () => {
    // GIVEN a job that SageMaker has not read yet
    const first = await submitAsyncJob({ payload: { document: 'first' }, inferenceId: 'reused' }, deps);
    // WHEN the caller submits again with the same id
    const second = await submitAsyncJob({ payload: { document: 'second' }, inferenceId: 'reused' }, deps);
    // THEN both inputs survive, each under its own key, and both calls carry the id as the InferenceId
    expect(second.inputLocation).not.toBe(first.inputLocation);
    expect(JSON.parse(await objectText(first.inputLocation))).toEqual({ document: 'first' });
    expect(JSON.parse(await objectText(second.inputLocation))).toEqual({ document: 'second' });
    expect(sm.requestsFor(ENDPOINT, 'async').map((r) => r.headers['x-amzn-sagemaker-inference-id'])).toEqual(['reused', 'reused']);
  });

  test('passes an existing inputLocation through without uploading', async () => {
    const before = (await s3.send(new ListObjectsV2Command({ Bucket: BUCKET }))).KeyCount;
    await submitAsyncJob({ inputLocation: `s3://${BUCKET}/elsewhere/in.csv`, contentType: 'text/csv', endpointName: 'other-ep' }, deps);

    expect(sm.requestsFor('other-ep', 'async')[0].headers['x-amzn-sagemaker-inputlocation']).toBe(`s3://${BUCKET}/elsewhere/in.csv`);
    expect((await s3.send(new ListObjectsV2Command({ Bucket: BUCKET }))).KeyCount).toBe(before);
  });

  test('explicit config wins over the environment', async () => {
    await submitAsyncJob({ payload: 'x' }, { ...deps, config: { endpointName: 'explicit-ep', invocationTimeoutSeconds: 60, requestTtlSeconds: 120 } });
    const [request] = sm.requestsFor('explicit-ep', 'async');
    expect(request.headers['x-amzn-sagemaker-invocationtimeoutseconds']).toBe('60');
    expect(request.headers['x-amzn-sagemaker-requestttlseconds']).toBe('120');
  });

  test.each([
    ['fails if requestTtlSeconds < 2 x invocationTimeoutSeconds', { invocationTimeoutSeconds: 300, requestTtlSeconds: 500 }, /requestTtlSeconds: got 500 with invocationTimeoutSeconds 300, expected at least 2 x 300 = 600/],
    ['fails if invocationTimeoutSeconds is above 3600', { invocationTimeoutSeconds: 3601, requestTtlSeconds: 21600 }, /invocationTimeoutSeconds: got 3601, expected an integer between 1 and 3600/],
    ['fails if invocationTimeoutSeconds is 0', { invocationTimeoutSeconds: 0 }, /invocationTimeoutSeconds: got 0, expected an integer between 1 and 3600/],
    ['fails if requestTtlSeconds is below 60', { invocationTimeoutSeconds: 10, requestTtlSeconds: 59 }, /requestTtlSeconds: got 59, expected an integer between 60 and 21600/],
    ['fails if requestTtlSeconds is above 21600', { requestTtlSeconds: 21601 }, /requestTtlSeconds: got 21601, expected an integer between 60 and 21600/],
    ['fails if the inference id is too long', { inferenceId: 'x'.repeat(65) }, /inferenceId: got 'x+', expected 1-64 printable/],
    ['fails if both payload and inputLocation are given', { inputLocation: 's3://b/k' }, /expected exactly one of them/],
  ])('%s (before any call)', async (_name, overrides, message) => {
    const before = (await s3.send(new ListObjectsV2Command({ Bucket: BUCKET }))).KeyCount;
    await expect(submitAsyncJob({ payload: 'x', ...overrides }, deps)).rejects.toThrow(message);
    await expect(submitAsyncJob({ payload: 'x', ...overrides }, deps)).rejects.toBeInstanceOf(AsyncJobRequestError);
    expect(sm.requests).toHaveLength(0);
    expect((await s3.send(new ListObjectsV2Command({ Bucket: BUCKET }))).KeyCount).toBe(before);
  });

  test('fails if no endpoint or input bucket is configured', async () => {
    await expect(submitAsyncJob({ payload: 'x' }, { ...deps, env: {} }))
      .rejects.toThrow(/endpointName: got nothing[\s\S]*inputBucket: got nothing/);
    expect(sm.requests).toHaveLength(0);
  });

  test('service errors are classified: ValidationError permanent, ServiceUnavailable retryable', async () => {
    sm.script(ENDPOINT, fail('ValidationError', { message: 'Endpoint doc-processor-async not found' }), fail('ServiceUnavailable'));

    const permanent = await submitAsyncJob({ payload: 'x' }, deps).catch((e) => e);
    expect(permanent).toBeInstanceOf(EndpointValidationError);
    expect(permanent).toMatchObject({ retryable: false, code: 'ValidationError', endpointName: ENDPOINT });
    expect(permanent.message).toMatch(/Endpoint doc-processor-async not found/);

    const noRetries = new SageMakerRuntimeClient(sm.clientConfig({ maxAttempts: 1 }));
    const transient = await submitAsyncJob({ payload: 'x' }, { ...deps, sagemakerRuntime: noRetries }).catch((e) => e);
    noRetries.destroy();
    expect(transient).toBeInstanceOf(TransientEndpointError);
    expect(transient.retryable).toBe(true);
  });
});

describe('getAsyncJob', () => {
  test('is pending while no result is recorded', async () => {
    expect(await getAsyncJob('not-yet', {}, deps)).toEqual({ status: 'pending', jobId: 'not-yet' });
  });

  test('reports a completed job, and fetches and decodes the output on request', async () => {
    // GIVEN the recorder stored the documented success notification and SageMaker wrote the output
    await recordAsyncResult(parseAsyncNotification(success), TABLE, deps);
    await put(success.responseParameters.outputLocation.replace('mcp-async-io', BUCKET), '{"label":"invoice"}');
    await recordAsyncResult(parseAsyncNotification({
      ...success,
      inferenceId: 'with-output',
      responseParameters: { outputLocation: `s3://${BUCKET}/outputs/prediction.out` },
    }), TABLE, deps);

    // WHEN / THEN
    expect(await getAsyncJob(success.inferenceId, {}, deps)).toEqual({
      status: 'completed',
      jobId: success.inferenceId,
      outputLocation: 's3://mcp-async-io/outputs/prediction.out',
      completedAt: '2022-01-25T22:46:00.608Z',
      endpointName: 'mcp-doc-processor-async',
      output: undefined,
    });
    const withOutput = await getAsyncJob('with-output', { fetchOutput: true }, deps);
    expect(withOutput.status === 'completed' && withOutput.output?.json).toEqual({ label: 'invoice' });
  });

  test('reports a failed job with its reason', async () => {
    await recordAsyncResult(parseAsyncNotification(error), TABLE, deps);
    expect(await getAsyncJob(error.inferenceId, {}, deps)).toMatchObject({
      status: 'failed',
      failureReason: error.failureReason,
      failureLocation: 's3://mcp-async-io/failures/job-42-error.out',
    });
  });

  test('fails if no job table is configured', async () => {
    await expect(getAsyncJob('x', {}, { ...deps, env: {} })).rejects.toThrow(/jobTableName: got nothing/);
  });
});

describe('waitForAsyncJob (no job table)', () => {
  test('checks both objects every iteration with capped backoff (2 s, x1.2, cap 10 s)', async () => {
    // GIVEN a job whose output appears after 12 sleeps
    const job = await submitAsyncJob({ payload: 'x', inferenceId: 'wait-1' }, deps);
    const delays: number[] = [];
    const sleep = async (ms: number) => {
      delays.push(ms);
      if (delays.length === 12) await put(job.outputLocation, 'done', 'text/plain');
    };

    // WHEN
    const result = await waitForAsyncJob({ jobId: job.jobId, outputLocation: job.outputLocation, failureLocation: job.failureLocation }, deps, sleep);

    // THEN
    expect(result).toMatchObject({ status: 'completed', polls: 13 });
    expect(result.status === 'completed' && result.output?.text).toBe('done');
    const expected = [2000];
    while (expected.length < 12) expected.push(Math.min(expected[expected.length - 1] * 1.2, 10_000));
    expect(delays.map(Math.round)).toEqual(expected.map(Math.round));
    expect(Math.max(...delays)).toBe(10_000);
  });

  test('reports the failure object when it appears instead of the output', async () => {
    const job = await submitAsyncJob({ payload: 'x', inferenceId: 'wait-2' }, deps);
    let sleeps = 0;
    const sleep = async () => {
      if (++sleeps === 2) await put(job.failureLocation!, 'ModelError: out of memory', 'text/plain');
    };
    const result = await waitForAsyncJob({ outputLocation: job.outputLocation, failureLocation: job.failureLocation }, deps, sleep);
    expect(result).toMatchObject({ status: 'failed', failureReason: 'ModelError: out of memory', polls: 3 });
  });

  test('gives up at the deadline with AsyncJobTimeoutError', async () => {
    const started = Date.now();
    await expect(waitForAsyncJob({
      jobId: 'never',
      outputLocation: `s3://${BUCKET}/outputs/never.out`,
      failureLocation: `s3://${BUCKET}/failures/never-error.out`,
      timeoutMs: 150,
      initialDelayMs: 20,
      maxDelayMs: 40,
    }, deps)).rejects.toBeInstanceOf(AsyncJobTimeoutError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
  });
});

describe('reading results with a size cap', () => {
  test('a large output is read with a ranged GET, comes back truncated with its size, and is not parsed', async () => {
    // GIVEN a 3000-byte JSON output
    const location = `s3://${BUCKET}/outputs/big.out`;
    const body = JSON.stringify({ text: 'x'.repeat(2980) });
    await put(location, body);
    // WHEN at most 1000 bytes are read
    const out = await fetchObject(location, deps, { maxBytes: 1000 });
    // THEN only the first 1000 bytes came over, the full size is known, and no JSON is claimed
    expect(out.bytes.length).toBe(1000);
    expect(out.text).toBe(body.slice(0, 1000));
    expect(out).toMatchObject({ truncated: true, sizeBytes: body.length, location, json: undefined });
    // AND the local S3 honours Range as S3 does (206 with Content-Range), so the cap is applied by the server
    const raw = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'outputs/big.out', Range: 'bytes=0-999' }));
    expect([raw.$metadata.httpStatusCode, raw.ContentRange, raw.ContentLength]).toEqual([206, `bytes 0-999/${body.length}`, 1000]);
    await raw.Body!.transformToByteArray();
  });

  test('an output within the cap is whole and parsed', async () => {
    const location = `s3://${BUCKET}/outputs/small.out`;
    await put(location, '{"label":"invoice"}');
    expect(await fetchObject(location, deps, { maxBytes: 1000 })).toMatchObject({ truncated: false, sizeBytes: 19, json: { label: 'invoice' } });
    // exactly at the cap is not truncated either
    expect(await fetchObject(location, deps, { maxBytes: 19 })).toMatchObject({ truncated: false, sizeBytes: 19, json: { label: 'invoice' } });
  });

  test('a cut inside a multi-byte character drops the partial character', async () => {
    const location = `s3://${BUCKET}/outputs/utf8.out`;
    await put(location, 'ab€cd', 'text/plain'); // € is 3 bytes: a b [e2 82 ac] c d
    const out = await fetchObject(location, deps, { maxBytes: 4 });
    expect(out).toMatchObject({ text: 'ab', truncated: true, sizeBytes: 7 });
  });

  test('getAsyncJob and waitForAsyncJob pass the cap on', async () => {
    const location = `s3://${BUCKET}/outputs/capped.out`;
    await put(location, 'y'.repeat(500), 'text/plain');
    await recordAsyncResult(parseAsyncNotification({ ...success, inferenceId: 'capped', responseParameters: { outputLocation: location } }), TABLE, deps);
    const state = await getAsyncJob('capped', { fetchOutput: true, maxBytes: 100 }, deps);
    expect(state.status === 'completed' && state.output).toMatchObject({ truncated: true, sizeBytes: 500, text: 'y'.repeat(100) });
    const waited = await waitForAsyncJob({ outputLocation: location, timeoutMs: 0, maxBytes: 50 }, deps);
    expect(waited.status === 'completed' && waited.output).toMatchObject({ truncated: true, sizeBytes: 500 });
  });

  test('fails if maxBytes is not a positive integer', async () => {
    await expect(fetchObject(`s3://${BUCKET}/outputs/small.out`, deps, { maxBytes: 0 })).rejects.toThrow(/maxBytes: got 0, expected a positive integer/);
  });
});

describe('a reader without s3:ListBucket', () => {
  // S3 answers GetObject on a missing key with 403 AccessDenied (not 404) when the caller lacks s3:ListBucket
  // [S3 API GetObject, Permissions]. This proxy in front of s3rver plays that: every 404 becomes S3's 403 AccessDenied.
  let proxy: Server;
  let denied: S3Client;
  beforeAll(async () => {
    proxy = createServer((req, res) => {
      const upstream = httpRequest(`${s3rver.endpoint}${req.url}`, { method: req.method, headers: req.headers }, (up) => {
        if (up.statusCode === 404) {
          up.resume();
          res.writeHead(403, { 'content-type': 'application/xml', 'x-amz-request-id': 'LOCAL403' });
          res.end('<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Access Denied</Message><RequestId>LOCAL403</RequestId></Error>');
          return;
        }
        res.writeHead(up.statusCode ?? 500, up.headers);
        up.pipe(res);
      });
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', () => resolve()));
    denied = new S3Client(s3ClientConfig({ ...s3rver, endpoint: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` }));
  });
  afterAll(async () => {
    denied.destroy();
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
  });

  test('a pending job is an error naming s3:ListBucket, not an endless "not yet"', async () => {
    const err = await waitForAsyncJob({
      jobId: 'no-list', outputLocation: `s3://${BUCKET}/outputs/no-list.out`, failureLocation: `s3://${BUCKET}/failures/no-list-error.out`, timeoutMs: 0,
    }, { ...deps, s3: denied }).catch((e) => e);
    expect(err).toBeInstanceOf(AsyncResultAccessDeniedError);
    expect(err.message).toMatch(/AccessDenied reading s3:\/\/async-io\/(outputs|failures)\/no-list.*: the caller likely lacks s3:ListBucket/);
    expect(err.retryable).toBe(false);
  });

  test('an existing result is still read through the same client', async () => {
    const location = `s3://${BUCKET}/outputs/visible.out`;
    await put(location, 'ok', 'text/plain');
    const state = await waitForAsyncJob({ outputLocation: location, timeoutMs: 0 }, { ...deps, s3: denied });
    expect(state.status === 'completed' && state.output?.text).toBe('ok');
  });
});

test('asyncJobsConfigFromEnv reads every contract variable', () => {
  expect(asyncJobsConfigFromEnv(deps.env)).toEqual({
    endpointName: ENDPOINT,
    inputBucket: BUCKET,
    inputPrefix: 'inputs/',
    jobTableName: TABLE,
    invocationTimeoutSeconds: 300,
    requestTtlSeconds: 900,
  });
});

test('an output location is read in its s3:// and https:// forms (path- and virtual-hosted style)', async () => {
  await put(`s3://${BUCKET}/outputs/forms.out`, '{"form":1}');
  for (const location of [
    `s3://${BUCKET}/outputs/forms.out`,
    `https://${BUCKET}.s3.us-east-1.amazonaws.com/outputs/forms.out`,
    `https://s3.us-east-1.amazonaws.com/${BUCKET}/outputs/forms.out`,
  ]) {
    expect(await fetchObject(location, deps, { maxBytes: 100 })).toMatchObject({ truncated: false, json: { form: 1 } });
  }
  await expect(fetchObject('s3://only-bucket', deps, { maxBytes: 100 })).rejects.toThrow(/not an S3 object location/);
});
