/**
 * The result recorder AS BUNDLED (assets/async/result-recorder.lambda/index.js, built by `npx projen bundle`), fed SQS
 * events that carry SNS envelopes (raw delivery off) around AWS's documented async notification, writing to dynalite.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { CreateTableCommand, DeleteTableCommand, DynamoDBClient, GetItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { sqsRecord } from '../reliability/delivery';
import { emfWrittenBy } from '../support/emf';
import { clientConfig, LocalService, LOCAL_CREDENTIALS, LOCAL_REGION, startDynalite } from '@cdk-sagemaker-mcp/test-stand-ins/local-aws';

const FIXTURES = join(__dirname, '..', 'fixtures', 'events');
const success = JSON.parse(readFileSync(join(FIXTURES, 'async-inference-sns-message.success.json'), 'utf8'));
const error = JSON.parse(readFileSync(join(FIXTURES, 'async-inference-sns-message.error.json'), 'utf8'));
const TABLE = 'async-jobs';
const SUCCESS_TOPIC = 'arn:aws:sns:us-east-1:123456789012:async-success';
const ERROR_TOPIC = 'arn:aws:sns:us-east-1:123456789012:async-error';
const FOREIGN_TOPIC = 'arn:aws:sns:us-east-1:123456789012:someone-elses-topic';

let dynalite: LocalService;
let ddb: DynamoDBClient;
let handler: (event: SQSEvent) => Promise<SQSBatchResponse>;
let messageSeq = 0;
const savedEnv = { ...process.env };

/** An SNS notification envelope (what SQS receives with raw message delivery off). */
function snsEnvelope(message: unknown, topicArn: string): string {
  return JSON.stringify({
    Type: 'Notification',
    MessageId: `sns-${++messageSeq}`,
    TopicArn: topicArn,
    Message: typeof message === 'string' ? message : JSON.stringify(message),
    Timestamp: '2022-01-25T22:46:01.000Z',
    SignatureVersion: '1',
    Signature: 'EXAMPLE',
    SigningCertURL: 'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-0000000000000000000000.pem',
    UnsubscribeURL: `https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe&SubscriptionArn=${topicArn}:1`,
  });
}

/** A first receive of `body`, as the SQS event source mapping delivers it. */
const recordOf = (body: string): SQSRecord => sqsRecord({ messageId: `msg-${++messageSeq}`, body });

const event = (...records: SQSRecord[]): SQSEvent => ({ Records: records });
const fromTopic = (message: unknown, topic = SUCCESS_TOPIC) => recordOf(snsEnvelope(message, topic));

async function item(id: string) {
  return (await ddb.send(new GetItemCommand({ TableName: TABLE, Key: { inferenceId: { S: id } }, ConsistentRead: true }))).Item;
}
async function itemCount() {
  return (await ddb.send(new ScanCommand({ TableName: TABLE }))).Items?.length ?? 0;
}

beforeAll(async () => {
  dynalite = await startDynalite();
  ddb = new DynamoDBClient(clientConfig(dynalite));
  // The bundle creates its own SDK client from the environment, as it would in Lambda.
  process.env.AWS_ENDPOINT_URL_DYNAMODB = dynalite.endpoint;
  process.env.AWS_REGION = LOCAL_REGION;
  process.env.AWS_ACCESS_KEY_ID = LOCAL_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = LOCAL_CREDENTIALS.secretAccessKey;
  process.env.SAGEMAKER_ASYNC_JOB_TABLE_NAME = TABLE;
  process.env.SAGEMAKER_ASYNC_JOB_RETENTION_SECONDS = '86400';
  process.env.SAGEMAKER_ASYNC_SUCCESS_TOPIC_ARN = SUCCESS_TOPIC;
  process.env.SAGEMAKER_ASYNC_ERROR_TOPIC_ARN = ERROR_TOPIC;
  // The construct's default bound (AsyncEndpoint sets every variable of the contract; see test/mcp/spec-seam.test.ts).
  process.env.SAGEMAKER_ASYNC_MAX_EVENT_TIME_SKEW_SECONDS = '300';
  jest.spyOn(console, 'log').mockImplementation(() => undefined);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  handler = require('../../assets/async/result-recorder.lambda/index.js').handler;
});

beforeEach(async () => {
  await ddb.send(new CreateTableCommand({
    TableName: TABLE,
    AttributeDefinitions: [{ AttributeName: 'inferenceId', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'inferenceId', KeyType: 'HASH' }],
    BillingMode: 'PAY_PER_REQUEST',
  }));
});

afterEach(async () => {
  await ddb.send(new DeleteTableCommand({ TableName: TABLE }));
});

afterAll(async () => {
  ddb.destroy();
  await dynalite.stop();
  process.env = savedEnv;
});

test('records a success notification as Completed with its output location', async () => {
  // WHEN
  const result = await handler(event(fromTopic(success)));

  // THEN
  expect(result).toEqual({ batchItemFailures: [] });
  const stored = await item(success.inferenceId);
  expect(stored).toMatchObject({
    inferenceId: { S: '11111111-2222-3333-4444-555555555555' },
    status: { S: 'Completed' },
    outputLocation: { S: 's3://mcp-async-io/outputs/prediction.out' },
    endpointName: { S: 'mcp-doc-processor-async' },
    completedAt: { S: '2022-01-25T22:46:00.608Z' },
    eventTimeMs: { N: String(Date.parse('2022-01-25T22:46:00.608Z')) },
  });
  expect(stored?.failureReason).toBeUndefined();
  const expiresAt = Number(stored?.expiresAt.N);
  const expected = Math.floor(Date.now() / 1000) + 86400;
  expect(Math.abs(expiresAt - expected)).toBeLessThan(60);
});

test('records an error notification as Failed with reason and top-level failureLocation', async () => {
  const result = await handler(event(fromTopic(error, ERROR_TOPIC)));

  expect(result.batchItemFailures).toEqual([]);
  expect(await item(error.inferenceId)).toMatchObject({
    status: { S: 'Failed' },
    failureReason: { S: error.failureReason },
    failureLocation: { S: 's3://mcp-async-io/failures/job-42-error.out' },
    endpointName: { S: 'mcp-doc-processor-async' },
  });
});

test('accepts failureLocation under responseParameters', async () => {
  // GIVEN the other shape seen in production code
  const { failureLocation, ...rest } = error;
  const nested = { ...rest, inferenceId: 'nested-1', responseParameters: { ...error.responseParameters, failureLocation } };

  await handler(event(fromTopic(nested, ERROR_TOPIC)));

  expect((await item('nested-1'))?.failureLocation).toEqual({ S: failureLocation });
});

test('accepts an error notification with neither failureLocation nor failureReason', async () => {
  const { failureLocation: _l, failureReason: _r, ...bare } = error;
  const result = await handler(event(fromTopic({ ...bare, inferenceId: 'bare-1' }, ERROR_TOPIC)));

  expect(result.batchItemFailures).toEqual([]);
  const stored = await item('bare-1');
  expect(stored?.status).toEqual({ S: 'Failed' });
  expect(stored?.failureLocation).toBeUndefined();
});

test('a duplicate delivery leaves one record, unchanged', async () => {
  // GIVEN
  await handler(event(fromTopic(success)));
  const first = await item(success.inferenceId);

  // WHEN the same message is delivered again (SNS and SQS are at-least-once)
  const result = await handler(event(fromTopic(success), fromTopic(success)));

  // THEN
  expect(result.batchItemFailures).toEqual([]);
  expect(await itemCount()).toBe(1);
  expect((await item(success.inferenceId))?.recordedAt).toEqual(first?.recordedAt);
});

test('each batch writes one EMF record: recorded, duplicate and refused messages counted', async () => {
  // GIVEN a new result, the same again, and a message from a foreign topic
  const fresh = { ...success, inferenceId: 'emf-1' };
  const forged = { ...fromTopic({ ...success, inferenceId: 'emf-2' }), body: JSON.stringify({ Type: 'Notification', TopicArn: 'arn:aws:sns:us-east-1:123456789012:other', Message: '{}' }) };

  // WHEN
  const records = await emfWrittenBy(() => handler(event(fromTopic(fresh), fromTopic(fresh), forged)));

  // THEN
  expect(records).toHaveLength(1);
  expect(records[0]._aws.CloudWatchMetrics[0]).toMatchObject({ Namespace: 'SageMakerMcp', Dimensions: [['service']] });
  expect(records[0]).toMatchObject({ ResultsRecorded: 1, ResultsDuplicate: 1, ResultsRefused: 1 });
  expect(JSON.stringify(records)).not.toContain('emf-1');
});

test('an older event arriving late never overwrites a newer final status', async () => {
  // GIVEN the job completed at t2
  const id = 'order-1';
  const newer = { ...success, inferenceId: id, eventTime: '2022-01-25T22:50:00.000Z' };
  const older = { ...error, inferenceId: id, eventTime: '2022-01-25T22:40:00.000Z' };
  await handler(event(fromTopic(newer)));

  // WHEN an error from t1 < t2 arrives afterwards
  const result = await handler(event(fromTopic(older, ERROR_TOPIC)));

  // THEN
  expect(result.batchItemFailures).toEqual([]);
  const stored = await item(id);
  expect(stored?.status).toEqual({ S: 'Completed' });
  expect(stored?.completedAt).toEqual({ S: '2022-01-25T22:50:00.000Z' });
});

test('a newer event replaces an older one', async () => {
  const id = 'order-2';
  await handler(event(fromTopic({ ...error, inferenceId: id, eventTime: '2022-01-25T22:40:00.000Z' }, ERROR_TOPIC)));
  await handler(event(fromTopic({ ...success, inferenceId: id, eventTime: '2022-01-25T22:50:00.000Z' })));

  expect((await item(id))?.status).toEqual({ S: 'Completed' });
});

describe('malformed messages go to the DLQ (batch item failures), not into the table', () => {
  test.each([
    ['a body that is not JSON', () => recordOf('not json')],
    ['a raw (un-enveloped) notification', () => recordOf(JSON.stringify(success))],
    ['an SNS Message that is not JSON', () => fromTopic('{oops')],
    ['a notification without inferenceId', () => fromTopic({ ...success, inferenceId: undefined })],
    ['a notification without eventTime', () => fromTopic({ ...success, inferenceId: 'no-time', eventTime: undefined })],
    ['an unknown invocationStatus', () => fromTopic({ ...success, inferenceId: 'odd', invocationStatus: 'InProgress' })],
    ['a Completed notification without outputLocation', () => fromTopic({ ...success, inferenceId: 'no-out', responseParameters: {} })],
    ['a notification from a topic that is not the endpoint\'s', () => fromTopic({ ...success, inferenceId: 'foreign' }, FOREIGN_TOPIC)],
    ['an envelope without TopicArn', () => recordOf(JSON.stringify({ ...JSON.parse(snsEnvelope(success, SUCCESS_TOPIC)), TopicArn: undefined }))],
    ['an envelope that is not a Notification', () => recordOf(JSON.stringify({ ...JSON.parse(snsEnvelope(success, SUCCESS_TOPIC)), Type: 'SubscriptionConfirmation' }))],
    ['eventTime "1" (Date.parse takes it)', () => fromTopic({ ...success, inferenceId: 'time-1', eventTime: '1' })],
    ['an RFC 1123 eventTime', () => fromTopic({ ...success, inferenceId: 'time-rfc', eventTime: 'Tue, 25 Jan 2022 22:46:00 GMT' })],
    ['an eventTime with an offset instead of Z', () => fromTopic({ ...success, inferenceId: 'time-offset', eventTime: '2022-01-25T23:46:00.608+01:00' })],
    ['an eventTime that is not a date (February 30)', () => fromTopic({ ...success, inferenceId: 'time-feb30', eventTime: '2022-02-30T10:00:00.000Z' })],
    ['an eventTime in year 9999', () => fromTopic({ ...success, inferenceId: 'time-9999', eventTime: '9999-12-31T23:59:59.999Z' })],
    ['an eventTime 10 minutes ahead of the clock', () => fromTopic({ ...success, inferenceId: 'time-ahead', eventTime: new Date(Date.now() + 600_000).toISOString() })],
  ])('%s', async (_name, makeBad) => {
    // GIVEN a batch with one good and one bad message
    const bad = makeBad();
    const good = fromTopic(success);

    // WHEN
    const result = await handler(event(good, bad));

    // THEN only the bad one is reported, and only the good one is recorded
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: bad.messageId }]);
    expect(await itemCount()).toBe(1);
    expect(await item(success.inferenceId)).toBeDefined();
  });
});

test('a DynamoDB failure is reported as a batch item failure (retried), not swallowed', async () => {
  // GIVEN the table is gone
  await ddb.send(new DeleteTableCommand({ TableName: TABLE }));
  try {
    const record = fromTopic(success);
    const result = await handler(event(record));
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: record.messageId }]);
  } finally {
    await ddb.send(new CreateTableCommand({
      TableName: TABLE,
      AttributeDefinitions: [{ AttributeName: 'inferenceId', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'inferenceId', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    }));
  }
});

describe('event times and sources that could freeze a result', () => {
  test('a notification dated 9999 neither replaces a Completed result nor locks out the genuine redelivery', async () => {
    // GIVEN a recorded failure, then a forged success for the same inference dated 9999 (a queue sender, not SageMaker)
    const id = 'freeze-1';
    await handler(event(fromTopic({ ...error, inferenceId: id }, ERROR_TOPIC)));
    const forged = fromTopic({ ...success, inferenceId: id, eventTime: '9999-12-31T23:59:59.999Z', responseParameters: { outputLocation: 's3://elsewhere/secret' } });

    // WHEN it arrives, followed by SageMaker's genuine later notification
    const refused = await handler(event(forged));
    const genuine = await handler(event(fromTopic({ ...success, inferenceId: id, eventTime: '2022-01-25T23:00:00.000Z' })));

    // THEN the forged one goes to the DLQ and the genuine one is recorded
    expect(refused.batchItemFailures).toEqual([{ itemIdentifier: forged.messageId }]);
    expect(genuine.batchItemFailures).toEqual([]);
    expect(await item(id)).toMatchObject({ status: { S: 'Completed' }, outputLocation: { S: success.responseParameters.outputLocation } });
  });

  test('an eventTime within the allowed skew ahead of the clock is recorded', async () => {
    const soon = new Date(Date.now() + 60_000).toISOString();
    const result = await handler(event(fromTopic({ ...success, inferenceId: 'skew-ok', eventTime: soon })));
    expect(result.batchItemFailures).toEqual([]);
    expect((await item('skew-ok'))?.completedAt).toEqual({ S: soon });
  });

  test('the skew is configurable (SAGEMAKER_ASYNC_MAX_EVENT_TIME_SKEW_SECONDS)', async () => {
    process.env.SAGEMAKER_ASYNC_MAX_EVENT_TIME_SKEW_SECONDS = '0';
    try {
      const ahead = fromTopic({ ...success, inferenceId: 'skew-0', eventTime: new Date(Date.now() + 30_000).toISOString() });
      expect((await handler(event(ahead))).batchItemFailures).toEqual([{ itemIdentifier: ahead.messageId }]);
    } finally {
      process.env.SAGEMAKER_ASYNC_MAX_EVENT_TIME_SKEW_SECONDS = '300';
    }
  });

  test('a recorder without its topic ARNs fails the invocation (messages stay queued) and names what is missing', async () => {
    const saved = process.env.SAGEMAKER_ASYNC_ERROR_TOPIC_ARN;
    delete process.env.SAGEMAKER_ASYNC_ERROR_TOPIC_ARN;
    try {
      await expect(handler(event(fromTopic(success)))).rejects.toThrow(/SAGEMAKER_ASYNC_ERROR_TOPIC_ARN: expected a string, but it is not set/);
      expect(await itemCount()).toBe(0);
    } finally {
      process.env.SAGEMAKER_ASYNC_ERROR_TOPIC_ARN = saved;
    }
  });
});
