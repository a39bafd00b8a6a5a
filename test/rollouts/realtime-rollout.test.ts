import { App, Duration, Stack, Validations } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { SageMakerMcpChecks } from '../../src/checks';
import { ContainerImage, InstanceType, ModelData, ModelSource } from '../../src/core';
import { RealtimeEndpoint, RealtimeEndpointProps } from '../../src/realtime';
import { RetainedVariantProperty, Rollout, RolloutCapacity } from '../../src/rollouts';
import { expectNagClean, nagReport } from '../support/nag-checks';
import { expectValidTemplate } from '../support/template-checks';
import { errorOf } from '../support/test-stacks';

const SKLEARN = ContainerImage.fromDlc('sagemaker-scikit-learn', '1.2-1-cpu-py3');

function newStack(): Stack {
  const app = new App({ context: { 'aws:cdk:disable-creation-stack-traces': true } });
  return new Stack(app, 'Test', { env: { account: '123456789012', region: 'us-east-1' } });
}

function model(stack: Stack, key: string): ModelSource {
  const bucket = s3.Bucket.fromBucketName(stack, `Artifacts${key.replace(/\W/g, '')}`, 'model-artifacts');
  return ModelSource.fromContainer(SKLEARN, { modelData: ModelData.fromBucket(bucket, `${key}/model.tar.gz`) });
}

function endpoint(stack: Stack, props: Partial<RealtimeEndpointProps> = {}): RealtimeEndpoint {
  return new RealtimeEndpoint(stack, 'Chat', {
    model: model(stack, 'champion'),
    instanceType: InstanceType.ML_M5_LARGE,
    initialInstanceCount: 4,
    alarms: { modelLatencyP99Threshold: Duration.millis(500), invocation5XXRateThreshold: 1, period: Duration.minutes(1) },
    ...props,
  });
}

const ALARM_REF = (id: string) => ({ Ref: Match.stringLikeRegexp(`^ChatAllTrafficAlarms${id}`) });

describe('RealtimeEndpoint rollout', () => {
  test('canary with the endpoint\'s own latency and 5xx alarms as rollback alarms', () => {
    // GIVEN
    const stack = newStack();
    // WHEN
    endpoint(stack, { rollout: Rollout.canary({ size: RolloutCapacity.instances(1), bakingPeriod: Duration.minutes(5) }) });
    // THEN
    const t = Template.fromStack(stack);
    t.hasResourceProperties('AWS::SageMaker::Endpoint', {
      DeploymentConfig: {
        BlueGreenUpdatePolicy: {
          TrafficRoutingConfiguration: { Type: 'CANARY', CanarySize: { Type: 'INSTANCE_COUNT', Value: 1 }, WaitIntervalInSeconds: 300 },
        },
        AutoRollbackConfiguration: { Alarms: [{ AlarmName: ALARM_REF('ModelLatencyP99') }, { AlarmName: ALARM_REF('Invocation5XXRate') }] },
      },
      RetainAllVariantProperties: Match.absent(),
      ExcludeRetainedVariantProperties: Match.absent(),
    });
    // the name is generated at synth, and the alarms watch it literally (no GetAtt: the endpoint Refs them)
    t.hasResourceProperties('AWS::SageMaker::Endpoint', { EndpointName: Match.stringLikeRegexp('^Test-Chat-[0-9A-F]{8}$') });
    t.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Dimensions: Match.arrayWith([{ Name: 'EndpointName', Value: Match.stringLikeRegexp('^Test-Chat-[0-9A-F]{8}$') }]),
    });
    expect(Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('rollout'))).toEqual([]);
    expectValidTemplate(stack);
  });

  test('the models\' execution role may read the rollback alarms (cloudwatch:DescribeAlarms on their ARNs), and ALL_AT_ONCE waits 0 s', () => {
    // GIVEN
    const stack = newStack();
    // WHEN
    endpoint(stack, { rollout: Rollout.allAtOnce() });
    // THEN: https://docs.aws.amazon.com/sagemaker/latest/dg/deployment-guardrails-configuration.html
    const t = Template.fromStack(stack);
    // On the created role's DefaultPolicy, with what its models need.
    t.hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: Match.stringLikeRegexp('^ChatRole') }],
      PolicyDocument: {
        Statement: Match.arrayWith([{
          Action: 'cloudwatch:DescribeAlarms',
          Effect: 'Allow',
          Resource: [
            { 'Fn::GetAtt': [Match.stringLikeRegexp('^ChatAllTrafficAlarmsModelLatencyP99'), 'Arn'] },
            { 'Fn::GetAtt': [Match.stringLikeRegexp('^ChatAllTrafficAlarmsInvocation5XXRate'), 'Arn'] },
          ],
        }]),
      },
    });
    t.hasResourceProperties('AWS::SageMaker::Endpoint', {
      DeploymentConfig: { BlueGreenUpdatePolicy: { TrafficRoutingConfiguration: { Type: 'ALL_AT_ONCE', WaitIntervalInSeconds: 0 } } },
    });
    expectValidTemplate(stack);
  });

  test('without a rollout, the endpoint has no DeploymentConfig (SageMaker\'s all-at-once default)', () => {
    const stack = newStack();
    endpoint(stack);
    Template.fromStack(stack).hasResourceProperties('AWS::SageMaker::Endpoint', { DeploymentConfig: Match.absent() });
  });

  test('alarms added after construction join the default rollback alarms; explicit autoRollbackOn replaces them', () => {
    // GIVEN
    const stack = newStack();
    const other = newStack();
    const external = new cloudwatch.Alarm(other, 'External', {
      metric: new cloudwatch.Metric({ namespace: 'AWS/SageMaker', metricName: 'Invocations' }), threshold: 1, evaluationPeriods: 1,
    });
    // WHEN
    const ep = endpoint(stack, { alarms: undefined, rollout: Rollout.linear({ stepSize: RolloutCapacity.percent(25) }) });
    ep.addAlarms({ modelLatencyP99Threshold: Duration.seconds(1), period: Duration.minutes(1) });
    endpoint(other, { rollout: Rollout.allAtOnce({ autoRollbackOn: [external] }) });
    // THEN
    Template.fromStack(stack).hasResourceProperties('AWS::SageMaker::Endpoint', {
      DeploymentConfig: { AutoRollbackConfiguration: { Alarms: [{ AlarmName: ALARM_REF('ModelLatencyP99') }] } },
    });
    Template.fromStack(other).hasResourceProperties('AWS::SageMaker::Endpoint', {
      DeploymentConfig: { AutoRollbackConfiguration: { Alarms: [{ AlarmName: { Ref: Match.stringLikeRegexp('^External') } }] } },
    });
  });

  test('warns when the endpoint has no alarms to roll back on, and when its alarms are slower than the baking period', () => {
    // GIVEN
    const bare = newStack();
    const slow = newStack();
    // WHEN
    endpoint(bare, { alarms: undefined, rollout: Rollout.canary({ size: RolloutCapacity.percent(25) }) });
    endpoint(slow, {
      alarms: { invocation5XXRateThreshold: 1 }, // 5 min x 3 = 15 min to fire
      rollout: Rollout.canary({ size: RolloutCapacity.percent(25), bakingPeriod: Duration.minutes(10) }),
    });
    // THEN
    Annotations.fromStack(bare).hasWarning('/Test/Chat', Match.stringLikeRegexp('no rollback alarms .*construct has no alarms'));
    Annotations.fromStack(slow).hasWarning('/Test/Chat', Match.stringLikeRegexp('baking period \\(10 minutes\\) is shorter than the 15 minutes'));
  });

  test('fails at synth for a canary larger than half the instances, and for a rolling update of two variants', () => {
    // GIVEN
    const big = newStack();
    const twoVariants = newStack();
    // WHEN
    endpoint(big, { rollout: Rollout.canary({ size: RolloutCapacity.instances(3) }) });
    endpoint(twoVariants, { rollout: Rollout.rolling({ batchSize: RolloutCapacity.percent(25) }) })
      .addVariant('Challenger', { model: model(twoVariants, 'challenger'), instanceType: InstanceType.ML_M5_LARGE });
    // THEN
    expect(errorOf(() => Template.fromStack(big))).toMatch(/RealtimeEndpoint 'Chat' rollout \(CANARY\).*size: got '3 instances', expected .*with 4 instances, between 1 and 2 instances/s);
    expect(errorOf(() => Template.fromStack(twoVariants))).toMatch(/rollout: got 'Rollout.rolling with 2 variants'/);
  });
});

describe('RealtimeEndpoint variant-property retention', () => {
  test('an autoscaled endpoint keeps its instance counts across deploys, weights follow the config', () => {
    const stack = newStack();
    endpoint(stack, { initialInstanceCount: 2, autoScaling: { minCapacity: 2, maxCapacity: 6 } });
    Template.fromStack(stack).hasResourceProperties('AWS::SageMaker::Endpoint', {
      RetainAllVariantProperties: true,
      ExcludeRetainedVariantProperties: [{ VariantPropertyType: 'DesiredWeight' }],
    });
  });

  test('explicit retention props are rendered as given', () => {
    const stack = newStack();
    endpoint(stack, {
      retainAllVariantProperties: true,
      excludeRetainedVariantProperties: [RetainedVariantProperty.DESIRED_INSTANCE_COUNT],
      retainDeploymentConfig: true,
    });
    Template.fromStack(stack).hasResourceProperties('AWS::SageMaker::Endpoint', {
      RetainAllVariantProperties: true,
      ExcludeRetainedVariantProperties: [{ VariantPropertyType: 'DesiredInstanceCount' }],
      RetainDeploymentConfig: true,
    });
  });

  test('fails for excluded properties when nothing is retained', () => {
    const stack = newStack();
    const props = { retainAllVariantProperties: false, excludeRetainedVariantProperties: [RetainedVariantProperty.DESIRED_WEIGHT] };
    expect(errorOf(() => endpoint(stack, props)))
      .toMatch(/excludeRetainedVariantProperties: got \["DesiredWeight"\], expected nothing when retainAllVariantProperties is false/);
  });
});

describe('RealtimeEndpoint shadow variant', () => {
  test('renders ShadowProductionVariants with its own model and a weight that is the sampling share of the production weight', () => {
    // GIVEN
    const stack = newStack();
    // WHEN
    const ep = endpoint(stack, { shadow: { model: model(stack, 'challenger'), instanceType: InstanceType.ML_M5_LARGE, samplingPercentage: 50 } });
    // THEN
    const t = Template.fromStack(stack);
    t.resourceCountIs('AWS::SageMaker::Model', 2);
    t.hasResourceProperties('AWS::SageMaker::EndpointConfig', {
      ProductionVariants: [Match.objectLike({ VariantName: 'AllTraffic', InitialVariantWeight: 1 })],
      ShadowProductionVariants: [Match.objectLike({
        VariantName: 'Shadow',
        InstanceType: 'ml.m5.large',
        InitialInstanceCount: 1,
        InitialVariantWeight: 0.5,
        ModelName: { 'Fn::GetAtt': [Match.stringLikeRegexp('ChatModel2'), 'ModelName'] },
      })],
    });
    expect(ep.shadowVariantName).toBe('Shadow');
    expect(stack.resolve(ep.metricModelLatency({ variantName: ep.shadowVariantName }).dimensions)).toMatchObject({ VariantName: 'Shadow' });
    expectValidTemplate(stack);
  });

  test.each([
    ['a sampling percentage of 0', { samplingPercentage: 0 }, /shadow.samplingPercentage: got 0, expected an integer between 1 and 100 percent/],
    ['a weight', { initialVariantWeight: 1 }, /shadow.initialVariantWeight: got 1, expected nothing: samplingPercentage sets/],
    ['the production variant\'s name', { variantName: 'AllTraffic' }, /shadow.variantName: got 'AllTraffic', expected a name other than the production variant's/],
  ])('fails for %s', (_name, extra, message) => {
    const stack = newStack();
    expect(errorOf(() => endpoint(stack, { shadow: { model: model(stack, 'challenger'), instanceType: InstanceType.ML_M5_LARGE, ...extra } })))
      .toMatch(message);
  });

  test('fails at synth for a second production variant next to a shadow', () => {
    const stack = newStack();
    endpoint(stack, { shadow: { model: model(stack, 'challenger'), instanceType: InstanceType.ML_M5_LARGE } })
      .addVariant('B', { model: model(stack, 'b'), instanceType: InstanceType.ML_M5_LARGE });
    expect(errorOf(() => Template.fromStack(stack))).toMatch(/production variants: got \["AllTraffic","B"\], expected one production variant when a shadow variant is set/);
  });
});

describe('checks and nag', () => {
  test('a production endpoint with a canary and its alarms passes cdk-nag and SageMakerMcpChecks', () => {
    const stack = newStack();
    endpoint(stack, {
      rollout: Rollout.canary({ size: RolloutCapacity.percent(25) }),
      shadow: { model: model(stack, 'challenger'), instanceType: InstanceType.ML_M5_LARGE, samplingPercentage: 20 },
    });
    Validations.of(stack.node.root).addPlugins(new SageMakerMcpChecks());
    expectNagClean(stack.node.root as App);
  });

  test('a production endpoint without a rollout gets SMCP-RO1 from SageMakerMcpChecks', () => {
    const stack = newStack();
    endpoint(stack);
    Validations.of(stack.node.root).addPlugins(new SageMakerMcpChecks());
    const report = nagReport(stack.node.root as App);
    expect(report.findings.map((f) => f.ruleId)).toContain('SMCP-RO1');
  });
});
