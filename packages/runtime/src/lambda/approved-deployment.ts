/**
 * EventBridge target of `ApprovedModelDeployment` (bundled by the construct library as
 * src/lifecycle/approved-deployment.lambda.ts): turns an approved model package version into an update of the
 * endpoint's stack (and reports the stack status of its own updates). Invoked asynchronously, so a thrown error makes
 * Lambda retry the event (up to the function's retry attempts) and then send it to the function's dead-letter queue.
 * The logic is ../lifecycle's `handleApprovedDeploymentEvent`.
 */
import type { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import type { SageMakerClient } from '@aws-sdk/client-sagemaker';
import type { SNSClient } from '@aws-sdk/client-sns';
import { handlerLogger } from './logger';
import { cloudFormationSdk, sageMakerSdk, snsSdk } from '../core/aws-sdk';
import { boundedClient, withDeadline } from '../core/bounded';
import { redactSecrets } from '../core/errors';
import { approvedDeploymentConfigFromEnv, DeploymentOutcome, handleApprovedDeploymentEvent } from '../lifecycle/approved-deployment';
import { reportDeploymentOutcome } from '../lifecycle/deployment-report';
import { MalformedLifecycleEventError } from '../lifecycle/lifecycle-events';

let cloudformation: CloudFormationClient | undefined;
let sns: SNSClient | undefined;
let sagemaker: SageMakerClient | undefined;

export async function handler(event: unknown, context?: { getRemainingTimeInMillis?: () => number }): Promise<DeploymentOutcome> {
  const config = approvedDeploymentConfigFromEnv();
  cloudformation ??= boundedClient(cloudFormationSdk().CloudFormationClient, {});
  sagemaker ??= boundedClient(sageMakerSdk().SageMakerClient, {});
  if (config.topicArn) sns ??= boundedClient(snsSdk().SNSClient, {});
  // One deadline for the whole event, a little inside the function's own timeout.
  const budget = Math.max(1_000, (context?.getRemainingTimeInMillis?.() ?? config.maxWaitMs + 60_000) - 3_000);
  let outcome: DeploymentOutcome;
  try {
    outcome = await withDeadline('approved-model deployment', budget, () =>
      handleApprovedDeploymentEvent(event, { cloudformation: cloudformation!, sagemaker, config }));
  } catch (err) {
    // Lambda writes a thrown error's message and stack to the log and the dead-letter message: no credential in them.
    if (err instanceof Error) {
      err.message = redactSecrets(err.message);
      if (err.stack) err.stack = redactSecrets(err.stack);
    }
    // Malformed events and AWS failures: logged, then retried by Lambda and dead-lettered.
    const malformed = err instanceof MalformedLifecycleEventError;
    handlerLogger('approved-deployment')[malformed ? 'warn' : 'error']('approved-model deployment not done', {
      outcome: malformed ? 'malformed' : 'failed', error: String((err as Error)?.message ?? err),
    });
    throw err;
  }
  // The outcome's own line is an embedded-metric record (ModelDeploymentOutcome), written as CloudWatch reads it.
  await reportDeploymentOutcome(outcome, { sns, topicArn: config.topicArn });
  if (outcome.followUp) await reportDeploymentOutcome(outcome.followUp, { sns, topicArn: config.topicArn });
  const error = outcome.error ?? outcome.followUp?.error;
  if (error) throw error;
  return outcome;
}
