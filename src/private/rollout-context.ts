/**
 * Internal: what an endpoint or inference component tells its `Rollout` when it renders the rollout's
 * `DeploymentConfig` (`Rollout._bindToEndpoint`, `Rollout._bindToInferenceComponent`).
 */
import type { CfnResource, Duration } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as iam from 'aws-cdk-lib/aws-iam';
import type { IConstruct } from 'constructs';

/** What an endpoint tells its rollout when it renders it. */
export interface RolloutEndpointContext {
  /** The construct that owns the rollout: its path names errors, warnings go on it. */
  readonly scope: IConstruct;
  /** e.g. `RealtimeEndpoint 'Chat'`: the subject of validation errors. */
  readonly subject: string;
  /** The number of production variants. */
  readonly variantCount: number;
  /**
   * The instance count of the (first) production variant: canary, linear and rolling sizes are shares of it.
   *
   * @default - unknown (a token): instance-count sizes are not checked against it
   */
  readonly instanceCount?: number;
  /**
   * The instance types of the variants (`ml.inf1.*` makes SageMaker fall back to an all-at-once update).
   *
   * @default - none known
   */
  readonly instanceTypes?: string[];
  /**
   * The alarms used when the rollout's `autoRollbackOn` is not set.
   *
   * @default - none
   */
  readonly defaultAlarms?: cloudwatch.IAlarm[];
  /**
   * How long the default alarms need to fire (period x evaluation periods): a shorter baking period cannot catch them.
   *
   * @default - unknown
   */
  readonly defaultAlarmsTimeToAlarm?: Duration;
  /**
   * The endpoint resource: a rollback alarm without a literal name whose metrics name this resource would form a
   * dependency cycle with it (the endpoint names the alarm, the alarm names the endpoint), which is refused.
   *
   * @default - not checked
   */
  readonly endpoint?: CfnResource;
  /**
   * The execution role SageMaker updates the endpoint with: it is granted `cloudwatch:DescribeAlarms` on the rollback
   * alarms, which SageMaker reads during the update ("Ensure that your IAM execution role has permission to perform the
   * cloudwatch:DescribeAlarms action on the auto-rollback alarms you specify",
   * https://docs.aws.amazon.com/sagemaker/latest/dg/deployment-guardrails-configuration.html).
   *
   * @default - unknown: nothing is granted, and a warning says which permission the role needs
   */
  readonly executionRole?: iam.IRole;
}

/** What an inference component tells its rollout when it renders it. */
export interface RolloutInferenceComponentContext {
  /** The construct that owns the rollout. */
  readonly scope: IConstruct;
  /** e.g. `InferenceComponent 'Chat'`. */
  readonly subject: string;
  /**
   * The component's copy count: batch sizes in copies are shares of it.
   *
   * @default - unknown: copy-count batches are not checked against it
   */
  readonly copyCount?: number;
  /**
   * The inference component resource (see `RolloutEndpointContext.endpoint`).
   *
   * @default - not checked
   */
  readonly component?: CfnResource;
  /**
   * The execution role SageMaker updates the inference component with: it is granted `cloudwatch:DescribeAlarms` on the rollback
   * alarms, which SageMaker reads during the update ("Ensure that your IAM execution role has permission to perform the
   * cloudwatch:DescribeAlarms action on the auto-rollback alarms you specify",
   * https://docs.aws.amazon.com/sagemaker/latest/dg/deployment-guardrails-configuration.html).
   *
   * @default - unknown: nothing is granted, and a warning says which permission the role needs
   */
  readonly executionRole?: iam.IRole;
}
