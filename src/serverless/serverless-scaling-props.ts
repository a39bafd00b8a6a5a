import { Duration } from 'aws-cdk-lib';

/**
 * Target tracking on the provisioned concurrency of a serverless variant (scalable dimension
 * `sagemaker:variant:DesiredProvisionedConcurrency`, metric `SageMakerVariantProvisionedConcurrencyUtilization`;
 * https://docs.aws.amazon.com/sagemaker/latest/dg/serverless-endpoints-autoscale.html).
 */
export interface ServerlessAutoScalingOptions {
  /**
   * The least provisioned concurrency (1-200: a serverless variant's provisioned concurrency is never 0; remove
   * the provisioned concurrency for a purely on-demand endpoint).
   *
   * @default 1
   */
  readonly minCapacity?: number;
  /**
   * The most provisioned concurrency (at most the endpoint's maximum concurrency).
   *
   * @default - the endpoint's maximum concurrency
   */
  readonly maxCapacity?: number;
  /**
   * The share of provisioned concurrency in use to keep (greater than 0, at most 1).
   *
   * @default 0.5
   */
  readonly targetUtilization?: number;
  /**
   * Wait after a scale-out before another.
   *
   * @default Duration.seconds(60)
   */
  readonly scaleOutCooldown?: Duration;
  /**
   * Wait after a scale-in before another.
   *
   * @default Duration.seconds(300)
   */
  readonly scaleInCooldown?: Duration;
}
