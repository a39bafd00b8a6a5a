import { App, Stack, Validations } from 'aws-cdk-lib';
import * as aas from 'aws-cdk-lib/aws-applicationautoscaling';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import { expectNagClean, nagReport, synthWithNag } from './nag-checks';
import { normaliseTemplate, templateSnapshot } from './snapshot';
import { expectValidTemplate, templateProblems } from './template-checks';

const ROLE = 'arn:aws:iam::123456789012:role/sm';

function cleanStack(): Stack {
  const stack = new Stack(new App(), 'Clean', { env: { account: '123456789012', region: 'us-east-1' } });
  new sagemaker.CfnModel(stack, 'Model', {
    executionRoleArn: ROLE,
    primaryContainer: { image: '763104351884.dkr.ecr.us-east-1.amazonaws.com/djl-inference:0.29.0-lmi11.0.0-cu124' },
  });
  const config = new sagemaker.CfnEndpointConfig(stack, 'Config', {
    productionVariants: [{ variantName: 'AllTraffic', modelName: 'm', instanceType: 'ml.g5.xlarge', initialInstanceCount: 1, routingConfig: { routingStrategy: 'LEAST_OUTSTANDING_REQUESTS' } }],
  });
  new sagemaker.CfnEndpoint(stack, 'Endpoint', { endpointConfigName: config.attrEndpointConfigName, endpointName: 'chat' });
  new sagemaker.CfnFeatureGroup(stack, 'Features', {
    featureGroupName: 'customers',
    recordIdentifierFeatureName: 'customer_id',
    eventTimeFeatureName: 'event_time',
    featureDefinitions: [{ featureName: 'customer_id', featureType: 'String' }, { featureName: 'event_time', featureType: 'String' }],
    onlineStoreConfig: { EnableOnlineStore: true, SecurityConfig: { KmsKeyId: 'alias/fs' } },
    offlineStoreConfig: { S3StorageConfig: { S3Uri: 's3://bucket/prefix' }, TableFormat: 'Iceberg' },
  });
  new sagemaker.CfnInferenceComponent(stack, 'Ic', {
    endpointName: 'chat',
    variantName: 'AllTraffic',
    specification: { modelName: 'm', computeResourceRequirements: { minMemoryRequiredInMb: 1024, numberOfAcceleratorDevicesRequired: 1 } },
    runtimeConfig: { copyCount: 1 },
  });
  const target = new aas.CfnScalableTarget(stack, 'Target', {
    serviceNamespace: 'sagemaker', scalableDimension: 'sagemaker:variant:DesiredInstanceCount', resourceId: 'endpoint/chat/variant/AllTraffic', minCapacity: 1, maxCapacity: 4,
  });
  new aas.CfnScalingPolicy(stack, 'Policy', {
    policyName: 'p',
    policyType: 'TargetTrackingScaling',
    scalingTargetId: target.ref,
    targetTrackingScalingPolicyConfiguration: { targetValue: 5, predefinedMetricSpecification: { predefinedMetricType: 'SageMakerVariantInvocationsPerInstance' } },
  });
  return stack;
}

function expectProblem(problems: string[], ...parts: Array<string | RegExp>): void {
  const hit = problems.find((p) => parts.every((part) => (typeof part === 'string' ? p.includes(part) : part.test(p))));
  if (!hit) throw new Error(`no problem matching ${parts.join(' & ')} in:\n${problems.join('\n')}`);
}

describe('templateProblems', () => {
  test('a clean L1 stack passes', () => {
    // GIVEN / WHEN / THEN
    expect(() => expectValidTemplate(cleanStack())).not.toThrow();
  });

  test('fails if a FeatureGroup OfflineStoreConfig key is camelCase', () => {
    // GIVEN an untyped json prop written the L1 way
    const stack = new Stack(new App(), 'S');
    new sagemaker.CfnFeatureGroup(stack, 'Fg', {
      featureGroupName: 'fg',
      recordIdentifierFeatureName: 'id',
      eventTimeFeatureName: 't',
      featureDefinitions: [{ featureName: 'id', featureType: 'String' }, { featureName: 't', featureType: 'String' }],
      offlineStoreConfig: { s3StorageConfig: { s3Uri: 's3://b/p' } },
    });
    // WHEN
    const problems = templateProblems(templateOf(stack));
    // THEN logical id, path, value and expectation
    expectProblem(problems, 'Fg (AWS::SageMaker::FeatureGroup) OfflineStoreConfig.s3StorageConfig', "did you mean 'S3StorageConfig'", '[schema]');
    expectProblem(problems, 'Fg', 'OfflineStoreConfig.S3StorageConfig: got nothing, expected a value (required property)');
    expect(() => expectValidTemplate(stack)).toThrow(/OfflineStoreConfig\.s3StorageConfig/);
  });

  test('fails on a bad enum (schema DB enum and API-reference enum)', () => {
    const problems = templateProblems(template({
      Fg: featureGroup({ FeatureDefinitions: [{ FeatureName: 'id', FeatureType: 'Text' }, { FeatureName: 't', FeatureType: 'String' }] }),
      Ec: endpointConfig({ RoutingConfig: { RoutingStrategy: 'ROUND_ROBIN' } }),
    }), { cdkValidate: false });
    expectProblem(problems, 'Fg (AWS::SageMaker::FeatureGroup) FeatureDefinitions.0.FeatureType', "got 'Text'", 'one of Integral, Fractional, String', '[schema]');
    expectProblem(problems, 'Ec (AWS::SageMaker::EndpointConfig) ProductionVariants.0.RoutingConfig.RoutingStrategy', "got 'ROUND_ROBIN'", 'LEAST_OUTSTANDING_REQUESTS',
      '[api ProductionVariantRoutingConfig]');
  });

  test('fails on out-of-range values', () => {
    const problems = templateProblems(template({
      Ec: endpointConfig({ InitialInstanceCount: 0, VolumeSizeInGB: 600, ModelDataDownloadTimeoutInSeconds: 30 }),
      Async: {
        Type: 'AWS::SageMaker::EndpointConfig',
        Properties: {
          ProductionVariants: [{ VariantName: 'v', ModelName: 'm', InstanceType: 'ml.m5.large', InitialInstanceCount: 1 }],
          AsyncInferenceConfig: { OutputConfig: { S3OutputPath: 's3://b/o' }, ClientConfig: { MaxConcurrentInvocationsPerInstance: 1001 } },
          DataCaptureConfig: { InitialSamplingPercentage: 101, DestinationS3Uri: 's3://b/c', CaptureOptions: [{ CaptureMode: 'Both' }] },
        },
      },
      Sl: { Type: 'AWS::SageMaker::EndpointConfig', Properties: { ProductionVariants: [{ VariantName: 'v', ModelName: 'm', ServerlessConfig: { MemorySizeInMB: 1500, MaxConcurrency: 5, ProvisionedConcurrency: 6 } }] } },
    }), { cdkValidate: false });
    expectProblem(problems, 'Ec', 'ProductionVariants.0.InitialInstanceCount: got 0, expected an integer >= 1');
    expectProblem(problems, 'Ec', 'ProductionVariants.0.VolumeSizeInGB: got 600, expected an integer between 1 and 512 [api ProductionVariant]');
    expectProblem(problems, 'Ec', 'ModelDataDownloadTimeoutInSeconds: got 30', 'between 60 and 3600');
    expectProblem(problems, 'Async', 'MaxConcurrentInvocationsPerInstance: got 1001', 'between 1 and 1000');
    expectProblem(problems, 'Async', 'InitialSamplingPercentage: got 101');
    expectProblem(problems, 'Async', "CaptureOptions.0.CaptureMode: got 'Both'", 'Input, Output, InputAndOutput');
    expectProblem(problems, 'Sl', 'MemorySizeInMB: got 1500', 'steps of 1024');
    expectProblem(problems, 'Sl', 'ProvisionedConcurrency: got 6', '<= MaxConcurrency (5) [api ProductionVariantServerlessConfig]');
  });

  test('fails on a missing required property (schema and API-required)', () => {
    const problems = templateProblems(template({
      Ep: { Type: 'AWS::SageMaker::Endpoint', Properties: { EndpointName: 'e' } },
      Ic: { Type: 'AWS::SageMaker::InferenceComponent', Properties: { EndpointName: 'e', Specification: { ModelName: 'm', ComputeResourceRequirements: { NumberOfAcceleratorDevicesRequired: 1 } } } },
      Ic2: { Type: 'AWS::SageMaker::InferenceComponent', Properties: { EndpointName: 'e' } },
    }), { cdkValidate: false });
    expectProblem(problems, 'Ep (AWS::SageMaker::Endpoint) EndpointConfigName: got nothing, expected a value (required property) [schema]');
    expectProblem(problems, 'Ic (AWS::SageMaker::InferenceComponent) Specification.ComputeResourceRequirements.MinMemoryRequiredInMb: got nothing', 'required by the API');
    expectProblem(problems, 'Ic2', 'exactly one of Specification or Specifications');
  });

  test('fails on bad patterns and formats', () => {
    const problems = templateProblems(template({
      Ec: endpointConfig({ VariantName: 'all traffic', InstanceType: 'g5.xlarge' }, {
        AsyncInferenceConfig: { OutputConfig: { S3OutputPath: 'bucket/out', NotificationConfig: { SuccessTopic: 'arn:aws:sqs:us-east-1:123456789012:q', IncludeInferenceResponseIn: ['BOTH'] } } },
      }),
      Fg: featureGroup({ FeatureGroupName: 'my group', FeatureDefinitions: [{ FeatureName: 'id', FeatureType: 'String' }, { FeatureName: 't', FeatureType: 'Integral' }, { FeatureName: 'is_deleted', FeatureType: 'String' }] }),
      Target: { Type: 'AWS::ApplicationAutoScaling::ScalableTarget', Properties: { ServiceNamespace: 'sagemaker', ScalableDimension: 'sagemaker:variant:DesiredInstanceCount', ResourceId: 'endpoint/chat', MinCapacity: 1, MaxCapacity: 2 } },
      Policy: { Type: 'AWS::ApplicationAutoScaling::ScalingPolicy', Properties: { PolicyName: 'p', PolicyType: 'TargetTrackingScaling', ScalingTargetId: { Ref: 'Target' }, TargetTrackingScalingPolicyConfiguration: { TargetValue: 1, PredefinedMetricSpecification: { PredefinedMetricType: 'SageMakerInferenceComponentConcurrentRequestsPerCopy' } } } },
    }), { cdkValidate: false });
    expectProblem(problems, 'Ec', "ProductionVariants.0.VariantName: got 'all traffic'", 'matching');
    expectProblem(problems, 'Ec', "InstanceType: got 'g5.xlarge', expected a value starting with 'ml.'");
    expectProblem(problems, 'Ec', "S3OutputPath: got 'bucket/out'");
    expectProblem(problems, 'Ec', 'SuccessTopic', 'an SNS topic ARN');
    expectProblem(problems, 'Ec', "IncludeInferenceResponseIn.0: got 'BOTH'");
    expectProblem(problems, 'Fg', "FeatureGroupName: got 'my group'");
    expectProblem(problems, 'Fg', 'EventTimeFeatureName', 'String or Fractional');
    expectProblem(problems, 'Fg', "FeatureDefinitions.2.FeatureName: got 'is_deleted'", 'reserved');
    expectProblem(problems, 'Target', "ResourceId: got 'endpoint/chat'", 'endpoint\\/[^/]+\\/variant');
    expectProblem(problems, 'Policy', "PredefinedMetricType: got 'SageMakerInferenceComponentConcurrentRequestsPerCopy'", 'SageMakerInferenceComponentConcurrentRequestsPerCopyHighResolution');
  });

  test('fails on an unknown resource type and a wrongly typed value', () => {
    const problems = templateProblems(template({
      X: { Type: 'AWS::SageMaker::Nonsense', Properties: {} },
      Ec: endpointConfig({ InitialInstanceCount: 'one' }),
    }), { cdkValidate: false });
    expectProblem(problems, "X (AWS::SageMaker::Nonsense) Type: got 'AWS::SageMaker::Nonsense'");
    expectProblem(problems, 'Ec', "InitialInstanceCount: got 'one', expected an integer [schema]");
  });

  test('intrinsics are skipped', () => {
    const problems = templateProblems(template({
      Ec: endpointConfig({ VariantName: { 'Fn::Join': ['', ['a', { Ref: 'AWS::Region' }]] }, InitialInstanceCount: { Ref: 'Count' } }),
    }), { cdkValidate: false });
    expect(problems).toEqual([]);
  });

  test("reports aws-cdk-lib's built-in validation too", () => {
    const problems = templateProblems(template({ R: { Type: 'AWS::IAM::Role', Properties: { AssumeRolePolicyDocument: {} } } }));
    expectProblem(problems, 'R (AWS::IAM::Role) Properties.AssumeRolePolicyDocument', 'Statement', '[cdk-validate');
  });

  test('ignore drops matching problems', () => {
    const t = template({ Ec: endpointConfig({ VolumeSizeInGB: 600 }) });
    expect(templateProblems(t, { ignore: [/VolumeSizeInGB/] })).toEqual([]);
  });
});

describe('cdk-nag', () => {
  function bucketApp(acknowledge: boolean): App {
    const app = new App();
    const stack = new Stack(app, 'S');
    const bucket = new s3.Bucket(stack, 'Bucket', { enforceSSL: true, encryption: s3.BucketEncryption.S3_MANAGED, blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL });
    if (acknowledge) Validations.of(bucket).acknowledge({ id: 'AwsSolutions-S1', reason: 'Access logs would go to another bucket; this one only holds test fixtures.' });
    return app;
  }

  test('fails if a finding is not acknowledged', () => {
    expect(() => expectNagClean(bucketApp(false))).toThrow(/AwsSolutions-S1 \(error\) at S\/Bucket\/Resource: .*server access logs/);
  });

  test('an acknowledged finding passes, and the report lists it with its reason', () => {
    const app = bucketApp(true);
    expect(() => expectNagClean(app)).not.toThrow();
    const report = nagReport(app);
    expect(report.findings).toEqual([]);
    expect(report.acknowledgements).toEqual([{ ruleId: 'AwsSolutions-S1', reason: expect.stringContaining('test fixtures'), constructPath: 'S/Bucket' }]);
  });

  test('works after Template.fromStack already synthesized the app', () => {
    const app = bucketApp(false);
    templateSnapshot(app.node.children[0] as Stack);
    expect(nagReport(app).findings.map((f) => f.ruleId)).toEqual(['AwsSolutions-S1']);
    expect(() => synthWithNag(app)).toThrow(/AwsSolutions-S1/);
  });

  test('finds IAM findings on a Lambda function', () => {
    const app = new App();
    const stack = new Stack(app, 'S');
    new lambda.Function(stack, 'Fn', { runtime: lambda.Runtime.NODEJS_22_X, handler: 'index.handler', code: lambda.Code.fromInline('exports.handler=async()=>1') });
    const ids = nagReport(app).findings.map((f) => f.ruleId);
    expect(ids).toContain('AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]');
  });
});

describe('templateSnapshot', () => {
  test('normalises asset hashes and bootstrap noise', () => {
    const stack = new Stack(new App(), 'S');
    new lambda.Function(stack, 'Fn', { runtime: lambda.Runtime.NODEJS_22_X, handler: 'index.handler', code: lambda.Code.fromAsset(__dirname, { exclude: ['*', '!snapshot.ts'] }) });
    const snap = templateSnapshot(stack);
    const text = JSON.stringify(snap);
    expect(text).not.toMatch(/[0-9a-f]{64}/);
    expect(text).toContain('[ASSET_HASH].zip');
    expect(snap.Parameters?.BootstrapVersion).toBeUndefined();
    expect(snap.Rules?.CheckBootstrapVersion).toBeUndefined();
    expect(normaliseTemplate({ Resources: { A: { Type: 'X', Properties: { K: 'a'.repeat(64) } } } })).toEqual({ Resources: { A: { Type: 'X', Properties: { K: 'a'.repeat(64).replace(/a{64}/, '[ASSET_HASH]') } } } });
  });
});

// ---- fixtures --------------------------------------------------------------------------------------------------

function templateOf(stack: Stack): object {
  return (stack.node.scope as App).synth().getStackByName(stack.stackName).template;
}

function template(resources: Record<string, object>): object {
  return { Resources: resources };
}

function endpointConfig(variant: Record<string, unknown>, extra: Record<string, unknown> = {}): object {
  return { Type: 'AWS::SageMaker::EndpointConfig', Properties: { ProductionVariants: [{ VariantName: 'v', ModelName: 'm', InstanceType: 'ml.m5.large', InitialInstanceCount: 1, ...variant }], ...extra } };
}

function featureGroup(props: Record<string, unknown>): object {
  return { Type: 'AWS::SageMaker::FeatureGroup', Properties: { FeatureGroupName: 'fg', RecordIdentifierFeatureName: 'id', EventTimeFeatureName: 't', FeatureDefinitions: [{ FeatureName: 'id', FeatureType: 'String' }, { FeatureName: 't', FeatureType: 'String' }], ...props } };
}
