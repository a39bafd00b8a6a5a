import { App, Duration, Size, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import { ContainerImage, InstanceType, ModelSource } from '../../src/core';
import { SharedGpuEndpoint, SharedGpuEndpointProps, SharedGpuScaleInStrategy } from '../../src/shared-gpu';
import { errorOf } from '../support/test-stacks';

/**
 * Instance pools on the endpoint config of an inference-component endpoint ("You can use them with single-model
 * endpoints and with inference components", https://docs.aws.amazon.com/sagemaker/latest/dg/realtime-endpoints-heterogeneous.html),
 * MetricsConfig, and managed instance scaling's ScaleInPolicy at an aws-cdk-lib below 2.268.
 */
const ENV = { account: '123456789012', region: 'us-east-1' };
const LMI = ContainerImage.fromDlc('djl-inference', '0.29.0-lmi11.0.0-cu124');
const POOLS = [{ instanceType: InstanceType.ML_G5_12XLARGE, priority: 1 }, { instanceType: InstanceType.ML_G5_2XLARGE, priority: 2 }];

function build(props: Partial<SharedGpuEndpointProps> = {}) {
  const stack = new Stack(new App(), 'Stack', { env: ENV });
  const endpoint = new SharedGpuEndpoint(stack, 'Shared', { instancePools: POOLS, ...props });
  return { stack, endpoint };
}

function config(stack: Stack): any {
  return Object.values<any>(Template.fromStack(stack).findResources('AWS::SageMaker::EndpointConfig'))[0].Properties;
}

describe('SharedGpuEndpoint instance pools', () => {
  test('pools, the provision timeout and MetricsConfig render with the CloudFormation names; instanceType is the priority-1 type', () => {
    const { stack, endpoint } = build({
      instanceProvisionTimeout: Duration.seconds(300),
      metricsConfig: { enableEnhancedMetrics: true, enableDetailedObservability: true },
    });
    const props = config(stack);
    expect(props.ProductionVariants[0].InstanceType).toBeUndefined();
    expect(props.ProductionVariants[0].InstancePools).toEqual([
      { InstanceType: 'ml.g5.12xlarge', Priority: 1 },
      { InstanceType: 'ml.g5.2xlarge', Priority: 2 },
    ]);
    expect(props.ProductionVariants[0].VariantInstanceProvisionTimeoutInSeconds).toBe(300);
    expect(props.MetricsConfig).toEqual({ EnableEnhancedMetrics: true, EnableDetailedObservability: true });
    expect(endpoint.instanceType.name).toBe('ml.g5.12xlarge');
  });

  test('a copy must fit an instance of every pool: the one that fits only the priority-1 type is refused, naming the other', () => {
    const { endpoint } = build();
    const message = errorOf(() => endpoint.addInferenceComponent('Big', {
      model: ModelSource.fromContainer(LMI), acceleratorCount: 4, minMemory: Size.gibibytes(16),
    }));
    expect(message).toMatch(/ml\.g5\.2xlarge/);
    expect(message).not.toMatch(/one ml\.g5\.12xlarge instance/);
    // One that fits both is accepted.
    endpoint.addInferenceComponent('Small', { model: ModelSource.fromContainer(LMI), acceleratorCount: 1, minMemory: Size.gibibytes(8) });
  });

  test('fails if a pool names a model (the config names none), or neither instanceType nor instancePools is given', () => {
    expect(errorOf(() => build({ instancePools: [{ ...POOLS[0], model: ModelSource.fromContainer(LMI) }] })))
      .toContain("instancePools[0].model: got a model, expected none: a shared-GPU endpoint's config names no model (each inference component brings its own)");
    expect(errorOf(() => build({ instancePools: undefined }))).toMatch(/instanceType: got none, expected an InstanceType .* or instancePools/);
  });

  test('pools with managed instance scaling warn (AWS documents no rule on it); the cost is a range', () => {
    const { stack, endpoint } = build({ instanceScaling: { minCapacity: 1, maxCapacity: 3 } });
    Annotations.fromStack(stack).hasWarning('/Stack/Shared', Match.stringLikeRegexp('used together with managed instance scaling'));
    const e = endpoint.costEstimate({ hourlyPricesUsd: { 'ml.g5.12xlarge': 7, 'ml.g5.2xlarge': 1.5 } });
    expect([e.monthlyAtMinUsd, e.monthlyAtMaxUsd]).toEqual([1095, 15330]);
  });
});

describe('below aws-cdk-lib 2.268 (an L1 without metricsConfig and ScaleInPolicy)', () => {
  // aws-cdk-lib before 2.268 has neither `metricsConfig` nor ScaleInPolicy on CfnEndpointConfig (both came with the
  // same resource spec) and drops a prop it does not know. Taking the public `metricsConfig` accessor off the prototype
  // gives the tested version's L1 that shape, so the override path renders here.
  const descriptor = Object.getOwnPropertyDescriptor(sagemaker.CfnEndpointConfig.prototype, 'metricsConfig');
  // At the peer floor (`npx projen test:floor`) the L1 has no such accessor to take off.
  beforeAll(() => {
    if (descriptor) delete (sagemaker.CfnEndpointConfig.prototype as any).metricsConfig;
  });
  afterAll(() => {
    if (descriptor) Object.defineProperty(sagemaker.CfnEndpointConfig.prototype, 'metricsConfig', descriptor);
  });

  const scaling = {
    minCapacity: 0,
    maxCapacity: 4,
    scaleInStrategy: SharedGpuScaleInStrategy.CONSOLIDATION,
    scaleInMaximumStepSize: 2,
    scaleInCooldown: Duration.minutes(30),
  };

  test.each([
    ['the instanceScaling prop', (props: Partial<SharedGpuEndpointProps>) => build({ ...props, instanceScaling: scaling })],
    ['autoScaleInstanceCount after the constructor', (props: Partial<SharedGpuEndpointProps>) => {
      const built = build(props);
      built.endpoint.autoScaleInstanceCount(scaling);
      return built;
    }],
  ])('ScaleInPolicy and MetricsConfig are overrides with %s: the template is the one the L1 writes at 2.268', (_, make) => {
    const { stack, endpoint } = make({
      instanceType: InstanceType.ML_G5_12XLARGE, instancePools: undefined, metricsConfig: { metricPublishFrequency: Duration.seconds(10) },
    });
    const props = config(stack);
    expect(props.ProductionVariants[0].ManagedInstanceScaling).toEqual({
      Status: 'ENABLED',
      MinInstanceCount: 0,
      MaxInstanceCount: 4,
      ScaleInPolicy: { Strategy: 'CONSOLIDATION', MaximumStepSize: 2, CooldownInMinutes: 30 },
    });
    expect(props.MetricsConfig).toEqual({ MetricPublishFrequencyInSeconds: 10 });
    // Through the override, not the L1: the L1's own ManagedInstanceScaling carries no ScaleInPolicy.
    const l1 = stack.resolve(endpoint.cfnEndpointConfig.productionVariants) as any[];
    expect(l1[0].managedInstanceScaling.scaleInPolicy).toBeUndefined();
  });
});
