import { App, Duration, Size, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import { AsyncEndpoint } from '../../src/async';
import { ContainerImage, InstanceType, ModelSource } from '../../src/core';
import { Rollout, RolloutCapacity } from '../../src/rollouts';
import { SharedGpuEndpoint } from '../../src/shared-gpu';
import { expectValidTemplate } from '../support/template-checks';
import { errorOf } from '../support/test-stacks';

const ENV = { account: '123456789012', region: 'us-east-1' };
const TGI = ModelSource.fromContainer(ContainerImage.fromDlc('huggingface-pytorch-tgi-inference', '2.7.0-tgi3.3.6-gpu-py311-cu124-ubuntu22.04'));
const HF = ModelSource.fromContainer(ContainerImage.fromDlc('huggingface-pytorch-inference', '2.1.0-transformers4.37.0-cpu-py310-ubuntu22.04'));

function newStack(): Stack {
  return new Stack(new App(), 'Test', { env: ENV });
}

/** An alarm on a metric of a literally named resource (so that the resource can name it back). */
function literalAlarm(stack: Stack, id: string, dimension: string, name: string): cloudwatch.Alarm {
  return new cloudwatch.Alarm(stack, id, {
    metric: new cloudwatch.Metric({ namespace: 'AWS/SageMaker', metricName: 'ModelLatency', dimensionsMap: { [dimension]: name } }),
    threshold: 1_000_000,
    evaluationPeriods: 2,
  });
}

/** The statements of the created role's DefaultPolicy (what the library grants it). */
function modelAccessOf(stack: Stack, roleId: RegExp): unknown[] {
  const t = Template.fromStack(stack);
  const policies = Object.entries(t.findResources('AWS::IAM::Policy')).filter(([id]) => roleId.test(id)).map(([, p]) => p as any);
  expect(policies).toHaveLength(1);
  return policies[0].Properties.PolicyDocument.Statement;
}

describe('InferenceComponent rollout', () => {
  test('a rolling update in copies with a rollback alarm on the named component', () => {
    // GIVEN
    const stack = newStack();
    const endpoint = new SharedGpuEndpoint(stack, 'Shared', { instanceType: InstanceType.ML_G5_12XLARGE, initialInstanceCount: 2 });
    const latency = literalAlarm(stack, 'Latency', 'InferenceComponentName', 'chat');
    // WHEN
    endpoint.addInferenceComponent('Chat', {
      model: TGI,
      componentName: 'chat',
      acceleratorCount: 1,
      minMemory: Size.gibibytes(16),
      copies: 4,
      rollout: Rollout.rolling({ batchSize: RolloutCapacity.copies(1), bakingPeriod: Duration.minutes(5), autoRollbackOn: [latency] }),
    });
    // THEN
    Template.fromStack(stack).hasResourceProperties('AWS::SageMaker::InferenceComponent', {
      DeploymentConfig: {
        RollingUpdatePolicy: { MaximumBatchSize: { Type: 'COPY_COUNT', Value: 1 }, WaitIntervalInSeconds: 300 },
        AutoRollbackConfiguration: { Alarms: [{ AlarmName: { Ref: Match.stringLikeRegexp('^Latency') } }] },
      },
    });
    // the endpoint's execution role (ExecutionRoleArn) may read the rollback alarm: inline, with what the models need
    expect(modelAccessOf(stack, /^SharedRole/)).toEqual(expect.arrayContaining([
      { Action: 'cloudwatch:DescribeAlarms', Effect: 'Allow', Resource: { 'Fn::GetAtt': [expect.stringMatching(/^Latency/), 'Arn'] } },
    ]));
    expectValidTemplate(stack);
  });

  test('fails for a canary, and for a batch larger than half the copies', () => {
    const stack = newStack();
    const endpoint = new SharedGpuEndpoint(stack, 'Shared', { instanceType: InstanceType.ML_G5_12XLARGE, initialInstanceCount: 2 });
    const base = { model: TGI, acceleratorCount: 1, minMemory: Size.gibibytes(16), copies: 2 };
    expect(errorOf(() => endpoint.addInferenceComponent('A', { ...base, rollout: Rollout.canary({ size: RolloutCapacity.percent(10) }) })))
      .toMatch(/InferenceComponent 'A' rollout \(CANARY\).*rollout: got 'Rollout.canary', expected Rollout.rolling/s);
    expect(errorOf(() => endpoint.addInferenceComponent('B', { ...base, rollout: Rollout.rolling({ batchSize: RolloutCapacity.copies(2) }) })))
      .toMatch(/batchSize: got '2 copies', expected a rolling batch is 5-50% of the fleet: with 2 copies, between 1 and 1 copies/);
  });

  test('warns when a rolling update has no rollback alarms', () => {
    const stack = newStack();
    const endpoint = new SharedGpuEndpoint(stack, 'Shared', { instanceType: InstanceType.ML_G5_12XLARGE, initialInstanceCount: 2 });
    endpoint.addInferenceComponent('Chat', {
      model: TGI, acceleratorCount: 1, minMemory: Size.gibibytes(16), copies: 2, rollout: Rollout.rolling({ batchSize: RolloutCapacity.percent(50) }),
    });
    Annotations.fromStack(stack).hasWarning('/Test/Shared/Chat', Match.stringLikeRegexp('no rollback alarms'));
  });
});

describe('AsyncEndpoint rollout', () => {
  test('a canary with a rollback alarm on the named endpoint, and retention when autoscaled', () => {
    // GIVEN
    const stack = newStack();
    const backlog = literalAlarm(stack, 'Latency', 'EndpointName', 'jobs');
    // WHEN
    new AsyncEndpoint(stack, 'Jobs', {
      model: HF,
      instanceType: InstanceType.ML_M5_XLARGE,
      endpointName: 'jobs',
      initialInstanceCount: 4,
      autoScaling: { minCapacity: 1, maxCapacity: 4 },
      rollout: Rollout.canary({ size: RolloutCapacity.instances(1), autoRollbackOn: [backlog] }),
    });
    // THEN
    Template.fromStack(stack).hasResourceProperties('AWS::SageMaker::Endpoint', {
      DeploymentConfig: {
        BlueGreenUpdatePolicy: { TrafficRoutingConfiguration: { Type: 'CANARY', CanarySize: { Type: 'INSTANCE_COUNT', Value: 1 }, WaitIntervalInSeconds: 600 } },
        AutoRollbackConfiguration: { Alarms: [{ AlarmName: { Ref: Match.stringLikeRegexp('^Latency') } }] },
      },
      RetainAllVariantProperties: true,
      ExcludeRetainedVariantProperties: [{ VariantPropertyType: 'DesiredWeight' }],
    });
    expect(modelAccessOf(stack, /^JobsRole/)).toEqual(expect.arrayContaining([
      { Action: 'cloudwatch:DescribeAlarms', Effect: 'Allow', Resource: { 'Fn::GetAtt': [expect.stringMatching(/^Latency/), 'Arn'] } },
    ]));
  });
  test('the rollout\'s grant to the role is made while the app validates, before any template renders', () => {
    // GIVEN
    const stack = newStack();
    const backlog = literalAlarm(stack, 'Latency', 'EndpointName', 'jobs');
    const endpoint = new AsyncEndpoint(stack, 'Jobs', {
      model: HF,
      instanceType: InstanceType.ML_M5_XLARGE,
      endpointName: 'jobs',
      initialInstanceCount: 4,
      rollout: Rollout.canary({ size: RolloutCapacity.instances(1), autoRollbackOn: [backlog] }),
    });
    const policy = () => endpoint.role.node.findChild('DefaultPolicy').node.defaultChild as iam.CfnPolicy;
    const describeAlarms = () => JSON.stringify(stack.resolve(policy().policyDocument)).includes('cloudwatch:DescribeAlarms');
    expect(describeAlarms()).toBe(false);
    // WHEN: the endpoint's own validations run (as `app.synth()` runs them before writing templates)
    expect(endpoint.node.validate()).toEqual([]);
    // THEN
    expect(describeAlarms()).toBe(true);
  });
});
