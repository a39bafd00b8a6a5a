/**
 * SageMaker's async inference notification (the JSON inside the SNS message) turned into a job record, for the bundled
 * result recorder: what is accepted, and what is refused (MalformedAsyncNotificationError, which the recorder sends to
 * its DLQ). Pure parsing: no AWS calls.
 */
import {
  AsyncJobFinalStatus, AsyncJobRecord, DEFAULT_JOB_RETENTION_SECONDS, DEFAULT_MAX_EVENT_TIME_SKEW_SECONDS,
} from '../contract/async';

/** Thrown for a notification that cannot become a job record; the recorder sends it to the DLQ. */
export class MalformedAsyncNotificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedAsyncNotificationError';
  }
}

/**
 * The one `eventTime` form SageMaker sends: ISO-8601 in UTC with a `Z`, e.g. `2022-01-25T22:46:00.608Z` (the sample
 * notification in https://docs.aws.amazon.com/sagemaker/latest/dg/async-inference-check-predictions.html). `Date.parse`
 * also takes "1", RFC 1123 strings and local times, none of which SageMaker writes.
 */
const SAGEMAKER_EVENT_TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d{1,9})?Z$/;

/**
 * Epoch milliseconds of a SageMaker `eventTime`, or a reason it is refused: not the ISO-8601 UTC form, not a real date
 * (2022-02-30), or more than `maxSkewSeconds` past `now`.
 */
export function parseSageMakerEventTime(value: unknown, now: Date, maxSkewSeconds: number): number | string {
  const match = typeof value === 'string' ? SAGEMAKER_EVENT_TIME.exec(value) : null;
  if (!match) return `got ${JSON.stringify(value)}, expected ISO-8601 UTC like 2022-01-25T22:46:00.608Z`;
  const ms = Date.parse(`${match[1]}${(match[2] ?? '').slice(0, 4)}Z`);
  // Date.parse rolls 2022-02-30 over to March: a date that does not print back as itself does not exist.
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 19) !== match[1]) return `got '${value}', which is not a date`;
  if (ms > now.getTime() + maxSkewSeconds * 1000) {
    return `got '${value}', more than ${maxSkewSeconds} s past the recorder's clock (${now.toISOString()})`;
  }
  return ms;
}

export interface ParseAsyncNotificationOptions {
  /** @default DEFAULT_JOB_RETENTION_SECONDS (30 days) */
  readonly retentionSeconds?: number;
  /** How far past `now` an `eventTime` may lie. @default DEFAULT_MAX_EVENT_TIME_SKEW_SECONDS (300) */
  readonly maxEventTimeSkewSeconds?: number;
}

/**
 * Turns one SageMaker async notification (the JSON in the SNS message) into a job record. The error shape is not
 * documented by AWS: `failureLocation` is accepted at the top level or under `responseParameters`, or absent.
 * `eventTime` must be SageMaker's ISO-8601 UTC form and not lie in the future beyond the allowed skew.
 */
export function parseAsyncNotification(message: unknown, now: Date = new Date(),
  options: ParseAsyncNotificationOptions | number = {}): AsyncJobRecord {
  const opts: ParseAsyncNotificationOptions = typeof options === 'number' ? { retentionSeconds: options } : options;
  const retentionSeconds = opts.retentionSeconds ?? DEFAULT_JOB_RETENTION_SECONDS;
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    throw new MalformedAsyncNotificationError('the message is not a JSON object');
  }
  const m = message as Record<string, unknown>;
  const response = isObject(m.responseParameters) ? m.responseParameters : {};
  const request = isObject(m.requestParameters) ? m.requestParameters : {};
  const inferenceId = m.inferenceId;
  if (typeof inferenceId !== 'string' || inferenceId === '') throw new MalformedAsyncNotificationError('inferenceId is missing');
  const eventTimeMs = parseSageMakerEventTime(m.eventTime, now, opts.maxEventTimeSkewSeconds ?? DEFAULT_MAX_EVENT_TIME_SKEW_SECONDS);
  if (typeof eventTimeMs === 'string') throw new MalformedAsyncNotificationError(`eventTime of ${inferenceId}: ${eventTimeMs}`);
  const statusByInvocation: Record<string, AsyncJobFinalStatus> = { Completed: 'Completed', Failed: 'Failed' };
  const status = statusByInvocation[String(m.invocationStatus)];
  if (!status) throw new MalformedAsyncNotificationError(`invocationStatus of ${inferenceId} is '${String(m.invocationStatus)}', expected Completed or Failed`);
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const outputLocation = text(response.outputLocation);
  if (status === 'Completed' && !outputLocation) throw new MalformedAsyncNotificationError(`completed ${inferenceId} has no responseParameters.outputLocation`);
  return {
    inferenceId,
    status,
    outputLocation,
    failureLocation: status === 'Failed' ? text(m.failureLocation) ?? text(response.failureLocation) : undefined,
    failureReason: status === 'Failed' ? text(m.failureReason) ?? text(response.failureReason) : undefined,
    endpointName: text(request.endpointName),
    completedAt: new Date(eventTimeMs).toISOString(),
    eventTimeMs,
    recordedAt: now.toISOString(),
    expiresAt: Math.floor(now.getTime() / 1000) + retentionSeconds,
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
