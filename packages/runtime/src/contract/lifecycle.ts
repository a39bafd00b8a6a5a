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
  /** The group's ARN: a version whose partition, region or account differ from it is refused. */
  GROUP_ARN: 'DEPLOY_MODEL_PACKAGE_GROUP_ARN',
  /** SNS topic every outcome is published to (unset: log line and metric only). */
  TOPIC_ARN: 'DEPLOY_NOTIFICATION_TOPIC_ARN',
  /** How long the handler waits for a stack operation in progress before it defers the version to the operation's end. */
  MAX_WAIT_SECONDS: 'DEPLOY_MAX_WAIT_SECONDS',
  /**
   * The step of a staged rollout (`staging` or `production`; unset: a single deployment). Staging records the outcome
   * of its rollouts on the version; production deploys on a ModelLifeCycle stage change, and only what staging deployed.
   */
  PROMOTION_STEP: 'DEPLOY_PROMOTION_STEP',
  /** Production: the ModelLifeCycle stage a version must reach (e.g. `Production`). */
  REQUIRED_STAGE: 'DEPLOY_REQUIRED_STAGE',
  /** Production: the ModelLifeCycle stage status a version must reach (e.g. `Approved`). */
  REQUIRED_STAGE_STATUS: 'DEPLOY_REQUIRED_STAGE_STATUS',
} as const;

/** The steps of a staged rollout. */
export const PROMOTION_STEPS = ['staging', 'production'] as const;

/**
 * The customer metadata key (CustomerMetadataProperties, UpdateModelPackage) on which a staging deployment records the
 * outcome of its rollout of a version: one of `STAGING_OUTCOMES`. Production deploys a version only when it reads
 * `deployed` there.
 */
export const STAGING_OUTCOME_KEY = 'cdk-sagemaker-mcp:staging-outcome';
/** What staging records: its update completed, was rolled back, or failed without a completed rollback. */
export const STAGING_OUTCOMES = ['deployed', 'rolled-back', 'failed'] as const;

/** The environment of the bundled handler (src/lifecycle/approved-deployment.lambda.ts). */
export const ApprovedDeploymentEnvSchema = z.object({
  [LIFECYCLE_ENV.STACK_NAME]: z.string().min(1),
  [LIFECYCLE_ENV.PARAMETER_NAME]: z.string().min(1),
  [LIFECYCLE_ENV.GROUP_NAME]: z.string().min(1),
  [LIFECYCLE_ENV.GROUP_ARN]: z.string().regex(/^arn:aws[a-z-]*:sagemaker:[a-z0-9-]+:\d{12}:model-package-group\/[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$/,
    'expected arn:<partition>:sagemaker:<region>:<account>:model-package-group/<name>'),
  [LIFECYCLE_ENV.TOPIC_ARN]: z.string().min(1).optional(),
  [LIFECYCLE_ENV.MAX_WAIT_SECONDS]: z.string().regex(/^\d+$/, 'expected whole seconds'),
  [LIFECYCLE_ENV.PROMOTION_STEP]: z.enum(PROMOTION_STEPS).optional(),
  [LIFECYCLE_ENV.REQUIRED_STAGE]: z.string().min(1).optional(),
  [LIFECYCLE_ENV.REQUIRED_STAGE_STATUS]: z.string().min(1).optional(),
}).refine((env) => env[LIFECYCLE_ENV.PROMOTION_STEP] !== 'production'
  || (env[LIFECYCLE_ENV.REQUIRED_STAGE] !== undefined && env[LIFECYCLE_ENV.REQUIRED_STAGE_STATUS] !== undefined), {
  message: `production needs ${LIFECYCLE_ENV.REQUIRED_STAGE} and ${LIFECYCLE_ENV.REQUIRED_STAGE_STATUS}`,
  path: [LIFECYCLE_ENV.REQUIRED_STAGE],
});

/** EventBridge detail type of model package changes (source `aws.sagemaker`). */
export const MODEL_PACKAGE_STATE_CHANGE_DETAIL_TYPE = 'SageMaker Model Package State Change';
/** EventBridge detail type of stack status changes (source `aws.cloudformation`). */
export const STACK_STATUS_CHANGE_DETAIL_TYPE = 'CloudFormation Stack Status Change';

/**
 * Prefix of the `ClientRequestToken` of every stack update the handler starts (`approved-model-v<version>-<event id>`):
 * CloudFormation gives it to every event of that update (stack status changes and DescribeStackEvents), so the handler
 * tells its own updates from others and reads back which versions it deployed and which were rolled back.
 */
export const DEPLOY_TOKEN_PREFIX = 'approved-model-v';

/**
 * Stack statuses that end an update (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/view-stack-events.html#cfn-console-view-stack-data-resources-status-codes):
 * routed to the handler whoever started the update. After one of its own updates it reports the outcome; after any of
 * them, once the stack takes updates again, it deploys the newest approved version the busy stack held back.
 */
export const DEPLOY_FINAL_STACK_STATUSES = ['UPDATE_COMPLETE', 'UPDATE_FAILED', 'UPDATE_ROLLBACK_COMPLETE', 'UPDATE_ROLLBACK_FAILED', 'IMPORT_COMPLETE', 'IMPORT_ROLLBACK_COMPLETE'] as const;

/** CloudWatch namespace and metric the handler writes one data point of per outcome (embedded metric format). */
export const DEPLOY_METRIC_NAMESPACE = 'CdkSageMakerMcp/ModelLifecycle';
export const DEPLOY_METRIC_NAME = 'ModelDeploymentOutcome';
/** Dimensions of the metric: the stack name and the outcome. */
export const DEPLOY_METRIC_STACK_DIMENSION = 'StackName';
export const DEPLOY_METRIC_OUTCOME_DIMENSION = 'Outcome';

/**
 * What the handler did with one event: `updated` (UpdateStack started), `skipped` (nothing to do: another group, not
 * an approval, already serving), `refused` (older than the serving version, rolled back before, from another
 * account/region/partition, or the stack not updatable), `deferred` (the stack is busy: the version is deployed when
 * the stack's operation ends), `deployed` (its update completed), `rolled-back` (its update was rolled back, e.g. by
 * the endpoint's rollback alarms: the previous version serves), `failed` (its update ended in UPDATE_FAILED or
 * UPDATE_ROLLBACK_FAILED: the stack needs a person).
 */
export const DEPLOY_OUTCOMES = ['updated', 'skipped', 'refused', 'deferred', 'deployed', 'rolled-back', 'failed'] as const;
