import { App, Duration, Size, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { ContainerImage, ModelData, ModelSource, MultiModelSource } from '../../src/core';
import { ServerlessEndpoint, ServerlessEndpointProps } from '../../src/serverless';
import { expectNagClean } from '../support/nag-checks';
import { expectValidTemplate } from '../support/template-checks';
import { errorOf } from '../support/test-stacks';

function newStack(): Stack {
  const app = new App({ context: { 'aws:cdk:disable-creation-stack-traces': true } });
  return new Stack(app, 'Test', { env: { account: '123456789012', region: 'us-east-1' } });
}

function sklearnModel(stack: Stack, options: { enableNetworkIsolation?: boolean } = {}): ModelSource {
  const bucket = s3.Bucket.fromBucketName(stack, 'Artifacts', 'model-artifacts');
  return ModelSource.fromContainer(ContainerImage.sklearn('1.2-1'), { modelData: ModelData.fromBucket(bucket, 'churn/model.tar.gz'), ...options });
}

function endpoint(stack: Stack, props: Partial<ServerlessEndpointProps> = {}): ServerlessEndpoint {
  return new ServerlessEndpoint(stack, 'Churn', {
    model: props.model ?? sklearnModel(stack),
    memorySize: Size.gibibytes(2),
    maxConcurrency: 10,
    ...props,
  });
}

describe('ServerlessEndpoint', () => {
  test('renders one serverless variant (memory in MB, concurrency) with no instance settings and no KMS key', () => {
    const stack = newStack();
    endpoint(stack, { provisionedConcurrency: 2 });
    const t = Template.fromStack(stack);
    t.hasResourceProperties('AWS::SageMaker::EndpointConfig', {
      ProductionVariants: [{
        VariantName: 'AllTraffic',
        ModelName: { 'Fn::GetAtt': [Match.stringLikeRegexp('ChurnModel'), 'ModelName'] },
        ServerlessConfig: { MemorySizeInMB: 2048, MaxConcurrency: 10, ProvisionedConcurrency: 2 },
        InstanceType: Match.absent(),
        InitialInstanceCount: Match.absent(),
        VolumeSizeInGB: Match.absent(),
      }],
      KmsKeyId: Match.absent(),
      DataCaptureConfig: Match.absent(),
    });
    t.resourceCountIs('AWS::KMS::Key', 0);
    t.hasResourceProperties('AWS::SageMaker::Model', { VpcConfig: Match.absent(), EnableNetworkIsolation: Match.absent() });
    expectValidTemplate(stack);
  });

  test('grants invoke on the endpoint ARN SageMaker returns (lowercase), like every endpoint', () => {
    const stack = newStack();
    const e = endpoint(stack, { endpointName: 'Churn-Serverless' });
    const role = new iam.Role(stack, 'Caller', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    e.grantInvoke(role);
    Template.fromStack(stack).hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: [Match.objectLike({
          Action: ['sagemaker:InvokeEndpoint', 'sagemaker:InvokeEndpointWithResponseStream'],
          Resource: { 'Fn::GetAtt': [Match.stringLikeRegexp('Churn'), 'EndpointArn'] },
        })],
      },
    });
  });

  test('autoscaling tracks provisioned-concurrency utilization on the DesiredProvisionedConcurrency dimension', () => {
    const stack = newStack();
    endpoint(stack, { provisionedConcurrency: 2, autoScaling: { minCapacity: 1, maxCapacity: 8, targetUtilization: 0.7 } });
    const t = Template.fromStack(stack);
    t.hasResourceProperties('AWS::ApplicationAutoScaling::ScalableTarget', {
      ServiceNamespace: 'sagemaker',
      ScalableDimension: 'sagemaker:variant:DesiredProvisionedConcurrency',
      ResourceId: { 'Fn::Join': ['', ['endpoint/', { 'Fn::GetAtt': [Match.anyValue(), 'EndpointName'] }, '/variant/AllTraffic']] },
      MinCapacity: 1,
      MaxCapacity: 8,
      RoleARN: Match.absent(),
    });
    t.hasResourceProperties('AWS::ApplicationAutoScaling::ScalingPolicy', {
      PolicyType: 'TargetTrackingScaling',
      TargetTrackingScalingPolicyConfiguration: {
        PredefinedMetricSpecification: { PredefinedMetricType: 'SageMakerVariantProvisionedConcurrencyUtilization' },
        TargetValue: 0.7,
        ScaleOutCooldown: 60,
        ScaleInCooldown: 300,
      },
    });
    expectValidTemplate(stack);
  });

  test('autoscaling defaults: 1 to maxConcurrency, utilization 0.5', () => {
    const stack = newStack();
    endpoint(stack, { provisionedConcurrency: 1, autoScaling: {} });
    const t = Template.fromStack(stack);
    t.hasResourceProperties('AWS::ApplicationAutoScaling::ScalableTarget', { MinCapacity: 1, MaxCapacity: 10 });
    t.hasResourceProperties('AWS::ApplicationAutoScaling::ScalingPolicy', {
      TargetTrackingScalingPolicyConfiguration: Match.objectLike({ TargetValue: 0.5 }),
    });
  });

  test.each([
    [{ memorySize: Size.mebibytes(1536) }, /memorySize: got '1536 MB', expected one of 1024, 2048, 3072, 4096, 5120 or 6144 MB/],
    [{ memorySize: Size.gibibytes(8) }, /memorySize: got '8192 MB'/],
    [{ memorySize: Size.mebibytes(512) }, /memorySize: got '512 MB'/],
    [{ maxConcurrency: 0 }, /maxConcurrency: got 0, expected an integer between 1 and 200/],
    [{ maxConcurrency: 201 }, /maxConcurrency: got 201/],
    [{ provisionedConcurrency: 11 }, /provisionedConcurrency: got 11, expected at most maxConcurrency \(10\)/],
    [{ provisionedConcurrency: 0 }, /provisionedConcurrency: got 0, expected an integer between 1 and 200/],
    [{ autoScaling: {} }, /autoScaling: got 'given', expected provisionedConcurrency as well/],
    [{ provisionedConcurrency: 2, autoScaling: { minCapacity: 0 } }, /autoScaling.minCapacity: got 0, expected at least 1/],
    [{ provisionedConcurrency: 2, autoScaling: { maxCapacity: 11 } }, /autoScaling.maxCapacity: got 11, expected at most maxConcurrency \(10\)/],
    [{ provisionedConcurrency: 5, autoScaling: { maxCapacity: 4 } }, /provisionedConcurrency: got 5, expected between autoScaling.minCapacity \(1\) and autoScaling.maxCapacity \(4\)/],
    [{ provisionedConcurrency: 2, autoScaling: { targetUtilization: 1.5 } }, /autoScaling.targetUtilization: got 1.5, expected a number greater than 0 and at most 1/],
    [{ provisionedConcurrency: 2, autoScaling: { scaleInCooldown: Duration.millis(1500) } }, /autoScaling.scaleInCooldown: .*whole number of seconds/],
    [{ endpointName: 'no_underscores' }, /endpointName: got 'no_underscores'/],
  ] as Array<[Partial<ServerlessEndpointProps>, RegExp]>)('fails for %j', (props, message) => {
    expect(errorOf(() => endpoint(newStack(), props))).toMatch(message);
  });

  test('fails for a model with network isolation, which Serverless Inference does not support', () => {
    const stack = newStack();
    expect(errorOf(() => endpoint(stack, { model: sklearnModel(stack, { enableNetworkIsolation: true }) })))
      .toMatch(/model.enableNetworkIsolation: got true, expected a model without network isolation: Serverless Inference does not support network isolation \(https:\/\/docs.aws.amazon.com\/sagemaker\/latest\/dg\/serverless-endpoints.html/);
  });

  test('an existing model creates no role and no model', () => {
    const stack = newStack();
    const e = endpoint(stack, { model: ModelSource.fromModelName('churn-v3') });
    const t = Template.fromStack(stack);
    t.resourceCountIs('AWS::IAM::Role', 0);
    t.resourceCountIs('AWS::SageMaker::Model', 0);
    expect(e.role).toBeUndefined();
    expect(e.cfnModel).toBeUndefined();
    t.hasResourceProperties('AWS::SageMaker::EndpointConfig', { ProductionVariants: [Match.objectLike({ ModelName: 'churn-v3' })] });
  });

  test('is cdk-nag clean', () => {
    const stack = newStack();
    endpoint(stack, { provisionedConcurrency: 2, autoScaling: {} });
    expectNagClean(stack.node.root as App);
  });
});

test('ServerlessEndpoint fails for a multi-model source, which Serverless Inference does not support', () => {
  const stack = newStack();
  const bucket = s3.Bucket.fromBucketName(stack, 'Models', 'models');
  expect(errorOf(() => endpoint(stack, { model: MultiModelSource.fromBucket(ContainerImage.sklearn('1.2-1'), bucket, 'churn/') })))
    .toMatch(/model: got 'a MultiModelSource', expected a single model: Serverless Inference does not support multi-model endpoints/);
});

test('autoScaleProvisionedConcurrency returns what takes more policies, e.g. a second utilization target', () => {
  const stack = newStack();
  const e = endpoint(stack, { provisionedConcurrency: 2 });
  e.autoScaleProvisionedConcurrency().scaleOnProvisionedConcurrencyUtilization('Tight', { targetValue: 0.9, disableScaleIn: true });
  const t = Template.fromStack(stack);
  t.resourceCountIs('AWS::ApplicationAutoScaling::ScalingPolicy', 2);
  t.hasResourceProperties('AWS::ApplicationAutoScaling::ScalingPolicy', {
    ScalingTargetId: { Ref: Match.stringLikeRegexp('ChurnProvisionedConcurrencyScalingTarget') },
    TargetTrackingScalingPolicyConfiguration: Match.objectLike({
      PredefinedMetricSpecification: { PredefinedMetricType: 'SageMakerVariantProvisionedConcurrencyUtilization' },
      TargetValue: 0.9,
      DisableScaleIn: true,
    }),
  });
});
