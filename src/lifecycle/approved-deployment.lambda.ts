/**
 * EventBridge target of `ApprovedModelDeployment`: turns an approved model package version into an update of the
 * endpoint's stack (and reports the stack status of its own updates). Invoked asynchronously, so a thrown error makes
 * Lambda retry the event (up to the function's retry attempts) and then send it to the function's dead-letter queue.
 * The logic is the runtime's `handleApprovedDeploymentEvent` (packages/runtime/src/lifecycle).
 */
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { SNSClient } from '@aws-sdk/client-sns';
import {
  approvedDeploymentConfigFromEnv,
  boundedClient,
  DeploymentOutcome,
  handleApprovedDeploymentEvent,
  MalformedLifecycleEventError,
  reportDeploymentOutcome,
  withDeadline,
} from 'cdk-sagemaker-mcp-runtime';

let cloudformation: CloudFormationClient | undefined;
let sns: SNSClient | undefined;

export async function handler(event: unknown, context?: { getRemainingTimeInMillis?: () => number }): Promise<DeploymentOutcome> {
  const config = approvedDeploymentConfigFromEnv();
  cloudformation ??= boundedClient(CloudFormationClient, {});
  if (config.topicArn) sns ??= boundedClient(SNSClient, {});
  // One deadline for the whole event, a little inside the function's own timeout.
  const budget = Math.max(1_000, (context?.getRemainingTimeInMillis?.() ?? config.maxWaitMs + 60_000) - 3_000);
  let outcome: DeploymentOutcome;
  try {
    outcome = await withDeadline('approved-model deployment', budget, () =>
      handleApprovedDeploymentEvent(event, { cloudformation: cloudformation!, config }));
  } catch (err) {
    // Malformed events and AWS failures: logged, then retried by Lambda and dead-lettered.
    console.log(JSON.stringify({ outcome: err instanceof MalformedLifecycleEventError ? 'malformed' : 'failed', error: String((err as Error)?.message ?? err) }));
    throw err;
  }
  await reportDeploymentOutcome(outcome, { sns, topicArn: config.topicArn });
  if (outcome.error) throw outcome.error;
  return outcome;
}
