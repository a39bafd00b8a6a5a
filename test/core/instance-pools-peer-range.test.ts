import { App, Duration, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ContainerImage, InstanceType, ModelSource } from '../../src/core';
import { RealtimeEndpoint } from '../../src/realtime';
import { SharedGpuEndpoint, SharedGpuRouting, SharedGpuScaleInStrategy } from '../../src/shared-gpu';

/**
 * The same template at every aws-cdk-lib of the peer range: through the L1 from 2.268 (which has MetricsConfig and
 * ScaleInPolicy), through overrides below it (2.258-2.267 have InstancePools but drop those two without a word);
 * PrefixAwareRoutingConfig, which the floor's L1 lacks too, always as an override.
 * This file asserts nothing version-specific: `npx projen test:floor` runs it against the peer floor (test/floor/run.ts).
 */
const ENV = { account: '123456789012', region: 'us-east-1' };

function configOf(stack: Stack): any {
  return Object.values<any>(Template.fromStack(stack).findResources('AWS::SageMaker::EndpointConfig'))[0].Properties;
}

test('a three-pool realtime endpoint with MetricsConfig', () => {
  const stack = new Stack(new App(), 'Pools', { env: ENV });
  new RealtimeEndpoint(stack, 'Chat', {
    model: ModelSource.fromContainer(ContainerImage.fromImageUri('123456789012.dkr.ecr.us-east-1.amazonaws.com/chat:1')),
    instancePools: [
      { instanceType: InstanceType.ML_G6E_XLARGE, priority: 1 },
      { instanceType: InstanceType.ML_G5_2XLARGE, priority: 2 },
      { instanceType: InstanceType.ML_G6_XLARGE, priority: 3 },
    ],
    instanceProvisionTimeout: Duration.minutes(15),
    metricsConfig: { enableEnhancedMetrics: true, metricPublishFrequency: Duration.seconds(30), enableDetailedObservability: true },
  });
  const config = configOf(stack);
  expect(config.ProductionVariants[0]).toEqual(expect.objectContaining({
    InstancePools: [
      { InstanceType: 'ml.g6e.xlarge', Priority: 1 },
      { InstanceType: 'ml.g5.2xlarge', Priority: 2 },
      { InstanceType: 'ml.g6.xlarge', Priority: 3 },
    ],
    VariantInstanceProvisionTimeoutInSeconds: 900,
  }));
  expect(config.ProductionVariants[0].InstanceType).toBeUndefined();
  expect(config.MetricsConfig).toEqual({ EnableEnhancedMetrics: true, MetricPublishFrequencyInSeconds: 30, EnableDetailedObservability: true });
});

test('a shared-GPU endpoint with a ScaleInPolicy, MetricsConfig and prefix-aware routing', () => {
  const stack = new Stack(new App(), 'Shared', { env: ENV });
  new SharedGpuEndpoint(stack, 'Shared', {
    instancePools: [{ instanceType: InstanceType.ML_G5_12XLARGE, priority: 1 }, { instanceType: InstanceType.ML_G5_48XLARGE, priority: 2 }],
    instanceScaling: {
      minCapacity: 0,
      maxCapacity: 4,
      scaleInStrategy: SharedGpuScaleInStrategy.IDLE_RELEASE,
      scaleInMaximumStepSize: 3,
      scaleInCooldown: Duration.minutes(10),
    },
    metricsConfig: { enableEnhancedMetrics: true },
    routing: SharedGpuRouting.prefixAware({ prefixLength: 2048, concurrencyThreshold: 8 }),
  });
  const config = configOf(stack);
  expect(config.ProductionVariants[0].InstancePools).toEqual([
    { InstanceType: 'ml.g5.12xlarge', Priority: 1 },
    { InstanceType: 'ml.g5.48xlarge', Priority: 2 },
  ]);
  expect(config.ProductionVariants[0].ManagedInstanceScaling).toEqual({
    Status: 'ENABLED',
    MinInstanceCount: 0,
    MaxInstanceCount: 4,
    ScaleInPolicy: { Strategy: 'IDLE_RELEASE', MaximumStepSize: 3, CooldownInMinutes: 10 },
  });
  expect(config.MetricsConfig).toEqual({ EnableEnhancedMetrics: true });
  expect(config.ProductionVariants[0].RoutingConfig).toEqual({
    RoutingStrategy: 'PREFIX_AWARE',
    PrefixAwareRoutingConfig: { PrefixLength: 2048, ConcurrencyThreshold: 8 },
  });
});
