/**
 * The BUNDLED router handler (assets/pipelines/pipeline-router.lambda/index.js, built by `npx projen bundle`) fed AWS's
 * documented pipeline events, writing to dynalite through the real DynamoDB client. The table is created from the
 * key schema the PipelineEventRouter construct synthesizes, so construct, handler and runtime agree on the layout.
 */
import { createHash, randomUUID } from 'crypto';
import * as fs from 'fs';
import { createServer, Server } from 'http';
import { AddressInfo } from 'net';
import * as path from 'path';
import { CreateTableCommand, DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { PipelineEventRouter } from '../../src/pipelines';
import { emfWrittenBy } from '../support/emf';
import { clientConfig, LOCAL_CREDENTIALS, LOCAL_REGION, LocalService, startDynalite } from '@cdk-sagemaker-mcp/test-stand-ins/local-aws';
import { RESULTS_TABLE_ENV, RESULT_TTL_DAYS_ENV } from 'cdk-sagemaker-mcp-runtime/internal/contract';
import { recordPipelineEvent } from 'cdk-sagemaker-mcp-runtime/internal/lambda';
import { getTrainingResult, getTrainingResultByExecution } from 'cdk-sagemaker-mcp-runtime/pipelines';

const EVENTS = path.join(__dirname, '..', 'fixtures', 'events');
const succeededEvent = () => JSON.parse(fs.readFileSync(path.join(EVENTS, 'pipeline-execution-status-change.succeeded.json'), 'utf8'));
const stepFailedEvent = () => JSON.parse(fs.readFileSync(path.join(EVENTS, 'pipeline-execution-step-status-change.failed.json'), 'utf8'));

let dynalite: LocalService;
let dynamodb: DynamoDBClient;
let handler: (event: unknown) => Promise<any>;
const TABLE = 'pipeline-results';

/** The fixture event for a fresh execution (so tests do not share items), with the given status, time and description. */
interface EventOptions { id?: string; status?: string; time?: string; description?: string | null; start?: string; end?: string | null }

function executionEvent(opts: EventOptions = {}) {
  const e = succeededEvent();
  const execId = opts.id ?? randomUUID().slice(0, 12);
  const execArn = `${e.detail.pipelineArn}/execution/${execId}`;
  e.resources = [e.detail.pipelineArn, execArn];
  e.detail.pipelineExecutionArn = execArn;
  if (opts.status) e.detail.currentPipelineExecutionStatus = opts.status;
  if (opts.time) e.time = opts.time;
  if (opts.start) e.detail.executionStartTime = opts.start;
  if (opts.end === null) delete e.detail.executionEndTime;
  else if (opts.end) e.detail.executionEndTime = opts.end;
  if (opts.description === null) delete e.detail.pipelineExecutionDescription;
  else if (opts.description !== undefined) e.detail.pipelineExecutionDescription = opts.description;
  return e;
}

async function item(executionArn: string) {
  return (await dynamodb.send(new GetItemCommand({ TableName: TABLE, Key: { executionArn: { S: executionArn } }, ConsistentRead: true }))).Item;
}

beforeAll(async () => {
  dynalite = await startDynalite();
  dynamodb = new DynamoDBClient(clientConfig(dynalite));
  // The table exactly as the construct declares it
  const stack = new Stack(new App(), 'S');
  new PipelineEventRouter(stack, 'Router');
  const props = Object.values(Template.fromStack(stack).findResources('AWS::DynamoDB::Table'))[0].Properties;
  await dynamodb.send(new CreateTableCommand({
    TableName: TABLE,
    KeySchema: props.KeySchema,
    AttributeDefinitions: props.AttributeDefinitions,
    GlobalSecondaryIndexes: props.GlobalSecondaryIndexes,
    BillingMode: 'PAY_PER_REQUEST',
  }));
  process.env[RESULTS_TABLE_ENV] = TABLE;
  process.env[RESULT_TTL_DAYS_ENV] = '30';
  process.env.AWS_ENDPOINT_URL_DYNAMODB = dynalite.endpoint;
  process.env.AWS_REGION = LOCAL_REGION;
  process.env.AWS_ACCESS_KEY_ID = LOCAL_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = LOCAL_CREDENTIALS.secretAccessKey;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  handler = require('../../assets/pipelines/pipeline-router.lambda/index.js').handler;
});

afterAll(async () => {
  dynamodb?.destroy();
  await dynalite?.stop();
});

describe('pipeline-router (bundled)', () => {
  test('succeeded: records the session result, readable with getTrainingResult', async () => {
    // GIVEN the documented event, with the description startTraining writes
    const event = executionEvent({ description: 'session_id=sess-ok-1; triggered at 2021-03-15T16:03:12.000Z' });
    // WHEN
    const outcome = await handler(event);
    // THEN
    expect(outcome.outcome).toBe('recorded');
    const result = await getTrainingResult('sess-ok-1', { tableName: TABLE, dynamodb });
    expect(result).toEqual({
      sessionId: 'sess-ok-1',
      executionArn: event.detail.pipelineExecutionArn,
      pipelineArn: 'arn:aws:sagemaker:us-east-1:123456789012:pipeline/myPipeline-123',
      status: 'Succeeded',
      startedAt: '2021-03-15T16:03:13.000Z',
      endedAt: '2021-03-15T16:10:10.000Z',
      eventTime: '2021-03-15T16:10:11.000Z',
    });
    const stored = await item(event.detail.pipelineExecutionArn);
    const ttl = Number(stored!.expiresAt.N);
    expect(ttl).toBeGreaterThan(Date.now() / 1000 + 29 * 86400);
    expect(ttl).toBeLessThan(Date.now() / 1000 + 31 * 86400);
  });

  test('pending until the router has recorded the session', async () => {
    await expect(getTrainingResult('sess-never', { tableName: TABLE, dynamodb })).resolves.toEqual({ status: 'pending', sessionId: 'sess-never' });
  });

  test('failed with a failed step: the step event records failedStep and failureReason, the status stays Failed', async () => {
    // GIVEN
    const execution = executionEvent({ status: 'Failed', description: 'session_id=sess-fail; triggered at 2021-03-15T16:03:12Z' });
    const step = stepFailedEvent();
    step.detail.pipelineExecutionArn = execution.detail.pipelineExecutionArn;
    // WHEN the step failure arrives first (it happens first), then the execution's
    expect((await handler(step)).outcome).toBe('step-recorded');
    expect((await handler(execution)).outcome).toBe('recorded');
    // and the step event is delivered again after the final status
    expect((await handler(step)).outcome).toBe('ignored');
    // THEN
    const result = await getTrainingResult('sess-fail', { tableName: TABLE, dynamodb });
    expect(result).toMatchObject({
      status: 'Failed',
      failedStep: 'TrainModel',
      failureReason: 'ClientError: AlgorithmError: training script exited with status 1',
    });
  });

  test('a step failure arriving after the final status does not change the status', async () => {
    // GIVEN
    const execution = executionEvent({ status: 'Failed', description: 'session_id=sess-late-step; triggered at 2021-03-15T16:03:12Z' });
    const step = stepFailedEvent();
    step.detail.pipelineExecutionArn = execution.detail.pipelineExecutionArn;
    // WHEN
    await handler(execution);
    await handler(step);
    // THEN
    const result = await getTrainingResult('sess-late-step', { tableName: TABLE, dynamodb });
    expect(result).toMatchObject({ status: 'Failed', failedStep: 'TrainModel', eventTime: '2021-03-15T16:10:11.000Z' });
  });

  test('duplicate: the second delivery changes nothing', async () => {
    // GIVEN
    const event = executionEvent({ description: 'session_id=sess-dup; triggered at 2021-03-15T16:03:12Z' });
    // WHEN
    const first = await handler(event);
    const before = await item(event.detail.pipelineExecutionArn);
    const second = await handler(JSON.parse(JSON.stringify(event)));
    // THEN
    expect(first.outcome).toBe('recorded');
    expect(second).toEqual({ outcome: 'stale', duplicate: true, sentToQueue: false });
    expect(await item(event.detail.pipelineExecutionArn)).toEqual(before);
  });

  test('metrics: each event writes an EMF record saying it was recorded, a duplicate, or refused', async () => {
    // GIVEN
    const event = executionEvent({ description: 'session_id=sess-emf; triggered at 2021-03-15T16:03:12Z' });
    const malformed = executionEvent({ description: 'session_id=sess-emf-bad; triggered at 2021-03-15T16:03:12Z' });
    delete (malformed as any).detail;
    // WHEN
    const records = await emfWrittenBy(async () => {
      await handler(event);
      await handler(JSON.parse(JSON.stringify(event)));
      await handler(malformed).catch(() => undefined);
    });
    // THEN
    expect(records.map((r) => [r.ResultsRecorded, r.ResultsDuplicate, r.ResultsRefused])).toEqual([[1, 0, 0], [0, 1, 0], [0, 0, 1]]);
    expect(records.every((r) => r._aws.CloudWatchMetrics[0].Namespace === 'SageMakerMcp')).toBe(true);
  });

  test('out of order: Executing delivered after Succeeded never replaces it', async () => {
    // GIVEN
    const id = randomUUID().slice(0, 12);
    const succeeded = executionEvent({ id, description: 'session_id=sess-ooo; triggered at 2021-03-15T16:03:12Z' });
    const executing = executionEvent({ id, status: 'Executing', time: '2021-03-15T16:03:14Z', end: null, description: 'session_id=sess-ooo; triggered at 2021-03-15T16:03:12Z' });
    // WHEN
    await handler(succeeded);
    const late = await handler(executing);
    // THEN
    expect(late).toEqual({ outcome: 'stale', duplicate: false, sentToQueue: false });
    expect(await getTrainingResult('sess-ooo', { tableName: TABLE, dynamodb })).toMatchObject({ status: 'Succeeded', eventTime: '2021-03-15T16:10:11.000Z' });
  });

  test('in order: Executing then Succeeded ends Succeeded; a newer final status (a retried run) replaces an older one', async () => {
    // GIVEN
    const id = randomUUID().slice(0, 12);
    const description = 'session_id=sess-retry; triggered at 2021-03-15T16:03:12Z';
    // WHEN
    await handler(executionEvent({ id, status: 'Executing', time: '2021-03-15T16:03:14Z', end: null, description }));
    await handler(executionEvent({ id, status: 'Failed', time: '2021-03-15T16:10:11Z', description }));
    await handler(executionEvent({ id, status: 'Executing', time: '2021-03-15T16:20:00Z', end: null, description }));
    await handler(executionEvent({ id, status: 'Succeeded', time: '2021-03-15T16:30:00Z', end: '2021-03-15T16:29:59Z', description }));
    // THEN
    expect(await getTrainingResult('sess-retry', { tableName: TABLE, dynamodb })).toMatchObject({
      status: 'Succeeded', eventTime: '2021-03-15T16:30:00.000Z', endedAt: '2021-03-15T16:29:59.000Z',
    });
  });

  test('missing description (the documented sample has none of ours): recorded by execution ARN, not dropped', async () => {
    // GIVEN
    const noDescription = executionEvent({ description: null });
    const foreignDescription = executionEvent({ description: 'SomeDescription' });
    // WHEN
    expect((await handler(noDescription)).outcome).toBe('recorded');
    expect((await handler(foreignDescription)).outcome).toBe('recorded');
    // THEN
    const recorded = await getTrainingResultByExecution(noDescription.detail.pipelineExecutionArn, { tableName: TABLE, dynamodb });
    expect(recorded).toMatchObject({ status: 'Succeeded', executionArn: noDescription.detail.pipelineExecutionArn });
    expect(recorded!.sessionId).toBeUndefined();
    expect((await item(foreignDescription.detail.pipelineExecutionArn))!.sessionId).toBeUndefined();
  });

  test('the newest execution of a session is the one getTrainingResult returns', async () => {
    // GIVEN two executions for one session
    const description = 'session_id=sess-two; triggered at 2021-03-15T16:03:12Z';
    const older = executionEvent({ status: 'Failed', start: '2021-03-15T10:00:00Z', description });
    const newer = executionEvent({ status: 'Succeeded', start: '2021-03-15T12:00:00Z', description });
    // WHEN delivered newest first
    await handler(newer);
    await handler(older);
    // THEN
    expect(await getTrainingResult('sess-two', { tableName: TABLE, dynamodb })).toMatchObject({ executionArn: newer.detail.pipelineExecutionArn, status: 'Succeeded' });
  });

  test.each([
    ['no detail', (e: any) => { delete e.detail; }, /detail is missing/],
    ['no execution ARN', (e: any) => { delete e.detail.pipelineExecutionArn; }, /detail\.pipelineExecutionArn: got undefined/],
    ['an unknown status', (e: any) => { e.detail.currentPipelineExecutionStatus = 'Exploded'; }, /currentPipelineExecutionStatus: got "Exploded"/],
    ['another detail type', (e: any) => { e['detail-type'] = 'SageMaker Training Job State Change'; }, /detail-type: got "SageMaker Training Job State Change"/],
    ['no time', (e: any) => { delete e.time; }, /time is missing/],
    ['another source', (e: any) => { e.source = 'aws.s3'; }, /source: got "aws.s3"/],
  ])('malformed (%s): throws, so Lambda retries and then dead-letters it, and writes nothing', async (_name, mutate, message) => {
    // GIVEN
    const event = executionEvent({ description: 'session_id=sess-malformed; triggered at 2021-03-15T16:03:12Z' });
    const arn = event.detail.pipelineExecutionArn;
    mutate(event);
    // WHEN / THEN
    await expect(handler(event)).rejects.toThrow(message);
    expect(await item(arn)).toBeUndefined();
  });

  test('an AWS error is rethrown (Lambda retries), not swallowed', async () => {
    // GIVEN a table that does not exist
    const event = executionEvent({ description: 'session_id=sess-err; triggered at 2021-03-15T16:03:12Z' });
    // WHEN / THEN
    await expect(recordPipelineEvent(event, { tableName: 'no-such-table', dynamodb })).rejects.toThrow(/non-existent table|not found/i);
  });
});

describe('results queue (runtime recorder, real SQS client against a local SQS JSON endpoint)', () => {
  let sqsServer: Server;
  let sqs: SQSClient;
  const sent: any[] = [];

  beforeAll(async () => {
    // SQS speaks awsJson1_0 (`X-Amz-Target: AmazonSQS.SendMessage`); the client checks MD5OfMessageBody.
    sqsServer = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        sent.push({ target: req.headers['x-amz-target'], body });
        const out = JSON.stringify({ MessageId: randomUUID(), MD5OfMessageBody: createHash('md5').update(body.MessageBody).digest('hex') });
        res.writeHead(200, { 'Content-Type': 'application/x-amz-json-1.0', 'x-amzn-RequestId': randomUUID() });
        res.end(out);
      });
    });
    await new Promise<void>((r) => sqsServer.listen(0, '127.0.0.1', () => r()));
    sqs = new SQSClient({ endpoint: `http://127.0.0.1:${(sqsServer.address() as AddressInfo).port}`, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  });

  afterAll(async () => {
    sqs?.destroy();
    await new Promise<void>((r) => sqsServer.close(() => r()));
  });

  test('a recorded result is sent once; a duplicate delivery re-sends it (at least once), a stale one does not', async () => {
    // GIVEN
    const queueUrl = 'https://sqs.us-east-1.amazonaws.com/123456789012/results';
    const id = randomUUID().slice(0, 12);
    const description = 'session_id=sess-queue; triggered at 2021-03-15T16:03:12Z';
    const event = executionEvent({ id, description });
    // WHEN
    const first = await recordPipelineEvent(event, { tableName: TABLE, dynamodb, sqs, queueUrl });
    const duplicate = await recordPipelineEvent(event, { tableName: TABLE, dynamodb, sqs, queueUrl });
    const stale = await recordPipelineEvent(executionEvent({ id, status: 'Executing', time: '2021-03-15T16:03:14Z', description }), { tableName: TABLE, dynamodb, sqs, queueUrl });
    // THEN
    expect(first).toMatchObject({ outcome: 'recorded', sentToQueue: true });
    expect(duplicate).toEqual({ outcome: 'stale', duplicate: true, sentToQueue: true });
    expect(stale).toEqual({ outcome: 'stale', duplicate: false, sentToQueue: false });
    expect(sent).toHaveLength(2);
    expect(sent[0].target).toBe('AmazonSQS.SendMessage');
    expect(sent[0].body.QueueUrl).toBe(queueUrl);
    expect(JSON.parse(sent[0].body.MessageBody)).toMatchObject({ sessionId: 'sess-queue', status: 'Succeeded', executionArn: event.detail.pipelineExecutionArn });
  });
});
