/**
 * Records async inference results: SageMaker -> SNS (success and error topics) -> SQS -> this function -> DynamoDB.
 * Raw message delivery is off, so each SQS body is the SNS envelope whose `Message` is SageMaker's JSON notification.
 * Anything that cannot be recorded is reported as a batch item failure; the queue's redrive policy moves it to the DLQ.
 */
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { DEFAULT_JOB_RETENTION_SECONDS, ASYNC_ENV } from './contract';
import { AsyncJobsDeps, MalformedAsyncNotificationError, parseAsyncNotification, recordAsyncResult } from '../runtime/async-jobs';

/** The SageMaker notification inside one SQS record (SNS envelope, raw delivery off). */
export function notificationOf(record: Pick<SQSRecord, 'body'>): unknown {
  let envelope: unknown;
  try {
    envelope = JSON.parse(record.body);
  } catch {
    throw new MalformedAsyncNotificationError('the SQS body is not JSON');
  }
  const message = (envelope as { Message?: unknown } | null)?.Message;
  if (typeof message !== 'string') throw new MalformedAsyncNotificationError('the SQS body is not an SNS envelope (no Message string)');
  try {
    return JSON.parse(message);
  } catch {
    throw new MalformedAsyncNotificationError('the SNS Message is not JSON');
  }
}

export interface RecorderOptions {
  readonly tableName: string;
  readonly retentionSeconds: number;
  readonly deps?: AsyncJobsDeps;
  readonly log?: (entry: Record<string, unknown>) => void;
}

/** Records every message of the batch; returns the ids of those that must be retried (or dead-lettered). */
export async function recordBatch(event: SQSEvent, options: RecorderOptions): Promise<SQSBatchResponse> {
  const log = options.log ?? ((entry) => console.log(JSON.stringify(entry)));
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      const job = parseAsyncNotification(notificationOf(record), new Date(), options.retentionSeconds);
      const written = await recordAsyncResult(job, options.tableName, options.deps);
      log({ level: 'info', messageId: record.messageId, inferenceId: job.inferenceId, status: job.status, written });
    } catch (e) {
      const malformed = e instanceof MalformedAsyncNotificationError;
      log({ level: malformed ? 'warn' : 'error', messageId: record.messageId, malformed, error: (e as Error).message });
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures: failures };
}

export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const tableName = process.env[ASYNC_ENV.JOB_TABLE_NAME];
  if (!tableName) throw new Error(`${ASYNC_ENV.JOB_TABLE_NAME} is not set`);
  const retention = Number(process.env[ASYNC_ENV.JOB_RETENTION_SECONDS] ?? DEFAULT_JOB_RETENTION_SECONDS);
  return recordBatch(event, { tableName, retentionSeconds: retention });
}
