import { App, Duration, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { AsyncEndpoint, AsyncEndpointProps, AsyncWorkload } from '../../src/async';
import { ContainerImage, InstanceType, ModelSource } from '../../src/core';
import { SageMakerMcpDashboard } from '../../src/operations';
import { errorOf } from '../support/test-stacks';

/**
 * Instance pools on an async endpoint: "Instance pools support both real-time and asynchronous inference endpoints"
 * (https://docs.aws.amazon.com/sagemaker/latest/dg/realtime-endpoints-heterogeneous.html).
 */
const ENV = { account: '123456789012', region: 'us-east-1' };
const MODEL = ModelSource.fromContainer(ContainerImage.fromImageUri('123456789012.dkr.ecr.us-east-1.amazonaws.com/llm:1'));
const POOLS = [
  { instanceType: InstanceType.ML_G6E_XLARGE, priority: 1 },
  { instanceType: InstanceType.ML_G5_2XLARGE, priority: 2 },
  { instanceType: InstanceType.ML_G6_XLARGE, priority: 3 },
];

function build(props: Partial<AsyncEndpointProps> = {}) {
  const stack = new Stack(new App(), 'Test', { env: ENV });
  const endpoint = new AsyncEndpoint(stack, 'Async', { model: MODEL, instancePools: POOLS, ...props });
  return { stack, endpoint };
}

describe('AsyncEndpoint instance pools', () => {
  test('three pools, the provision timeout and MetricsConfig synthesize with the CloudFormation names; the workload follows the priority-1 type', () => {
    // GIVEN / WHEN
    const { stack, endpoint } = build({
      instanceProvisionTimeout: Duration.hours(1),
      metricsConfig: { metricPublishFrequency: Duration.minutes(5), enableEnhancedMetrics: false },
    });
    // THEN
    const [config] = Object.values<any>(Template.fromStack(stack).findResources('AWS::SageMaker::EndpointConfig'));
    const [variant] = config.Properties.ProductionVariants;
    expect(variant.InstanceType).toBeUndefined();
    expect(variant.InstancePools).toEqual([
      { InstanceType: 'ml.g6e.xlarge', Priority: 1 },
      { InstanceType: 'ml.g5.2xlarge', Priority: 2 },
      { InstanceType: 'ml.g6.xlarge', Priority: 3 },
    ]);
    expect(variant.VariantInstanceProvisionTimeoutInSeconds).toBe(3600);
    expect(config.Properties.MetricsConfig).toEqual({ EnableEnhancedMetrics: false, MetricPublishFrequencyInSeconds: 300 });
    expect(endpoint.workload).toBe(AsyncWorkload.GPU_LLM);
    // Every pool here has NVMe storage: the config carries no KmsKeyId (the async data keeps its key).
    expect(config.Properties.KmsKeyId).toBeUndefined();
  });

  test('a pool with its own model: a second model, bound for the pool\'s type, as ModelNameOverride', () => {
    const other = ModelSource.fromContainer(ContainerImage.fromImageUri('123456789012.dkr.ecr.us-east-1.amazonaws.com/llm-g5:1'));
    const { stack } = build({ instancePools: [POOLS[0], { ...POOLS[1], model: other }] });
    const t = Template.fromStack(stack);
    t.resourceCountIs('AWS::SageMaker::Model', 2);
    const [config] = Object.values<any>(t.findResources('AWS::SageMaker::EndpointConfig'));
    expect(config.Properties.ProductionVariants[0].InstancePools[1].ModelNameOverride)
      .toEqual({ 'Fn::GetAtt': [expect.stringMatching(/^AsyncPool2Model/), 'ModelName'] });
  });

  test('fails if neither or both are given, or a limit is broken', () => {
    expect(errorOf(() => build({ instancePools: undefined }))).toMatch(/instanceType: got none, expected an InstanceType .* or instancePools \(1-5 instance types in priority order\)/);
    expect(errorOf(() => build({ instanceType: InstanceType.ML_M5_XLARGE }))).toContain('expected exactly one of instanceType and instancePools');
    expect(errorOf(() => build({ instancePools: [{ instanceType: InstanceType.ML_G5_2XLARGE, priority: 7 }] })))
      .toContain('instancePools[0].priority: got 7, expected an integer between 1 and 5');
    expect(errorOf(() => build({ metricsConfig: { metricPublishFrequency: Duration.seconds(20) } })))
      .toContain("metricsConfig.metricPublishFrequency: got '20 seconds', expected one of 10, 30, 60, 120, 180, 240, 300 seconds");
  });

  test('cost is a range over the pools; the dashboard helper lists the pools', () => {
    const { endpoint } = build({ autoScaling: { minCapacity: 0, maxCapacity: 2 } });
    const e = endpoint.costEstimate({ hourlyPricesUsd: { 'ml.g6e.xlarge': 2, 'ml.g5.2xlarge': 1, 'ml.g6.xlarge': 1.5 } });
    expect([e.monthlyAtMinUsd, e.monthlyAtMaxUsd]).toEqual([0, 2920]);
    expect(endpoint._poolInstanceTypes()).toEqual(['ml.g6e.xlarge', 'ml.g5.2xlarge', 'ml.g6.xlarge']);
  });

  test('the dashboard counts the instances of each pool: CPUUtilization samples with the InstanceType dimension', () => {
    const { stack, endpoint } = build();
    new SageMakerMcpDashboard(stack, 'Ops', { asyncEndpoints: [endpoint] });
    const [dashboard] = Object.values<any>(Template.fromStack(stack).findResources('AWS::CloudWatch::Dashboard'));
    const body = JSON.stringify(dashboard.Properties.DashboardBody);
    for (const type of ['ml.g6e.xlarge', 'ml.g5.2xlarge', 'ml.g6.xlarge']) {
      expect(body).toContain(`\\"InstanceType\\",\\"${type}\\",\\"VariantName\\",\\"AllTraffic\\",{\\"id\\":\\"cpuSamples`);
      expect(body).toContain(`instances ${type}`);
    }
  });

  test('mixed families warn that the model is bound for the priority-1 type', () => {
    const { stack } = build({
      instancePools: [{ instanceType: InstanceType.ML_G5_2XLARGE, priority: 1 }, { instanceType: InstanceType.ML_INF2_XLARGE, priority: 2 }],
    });
    Annotations.fromStack(stack).hasWarning('/Test/Async', Match.stringLikeRegexp('instancePools: the pools span instance families g5, inf2'));
  });
});
