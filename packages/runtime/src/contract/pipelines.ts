/**
 * The contract between `TrainingPipeline`/`PipelineEventRouter` (constructs), the `pipeline-router` handler and the
 * runtime (`startTraining`, `getTrainingResult`): env var names, the results-table layout, the correlation text written
 * into `PipelineExecutionDescription`, and status ordering. No SDK, no aws-cdk-lib. Defined once here; the construct
 * library gets a generated mirror (src/private/contract.generated.ts, `npx projen contract:generate`).
 */
import * as z from 'zod';

/** Env var: name of the DynamoDB results table the router writes. */
export const RESULTS_TABLE_ENV = 'PIPELINE_RESULTS_TABLE';
/** Env var: URL of the SQS queue the router also sends each recorded result to (unset: table only). */
export const RESULTS_QUEUE_URL_ENV = 'PIPELINE_RESULTS_QUEUE_URL';
/** Env var: how long a result item lives, in days (DynamoDB TTL). */
export const RESULT_TTL_DAYS_ENV = 'PIPELINE_RESULT_TTL_DAYS';

/** The environment of the bundled pipeline router (src/pipelines/pipeline-router.lambda.ts). */
export const PipelineRouterEnvSchema = z.object({
  [RESULTS_TABLE_ENV]: z.string().min(1),
  [RESULT_TTL_DAYS_ENV]: z.string().regex(/^\d+$/, 'expected whole days'),
  [RESULTS_QUEUE_URL_ENV]: z.string().min(1).optional(),
});

/** Results table: partition key, one item per pipeline execution. */
export const RESULTS_PARTITION_KEY = 'executionArn';
/** Sparse GSI over items that carry a session id, newest execution first (sort key `startedAt`). */
export const RESULTS_SESSION_INDEX = 'BySession';
export const RESULTS_SESSION_KEY = 'sessionId';
export const RESULTS_SESSION_SORT_KEY = 'startedAt';
/** DynamoDB TTL attribute (epoch seconds). */
export const RESULTS_TTL_ATTRIBUTE = 'expiresAt';
/** Default lifetime of a result item. */
export const DEFAULT_RESULT_TTL_DAYS = 30;

/** EventBridge detail types SageMaker emits for pipelines. */
export const PIPELINE_EXECUTION_DETAIL_TYPE = 'SageMaker Model Building Pipeline Execution Status Change';
export const PIPELINE_STEP_DETAIL_TYPE = 'SageMaker Model Building Pipeline Execution Step Status Change';

/** `PipelineExecutionStatus` [API]. */
export const PIPELINE_EXECUTION_STATUSES = ['Executing', 'Stopping', 'Stopped', 'Failed', 'Succeeded'] as const;
export type PipelineExecutionStatusValue = (typeof PIPELINE_EXECUTION_STATUSES)[number];
export const FINAL_PIPELINE_STATUSES: readonly PipelineExecutionStatusValue[] = ['Stopped', 'Failed', 'Succeeded'];

/**
 * Status rank used by the router's conditional writes: a write lands only if its rank is higher, or equal with a later
 * event time. So a final status is never replaced by a non-final one nor by an older final one (a RetryPipelineExecution
 * run that ends later may replace Failed by a newer Succeeded).
 */
export function statusRank(status: PipelineExecutionStatusValue): number {
  switch (status) {
    case 'Executing': return 1;
    case 'Stopping': return 2;
    default: return 3;
  }
}

export function isPipelineExecutionStatus(value: unknown): value is PipelineExecutionStatusValue {
  return typeof value === 'string' && (PIPELINE_EXECUTION_STATUSES as readonly string[]).includes(value);
}

/** `PipelineExecutionDescription` is at most 3072 characters [API]. */
export const MAX_EXECUTION_DESCRIPTION_LENGTH = 3072;
/** `PipelineExecutionDisplayName`: `^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,81}`, 1-82 characters [API]. */
export const EXECUTION_DISPLAY_NAME_PATTERN = /^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,81}$/;
/** `ClientRequestToken` (IdempotencyToken): 32-128 characters [API]. */
export const CLIENT_REQUEST_TOKEN_MIN = 32;
export const CLIENT_REQUEST_TOKEN_MAX = 128;

/**
 * Session ids that survive the description format: printable ASCII without space and without `;` (the field
 * separator). `=` is allowed (base64 padding): the parser splits on the first `=` only. The length is bounded by the
 * description limit (3072): at most 3022 characters fit beside `session_id=` and `; triggered at <24-character time>`.
 */
export const SESSION_ID_PATTERN = /^[!-:<-~]+$/;
export const SESSION_ID_EXPECTED = 'printable ASCII characters without spaces or ";"';

const SESSION_PREFIX = 'session_id=';

/** The correlation text the runtime writes into `PipelineExecutionDescription`: `session_id=<id>; triggered at <ISO time>`. */
export function formatCorrelationDescription(sessionId: string, triggeredAt: Date): string {
  if (!SESSION_ID_PATTERN.test(sessionId)) {
    throw new Error(`sessionId: got ${JSON.stringify(sessionId)}, expected ${SESSION_ID_EXPECTED}`);
  }
  return `${SESSION_PREFIX}${sessionId}; triggered at ${triggeredAt.toISOString()}`;
}

/** What `parseCorrelationDescription` found; `sessionId` is undefined when the description carries none. */
export interface ParsedCorrelation {
  readonly sessionId?: string;
  readonly triggeredAt?: string;
}

/**
 * Reads the session id (and trigger time) back from a description. Tolerant: a description written by someone else
 * (the console, the Python SDK) yields `{}` rather than an error, so its execution is still recorded by ARN.
 */
export function parseCorrelationDescription(description: string | undefined | null): ParsedCorrelation {
  if (typeof description !== 'string' || description.length === 0) return {};
  let sessionId: string | undefined;
  let triggeredAt: string | undefined;
  for (const raw of description.split(';')) {
    const part = raw.trim();
    if (sessionId === undefined && part.startsWith(SESSION_PREFIX)) {
      const value = part.slice(SESSION_PREFIX.length).trim();
      if (SESSION_ID_PATTERN.test(value)) sessionId = value;
    } else if (triggeredAt === undefined && part.startsWith('triggered at ')) {
      triggeredAt = part.slice('triggered at '.length).trim();
    }
  }
  return { sessionId, triggeredAt };
}

/** The result record stored per execution and returned by `getTrainingResult`. */
export interface TrainingResultRecord {
  readonly sessionId?: string;
  readonly executionArn: string;
  readonly pipelineArn: string;
  readonly status: PipelineExecutionStatusValue;
  /** The failed step's reason (from the step event), when step failures are routed. */
  readonly failureReason?: string;
  readonly failedStep?: string;
  readonly startedAt: string;
  readonly endedAt?: string;
  /** EventBridge envelope time of the event that set `status`. */
  readonly eventTime: string;
}
