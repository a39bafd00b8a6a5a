/**
 * Training lifecycle at call time: start a SageMaker pipeline execution tagged with the caller's session id, read its
 * progress, and read the result the `pipeline-router` handler recorded. Also the router's own logic
 * (`parsePipelineEvent`, `recordPipelineEvent`), so the handler stays a thin adapter.
 */
/* eslint-disable import/no-extraneous-dependencies -- the runtime's AWS SDK clients are devDependencies on purpose: Lambda
   provides them, users of the runtime subpath install the clients they call (README). */
import { createHash } from 'crypto';
import {
  ConditionalCheckFailedException,
  DynamoDBClient,
  DynamoDBClientConfig,
  GetItemCommand,
  QueryCommand,
  UpdateItemCommand,
  type AttributeValue,
} from '@aws-sdk/client-dynamodb';
import {
  DescribePipelineExecutionCommand,
  ListPipelineExecutionStepsCommand,
  SageMakerClient,
  SageMakerClientConfig,
  StartPipelineExecutionCommand,
} from '@aws-sdk/client-sagemaker';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
/* eslint-enable import/no-extraneous-dependencies */
import {
  CLIENT_REQUEST_TOKEN_MAX,
  DEFAULT_RESULT_TTL_DAYS,
  EXECUTION_DISPLAY_NAME_PATTERN,
  formatCorrelationDescription,
  isPipelineExecutionStatus,
  MAX_EXECUTION_DESCRIPTION_LENGTH,
  parseCorrelationDescription,
  PIPELINE_EXECUTION_DETAIL_TYPE,
  PIPELINE_STEP_DETAIL_TYPE,
  PipelineExecutionStatusValue,
  RESULTS_PARTITION_KEY,
  RESULTS_SESSION_INDEX,
  RESULTS_SESSION_KEY,
  RESULTS_TTL_ATTRIBUTE,
  SESSION_ID_EXPECTED,
  SESSION_ID_PATTERN,
  statusRank,
  TrainingResultRecord,
} from '../pipelines/contract';

export type { TrainingResultRecord, PipelineExecutionStatusValue } from '../pipelines/contract';
export { formatCorrelationDescription, parseCorrelationDescription } from '../pipelines/contract';

/** How runtime functions get a SageMaker client: pass one, or the config to build one (endpoint, region, credentials). */
export interface TrainingSageMakerAccess {
  readonly sagemaker?: SageMakerClient;
  readonly sagemakerConfig?: SageMakerClientConfig;
}

/** How runtime functions reach the results table. */
export interface TrainingResultsTableAccess {
  readonly tableName: string;
  readonly dynamodb?: DynamoDBClient;
  readonly dynamodbConfig?: DynamoDBClientConfig;
}

function sagemakerOf(access: TrainingSageMakerAccess = {}): SageMakerClient {
  return access.sagemaker ?? new SageMakerClient(access.sagemakerConfig ?? {});
}

function dynamodbOf(access: TrainingResultsTableAccess): DynamoDBClient {
  return access.dynamodb ?? new DynamoDBClient(access.dynamodbConfig ?? {});
}

/** A request the runtime refused before calling AWS; `field` names what was wrong. */
export class TrainingRequestError extends Error {
  constructor(public readonly field: string, value: unknown, expected: string) {
    super(`${field}: got ${typeof value === 'string' ? JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value) : String(value)}, expected ${expected}`);
    this.name = 'TrainingRequestError';
  }
}

// ---------------------------------------------------------------------------------------------------------------
// startTraining

export type PipelineParameterValue = string | number | boolean;

export interface StartTrainingRequest {
  /** Pipeline name or ARN. */
  readonly pipelineName: string;
  /** Pipeline parameter overrides; values are sent as strings, as the API requires. */
  readonly parameters?: Record<string, PipelineParameterValue>;
  /** The correlation id the router uses to file the result (usually the MCP session id). */
  readonly sessionId: string;
  /** `PipelineExecutionDisplayName`: `^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,81}`. */
  readonly displayName?: string;
  /**
   * Distinguishes deliberate re-runs with the same session, pipeline and parameters. The idempotency token is derived
   * from (pipeline, session, parameters, attempt), so a retried call with the same values never starts twice.
   */
  readonly attempt?: string;
  /** Clock for the "triggered at" stamp (tests). */
  readonly now?: Date;
}

export interface StartTrainingResult {
  readonly executionArn: string;
  readonly status: 'Executing';
  /** The `ClientRequestToken` sent (the same for a retried call). */
  readonly clientRequestToken: string;
  readonly description: string;
}

/** `PipelineParameterName`: `^[A-Za-z0-9\-_]*$`, 1-256 characters [API]. */
const PARAMETER_NAME_PATTERN = /^[A-Za-z0-9\-_]{1,256}$/;

/** Deterministic `ClientRequestToken` (64 hex characters, inside the API's 32-128). */
export function trainingRequestToken(req: Pick<StartTrainingRequest, 'pipelineName' | 'sessionId' | 'parameters' | 'attempt'>): string {
  const params = Object.keys(req.parameters ?? {}).sort().map((k) => [k, String(req.parameters![k])]);
  const token = createHash('sha256')
    .update(JSON.stringify(['cdk-sagemaker-mcp/start-training/v1', req.pipelineName, req.sessionId, params, req.attempt ?? '']))
    .digest('hex');
  return token.slice(0, CLIENT_REQUEST_TOKEN_MAX);
}

/**
 * Starts a pipeline execution with `session_id=<id>; triggered at <ISO time>` as its description and returns at once.
 * Refuses, before calling AWS, a session id that would break that format, a description over 3072 characters, a bad
 * display name or parameter name.
 */
export async function startTraining(req: StartTrainingRequest, access: TrainingSageMakerAccess = {}): Promise<StartTrainingResult> {
  if (typeof req.pipelineName !== 'string' || req.pipelineName.length === 0) {
    throw new TrainingRequestError('pipelineName', req.pipelineName, 'a pipeline name or ARN');
  }
  if (typeof req.sessionId !== 'string' || !SESSION_ID_PATTERN.test(req.sessionId)) {
    throw new TrainingRequestError('sessionId', req.sessionId, SESSION_ID_EXPECTED);
  }
  if (req.displayName !== undefined && !EXECUTION_DISPLAY_NAME_PATTERN.test(req.displayName)) {
    throw new TrainingRequestError('displayName', req.displayName, '1-82 letters, digits or hyphens, starting and ending with a letter or digit');
  }
  for (const [name, value] of Object.entries(req.parameters ?? {})) {
    if (!PARAMETER_NAME_PATTERN.test(name)) {
      throw new TrainingRequestError(`parameters.${name}`, name, 'a parameter name of 1-256 letters, digits, "-" or "_"');
    }
    if (!['string', 'number', 'boolean'].includes(typeof value) || (typeof value === 'number' && !Number.isFinite(value))) {
      throw new TrainingRequestError(`parameters.${name}`, value, 'a string, finite number or boolean');
    }
  }
  const description = formatCorrelationDescription(req.sessionId, req.now ?? new Date());
  if (description.length > MAX_EXECUTION_DESCRIPTION_LENGTH) {
    throw new TrainingRequestError('sessionId', req.sessionId, `a session id short enough for a description of at most ${MAX_EXECUTION_DESCRIPTION_LENGTH} characters (got ${description.length})`);
  }
  const clientRequestToken = trainingRequestToken(req);
  const out = await sagemakerOf(access).send(new StartPipelineExecutionCommand({
    PipelineName: req.pipelineName,
    PipelineExecutionDescription: description,
    PipelineExecutionDisplayName: req.displayName,
    PipelineParameters: Object.entries(req.parameters ?? {}).map(([Name, v]) => ({ Name, Value: String(v) })),
    ClientRequestToken: clientRequestToken,
  }));
  if (!out.PipelineExecutionArn) throw new Error('StartPipelineExecution returned no PipelineExecutionArn');
  return { executionArn: out.PipelineExecutionArn, status: 'Executing', clientRequestToken, description };
}

// ---------------------------------------------------------------------------------------------------------------
// getTrainingStatus

export interface TrainingStepStatus {
  readonly name: string;
  readonly status: string;
  readonly failureReason?: string;
}

export interface TrainingStatus {
  readonly executionArn: string;
  readonly pipelineArn?: string;
  readonly status: string;
  readonly failureReason?: string;
  /** Session id parsed from the execution's description, when it carries one. */
  readonly sessionId?: string;
  /** Every step, across all pages, in the order the API returns them (newest first by default). */
  readonly steps: TrainingStepStatus[];
}

/** DescribePipelineExecution plus every page of ListPipelineExecutionSteps. */
export async function getTrainingStatus(executionArn: string, access: TrainingSageMakerAccess = {}): Promise<TrainingStatus> {
  const sagemaker = sagemakerOf(access);
  const detail = await sagemaker.send(new DescribePipelineExecutionCommand({ PipelineExecutionArn: executionArn }));
  const steps: TrainingStepStatus[] = [];
  let nextToken: string | undefined;
  do {
    const page = await sagemaker.send(new ListPipelineExecutionStepsCommand({ PipelineExecutionArn: executionArn, NextToken: nextToken }));
    for (const s of page.PipelineExecutionSteps ?? []) {
      steps.push({ name: s.StepName ?? '', status: s.StepStatus ?? 'Unknown', ...(s.FailureReason ? { failureReason: s.FailureReason } : {}) });
    }
    nextToken = page.NextToken;
  } while (nextToken);
  const { sessionId } = parseCorrelationDescription(detail.PipelineExecutionDescription);
  return {
    executionArn,
    pipelineArn: detail.PipelineArn,
    status: detail.PipelineExecutionStatus ?? 'Unknown',
    ...(detail.FailureReason ? { failureReason: detail.FailureReason } : {}),
    ...(sessionId ? { sessionId } : {}),
    steps,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// getTrainingResult

export type TrainingResult =
  | { readonly status: 'pending'; readonly sessionId: string }
  | (TrainingResultRecord & { readonly sessionId: string });

/**
 * One read of the results table (a Query on the session index, newest execution first): `pending` until the router has
 * recorded an execution for this session.
 */
export async function getTrainingResult(sessionId: string, access: TrainingResultsTableAccess): Promise<TrainingResult> {
  const out = await dynamodbOf(access).send(new QueryCommand({
    TableName: access.tableName,
    IndexName: RESULTS_SESSION_INDEX,
    KeyConditionExpression: '#s = :s',
    ExpressionAttributeNames: { '#s': RESULTS_SESSION_KEY },
    ExpressionAttributeValues: { ':s': { S: sessionId } },
    ScanIndexForward: false,
    Limit: 1,
  }));
  const item = out.Items?.[0];
  const record = item ? trainingResultFromItem(item) : undefined;
  if (!record) return { status: 'pending', sessionId };
  return { ...record, sessionId };
}

/** The recorded result of one execution (also those started without a session id); undefined until recorded. */
export async function getTrainingResultByExecution(
  executionArn: string,
  access: TrainingResultsTableAccess,
): Promise<TrainingResultRecord | undefined> {
  const out = await dynamodbOf(access).send(new GetItemCommand({
    TableName: access.tableName,
    Key: { [RESULTS_PARTITION_KEY]: { S: executionArn } },
    ConsistentRead: true,
  }));
  return out.Item ? trainingResultFromItem(out.Item) : undefined;
}

function str(item: Record<string, AttributeValue>, name: string): string | undefined {
  return item[name]?.S;
}

/** Undefined when the item has no status yet (only a step failure was recorded so far). */
export function trainingResultFromItem(item: Record<string, AttributeValue>): TrainingResultRecord | undefined {
  const status = str(item, 'status');
  if (!isPipelineExecutionStatus(status)) return undefined;
  const optional = (name: string) => (str(item, name) !== undefined ? { [name]: str(item, name) } : {});
  return {
    ...optional('sessionId'),
    executionArn: str(item, RESULTS_PARTITION_KEY)!,
    pipelineArn: str(item, 'pipelineArn') ?? '',
    status,
    ...optional('failureReason'),
    ...optional('failedStep'),
    startedAt: str(item, 'startedAt') ?? '',
    ...optional('endedAt'),
    eventTime: str(item, 'eventTime') ?? '',
  } as TrainingResultRecord;
}

// ---------------------------------------------------------------------------------------------------------------
// The router's logic: parse an EventBridge event, record it idempotently

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
  const sqs = options.sqs ?? new SQSClient({});
  await sqs.send(new SendMessageCommand({ QueueUrl: options.queueUrl, MessageBody: JSON.stringify(record) }));
  return true;
}
