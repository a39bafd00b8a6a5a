import { Rollout } from './rollout';

/**
 * A variant property an endpoint update may keep from the running endpoint (`VariantPropertyType` of
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-properties-sagemaker-endpoint-variantproperty.html).
 */
export enum RetainedVariantProperty {
  /** The variant's current instance count (what autoscaling set). */
  DESIRED_INSTANCE_COUNT = 'DesiredInstanceCount',
  /** The variant's current weight. */
  DESIRED_WEIGHT = 'DesiredWeight',
}

/**
 * How a deployment updates an existing endpoint (a new endpoint config: a new model, instance count or weight). Has no
 * effect on the first deployment, nor when the endpoint is replaced (a new name: the new endpoint is created, not updated).
 */
export interface EndpointUpdateOptions {
  /**
   * How SageMaker moves the endpoint to the new config: a canary, linear, all-at-once or rolling `Rollout`,
   * rolled back when its alarms fire (see https://github.com/cdk-sagemaker-mcp/cdk-sagemaker-mcp/blob/main/docs/rollouts.md).
   *
   * @default - SageMaker's default: blue/green, all traffic at once, and the old fleet terminated as soon as the new one
   * is in service (no baking period, no automatic rollback)
   */
  readonly rollout?: Rollout;
  /**
   * Keep the running variants' instance counts and weights (`RetainAllVariantProperties`) instead of resetting them to
   * the new config's initial instance counts and weights.
   *
   * @default - true when a variant is autoscaled (a deploy does not reset what autoscaling set), otherwise false
   */
  readonly retainAllVariantProperties?: boolean;
  /**
   * When all variant properties are retained, the properties that still follow the new config (`ExcludeRetainedVariantProperties`).
   *
   * @default - [DESIRED_WEIGHT] when retaining all variant properties defaults to true (weights follow the code, instance counts
   * stay with autoscaling); otherwise none
   */
  readonly excludeRetainedVariantProperties?: RetainedVariantProperty[];
  /**
   * Reuse the last deployment's `DeploymentConfig` (`RetainDeploymentConfig`).
   *
   * @default false
   */
  readonly retainDeploymentConfig?: boolean;
}
