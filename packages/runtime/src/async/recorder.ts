/**
 * The bundled result recorder's own logic (src/async/result-recorder.lambda.ts): its configuration from the env vars
 * `AsyncEndpoint` sets (parsed with the contract's zod schema), and the job item written once per event. Parsing
 * SageMaker's notification is in ./notification.
 */
import * as z from 'zod';
import { AsyncJobsDeps, ddbClient } from './config';
import { ASYNC_ENV, AsyncJobRecord, JOB_ATTRIBUTES as A, ResultRecorderEnvSchema } from '../contract/async';
import { ContractConfigError, parseContract } from '../contract/parse';
import { dynamoDbSdk } from '../core/aws-sdk';

export { MalformedAsyncNotificationError, parseAsyncNotification } from './notification';
export type { ParseAsyncNotificationOptions } from './notification';

/**
 * Writes the record unless the table already holds one for the same inference with an equal or newer event time:
 * a duplicate delivery changes nothing, and an older event never overwrites a newer final status.
 * Returns whether the item was written.
 */
export async function recordAsyncResult(record: AsyncJobRecord, tableName: string, deps: AsyncJobsDeps = {}): Promise<boolean> {
  const item: Record<string, { S: string } | { N: string }> = {};
  for (const [name, value] of Object.entries(record)) {
    if (value === undefined) continue;
    item[name] = typeof value === 'number' ? { N: String(value) } : { S: String(value) };
  }
  try {
    await ddbClient(deps).send(new (dynamoDbSdk().PutItemCommand)({
      TableName: tableName,
      Item: item,
      ConditionExpression: 'attribute_not_exists(#id) OR #t < :t',
      ExpressionAttributeNames: { '#id': A.INFERENCE_ID, '#t': A.EVENT_TIME_MS },
      ExpressionAttributeValues: { ':t': { N: String(record.eventTimeMs) } },
    }));
    return true;
  } catch (e) {
    if (e instanceof dynamoDbSdk().ConditionalCheckFailedException || (e as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw e;
  }
}

/** An SNS topic ARN (https://docs.aws.amazon.com/sns/latest/dg/sns-message-and-json-formats.html shows its form). */
const SNS_TOPIC_ARN = /^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[\w.-]+$/;

/** The contract's recorder env, with both topics checked as SNS topic ARNs (at run time they are resolved). */
const RecorderEnvSchema = ResultRecorderEnvSchema.extend({
  [ASYNC_ENV.SUCCESS_TOPIC_ARN]: z.string().regex(SNS_TOPIC_ARN, 'expected an SNS topic ARN'),
  [ASYNC_ENV.ERROR_TOPIC_ARN]: z.string().regex(SNS_TOPIC_ARN, 'expected an SNS topic ARN'),
});

/** What the result recorder needs, read from the environment `AsyncEndpoint` gives it. */
export interface ResultRecorderConfig {
  readonly tableName: string;
  /** Seconds a job item lives (its TTL attribute). */
  readonly retentionSeconds: number;
  /** The endpoint's success and error topics: the only sources recorded. */
  readonly topicArns: readonly string[];
  readonly maxEventTimeSkewSeconds: number;
}

/**
 * The recorder's configuration from its environment, parsed with the contract's schema; every problem at once, each
 * naming the variable (`SAGEMAKER_ASYNC_ERROR_TOPIC_ARN: expected a string, but it is not set`).
 */
export function resultRecorderConfigFromEnv(env: Record<string, string | undefined> = process.env): ResultRecorderConfig {
  const parsed = parseContract(RecorderEnvSchema, env, { fail: (problems) => new ContractConfigError(problems, 'The result recorder is misconfigured') });
  return {
    tableName: parsed[ASYNC_ENV.JOB_TABLE_NAME],
    retentionSeconds: Number(parsed[ASYNC_ENV.JOB_RETENTION_SECONDS]),
    topicArns: [parsed[ASYNC_ENV.SUCCESS_TOPIC_ARN], parsed[ASYNC_ENV.ERROR_TOPIC_ARN]],
    maxEventTimeSkewSeconds: Number(parsed[ASYNC_ENV.MAX_EVENT_TIME_SKEW_SECONDS]),
  };
}
