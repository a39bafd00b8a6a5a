/**
 * Internal (not exported from the package): the endpoint config's `MetricsConfig` and managed instance scaling's
 * `ScaleInPolicy`, which the aws-cdk-lib L1 knows from 2.268 only. Below that (the peer range starts at 2.258) an L1
 * drops a prop it does not know without a word, so there they are written as raw overrides; at 2.268 and later through
 * the L1. Both arrived in the same CloudFormation resource spec (`@aws-cdk/aws-service-spec` 0.1.208, pinned by
 * aws-cdk-lib 2.268.0), so the L1's public `metricsConfig` property tells whether it knows either.
 */
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import { PropValidator } from './validation';
import { EndpointMetricsConfig } from '../core/endpoint-metrics-config';

/** MetricPublishFrequencyInSeconds's values (the CloudFormation reference lists them; the API model has no bounds). */
const PUBLISH_FREQUENCIES = [10, 30, 60, 120, 180, 240, 300];

/** Whether this aws-cdk-lib's CfnEndpointConfig has `metricsConfig` and `ScaleInPolicy` (2.268 and later). */
export function l1KnowsMetricsConfig(config: sagemaker.CfnEndpointConfig): boolean {
  return 'metricsConfig' in config;
}

export function validateMetricsConfig(v: PropValidator, prefix: string, m: EndpointMetricsConfig | undefined): void {
  const frequency = m?.metricPublishFrequency;
  if (frequency === undefined || frequency.isUnresolved()) return;
  const s = frequency.toSeconds({ integral: false });
  v.check(PUBLISH_FREQUENCIES.includes(s), `${prefix}metricPublishFrequency`, `${s} seconds`,
    `one of ${PUBLISH_FREQUENCIES.join(', ')} seconds (MetricPublishFrequencyInSeconds)`);
}

/** Writes `MetricsConfig` on the config: through the L1 when it knows the prop, as an override otherwise. */
export function applyMetricsConfig(config: sagemaker.CfnEndpointConfig, m: EndpointMetricsConfig | undefined): void {
  if (!m) return;
  const frequency = m.metricPublishFrequency?.toSeconds();
  if (l1KnowsMetricsConfig(config)) {
    config.metricsConfig = {
      enableEnhancedMetrics: m.enableEnhancedMetrics,
      metricPublishFrequencyInSeconds: frequency,
      enableDetailedObservability: m.enableDetailedObservability,
    };
    return;
  }
  const own = {
    EnableEnhancedMetrics: m.enableEnhancedMetrics,
    MetricPublishFrequencyInSeconds: frequency,
    EnableDetailedObservability: m.enableDetailedObservability,
  };
  for (const [key, value] of Object.entries(own)) if (value !== undefined) config.addPropertyOverride(`MetricsConfig.${key}`, value);
}

/** A ScaleInPolicy as the L1 spells it (a type of our own: the L1's exists from 2.268 only). */
export interface ScaleInPolicyValues {
  readonly strategy: string;
  readonly maximumStepSize?: number;
  readonly cooldownInMinutes?: number;
}

/**
 * Writes `ScaleInPolicy` into `ManagedInstanceScaling` of production variant `variantIndex` as an override: for an L1
 * that does not know it (`l1KnowsMetricsConfig` false), which then renders the rest of ManagedInstanceScaling.
 */
export function writeScaleInPolicyOverride(config: sagemaker.CfnEndpointConfig, variantIndex: number, p: ScaleInPolicyValues): void {
  config.addPropertyOverride(`ProductionVariants.${variantIndex}.ManagedInstanceScaling.ScaleInPolicy`, {
    Strategy: p.strategy,
    ...(p.maximumStepSize !== undefined ? { MaximumStepSize: p.maximumStepSize } : {}),
    ...(p.cooldownInMinutes !== undefined ? { CooldownInMinutes: p.cooldownInMinutes } : {}),
  });
}
