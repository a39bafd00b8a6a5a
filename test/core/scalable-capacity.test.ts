import { App, Duration, Size, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as appscaling from 'aws-cdk-lib/aws-applicationautoscaling';
import { AsyncEndpoint } from '../../src/async';
import { ContainerImage, InstanceType, ModelSource, ScalableCopyCount, ScalableInstanceCount } from '../../src/core';
import { RealtimeEndpoint } from '../../src/realtime';
import { CopyScalingTarget, SharedGpuEndpoint } from '../../src/shared-gpu';

const ENV = { account: '123456789012', region: 'us-east-1' };
const TGI = ContainerImage.fromDlc('huggingface-pytorch-tgi-inference', '2.7.0-tgi3.3.6-gpu-py311-cu124-ubuntu22.04');
const CPU = ContainerImage.fromDlc('huggingface-pytorch-inference', '2.1.0-transformers4.37.0-cpu-py310-ubuntu22.04');

function newStack(): Stack {
  return new Stack(new App(), 'Test', { env: ENV });
}

/** The policies attached to the scalable target whose ResourceId is `resourceId` (the only target when not given), by logical id. */
function policiesOn(template: Template, resourceId?: string): Record<string, any> {
  const targets = template.findResources('AWS::ApplicationAutoScaling::ScalableTarget', resourceId ? { Properties: { ResourceId: resourceId } } : undefined);
  const ids = Object.keys(targets);
  expect(ids).toHaveLength(1);
  return template.findResources('AWS::ApplicationAutoScaling::ScalingPolicy', { Properties: { ScalingTargetId: { Ref: ids[0] } } });
}

describe('the scaling object a realtime variant returns', () => {
  test('a policy the user adds with scaleOnConcurrentRequestsPerModel lands on the variant\'s target, beside the built-in one', () => {
    // GIVEN
    const stack = newStack();
    const endpoint = new RealtimeEndpoint(stack, 'Chat', { model: ModelSource.fromContainer(TGI), instanceType: InstanceType.ML_G5_2XLARGE, endpointName: 'chat' });

    // WHEN
    const capacity = endpoint.autoScaleInstanceCount({ maxCapacity: 4 });
    capacity.scaleOnConcurrentRequestsPerModel('Burst', { targetValue: 3, scaleOutCooldown: Duration.seconds(30) });

    // THEN
    expect(capacity).toBeInstanceOf(ScalableInstanceCount);
    expect(capacity.maxCapacity).toBe(4);
    const policies = Object.values(policiesOn(Template.fromStack(stack), 'endpoint/chat/variant/AllTraffic'));
    expect(policies.map((p) => p.Properties.TargetTrackingScalingPolicyConfiguration)).toEqual(expect.arrayContaining([
      expect.objectContaining({ PredefinedMetricSpecification: { PredefinedMetricType: 'SageMakerVariantInvocationsPerInstance' }, TargetValue: 70 }),
      { PredefinedMetricSpecification: { PredefinedMetricType: 'SageMakerVariantConcurrentRequestsPerModelHighResolution' }, TargetValue: 3, ScaleOutCooldown: 30, ScaleInCooldown: 300 },
    ]));
    expect(policies).toHaveLength(2);
    // The default policy name is unique in the stack, so two variants' user policies never collide.
    expect(policies.map((p) => p.Properties.PolicyName).sort())
      .toEqual(['AllTraffic-invocations-per-instance', expect.stringMatching(/^TestChatAllTrafficScalingInstanceCountBurst[0-9A-F]{8}$/)]);
  });

  test('any aws-applicationautoscaling policy can target it (it is an IScalableTarget), with no role created', () => {
    // GIVEN
    const stack = newStack();
    const endpoint = new RealtimeEndpoint(stack, 'Chat', {
      model: ModelSource.fromContainer(TGI), instanceType: InstanceType.ML_G5_2XLARGE, endpointName: 'chat',
    });
    const capacity = endpoint.autoScaleInstanceCount();

    // WHEN
    capacity.scaleToTrackMetric('Gpu', { targetValue: 60, customMetric: endpoint.metricGpuUtilization({ period: Duration.minutes(1) }) });
    capacity.scaleOnMetric('Latency', {
      metric: endpoint.metricModelLatency({ period: Duration.minutes(1) }),
      scalingSteps: [{ upper: 500_000, change: 0 }, { lower: 2_000_000, change: +2 }],
      adjustmentType: appscaling.AdjustmentType.CHANGE_IN_CAPACITY,
    });

    // THEN
    const template = Template.fromStack(stack);
    const policies = Object.values(policiesOn(template, 'endpoint/chat/variant/AllTraffic'));
    expect(policies.map((p) => p.Properties.PolicyType).sort()).toEqual(['StepScaling', 'TargetTrackingScaling', 'TargetTrackingScaling']);
    template.hasResourceProperties('AWS::ApplicationAutoScaling::ScalingPolicy', {
      TargetTrackingScalingPolicyConfiguration: Match.objectLike({
        TargetValue: 60,
        CustomizedMetricSpecification: Match.objectLike({ MetricName: 'GPUUtilization', Namespace: '/aws/sagemaker/Endpoints' }),
      }),
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', Match.objectLike({ MetricName: 'ModelLatency', Threshold: 2_000_000 }));
    template.hasResourceProperties('AWS::ApplicationAutoScaling::ScalableTarget', { RoleARN: Match.absent() });
    template.resourcePropertiesCountIs('AWS::IAM::Role', {
      AssumeRolePolicyDocument: Match.objectLike({ Statement: [Match.objectLike({ Principal: { Service: 'application-autoscaling.amazonaws.com' } })] }),
    }, 0);
  });

  test('scaleOn... options are validated with the prop named', () => {
    const stack = newStack();
    const endpoint = new RealtimeEndpoint(stack, 'Chat', { model: ModelSource.fromContainer(TGI), instanceType: InstanceType.ML_G5_2XLARGE });
    expect(() => endpoint.autoScaleInstanceCount().scaleOnInvocationsPerInstance('Zero', { targetValue: 0 }))
      .toThrow(/targetValue: got 0, expected a number > 0/);
  });

  test('fails if the same variant is scaled twice (the autoScaling prop counts as the first call)', () => {
    const stack = newStack();
    const endpoint = new RealtimeEndpoint(stack, 'Chat', { model: ModelSource.fromContainer(TGI), instanceType: InstanceType.ML_G5_2XLARGE, autoScaling: {} });
    endpoint.addVariant('Canary', { instanceType: InstanceType.ML_G5_2XLARGE });
    expect(() => endpoint.autoScaleInstanceCount({ maxCapacity: 2 }))
      .toThrow(/autoScaleInstanceCount: got a second call for variant 'AllTraffic', expected one call per scalable target/);
    expect(endpoint.autoScaleInstanceCount({ variantName: 'Canary' }).resourceId).toMatch(/\/variant\/Canary$/);
  });
});

describe('the scaling object of an async endpoint', () => {
  test('a user policy lands on the backlog target, and the built-in policies keep their place', () => {
    // GIVEN
    const stack = newStack();
    const endpoint = new AsyncEndpoint(stack, 'Batch', {
      model: ModelSource.fromContainer(CPU), instanceType: InstanceType.ML_M5_XLARGE, endpointName: 'batch',
    });

    // WHEN
    endpoint.autoScaleInstanceCount({ minCapacity: 0, maxCapacity: 2 }).scaleOnInvocationsPerInstance('Invocations', { targetValue: 20, disableScaleIn: true });

    // THEN
    const policies = policiesOn(Template.fromStack(stack));
    expect(Object.values(policies).map((p) => p.Properties.PolicyName).sort()).toEqual([
      'ApproximateBacklogSizePerInstance-ScalingPolicy',
      'HasBacklogWithoutCapacity-ScalingPolicy',
      expect.stringMatching(/^TestBatchAutoScalingInvocations/),
    ]);
    expect(Object.keys(policies)).toEqual(expect.arrayContaining([expect.stringMatching(/^BatchBacklogScalingPolicy/), expect.stringMatching(/^BatchScaleFromZeroPolicy/)]));
    expect(Object.values(policies).find((p) => p.Properties.PolicyName.startsWith('TestBatch'))!.Properties.TargetTrackingScalingPolicyConfiguration)
      .toEqual({ PredefinedMetricSpecification: { PredefinedMetricType: 'SageMakerVariantInvocationsPerInstance' }, TargetValue: 20, DisableScaleIn: true, ScaleOutCooldown: 60, ScaleInCooldown: 300 });
  });

  test('fails if scaled twice (the autoScaling prop counts as the first call)', () => {
    const stack = newStack();
    const endpoint = new AsyncEndpoint(stack, 'Batch', { model: ModelSource.fromContainer(CPU), instanceType: InstanceType.ML_M5_XLARGE, autoScaling: {} });
    expect(endpoint.scaleFromZeroAlarm).toBeUndefined();
    expect(() => endpoint.autoScaleInstanceCount({ minCapacity: 0 })).toThrow(/autoScaleInstanceCount: got a second call for variant 'AllTraffic'/);
  });

  test('scaled after the constructor, the endpoint gets the autoscaled name and the scale-from-zero alarm, as with the prop', () => {
    const byProp = newStack();
    new AsyncEndpoint(byProp, 'Batch', { model: ModelSource.fromContainer(CPU), instanceType: InstanceType.ML_M5_XLARGE, autoScaling: { minCapacity: 0 } });
    const byVerb = newStack();
    const endpoint = new AsyncEndpoint(byVerb, 'Batch', { model: ModelSource.fromContainer(CPU), instanceType: InstanceType.ML_M5_XLARGE });
    endpoint.autoScaleInstanceCount({ minCapacity: 0 });
    expect(endpoint.scaleFromZeroAlarm).toBeDefined();
    expect(Template.fromStack(byVerb).toJSON()).toEqual(Template.fromStack(byProp).toJSON());
  });
});

describe('the scaling object of an inference component', () => {
  test('autoScaleCopyCount returns the copy count; a second policy the user adds targets the component', () => {
    // GIVEN
    const stack = newStack();
    const shared = new SharedGpuEndpoint(stack, 'Shared', { instanceType: InstanceType.ML_G5_12XLARGE });
    const chat = shared.addInferenceComponent('Chat', { model: ModelSource.fromContainer(TGI), acceleratorCount: 1, minMemory: Size.mebibytes(16_384), componentName: 'chat' });

    // WHEN
    const copies = chat.autoScaleCopyCount({ maxCapacity: 4, target: CopyScalingTarget.invocationsPerCopy(10) });
    copies.scaleOnConcurrentRequestsPerCopy('Concurrency', { targetValue: 4, scaleInCooldown: Duration.minutes(10) });

    // THEN
    expect(copies).toBeInstanceOf(ScalableCopyCount);
    expect(copies.minCapacity).toBe(1);
    const policies = Object.values(policiesOn(Template.fromStack(stack), 'inference-component/chat'));
    const metricTypes = policies.map((p) => p.Properties.TargetTrackingScalingPolicyConfiguration.PredefinedMetricSpecification.PredefinedMetricType);
    expect(metricTypes.sort()).toEqual([
      'SageMakerInferenceComponentConcurrentRequestsPerCopyHighResolution',
      'SageMakerInferenceComponentInvocationsPerCopy',
    ]);
    Annotations.fromStack(stack).hasNoWarning('*', Match.stringLikeRegexp('scaleOutCooldown'));
  });
});
