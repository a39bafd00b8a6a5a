/**
 * EventBridge target for SageMaker pipeline status changes (bundled by the construct library as
 * src/pipelines/pipeline-router.lambda.ts): records each execution's result in the results table (and optionally sends
 * it to a queue). Invoked asynchronously by EventBridge, so a thrown error makes Lambda retry the event (up to the
 * function's retry attempts) and then send it to the function's dead-letter queue.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { handlerLogger } from './logger';
import { emitRecordOutcomes } from './metrics';
import { dynamoDbSdk, sqsSdk } from '../core/aws-sdk';
import { boundedClient } from '../core/bounded';
import { pipelineRouterConfigFromEnv, PipelineRecordOutcome, recordPipelineEvent } from '../pipelines/events';

let dynamodb: DynamoDBClient | undefined;
let sqs: SQSClient | undefined;

export async function handler(event: unknown): Promise<PipelineRecordOutcome> {
  // The env the construct sets, parsed with the contract's schema: a misconfigured router fails every attempt, naming
  // each variable, and the event is retried and then dead-lettered, never dropped.
  const { tableName, queueUrl, ttlDays } = pipelineRouterConfigFromEnv();
  // Connection and request timeouts: a silent service fails the attempt (Lambda retries, then dead-letters the event).
  dynamodb ??= boundedClient(dynamoDbSdk().DynamoDBClient, {});
  if (queueUrl) sqs ??= boundedClient(sqsSdk().SQSClient, {});
  const log = handlerLogger('pipeline-router');
  let outcome: PipelineRecordOutcome;
  try {
    outcome = await recordPipelineEvent(event, { tableName, dynamodb, queueUrl, sqs, ttlDays });
  } catch (err) {
    // Retried, then dead-lettered: ResultsRefused (../contract/metrics.ts).
    log.error('pipeline event not recorded', { error: err as Error });
    emitRecordOutcomes({ refused: 1 });
    throw err;
  }
  log.info('pipeline event', { outcome: outcome.outcome });
  // recorded (a run's result, or a failed step's cause) / duplicate (stale or repeated); ignored events are not results.
  if (outcome.outcome === 'recorded' || outcome.outcome === 'step-recorded') emitRecordOutcomes({ recorded: 1 });
  else if (outcome.outcome === 'stale') emitRecordOutcomes({ duplicate: 1 });
  return outcome;
}
