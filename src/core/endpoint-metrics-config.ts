import { Duration } from 'aws-cdk-lib';

/**
 * How an endpoint publishes its CloudWatch metrics (the endpoint config's `MetricsConfig`,
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-properties-sagemaker-endpointconfig-metricsconfig.html).
 * Changing it replaces the endpoint config (a blue/green update of the endpoint).
 */
export interface EndpointMetricsConfig {
  /**
   * Enhanced metrics: utilization and invocation metrics per instance (and per container for inference components)
   * (`EnableEnhancedMetrics`).
   *
   * @default false
   */
  readonly enableEnhancedMetrics?: boolean;
  /**
   * How often metrics are published (`MetricPublishFrequencyInSeconds`): 10, 30, 60, 120, 180, 240 or 300 seconds. With
   * enhanced metrics it applies to utilization and invocation metrics; without, to utilization metrics only.
   *
   * @default Duration.seconds(60)
   */
  readonly metricPublishFrequency?: Duration;
  /**
   * Detailed observability (`EnableDetailedObservability`): the containers' Prometheus metrics, per-GPU and per-instance
   * host metrics and inference-component placement metrics.
   *
   * @default - SageMaker's default, true for new endpoint configs
   */
  readonly enableDetailedObservability?: boolean;
}
