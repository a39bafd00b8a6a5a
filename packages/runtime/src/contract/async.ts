/**
 * The contract between the AsyncEndpoint construct, the bundled result recorder and the runtime's async-jobs client:
 * environment variable names, the job item's shape, and the service limits both sides check. Plain constants and
 * types only: no AWS SDK, no aws-cdk-lib. Defined once here; the construct library gets a generated mirror
 * (src/private/contract.generated.ts, `npx projen contract:generate`).
 */
import * as z from 'zod';

/** Environment variables the construct sets (`AsyncEndpoint.runtimeEnvironment`) and the runtime reads. */
export const ASYNC_ENV = {
  /** The async endpoint's name (InvokeEndpointAsync target). */
  ENDPOINT_NAME: 'SAGEMAKER_ASYNC_ENDPOINT_NAME',
  /** The bucket inputs are uploaded to. */
  INPUT_BUCKET: 'SAGEMAKER_ASYNC_INPUT_BUCKET',
  /** The key prefix inputs are uploaded under (ends with `/`). */
  INPUT_PREFIX: 'SAGEMAKER_ASYNC_INPUT_PREFIX',
  /** The DynamoDB table the result recorder writes; unset when the endpoint records no results. */
  JOB_TABLE_NAME: 'SAGEMAKER_ASYNC_JOB_TABLE_NAME',
  /** Default `InvocationTimeoutSeconds` for submissions. */
  INVOCATION_TIMEOUT_SECONDS: 'SAGEMAKER_ASYNC_INVOCATION_TIMEOUT_SECONDS',
  /** Default `RequestTTLSeconds` for submissions. */
  REQUEST_TTL_SECONDS: 'SAGEMAKER_ASYNC_REQUEST_TTL_SECONDS',
  /** Seconds a job item lives in the table (its TTL attribute); read by the recorder. */
  JOB_RETENTION_SECONDS: 'SAGEMAKER_ASYNC_JOB_RETENTION_SECONDS',
  /** The endpoint's success topic: the recorder accepts SNS envelopes whose `TopicArn` is this or the error topic. */
  SUCCESS_TOPIC_ARN: 'SAGEMAKER_ASYNC_SUCCESS_TOPIC_ARN',
  /** The endpoint's error topic (see SUCCESS_TOPIC_ARN). */
  ERROR_TOPIC_ARN: 'SAGEMAKER_ASYNC_ERROR_TOPIC_ARN',
  /** Seconds an `eventTime` may lie past the recorder's clock; later ones are refused (DLQ). Read by the recorder. */
  MAX_EVENT_TIME_SKEW_SECONDS: 'SAGEMAKER_ASYNC_MAX_EVENT_TIME_SKEW_SECONDS',
} as const;

const seconds = z.string().regex(/^\d+$/, 'expected whole seconds');

/** The environment `AsyncEndpoint.runtimeEnvironment` hands to a function that submits jobs (read by `startAsyncInference`). */
export const AsyncEndpointEnvSchema = z.object({
  [ASYNC_ENV.ENDPOINT_NAME]: z.string().min(1),
  [ASYNC_ENV.INPUT_BUCKET]: z.string().min(1),
  [ASYNC_ENV.INPUT_PREFIX]: z.string().endsWith('/'),
  [ASYNC_ENV.INVOCATION_TIMEOUT_SECONDS]: seconds,
  [ASYNC_ENV.REQUEST_TTL_SECONDS]: seconds,
  [ASYNC_ENV.JOB_TABLE_NAME]: z.string().min(1).optional(),
});

/** The environment of the bundled result recorder (src/async/result-recorder.lambda.ts). */
export const ResultRecorderEnvSchema = z.object({
  [ASYNC_ENV.JOB_TABLE_NAME]: z.string().min(1),
  [ASYNC_ENV.JOB_RETENTION_SECONDS]: seconds,
  [ASYNC_ENV.SUCCESS_TOPIC_ARN]: z.string().min(1),
  [ASYNC_ENV.ERROR_TOPIC_ARN]: z.string().min(1),
  [ASYNC_ENV.MAX_EVENT_TIME_SKEW_SECONDS]: seconds,
});

/** Attribute names of a job item. The partition key is `inferenceId` (string). */
export const JOB_ATTRIBUTES = {
  INFERENCE_ID: 'inferenceId',
  STATUS: 'status',
  OUTPUT_LOCATION: 'outputLocation',
  FAILURE_LOCATION: 'failureLocation',
  FAILURE_REASON: 'failureReason',
  ENDPOINT_NAME: 'endpointName',
  /** The notification's `eventTime` (ISO-8601). */
  COMPLETED_AT: 'completedAt',
  /** `eventTime` as epoch milliseconds: what the "never older over newer" condition compares. */
  EVENT_TIME_MS: 'eventTimeMs',
  RECORDED_AT: 'recordedAt',
  /** DynamoDB TTL attribute (epoch seconds). */
  EXPIRES_AT: 'expiresAt',
} as const;

/** A final status as recorded. The recorder writes only these; an absent item means the job is still pending. */
export type AsyncJobFinalStatus = 'Completed' | 'Failed';

/** The job item the recorder writes, one per inference. */
export interface AsyncJobRecord {
  readonly inferenceId: string;
  readonly status: AsyncJobFinalStatus;
  readonly outputLocation?: string;
  readonly failureLocation?: string;
  readonly failureReason?: string;
  readonly endpointName?: string;
  /** ISO-8601, from the notification's `eventTime`. */
  readonly completedAt: string;
  readonly eventTimeMs: number;
  readonly recordedAt: string;
  readonly expiresAt: number;
}

/** InvokeEndpointAsync limits (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_runtime_InvokeEndpointAsync.html). */
export const INVOCATION_TIMEOUT_RANGE = { min: 1, max: 3600 } as const;
export const REQUEST_TTL_RANGE = { min: 60, max: 21600 } as const;
/** A request must be allowed to wait at least this many times its invocation timeout. */
export const TTL_TO_TIMEOUT_RATIO = 2;

/** The library's defaults (the service's own are 900 s and 21600 s). */
export const DEFAULT_INVOCATION_TIMEOUT_SECONDS = 900;
/** One hour: twice the timeout with room for a scale-from-zero cold start (several minutes). */
export const DEFAULT_REQUEST_TTL_SECONDS = 3600;
/** Job items live as long as outputs do by default (30 days). */
export const DEFAULT_JOB_RETENTION_SECONDS = 30 * 24 * 3600;
/**
 * How far past the recorder's clock a notification's `eventTime` may lie (5 minutes: clock skew between SageMaker and
 * Lambda, nothing more). The job table keeps the newest event, so one notification dated far ahead would replace a
 * Completed result and then outrank every genuine redelivery.
 */
export const DEFAULT_MAX_EVENT_TIME_SKEW_SECONDS = 300;

/**
 * Problems with a timeout/TTL pair, one message each naming the value and the expectation; empty when valid.
 * Shared by the construct (synth time) and the runtime (before any call).
 */
export function ttlProblems(invocationTimeoutSeconds: number | undefined, requestTtlSeconds: number | undefined,
  names: { timeout: string; ttl: string } = { timeout: 'invocationTimeoutSeconds', ttl: 'requestTtlSeconds' }): string[] {
  const problems: string[] = [];
  const inRange = (v: number, r: { min: number; max: number }) => Number.isInteger(v) && v >= r.min && v <= r.max;
  const timeoutOk = invocationTimeoutSeconds === undefined || inRange(invocationTimeoutSeconds, INVOCATION_TIMEOUT_RANGE);
  const ttlOk = requestTtlSeconds === undefined || inRange(requestTtlSeconds, REQUEST_TTL_RANGE);
  if (!timeoutOk) {
    problems.push(`${names.timeout}: got ${invocationTimeoutSeconds}, expected an integer between ${INVOCATION_TIMEOUT_RANGE.min} and ${INVOCATION_TIMEOUT_RANGE.max} seconds`);
  }
  if (!ttlOk) {
    problems.push(`${names.ttl}: got ${requestTtlSeconds}, expected an integer between ${REQUEST_TTL_RANGE.min} and ${REQUEST_TTL_RANGE.max} seconds`);
  }
  if (timeoutOk && ttlOk && invocationTimeoutSeconds !== undefined && requestTtlSeconds !== undefined
    && requestTtlSeconds < TTL_TO_TIMEOUT_RATIO * invocationTimeoutSeconds) {
    problems.push(`${names.ttl}: got ${requestTtlSeconds} with ${names.timeout} ${invocationTimeoutSeconds}, expected at least `
      + `${TTL_TO_TIMEOUT_RATIO} x ${invocationTimeoutSeconds} = ${TTL_TO_TIMEOUT_RATIO * invocationTimeoutSeconds} seconds `
      + '(a request dequeued near its TTL would otherwise be dropped mid-execution)');
  }
  return problems;
}
