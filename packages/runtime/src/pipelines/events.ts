/**
 * The `pipeline-router` handler's logic (`parsePipelineEvent`, `recordPipelineEvent`), so the handler stays a thin
 * adapter: validate a SageMaker pipeline status event from EventBridge and record it idempotently in the results table.
 */
/* eslint-disable import/no-extraneous-dependencies -- the runtime's AWS SDK clients are devDependencies on purpose: Lambda
   provides them, users of the runtime subpath install the clients they call (README). */
import { ConditionalCheckFailedException, DynamoDBClient, GetItemCommand, UpdateItemCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
/* eslint-enable import/no-extraneous-dependencies */
import { TrainingResultsTableAccess, trainingResultFromItem } from './pipelines';
import { ContractConfigError, parseContract } from '../contract/parse';
import {
  DEFAULT_RESULT_TTL_DAYS,
  isPipelineExecutionStatus,
  parseCorrelationDescription,
  PIPELINE_EXECUTION_DETAIL_TYPE,
  PIPELINE_STEP_DETAIL_TYPE,
  PipelineExecutionStatusValue,
  PipelineRouterEnvSchema,
  RESULT_TTL_DAYS_ENV,
  RESULTS_PARTITION_KEY,
  RESULTS_QUEUE_URL_ENV,
  RESULTS_TABLE_ENV,
  RESULTS_TTL_ATTRIBUTE,
  statusRank,
  TrainingResultRecord,
} from '../contract/pipelines';
import { boundedClient } from '../core/bounded';

function dynamodbOf(access: TrainingResultsTableAccess): DynamoDBClient {
  return access.dynamodb ?? boundedClient(DynamoDBClient, access.dynamodbConfig ?? {});
}

/** What the pipeline router needs, read from the environment `PipelineEventRouter` gives it. */
export interface PipelineRouterConfig {
  readonly tableName: string;
  /** The queue each recorded result is also sent to; unset: table only. */
  readonly queueUrl?: string;
  readonly ttlDays: number;
}

/**
 * The router's configuration from its environment, parsed with the contract's schema; every problem at once, each
 * naming the variable (`PIPELINE_RESULT_TTL_DAYS: expected whole days, got "30d"`).
 */
export function pipelineRouterConfigFromEnv(env: Record<string, string | undefined> = process.env): PipelineRouterConfig {
  const parsed = parseContract(PipelineRouterEnvSchema, env, { fail: (problems) => new ContractConfigError(problems, 'The pipeline router is misconfigured') });
  return { tableName: parsed[RESULTS_TABLE_ENV], queueUrl: parsed[RESULTS_QUEUE_URL_ENV], ttlDays: Number(parsed[RESULT_TTL_DAYS_ENV]) };
}

/** The event cannot be processed; the handler throws it so Lambda retries and then dead-letters the event. */
export class MalformedPipelineEventError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedPipelineEventError';
  }
}

export type ParsedPipelineEvent =
  | {
    readonly kind: 'execution';
    readonly executionArn: string;
    readonly pipelineArn: string;
    readonly status: PipelineExecutionStatusValue;
    readonly sessionId?: string;
    readonly startedAt?: string;
    readonly endedAt?: string;
    readonly eventTime: string;
  }
  | {
    readonly kind: 'step';
    readonly executionArn: string;
    readonly pipelineArn: string;
    readonly stepName: string;
    readonly stepStatus: string;
    readonly failureReason?: string;
    readonly stepTime: string;
    readonly eventTime: string;
  };

const EXECUTION_ARN = /^arn:aws[a-z-]*:sagemaker:[a-z0-9-]*:\d{12}:pipeline\/[^/]+\/execution\/[^/]+$/;

function isoTime(value: unknown, what: string, required: true): string;
function isoTime(value: unknown, what: string, required: false): string | undefined;
function isoTime(value: unknown, what: string, required: boolean): string | undefined {
  if (value === undefined || value === null || value === '') {
    if (required) throw new MalformedPipelineEventError(`${what} is missing`);
    return undefined;
  }
  const ms = typeof value === 'string' ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) {
    if (required) throw new MalformedPipelineEventError(`${what}: got ${JSON.stringify(value)}, expected an ISO 8601 time`);
    return undefined;
  }
  return new Date(ms).toISOString();
}

/** Validates an EventBridge pipeline event (execution or step status change); throws `MalformedPipelineEventError`. */
export function parsePipelineEvent(event: unknown): ParsedPipelineEvent {
  if (typeof event !== 'object' || event === null) throw new MalformedPipelineEventError('event is not an object');
  const e = event as Record<string, unknown>;
  if (e.source !== 'aws.sagemaker') throw new MalformedPipelineEventError(`source: got ${JSON.stringify(e.source)}, expected "aws.sagemaker"`);
  const detail = e.detail as Record<string, unknown> | undefined;
  if (typeof detail !== 'object' || detail === null) throw new MalformedPipelineEventError('detail is missing');
  const executionArn = detail.pipelineExecutionArn;
  if (typeof executionArn !== 'string' || !EXECUTION_ARN.test(executionArn)) {
    throw new MalformedPipelineEventError(`detail.pipelineExecutionArn: got ${JSON.stringify(executionArn)}, expected a pipeline execution ARN`);
  }
  const pipelineArn = typeof detail.pipelineArn === 'string' && detail.pipelineArn ? detail.pipelineArn : executionArn.replace(/\/execution\/[^/]+$/, '');
  const eventTime = isoTime(e.time, 'time', true);

  if (e['detail-type'] === PIPELINE_EXECUTION_DETAIL_TYPE) {
    const status = detail.currentPipelineExecutionStatus;
    if (!isPipelineExecutionStatus(status)) {
      throw new MalformedPipelineEventError(`detail.currentPipelineExecutionStatus: got ${JSON.stringify(status)}, expected Executing, Stopping, Stopped, Failed or Succeeded`);
    }
    const description = typeof detail.pipelineExecutionDescription === 'string' ? detail.pipelineExecutionDescription : undefined;
    const { sessionId } = parseCorrelationDescription(description);
    return {
      kind: 'execution',
      executionArn,
      pipelineArn,
      status,
      ...(sessionId ? { sessionId } : {}),
      startedAt: isoTime(detail.executionStartTime, 'detail.executionStartTime', false),
      endedAt: isoTime(detail.executionEndTime, 'detail.executionEndTime', false),
      eventTime,
    };
  }
  if (e['detail-type'] === PIPELINE_STEP_DETAIL_TYPE) {
    if (typeof detail.stepName !== 'string' || !detail.stepName) throw new MalformedPipelineEventError('detail.stepName is missing');
    if (typeof detail.currentStepStatus !== 'string') throw new MalformedPipelineEventError('detail.currentStepStatus is missing');
    return {
      kind: 'step',
      executionArn,
      pipelineArn,
      stepName: detail.stepName,
      stepStatus: detail.currentStepStatus,
      ...(typeof detail.failureReason === 'string' ? { failureReason: detail.failureReason } : {}),
      stepTime: isoTime(detail.stepEndTime, 'detail.stepEndTime', false) ?? eventTime,
      eventTime,
    };
  }
  throw new MalformedPipelineEventError(`detail-type: got ${JSON.stringify(e['detail-type'])}, expected "${PIPELINE_EXECUTION_DETAIL_TYPE}" or "${PIPELINE_STEP_DETAIL_TYPE}"`);
}

export interface PipelineRecorderOptions extends TrainingResultsTableAccess {
  /** Days a result lives (DynamoDB TTL). Default 30. */
  readonly ttlDays?: number;
  /** Also send each newly recorded execution result to this queue. */
  readonly queueUrl?: string;
  readonly sqs?: SQSClient;
  readonly now?: () => Date;
}

export type PipelineRecordOutcome =
  /** The execution item now holds this event's status. */
  | { readonly outcome: 'recorded'; readonly record: TrainingResultRecord; readonly sentToQueue: boolean }
  /** Older than, or a duplicate of, what is stored: nothing changed (a duplicate is re-sent to the queue, at least once). */
  | { readonly outcome: 'stale'; readonly duplicate: boolean; readonly sentToQueue: boolean }
  /** A failed step was noted on the execution item (status untouched). */
  | { readonly outcome: 'step-recorded' }
  /** A step event that is not a failure, or an older failure than the one stored. */
  | { readonly outcome: 'ignored' };

/**
 * Records one pipeline event in the results table with conditional writes: idempotent, and a final status is never
 * replaced by a non-final or older one. Throws `MalformedPipelineEventError` for an event it cannot read and rethrows
 * AWS errors, so the caller (Lambda) retries and then dead-letters.
 */
export async function recordPipelineEvent(event: unknown, options: PipelineRecorderOptions): Promise<PipelineRecordOutcome> {
  const parsed = parsePipelineEvent(event);
  const dynamodb = dynamodbOf(options);
  const now = options.now?.() ?? new Date();
  const ttlDays = options.ttlDays ?? DEFAULT_RESULT_TTL_DAYS;
  const expiresAt = String(Math.floor(now.getTime() / 1000) + Math.round(ttlDays * 86400));
  const key = { [RESULTS_PARTITION_KEY]: { S: parsed.executionArn } };

  if (parsed.kind === 'step') {
    if (parsed.stepStatus !== 'Failed') return { outcome: 'ignored' };
    try {
      await dynamodb.send(new UpdateItemCommand({
        TableName: options.tableName,
        Key: key,
        // The earliest failure is the cause; a Succeeded recorded after this step failed (a retried run) wins.
        ConditionExpression: '(attribute_not_exists(failedStepTime) OR failedStepTime > :t) AND (attribute_not_exists(#status) OR #status <> :ok OR eventTime < :t)',
        UpdateExpression: 'SET failedStep = :n, failedStepTime = :t, pipelineArn = if_not_exists(pipelineArn, :p), #ttl = if_not_exists(#ttl, :ttl)'
          + (parsed.failureReason ? ', failureReason = :fr' : ' REMOVE failureReason'),
        ExpressionAttributeNames: { '#status': 'status', '#ttl': RESULTS_TTL_ATTRIBUTE },
        ExpressionAttributeValues: {
          ':n': { S: parsed.stepName },
          ':t': { S: parsed.stepTime },
          ':p': { S: parsed.pipelineArn },
          ':ttl': { N: expiresAt },
          ':ok': { S: 'Succeeded' },
          ...(parsed.failureReason ? { ':fr': { S: parsed.failureReason } } : {}),
        },
      }));
      return { outcome: 'step-recorded' };
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return { outcome: 'ignored' };
      throw err;
    }
  }

  const rank = statusRank(parsed.status);
  const names: Record<string, string> = { '#status': 'status', '#ttl': RESULTS_TTL_ATTRIBUTE };
  const values: Record<string, AttributeValue> = {
    ':p': { S: parsed.pipelineArn },
    ':st': { S: parsed.status },
    ':r': { N: String(rank) },
    ':t': { S: parsed.eventTime },
    ':ttl': { N: expiresAt },
    ':started': { S: parsed.startedAt ?? parsed.eventTime },
  };
  const sets = ['pipelineArn = :p', '#status = :st', 'statusRank = :r', 'eventTime = :t', '#ttl = :ttl',
    parsed.startedAt ? 'startedAt = :started' : 'startedAt = if_not_exists(startedAt, :started)'];
  const removes: string[] = [];
  if (parsed.sessionId) {
    sets.push('sessionId = :sid');
    values[':sid'] = { S: parsed.sessionId };
  }
  if (parsed.endedAt) {
    sets.push('endedAt = :e');
    values[':e'] = { S: parsed.endedAt };
  }
  if (parsed.status === 'Succeeded') removes.push('failedStep', 'failedStepTime', 'failureReason');

  let record: TrainingResultRecord | undefined;
  try {
    const out = await dynamodb.send(new UpdateItemCommand({
      TableName: options.tableName,
      Key: key,
      ConditionExpression: 'attribute_not_exists(statusRank) OR statusRank < :r OR (statusRank = :r AND eventTime < :t)',
      UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW',
    }));
    record = out.Attributes ? trainingResultFromItem(out.Attributes) : undefined;
  } catch (err) {
    if (!(err instanceof ConditionalCheckFailedException)) throw err;
    // A duplicate delivery may follow an attempt that wrote the item but died before sending to the queue: re-send it.
    const stored = await dynamodb.send(new GetItemCommand({ TableName: options.tableName, Key: key, ConsistentRead: true }));
    const current = stored.Item ? trainingResultFromItem(stored.Item) : undefined;
    const duplicate = current !== undefined && current.status === parsed.status && current.eventTime === parsed.eventTime;
    const sentToQueue = duplicate && current ? await sendToQueue(current, options) : false;
    return { outcome: 'stale', duplicate, sentToQueue };
  }
  if (!record) throw new Error(`UpdateItem on ${parsed.executionArn} returned no attributes`);
  const sentToQueue = await sendToQueue(record, options);
  return { outcome: 'recorded', record, sentToQueue };
}

async function sendToQueue(record: TrainingResultRecord, options: PipelineRecorderOptions): Promise<boolean> {
  if (!options.queueUrl) return false;
  const sqs = options.sqs ?? boundedClient(SQSClient, {});
  await sqs.send(new SendMessageCommand({ QueueUrl: options.queueUrl, MessageBody: JSON.stringify(record) }));
  return true;
}
