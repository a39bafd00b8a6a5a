/**
 * Records async inference results: SageMaker -> SNS (success and error topics) -> SQS -> this function -> DynamoDB.
 * Raw message delivery is off, so each SQS body is the SNS envelope whose `Message` is SageMaker's JSON notification.
 * Only envelopes from the endpoint's own two topics are recorded: anyone able to send to the queue could otherwise
 * write a job item. Anything that cannot be recorded is reported as a batch item failure; the queue's redrive policy
 * moves it to the DLQ.
 */
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import {
  AsyncJobsDeps, MalformedAsyncNotificationError, parseAsyncNotification, recordAsyncResult, resultRecorderConfigFromEnv,
} from 'cdk-sagemaker-mcp-runtime';
import { emitRecordOutcomes } from '../private/handler-metrics';

/**
 * The SageMaker notification inside one SQS record (SNS envelope, raw delivery off), if the envelope is an SNS
 * `Notification` from one of `topicArns`. A bare body (raw delivery, or sent to the queue directly) has no envelope.
 */
export function notificationOf(record: Pick<SQSRecord, 'body'>, topicArns: ReadonlySet<string>): unknown {
  let envelope: unknown;
  try {
    envelope = JSON.parse(record.body);
  } catch {
    throw new MalformedAsyncNotificationError('the SQS body is not JSON');
  }
  const e = (typeof envelope === 'object' && envelope !== null ? envelope : {}) as { Type?: unknown; TopicArn?: unknown; Message?: unknown };
  // https://docs.aws.amazon.com/sns/latest/dg/sns-message-and-json-formats.html: a notification carries Type
  // "Notification", the TopicArn it was published to and the Message.
  if (e.Type !== 'Notification' || typeof e.Message !== 'string') {
    throw new MalformedAsyncNotificationError('the SQS body is not an SNS notification envelope (Type Notification with a Message string)');
  }
  if (typeof e.TopicArn !== 'string' || !topicArns.has(e.TopicArn)) {
    throw new MalformedAsyncNotificationError(`the notification came from topic ${JSON.stringify(e.TopicArn)}, not from this endpoint's success or error topic`);
  }
  try {
    return JSON.parse(e.Message);
  } catch {
    throw new MalformedAsyncNotificationError('the SNS Message is not JSON');
  }
}

export interface RecorderOptions {
  readonly tableName: string;
  readonly retentionSeconds: number;
  /** The endpoint's success and error topic ARNs: the only sources recorded. */
  readonly topicArns: ReadonlySet<string>;
  /** @default DEFAULT_MAX_EVENT_TIME_SKEW_SECONDS (300) */
  readonly maxEventTimeSkewSeconds?: number;
  readonly deps?: AsyncJobsDeps;
  readonly log?: (entry: Record<string, unknown>) => void;
  /** @default - the system clock */
  readonly now?: () => Date;
}

/** Records every message of the batch; returns the ids of those that must be retried (or dead-lettered). */
export async function recordBatch(event: SQSEvent, options: RecorderOptions): Promise<SQSBatchResponse> {
  const log = options.log ?? ((entry) => console.log(JSON.stringify(entry)));
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  const counts = { recorded: 0, duplicate: 0, refused: 0 };
  for (const record of event.Records) {
    try {
      const job = parseAsyncNotification(notificationOf(record, options.topicArns), options.now?.() ?? new Date(), {
        retentionSeconds: options.retentionSeconds,
        maxEventTimeSkewSeconds: options.maxEventTimeSkewSeconds,
      });
      const written = await recordAsyncResult(job, options.tableName, options.deps);
      log({ level: 'info', messageId: record.messageId, inferenceId: job.inferenceId, status: job.status, written });
      counts[written ? 'recorded' : 'duplicate']++;
    } catch (e) {
      const malformed = e instanceof MalformedAsyncNotificationError;
      log({ level: malformed ? 'warn' : 'error', messageId: record.messageId, malformed, error: (e as Error).message });
      failures.push({ itemIdentifier: record.messageId });
      counts.refused++;
    }
  }
  // ResultsRecorded / ResultsDuplicate / ResultsRefused (../private/metric-names), one EMF record per batch.
  emitRecordOutcomes(counts);
  return { batchItemFailures: failures };
}

/**
 * The recorder's configuration from the environment the construct sets, parsed with the contract's schema (the
 * runtime's `resultRecorderConfigFromEnv`); every problem at once.
 */
export function recorderOptionsFromEnv(env: Record<string, string | undefined> = process.env): RecorderOptions {
  const config = resultRecorderConfigFromEnv(env);
  return { ...config, topicArns: new Set(config.topicArns) };
}

export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  // A misconfigured recorder fails the whole invocation: every message stays in the queue (then the DLQ), none is lost.
  return recordBatch(event, recorderOptionsFromEnv());
}
