/**
 * The contract between `ApprovedModelDeployment` (construct), its bundled `approved-deployment` handler and the runtime
 * (`handleApprovedDeploymentEvent`): env var names, the event types the rules route, the metric the handler writes and
 * the token it tags its stack updates with. No SDK, no aws-cdk-lib. Defined once here; the construct library gets a
 * generated mirror (src/private/contract.generated.ts, `npx projen contract:generate`).
 */
import * as z from 'zod';

/** Env vars the construct sets on the deployment handler. */
export const LIFECYCLE_ENV = {
  /** Name of the stack whose parameter carries the model package ARN (the stack the construct is in). */
  STACK_NAME: 'DEPLOY_STACK_NAME',
  /** The stack parameter holding the model package ARN the endpoint's model is made from. */
  PARAMETER_NAME: 'DEPLOY_MODEL_PACKAGE_PARAMETER',
  /** Only versions of this model package group are deployed. */
  GROUP_NAME: 'DEPLOY_MODEL_PACKAGE_GROUP',
  /** SNS topic every outcome is published to (unset: log line and metric only). */
  TOPIC_ARN: 'DEPLOY_NOTIFICATION_TOPIC_ARN',
  /** How long the handler waits for a stack operation in progress before it refuses (and the event is retried). */
  MAX_WAIT_SECONDS: 'DEPLOY_MAX_WAIT_SECONDS',
} as const;

/** The environment of the bundled handler (src/lifecycle/approved-deployment.lambda.ts). */
export const ApprovedDeploymentEnvSchema = z.object({
  [LIFECYCLE_ENV.STACK_NAME]: z.string().min(1),
  [LIFECYCLE_ENV.PARAMETER_NAME]: z.string().min(1),
  [LIFECYCLE_ENV.GROUP_NAME]: z.string().min(1),
  [LIFECYCLE_ENV.TOPIC_ARN]: z.string().min(1).optional(),
  [LIFECYCLE_ENV.MAX_WAIT_SECONDS]: z.string().regex(/^\d+$/, 'expected whole seconds'),
});

/** EventBridge detail type of model package changes (source `aws.sagemaker`). */
export const MODEL_PACKAGE_STATE_CHANGE_DETAIL_TYPE = 'SageMaker Model Package State Change';
/** EventBridge detail type of stack status changes (source `aws.cloudformation`). */
export const STACK_STATUS_CHANGE_DETAIL_TYPE = 'CloudFormation Stack Status Change';

/**
 * Prefix of the `ClientRequestToken` of every stack update the handler starts (`approved-model-v<version>-<event id>`):
 * CloudFormation copies it into the stack's status change events, so the rollback rule matches only these updates.
 */
export const DEPLOY_TOKEN_PREFIX = 'approved-model-v';

/** Stack statuses after one of the handler's updates that end it: reported as deployed or rolled back. */
export const DEPLOY_FINAL_STACK_STATUSES = ['UPDATE_COMPLETE', 'UPDATE_ROLLBACK_COMPLETE', 'UPDATE_ROLLBACK_FAILED'] as const;

/** CloudWatch namespace and metric the handler writes one data point of per outcome (embedded metric format). */
export const DEPLOY_METRIC_NAMESPACE = 'CdkSageMakerMcp/ModelLifecycle';
export const DEPLOY_METRIC_NAME = 'ModelDeploymentOutcome';
/** Dimensions of the metric: the stack name and the outcome. */
export const DEPLOY_METRIC_STACK_DIMENSION = 'StackName';
export const DEPLOY_METRIC_OUTCOME_DIMENSION = 'Outcome';

/**
 * What the handler did with one event: `updated` (UpdateStack started), `skipped` (nothing to do: another group, not
 * approved, already serving), `refused` (older than the serving version, stack busy or not updatable), `deployed`
 * (its update completed), `rolled-back` (its update was rolled back, e.g. by the endpoint's rollback alarms).
 */
export const DEPLOY_OUTCOMES = ['updated', 'skipped', 'refused', 'deployed', 'rolled-back'] as const;
