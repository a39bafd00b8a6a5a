/**
 * "Nothing lost", pipelines side: 1,000 EventBridge deliveries (duplicates, reordering, malformed events) replayed
 * through the pipeline router AS BUNDLED (assets/pipelines/pipeline-router.lambda/index.js) with EventBridge → Lambda
 * asynchronous-invocation semantics (a thrown error is retried up to 2 more times, then the event goes to the DLQ),
 * writing to dynalite behind a proxy that answers 20% of DynamoDB data-plane requests with
 * ProvisionedThroughputExceededException. The handler's SDK retries are off (AWS_MAX_ATTEMPTS=1): every throttle
 * reaches Lambda's retry logic.
 *
 * At the end every distinct event (EventBridge `id`) is accounted for: recorded (the execution's item holds it or a
 * higher-ranked / newer status that was also acknowledged; a failed step is held unless an earlier failure is) or
 * dead-lettered. Lost = 0, and each item holds the status that the newest, highest-ranked acknowledged event implies.
 */
import { join } from 'path';
import { CreateTableCommand, DynamoDBClient, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { DeliveryReport, deliverViaEventBridgeAsync, shuffle } from './delivery';
import { scanTable, useReplayEnv } from './replay-env';
import { PipelineEventRouter } from '../../src/pipelines';
import { seededRandom } from '@cdk-sagemaker-mcp/test-stand-ins/throttling-proxy';
import {
  PIPELINE_EXECUTION_DETAIL_TYPE,
  PIPELINE_STEP_DETAIL_TYPE,
  PipelineExecutionStatusValue,
  RESULT_TTL_DAYS_ENV,
  RESULTS_PARTITION_KEY,
  RESULTS_TABLE_ENV,
  statusRank,
} from 'cdk-sagemaker-mcp-runtime/internal/contract';

const BUNDLE = join(__dirname, '..', '..', 'assets', 'pipelines', 'pipeline-router.lambda', 'index.js');
const TABLE = 'pipeline-results-replay';
const CONTROL_TABLE = 'pipeline-results-control';
const TOTAL_DELIVERIES = 1_000;
const EXECUTIONS = 200;
const MALFORMED = 25;
const THROTTLE_FRACTION = 0.2;
const RETRY_ATTEMPTS = 2;
const PIPELINE_ARN = 'arn:aws:sagemaker:us-east-1:123456789012:pipeline/churn-training';

type Ev = Record<string, any>;

/** One distinct EventBridge event (its `id` identifies it; duplicates share it). */
interface Input {
  readonly event: Ev;
  readonly execution?: { arn: string; status: PipelineExecutionStatusValue; time: string };
  readonly step?: { arn: string; stepName: string; stepTime: string };
}

const random = seededRandom(424242);
let eventSeq = 0;

const iso = (ms: number) => new Date(ms).toISOString();

/** An execution status change as SageMaker emits it (shape of test/fixtures/events/pipeline-execution-status-change.succeeded.json). */
function executionEvent(arn: string, status: PipelineExecutionStatusValue, timeMs: number, startMs: number, sessionId?: string): Ev {
  const final = ['Succeeded', 'Failed', 'Stopped'].includes(status);
  return {
    'version': '0',
    'id': `evt-${++eventSeq}`,
    'detail-type': PIPELINE_EXECUTION_DETAIL_TYPE,
    'source': 'aws.sagemaker',
    'account': '123456789012',
    'time': iso(timeMs),
    'region': 'us-east-1',
    'resources': [PIPELINE_ARN, arn],
    'detail': {
      currentPipelineExecutionStatus: status,
      executionStartTime: iso(startMs),
      ...(final ? { executionEndTime: iso(timeMs - 1_000) } : {}),
      ...(sessionId ? { pipelineExecutionDescription: `session_id=${sessionId}; triggered at ${iso(startMs - 500)}` } : {}),
      pipelineArn: PIPELINE_ARN,
      pipelineExecutionArn: arn,
    },
  };
}

function stepFailedEvent(arn: string, stepName: string, stepEndMs: number): Ev {
  return {
    'version': '0',
    'id': `evt-${++eventSeq}`,
    'detail-type': PIPELINE_STEP_DETAIL_TYPE,
    'source': 'aws.sagemaker',
    'account': '123456789012',
    'time': iso(stepEndMs + 1_000),
    'region': 'us-east-1',
    'resources': [PIPELINE_ARN, arn],
    'detail': {
      stepName,
      stepType: 'Training',
      previousStepStatus: 'Executing',
      currentStepStatus: 'Failed',
      stepStartTime: iso(stepEndMs - 60_000),
      stepEndTime: iso(stepEndMs),
      failureReason: `ClientError: AlgorithmError in ${stepName}`,
      pipelineArn: PIPELINE_ARN,
      pipelineExecutionArn: arn,
    },
  };
}

/**
 * Per execution: Executing, sometimes Stopping, then a final status (Succeeded / Failed / Stopped); a tenth of the
 * Failed ones are retried (RetryPipelineExecution) and end with a later Succeeded. Failed executions that are not
 * retried also report one or two failed steps.
 */
function buildInputs(): Input[] {
  const inputs: Input[] = [];
  const t0 = Date.parse('2026-11-29T08:00:00.000Z');
  for (let x = 0; x < EXECUTIONS; x++) {
    const arn = `${PIPELINE_ARN}/execution/exec${String(x).padStart(4, '0')}`;
    const start = t0 + x * 600_000;
    const session = x % 4 === 0 ? undefined : `session-${x}`;
    const add = (status: PipelineExecutionStatusValue, timeMs: number) =>
      inputs.push({ event: executionEvent(arn, status, timeMs, start, session), execution: { arn, status, time: iso(timeMs) } });
    add('Executing', start + 1_000);
    const r = random();
    if (r < 0.1) {
      add('Stopping', start + 100_000);
      add('Stopped', start + 120_000);
    } else if (r < 0.4) {
      const steps = 1 + (x % 2);
      for (let s = 0; s < steps; s++) {
        const stepEnd = start + 200_000 + s * 10_000;
        const event = stepFailedEvent(arn, `Step${s}`, stepEnd);
        inputs.push({ event, step: { arn, stepName: `Step${s}`, stepTime: iso(stepEnd) } });
      }
      add('Failed', start + 250_000);
    } else if (r < 0.45) {
      add('Failed', start + 250_000);
      add('Executing', start + 300_000);
      add('Succeeded', start + 400_000);
    } else {
      add('Succeeded', start + 400_000);
    }
  }
  for (let i = 0; i < MALFORMED; i++) {
    const good = executionEvent(`${PIPELINE_ARN}/execution/bad${i}`, 'Succeeded', t0 + i, t0);
    const malformed: Ev = (() => {
      switch (i % 6) {
        case 0: return { ...good, source: 'aws.s3' };
        case 1: return { ...good, detail: undefined };
        case 2: return { ...good, detail: { ...good.detail, pipelineExecutionArn: `not-an-arn-${i}` } };
        case 3: return { ...good, detail: { ...good.detail, currentPipelineExecutionStatus: 'Exploded' } };
        case 4: return { ...good, time: 'soon' };
        default: return { ...good, 'detail-type': 'SageMaker Training Job State Change' };
      }
    })();
    inputs.push({ event: malformed });
  }
  return inputs;
}

/** The table exactly as the construct declares it (key schema and the session index). */
let tableProps: any;
async function createTable(ddb: DynamoDBClient, tableName: string): Promise<void> {
  if (!tableProps) {
    const stack = new Stack(new App(), 'S');
    new PipelineEventRouter(stack, 'Router');
    tableProps = Object.values(Template.fromStack(stack).findResources('AWS::DynamoDB::Table'))[0].Properties;
  }
  const props = tableProps;
  await ddb.send(new CreateTableCommand({
    TableName: tableName,
    KeySchema: props.KeySchema,
    AttributeDefinitions: props.AttributeDefinitions,
    GlobalSecondaryIndexes: props.GlobalSecondaryIndexes,
    BillingMode: 'PAY_PER_REQUEST',
  }));
}

const local = useReplayEnv<(event: unknown) => Promise<unknown>>({
  bundle: BUNDLE,
  proxySeed: 11,
  createTables: async (ddb) => {
    await createTable(ddb, TABLE);
    await createTable(ddb, CONTROL_TABLE);
  },
  handlerEnv: {
    [RESULTS_TABLE_ENV]: TABLE,
    [RESULT_TTL_DAYS_ENV]: '30',
  },
});
const resultsIn = (tableName: string) => scanTable(local.ddb, tableName, RESULTS_PARTITION_KEY);

/** Status order of the router: higher rank wins, then the later event time. */
function newer(a: { status: PipelineExecutionStatusValue; time: string }, b: { status: PipelineExecutionStatusValue; time: string }): boolean {
  const ra = statusRank(a.status);
  const rb = statusRank(b.status);
  return ra > rb || (ra === rb && a.time > b.time);
}

interface Accounting {
  readonly inTable: number;
  readonly inDlq: number;
  readonly lost: string[];
  readonly regressed: string[];
  readonly acked: Set<Input>;
  readonly deadLettered: Set<Input>;
}

function account(inputs: Input[], report: DeliveryReport<Input>, table: Map<string, Record<string, AttributeValue>>): Accounting {
  const acked = new Set(report.acknowledged);
  const deadLettered = new Set(report.deadLettered);
  let inTable = 0;
  let inDlq = 0;
  const lost: string[] = [];
  for (const input of inputs) {
    let reflected = false;
    if (input.execution) {
      const item = table.get(input.execution.arn);
      const stored = item?.status?.S ? { status: item.status.S as PipelineExecutionStatusValue, time: item.eventTime.S! } : undefined;
      reflected = stored !== undefined && !newer(input.execution, stored);
    } else if (input.step) {
      const item = table.get(input.step.arn);
      reflected = item?.failedStepTime?.S !== undefined && item.failedStepTime.S <= input.step.stepTime;
    }
    if (acked.has(input) && reflected) inTable++;
    else if (deadLettered.has(input)) inDlq++;
    else lost.push(input.event.id);
  }

  // Each item's status is the one the newest, highest-ranked acknowledged event implies; its failed step the earliest.
  const expected = new Map<string, { status?: Input['execution']; step?: Input['step'] }>();
  for (const input of acked) {
    if (input.execution) {
      const e = expected.get(input.execution.arn) ?? {};
      if (!e.status || newer(input.execution, e.status)) e.status = input.execution;
      expected.set(input.execution.arn, e);
    } else if (input.step) {
      const e = expected.get(input.step.arn) ?? {};
      if (!e.step || input.step.stepTime < e.step.stepTime) e.step = input.step;
      expected.set(input.step.arn, e);
    }
  }
  const regressed: string[] = [];
  for (const [arn, want] of expected) {
    const item = table.get(arn);
    const got = `${item?.status?.S}@${item?.eventTime?.S} step ${item?.failedStep?.S}`;
    const ok = item?.status?.S === want.status?.status && item?.eventTime?.S === want.status?.time
      && item?.failedStep?.S === want.step?.stepName;
    if (!ok) regressed.push(`${arn}: stored ${got}, expected ${want.status?.status}@${want.status?.time} step ${want.step?.stepName}`);
  }
  for (const arn of table.keys()) if (!expected.has(arn)) regressed.push(`${arn}: an item no acknowledged event explains`);
  return { inTable, inDlq, lost, regressed, acked, deadLettered };
}

function withDuplicates(inputs: Input[], total: number): Input[] {
  const deliveries = [...inputs];
  while (deliveries.length < total) deliveries.push(inputs[Math.floor(random() * inputs.length)]);
  return deliveries;
}

async function replay(deliveries: Input[], router: (event: unknown) => Promise<unknown>): Promise<DeliveryReport<Input>> {
  // The handler gets the event; the report keeps the Input wrapper so each delivery maps back to its distinct input.
  return local.underThrottling(THROTTLE_FRACTION, () =>
    deliverViaEventBridgeAsync(shuffle(deliveries, random), (input) => router(input.event), {
      retryAttempts: RETRY_ATTEMPTS,
      concurrency: 4,
    }));
}

test('1,000 deliveries with duplicates, reordering, malformed events and DynamoDB throttling: every event is recorded or dead-lettered', async () => {
  // GIVEN distinct events duplicated up to 1,000 deliveries (EventBridge delivers at least once), shuffled
  const inputs = buildInputs();
  const deliveries = withDuplicates(inputs, TOTAL_DELIVERIES);
  const throttledBefore = local.proxy.stats().throttled;

  // WHEN EventBridge invokes the bundled router asynchronously for each
  const report = await replay(deliveries, local.handler);
  const result = account(inputs, report, await resultsIn(TABLE));

  // THEN
  const malformed = inputs.filter((i) => !i.execution && !i.step);
  const throttled = local.proxy.stats().throttled - throttledBefore;
  // eslint-disable-next-line no-console
  console.log(`[replay] pipeline-router (bundled, EventBridge async, ${RETRY_ATTEMPTS} retries): ${TOTAL_DELIVERIES} deliveries = `
    + `${inputs.length} distinct events (${malformed.length} malformed) + ${TOTAL_DELIVERIES - inputs.length} duplicates; `
    + `${throttled} DynamoDB requests throttled, ${report.redeliveries} retries, ${report.invocations} invocations; `
    + `table ${result.inTable} + DLQ ${result.inDlq} = ${result.inTable + result.inDlq} of ${inputs.length}, lost ${result.lost.length}, regressed ${result.regressed.length}`);

  expect(result.lost).toEqual([]);
  expect(result.regressed).toEqual([]);
  expect(result.inTable + result.inDlq).toBe(inputs.length);
  expect(report.acknowledged.length + report.deadLettered.length).toBe(TOTAL_DELIVERIES);
  for (const input of malformed) {
    expect(result.acked.has(input)).toBe(false);
    expect(result.deadLettered.has(input)).toBe(true);
  }
  expect(throttled).toBeGreaterThan(100);
  expect(report.redeliveries).toBeGreaterThan(100);
  expect(TOTAL_DELIVERIES - inputs.length).toBeGreaterThan(300);
}, 120_000);

test('the accounting catches a router that swallows its errors (negative control)', async () => {
  // GIVEN a wrapper that reports success whatever the bundled router threw, writing to a table of its own
  process.env[RESULTS_TABLE_ENV] = CONTROL_TABLE;
  const lossy = async (event: unknown) => local.handler(event).catch(() => undefined);
  const inputs = buildInputs().filter((i) => i.execution).slice(0, 200);
  // WHEN
  const report = await replay(withDuplicates(inputs, 250), lossy);
  const result = account(inputs, report, await resultsIn(CONTROL_TABLE));
  process.env[RESULTS_TABLE_ENV] = TABLE;
  // THEN events whose only delivery was throttled are reported lost
  expect(report.deadLettered).toEqual([]);
  expect(result.lost.length).toBeGreaterThan(0);
}, 60_000);
