/**
 * "Nothing lost", async side: 1,000 SQS deliveries (duplicates, reordering, malformed messages) replayed through the
 * result recorder AS BUNDLED (assets/async/result-recorder.lambda/index.js) with SQS → Lambda semantics (batches of 10,
 * partial batch failures redelivered, DLQ after maxReceiveCount 5), writing to dynalite behind a proxy that answers
 * 20% of DynamoDB data-plane requests with ProvisionedThroughputExceededException.
 *
 * The handler's own SDK retries are switched off (AWS_MAX_ATTEMPTS=1) so every throttle reaches the delivery layer:
 * the worst case for loss. At the end every distinct input is accounted for: recorded (the item holds it or a newer
 * event for the same inference that was also acknowledged) or dead-lettered. Lost = 0, and no final status regressed.
 */
import { join } from 'path';
import { CreateTableCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { DeliveryReport, deliverViaSqs, shuffle, SqsMessage } from './delivery';
import { scanTable, useReplayEnv } from './replay-env';
import { seededRandom } from '@cdk-sagemaker-mcp/test-stand-ins/throttling-proxy';
import { ASYNC_ENV, JOB_ATTRIBUTES } from 'cdk-sagemaker-mcp-runtime/internal/contract';

const BUNDLE = join(__dirname, '..', '..', 'assets', 'async', 'result-recorder.lambda', 'index.js');
const TABLE = 'async-jobs-replay';
const CONTROL_TABLE = 'async-jobs-control';
const TOTAL_DELIVERIES = 1_000;
const JOBS = 300;
const MALFORMED = 36;
const THROTTLE_FRACTION = 0.2;
const MAX_RECEIVE_COUNT = 5;
const SUCCESS_TOPIC = 'arn:aws:sns:us-east-1:123456789012:async-success';
const ERROR_TOPIC = 'arn:aws:sns:us-east-1:123456789012:async-error';
/** Another topic subscribed to (or sending to) the same queue: its messages are not the endpoint's results. */
const FOREIGN_TOPIC = 'arn:aws:sns:us-east-1:123456789012:someone-else';

/** One distinct input: an SNS notification (its SNS MessageId identifies it; duplicates share it). */
interface Input {
  readonly snsMessageId: string;
  readonly body: string;
  /** Undefined for malformed inputs. */
  readonly job?: { inferenceId: string; status: 'Completed' | 'Failed'; eventTimeMs: number };
}

const random = seededRandom(20261129);
type Recorder = (event: SQSEvent) => Promise<SQSBatchResponse>;
const local = useReplayEnv<Recorder>({
  bundle: BUNDLE,
  proxySeed: 7,
  createTables: async (ddb) => {
    for (const tableName of [TABLE, CONTROL_TABLE]) {
      await ddb.send(new CreateTableCommand({
        TableName: tableName,
        KeySchema: [{ AttributeName: JOB_ATTRIBUTES.INFERENCE_ID, KeyType: 'HASH' }],
        AttributeDefinitions: [{ AttributeName: JOB_ATTRIBUTES.INFERENCE_ID, AttributeType: 'S' }],
        BillingMode: 'PAY_PER_REQUEST',
      }));
    }
  },
  handlerEnv: {
    [ASYNC_ENV.JOB_TABLE_NAME]: TABLE,
    [ASYNC_ENV.JOB_RETENTION_SECONDS]: String(30 * 86400),
    [ASYNC_ENV.SUCCESS_TOPIC_ARN]: SUCCESS_TOPIC,
    [ASYNC_ENV.ERROR_TOPIC_ARN]: ERROR_TOPIC,
    [ASYNC_ENV.MAX_EVENT_TIME_SKEW_SECONDS]: '300',
  },
});
const jobsIn = (tableName: string) => scanTable(local.ddb, tableName, JOB_ATTRIBUTES.INFERENCE_ID);

function envelope(snsMessageId: string, message: string, topicArn: string): string {
  return JSON.stringify({
    Type: 'Notification',
    MessageId: snsMessageId,
    TopicArn: topicArn,
    Message: message,
    Timestamp: '2026-11-29T10:00:00.000Z',
    SignatureVersion: '1',
    Signature: 'EXAMPLE',
    SigningCertURL: 'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-0000000000000000000000.pem',
    UnsubscribeURL: `https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe&SubscriptionArn=${topicArn}:1`,
  });
}

/** SageMaker's async notification (the shape of test/fixtures/events/async-inference-sns-message.*.json). */
function notification(inferenceId: string, status: 'Completed' | 'Failed', eventTimeMs: number): Record<string, unknown> {
  const base = {
    awsRegion: 'us-east-1',
    eventTime: new Date(eventTimeMs).toISOString(),
    receivedTime: new Date(eventTimeMs - 60_000).toISOString(),
    invocationStatus: status,
    requestParameters: { contentType: 'application/json', endpointName: 'mcp-doc-processor-async', inputLocation: `s3://io/inputs/${inferenceId}` },
    inferenceId,
    eventVersion: '1.0',
    eventSource: 'aws:sagemaker',
    eventName: 'InferenceResult',
  };
  return status === 'Completed'
    ? { ...base, responseParameters: { contentType: 'application/json', outputLocation: `s3://io/outputs/${inferenceId}-${eventTimeMs}.out` } }
    : { ...base, failureReason: 'ClientError: Received server error (500) from model.', failureLocation: `s3://io/failures/${inferenceId}-error.out`, responseParameters: { contentType: 'application/json' } };
}

/** Distinct inputs: JOBS inferences (a third of them with a second, different notification), plus malformed ones. */
function buildInputs(): Input[] {
  const inputs: Input[] = [];
  const t0 = Date.parse('2026-11-29T09:00:00.000Z');
  for (let j = 0; j < JOBS; j++) {
    const inferenceId = `job-${String(j).padStart(4, '0')}`;
    const notifications = 1 + (j % 3 === 0 ? 1 : 0);
    for (let n = 0; n < notifications; n++) {
      const status = random() < 0.7 ? 'Completed' : 'Failed';
      const eventTimeMs = t0 + j * 1_000 + n * 500 + Math.floor(random() * 400);
      const snsMessageId = `sns-${inferenceId}-${n}`;
      inputs.push({
        snsMessageId,
        body: envelope(snsMessageId, JSON.stringify(notification(inferenceId, status, eventTimeMs)), status === 'Completed' ? SUCCESS_TOPIC : ERROR_TOPIC),
        job: { inferenceId, status, eventTimeMs },
      });
    }
  }
  const malformedBodies = (i: number): string => {
    const id = `bad-${i}`;
    const good = notification(id, 'Completed', t0 + i);
    switch (i % 12) {
      case 0: return `not json ${id}`;
      case 1: return JSON.stringify({ Type: 'Notification', MessageId: id, TopicArn: SUCCESS_TOPIC });
      case 2: return envelope(id, `{"truncated": "${id}"`, SUCCESS_TOPIC);
      case 3: return envelope(id, JSON.stringify({ ...good, inferenceId: undefined }), SUCCESS_TOPIC);
      case 4: return envelope(id, JSON.stringify({ ...good, eventTime: 'yesterday' }), SUCCESS_TOPIC);
      case 5: return envelope(id, JSON.stringify({ ...good, invocationStatus: 'InProgress' }), SUCCESS_TOPIC);
      case 6: return envelope(id, JSON.stringify({ ...good, responseParameters: {} }), SUCCESS_TOPIC);
      case 7: return envelope(id, JSON.stringify(good), FOREIGN_TOPIC);
      case 8: return JSON.stringify(good);
      case 9: return envelope(id, JSON.stringify({ ...good, eventTime: '9999-12-31T23:59:59.999Z' }), SUCCESS_TOPIC);
      case 10: return envelope(id, JSON.stringify({ ...good, eventTime: new Date(t0 + i).toUTCString() }), SUCCESS_TOPIC);
      default: return envelope(id, JSON.stringify([good]), SUCCESS_TOPIC);
    }
  };
  for (let i = 0; i < MALFORMED; i++) inputs.push({ snsMessageId: `bad-${i}`, body: malformedBodies(i) });
  return inputs;
}

interface Accounting {
  readonly inTable: number;
  readonly inDlq: number;
  readonly lost: string[];
  readonly regressed: string[];
  /** Inferences with an acknowledged notification (exactly those that must have an item). */
  readonly expectedIds: string[];
  readonly acked: Set<Input>;
  readonly deadLettered: Set<Input>;
}

/** Accounts for every distinct input against the table and the DLQ. */
function account(inputs: Input[], deliveries: Array<SqsMessage & { input: Input }>, report: DeliveryReport<SqsMessage>,
  table: Map<string, Record<string, AttributeValue>>): Accounting {
  const inputOf = new Map(deliveries.map((d) => [d.messageId, d.input]));
  const acked = new Set(report.acknowledged.map((m) => inputOf.get(m.messageId)!));
  const deadLettered = new Set(report.deadLettered.map((m) => inputOf.get(m.messageId)!));
  let inTable = 0;
  let inDlq = 0;
  const lost: string[] = [];
  for (const input of inputs) {
    const stored = input.job ? table.get(input.job.inferenceId) : undefined;
    const reflected = stored !== undefined && Number(stored[JOB_ATTRIBUTES.EVENT_TIME_MS].N) >= input.job!.eventTimeMs;
    if (acked.has(input) && reflected) inTable++;
    else if (deadLettered.has(input)) inDlq++;
    else lost.push(input.snsMessageId);
  }
  // Each item must hold the newest acknowledged notification for its inference: a final status never regressed.
  const newest = new Map<string, NonNullable<Input['job']>>();
  for (const input of acked) {
    if (!input.job) continue;
    const current = newest.get(input.job.inferenceId);
    if (!current || input.job.eventTimeMs > current.eventTimeMs) newest.set(input.job.inferenceId, input.job);
  }
  const regressed: string[] = [];
  for (const [inferenceId, expected] of newest) {
    const stored = table.get(inferenceId);
    if (stored?.[JOB_ATTRIBUTES.STATUS].S !== expected.status || Number(stored[JOB_ATTRIBUTES.EVENT_TIME_MS].N) !== expected.eventTimeMs) {
      regressed.push(`${inferenceId}: stored ${stored?.[JOB_ATTRIBUTES.STATUS].S}@${stored?.[JOB_ATTRIBUTES.EVENT_TIME_MS].N}, expected ${expected.status}@${expected.eventTimeMs}`);
    }
  }
  return { inTable, inDlq, lost, regressed, expectedIds: [...newest.keys()].sort(), acked, deadLettered };
}

/** Distinct inputs duplicated up to `total` SQS messages (an SNS redelivery is a new SQS message, same SNS MessageId). */
function withDuplicates(inputs: Input[], total: number): Array<SqsMessage & { input: Input }> {
  const deliveries: Array<SqsMessage & { input: Input }> = inputs.map((input, i) => ({ messageId: `sqs-${i}`, body: input.body, input }));
  while (deliveries.length < total) {
    const input = inputs[Math.floor(random() * inputs.length)];
    deliveries.push({ messageId: `sqs-${deliveries.length}`, body: input.body, input });
  }
  return deliveries;
}

async function replay(deliveries: Array<SqsMessage & { input: Input }>, recorder: Recorder): Promise<DeliveryReport<SqsMessage>> {
  return local.underThrottling(THROTTLE_FRACTION, () =>
    deliverViaSqs(shuffle(deliveries, random), recorder, { batchSize: 10, maxReceiveCount: MAX_RECEIVE_COUNT, concurrency: 4 }));
}

test('1,000 deliveries with duplicates, reordering, malformed messages and DynamoDB throttling: every input is recorded or dead-lettered', async () => {
  // GIVEN distinct inputs duplicated up to 1,000 SQS messages, shuffled
  const inputs = buildInputs();
  const deliveries = withDuplicates(inputs, TOTAL_DELIVERIES);
  const throttledBefore = local.proxy.stats().throttled;

  // WHEN they are delivered through the simulated SQS event source mapping
  const report = await replay(deliveries, local.handler);
  const result = account(inputs, deliveries, report, await jobsIn(TABLE));

  // THEN every distinct input is in the table or the DLQ, and no status regressed
  const malformed = inputs.filter((i) => !i.job);
  const throttled = local.proxy.stats().throttled - throttledBefore;
  // eslint-disable-next-line no-console
  console.log(`[replay] result-recorder (bundled, SQS batches of 10, maxReceiveCount ${MAX_RECEIVE_COUNT}): ${TOTAL_DELIVERIES} deliveries = `
    + `${inputs.length} distinct inputs (${malformed.length} malformed) + ${TOTAL_DELIVERIES - inputs.length} duplicates; `
    + `${throttled} DynamoDB requests throttled, ${report.redeliveries} redeliveries, ${report.invocations} invocations; `
    + `table ${result.inTable} + DLQ ${result.inDlq} = ${result.inTable + result.inDlq} of ${inputs.length}, lost ${result.lost.length}, regressed ${result.regressed.length}`);

  expect(result.lost).toEqual([]);
  expect(result.regressed).toEqual([]);
  expect(result.inTable + result.inDlq).toBe(inputs.length);
  expect(report.acknowledged.length + report.deadLettered.length).toBe(TOTAL_DELIVERIES);
  // Malformed notifications are never acknowledged: each reaches the DLQ after its last receive.
  for (const input of malformed) {
    expect(result.acked.has(input)).toBe(false);
    expect(result.deadLettered.has(input)).toBe(true);
  }
  // Items exist only for inferences with an acknowledged notification.
  expect([...(await jobsIn(TABLE)).keys()].sort()).toEqual(result.expectedIds);
  // The faults were really injected.
  expect(throttled).toBeGreaterThan(100);
  expect(report.redeliveries).toBeGreaterThan(100);
  expect(TOTAL_DELIVERIES - inputs.length).toBeGreaterThan(400);
}, 120_000);

test('the accounting catches a recorder that acknowledges what it failed to write (negative control)', async () => {
  // GIVEN a wrapper that swallows the bundled recorder's batch item failures, writing to a table of its own
  process.env[ASYNC_ENV.JOB_TABLE_NAME] = CONTROL_TABLE;
  const lossy = async (event: SQSEvent) => {
    await local.handler(event);
    return { batchItemFailures: [] };
  };
  const inputs = buildInputs().filter((i) => i.job).slice(0, 150);
  const deliveries = withDuplicates(inputs, 200);
  // WHEN
  const report = await replay(deliveries, lossy);
  const result = account(inputs, deliveries, report, await jobsIn(CONTROL_TABLE));
  process.env[ASYNC_ENV.JOB_TABLE_NAME] = TABLE;
  // THEN inputs whose every delivery was throttled are reported lost
  expect(report.deadLettered).toEqual([]);
  expect(result.lost.length).toBeGreaterThan(0);
}, 60_000);
