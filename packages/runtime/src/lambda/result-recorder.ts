/**
 * Records async inference results: SageMaker -> SNS (success and error topics) -> SQS -> this function -> DynamoDB
 * (bundled by the construct library as src/async/result-recorder.lambda.ts). Raw message delivery is off, so each SQS
 * body is the SNS envelope whose `Message` is SageMaker's JSON notification. Only envelopes from the endpoint's own two
 * topics are recorded: anyone able to send to the queue could otherwise write a job item. Anything that cannot be
 * recorded is reported as a batch item failure (Powertools batch processing); the queue's redrive policy moves it to
 * the DLQ.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { handlerLogger } from './logger';
import { emitRecordOutcomes } from './metrics';
import { AsyncJobsDeps } from '../async/config';
import { MalformedAsyncNotificationError, parseAsyncNotification } from '../async/notification';
import { recordAsyncResult, resultRecorderConfigFromEnv } from '../async/recorder';

/**
 * The SageMaker notification inside one SQS record (SNS envelope, raw delivery off), if the envelope is an SNS
 * `Notification` from one of `topicArns`. A bare body (raw delivery, or sent to the queue directly) has no envelope.
 *
 * Checked here rather than with Powertools Parser's `SnsSqsNotificationSchema`: the parser's schemas take zod's `z`
 * object, which carries all of zod into the bundle (measured: this handler's bundle 511 KB with it, 141 KB without),
 * and the three fields below are all this handler reads.
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
  /** @default - the handlers' Powertools logger (service `async-result-recorder`) */
  readonly log?: (entry: Record<string, unknown>) => void;
  /** @default - the system clock */
  readonly now?: () => Date;
}

function defaultLog(entry: Record<string, unknown>): void {
  const logger = handlerLogger('async-result-recorder');
  const { level, ...rest } = entry;
  if (level === 'error') logger.error('async result not recorded', rest);
  else if (level === 'warn') logger.warn('async result refused', rest);
  else logger.info('async result recorded', rest);
}

/** Records every message of the batch; returns the ids of those that must be retried (or dead-lettered). */
export async function recordBatch(event: SQSEvent, options: RecorderOptions): Promise<SQSBatchResponse> {
  const log = options.log ?? defaultLog;
  const counts = { recorded: 0, duplicate: 0, refused: 0 };
  const recordOne = async (record: SQSRecord): Promise<void> => {
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
      counts.refused++;
      throw e;
    }
  };
  // One record after another (writes to one table, each conditional), and a batch whose every record fails is
  // answered with every id as a failure rather than thrown: the same outcome for the queue (all of them return), one
  // metrics record either way.
  const response = await processPartialResponse(event, recordOne, new BatchProcessor(EventType.SQS), {
    processInParallel: false,
    throwOnFullBatchFailure: false,
  });
  // ResultsRecorded / ResultsDuplicate / ResultsRefused (../contract/metrics.ts), one EMF record per batch.
  emitRecordOutcomes(counts);
  return { batchItemFailures: response.batchItemFailures };
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
