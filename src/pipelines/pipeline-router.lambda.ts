/**
 * EventBridge target for SageMaker pipeline status changes: records each execution's result in the results table
 * (and optionally sends it to a queue). Invoked asynchronously by EventBridge, so a thrown error makes Lambda retry the
 * event (up to the function's retry attempts) and then send it to the function's dead-letter queue.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { boundedClient, recordPipelineEvent, PipelineRecordOutcome } from 'cdk-sagemaker-mcp-runtime';
import { RESULT_TTL_DAYS_ENV, RESULTS_QUEUE_URL_ENV, RESULTS_TABLE_ENV } from '../private/contract.generated';

let dynamodb: DynamoDBClient | undefined;
let sqs: SQSClient | undefined;

export async function handler(event: unknown): Promise<PipelineRecordOutcome> {
  const tableName = process.env[RESULTS_TABLE_ENV];
  if (!tableName) throw new Error(`${RESULTS_TABLE_ENV} is not set`);
  const queueUrl = process.env[RESULTS_QUEUE_URL_ENV] || undefined;
  const ttlDays = process.env[RESULT_TTL_DAYS_ENV] ? Number(process.env[RESULT_TTL_DAYS_ENV]) : undefined;
  // Connection and request timeouts: a silent service fails the attempt (Lambda retries, then dead-letters the event).
  dynamodb ??= boundedClient(DynamoDBClient, {});
  if (queueUrl) sqs ??= boundedClient(SQSClient, {});
  const outcome = await recordPipelineEvent(event, { tableName, dynamodb, queueUrl, sqs, ttlDays });
  console.log(JSON.stringify({ outcome: outcome.outcome }));
  return outcome;
}
