/**
 * Training lifecycle at call time: start a SageMaker pipeline execution tagged with the caller's session id, read its
 * progress, and read the result the `pipeline-router` handler recorded (whose logic is in ./pipeline-events).
 */
/* eslint-disable import/no-extraneous-dependencies -- the runtime's AWS SDK clients are devDependencies on purpose: Lambda
   provides them, users of the runtime subpath install the clients they call (README). */
import { createHash } from 'crypto';
import type { DynamoDBClient, DynamoDBClientConfig, AttributeValue } from '@aws-sdk/client-dynamodb';
import type { SageMakerClient, SageMakerClientConfig } from '@aws-sdk/client-sagemaker';
import {
  CLIENT_REQUEST_TOKEN_MAX,
  EXECUTION_DISPLAY_NAME_PATTERN,
  formatCorrelationDescription,
  isPipelineExecutionStatus,
  MAX_EXECUTION_DESCRIPTION_LENGTH,
  parseCorrelationDescription,
  RESULTS_PARTITION_KEY,
  RESULTS_SESSION_INDEX,
  RESULTS_SESSION_KEY,
  SESSION_ID_EXPECTED,
  SESSION_ID_PATTERN,
  TrainingResultRecord,
} from '../contract/pipelines';
import { dynamoDbSdk, sageMakerSdk } from '../core/aws-sdk';
/* eslint-enable import/no-extraneous-dependencies */
import { boundedClient, PageGuard } from '../core/bounded';

export type { TrainingResultRecord, PipelineExecutionStatusValue } from '../contract/pipelines';
export { formatCorrelationDescription, parseCorrelationDescription } from '../contract/pipelines';

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

// Clients built here carry connection and request timeouts (./bounded); a given client keeps its own settings.
function sagemakerOf(access: TrainingSageMakerAccess = {}): SageMakerClient {
  return access.sagemaker ?? boundedClient(sageMakerSdk().SageMakerClient, access.sagemakerConfig ?? {});
}

function dynamodbOf(access: TrainingResultsTableAccess): DynamoDBClient {
  return access.dynamodb ?? boundedClient(dynamoDbSdk().DynamoDBClient, access.dynamodbConfig ?? {});
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
   * from (pipeline, session, parameters, attempt, caller), so a retried call with the same values never starts twice.
   */
  readonly attempt?: string;
  /**
   * Who asks (e.g. the IAM principal ARN of the request, or the OS user of a stdio server). Part of the idempotency
   * token, so two callers that pick the same session id start two runs instead of sharing the first one.
   * @default - no caller: callers passing the same values share one run
   */
  readonly caller?: string;
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
function trainingRequestToken(req: Pick<StartTrainingRequest, 'pipelineName' | 'sessionId' | 'parameters' | 'attempt' | 'caller'>): string {
  const params = Object.keys(req.parameters ?? {}).sort().map((k) => [k, String(req.parameters![k])]);
  const fields: unknown[] = ['cdk-sagemaker-mcp/start-training/v1', req.pipelineName, req.sessionId, params, req.attempt ?? ''];
  // Appended only when known, so tokens of callers without an identity stay what they were.
  if (req.caller !== undefined) fields.push({ caller: req.caller });
  const token = createHash('sha256').update(JSON.stringify(fields)).digest('hex');
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
  const out = await sagemakerOf(access).send(new (sageMakerSdk().StartPipelineExecutionCommand)({
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
  /** Every step, across all pages read, in the order the API returns them (newest first by default). */
  readonly steps: TrainingStepStatus[];
  /** Set when not every page was read: `page-cap` (`maxPages` reached) or `repeated-token` (the service looped). */
  readonly stepsTruncated?: 'page-cap' | 'repeated-token';
}

export interface TrainingStatusOptions extends TrainingSageMakerAccess {
  /** ListPipelineExecutionSteps pages read at most. @default 50 */
  readonly maxPages?: number;
}

/**
 * DescribePipelineExecution plus the pages of ListPipelineExecutionSteps: at most `maxPages`, and never a token the
 * service already returned (a service that keeps answering the same NextToken would otherwise be asked for ever).
 */
export async function getTrainingStatus(executionArn: string, access: TrainingStatusOptions = {}): Promise<TrainingStatus> {
  const sagemaker = sagemakerOf(access);
  const { DescribePipelineExecutionCommand, ListPipelineExecutionStepsCommand } = sageMakerSdk();
  const detail = await sagemaker.send(new DescribePipelineExecutionCommand({ PipelineExecutionArn: executionArn }));
  const steps: TrainingStepStatus[] = [];
  const guard = new PageGuard('ListPipelineExecutionSteps', access.maxPages);
  let nextToken: string | undefined;
  do {
    const page = await sagemaker.send(new ListPipelineExecutionStepsCommand({ PipelineExecutionArn: executionArn, NextToken: nextToken }));
    for (const s of page.PipelineExecutionSteps ?? []) {
      steps.push({ name: s.StepName ?? '', status: s.StepStatus ?? 'Unknown', ...(s.FailureReason ? { failureReason: s.FailureReason } : {}) });
    }
    nextToken = guard.next(page.NextToken);
  } while (nextToken);
  const { sessionId } = parseCorrelationDescription(detail.PipelineExecutionDescription);
  return {
    executionArn,
    pipelineArn: detail.PipelineArn,
    status: detail.PipelineExecutionStatus ?? 'Unknown',
    ...(detail.FailureReason ? { failureReason: detail.FailureReason } : {}),
    ...(sessionId ? { sessionId } : {}),
    steps,
    ...(guard.stoppedBecause ? { stepsTruncated: guard.stoppedBecause } : {}),
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
  const out = await dynamodbOf(access).send(new (dynamoDbSdk().QueryCommand)({
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
  const out = await dynamodbOf(access).send(new (dynamoDbSdk().GetItemCommand)({
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

