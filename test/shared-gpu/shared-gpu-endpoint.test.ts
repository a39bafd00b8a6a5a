import { App, Duration, Size, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { ContainerImage, InstanceType, ModelData, ModelSource } from '../../src/core';
import {
  SharedGpuEndpoint, SharedGpuEndpointProps, SharedGpuRouting, SharedGpuScaleInStrategy,
} from '../../src/shared-gpu';
import { identityStatements } from '../support/iam-reference';
import { expectNagClean } from '../support/nag-checks';
import { templateSnapshot } from '../support/snapshot';
import { expectValidTemplate } from '../support/template-checks';

const ENV = { account: '123456789012', region: 'us-east-1' };
const LMI = ContainerImage.fromDlc('djl-inference', '0.29.0-lmi11.0.0-cu124');

function stackWith(props: Partial<SharedGpuEndpointProps> = {}): { app: App; stack: Stack; endpoint: SharedGpuEndpoint } {
  const app = new App();
  const stack = new Stack(app, 'Stack', { env: ENV });
  const endpoint = new SharedGpuEndpoint(stack, 'Shared', { instanceType: InstanceType.ML_G5_12XLARGE, ...props });
  return { app, stack, endpoint };
}

function addModel(endpoint: SharedGpuEndpoint, id = 'Model') {
  return endpoint.addInferenceComponent(id, { model: ModelSource.fromContainer(LMI), acceleratorCount: 1, minMemory: Size.mebibytes(16_384) });
}

describe('SharedGpuEndpoint defaults', () => {
  test('endpoint config names no model, carries ExecutionRoleArn, routes to the least busy copy', () => {
    // GIVEN / WHEN
    const { stack, endpoint } = stackWith();
    addModel(endpoint);

    // THEN
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::SageMaker::EndpointConfig', {
      ExecutionRoleArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^SharedRole'), 'Arn'] },
      ProductionVariants: [{
        VariantName: 'AllTraffic',
        InstanceType: 'ml.g5.12xlarge',
        InitialInstanceCount: 1,
        RoutingConfig: { RoutingStrategy: 'LEAST_OUTSTANDING_REQUESTS' },
        ModelName: Match.absent(),
        ManagedInstanceScaling: Match.absent(),
      }],
      KmsKeyId: Match.absent(),
    });
    template.hasResourceProperties('AWS::SageMaker::Endpoint', {
      EndpointConfigName: { 'Fn::GetAtt': [Match.stringLikeRegexp('^SharedConfig'), 'EndpointConfigName'] },
      EndpointName: Match.absent(),
    });
  });

  test('the endpoint config waits for the role and its DefaultPolicy, which holds the models\' permissions', () => {
    // GIVEN / WHEN
    const { stack, endpoint } = stackWith();
    addModel(endpoint);

    // THEN
    const t = Template.fromStack(stack);
    const configs = t.findResources('AWS::SageMaker::EndpointConfig');
    const dependsOn: string[] = Object.values(configs)[0].DependsOn;
    expect(dependsOn).toEqual([expect.stringMatching(/^SharedRoleDefaultPolicy/), expect.stringMatching(/^SharedRole[0-9A-F]{8}$/)]);
    const role = t.toJSON().Resources[dependsOn[1]];
    expect(role.Properties.Policies).toBeUndefined();
    t.resourceCountIs('AWS::IAM::Policy', 1);
  });

  test('the created role has no managed policy and only what the models need', () => {
    // GIVEN / WHEN
    const { stack, endpoint } = stackWith();
    addModel(endpoint);

    // THEN
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: { Statement: [Match.objectLike({ Principal: { Service: 'sagemaker.amazonaws.com' } })] },
      ManagedPolicyArns: Match.absent(),
    });
    expect(identityStatements(template.toJSON())).toEqual(expect.arrayContaining([expect.objectContaining({
      Action: ['ecr:BatchCheckLayerAvailability', 'ecr:BatchGetImage', 'ecr:GetDownloadUrlForLayer'],
      Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ecr:us-east-1:763104351884:repository/djl-inference']] },
    })]));
  });

  test('snapshot of the default configuration', () => {
    const { stack, endpoint } = stackWith();
    addModel(endpoint);
    expect(templateSnapshot(stack)).toMatchSnapshot();
  });

  test('the template is valid and cdk-nag clean', () => {
    const { app, stack, endpoint } = stackWith();
    addModel(endpoint);
    expectValidTemplate(stack);
    expectNagClean(app);
  });
});

describe('cdk-nag acknowledgements of the created role', () => {
  test('a model read from an uncompressed S3 prefix keeps the template cdk-nag clean', () => {
    // GIVEN
    const { app, endpoint } = stackWith();
    const artifacts = s3.Bucket.fromBucketName(endpoint, 'Artifacts', 'model-artifacts');

    // WHEN
    endpoint.addInferenceComponent('Model', {
      model: ModelSource.fromContainer(LMI, { modelData: ModelData.fromBucket(artifacts, 'llama/') }),
      acceleratorCount: 1,
      minMemory: Size.mebibytes(16_384),
    });

    // THEN
    expectNagClean(app);
  });

  test('a wildcard granted to the role for anything else stays reported', () => {
    // GIVEN
    const { app, endpoint } = stackWith();
    addModel(endpoint);

    // WHEN
    endpoint.role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: ['arn:aws:sqs:us-east-1:123456789012:*'] }));

    // THEN
    expect(() => expectNagClean(app)).toThrow(/AwsSolutions-IAM5/);
  });
});

describe('SharedGpuEndpoint options', () => {
  test('name, variant, instance count', () => {
    // GIVEN / WHEN
    const { stack } = stackWith({ endpointName: 'mcp-shared-gpu-endpoint', variantName: 'Gpu', initialInstanceCount: 2 });

    // THEN
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::SageMaker::Endpoint', { EndpointName: 'mcp-shared-gpu-endpoint' });
    template.hasResourceProperties('AWS::SageMaker::EndpointConfig', {
      ProductionVariants: [Match.objectLike({ VariantName: 'Gpu', InitialInstanceCount: 2 })],
    });
  });

  test('a role passed in is the ExecutionRoleArn and no role is created', () => {
    // GIVEN
    const app = new App();
    const stack = new Stack(app, 'Stack', { env: ENV });
    const role = iam.Role.fromRoleArn(stack, 'Role', 'arn:aws:iam::123456789012:role/SageMakerJumpStartRole', { mutable: false });

    // WHEN
    new SharedGpuEndpoint(stack, 'Shared', { instanceType: InstanceType.ML_P4D_24XLARGE, role });

    // THEN
    const template = Template.fromStack(stack);
    template.resourceCountIs('AWS::IAM::Role', 0);
    template.hasResourceProperties('AWS::SageMaker::EndpointConfig', { ExecutionRoleArn: 'arn:aws:iam::123456789012:role/SageMakerJumpStartRole' });
  });

  test('RANDOM routing', () => {
    const { stack } = stackWith({ routing: SharedGpuRouting.RANDOM });
    Template.fromStack(stack).hasResourceProperties('AWS::SageMaker::EndpointConfig', {
      ProductionVariants: [Match.objectLike({ RoutingConfig: { RoutingStrategy: 'RANDOM' } })],
    });
  });

  test('PREFIX_AWARE routing renders its config', () => {
    const { stack } = stackWith({ routing: SharedGpuRouting.prefixAware({ prefixLength: 2048, concurrencyThreshold: 8 }) });
    Template.fromStack(stack).hasResourceProperties('AWS::SageMaker::EndpointConfig', {
      ProductionVariants: [Match.objectLike({
        RoutingConfig: { RoutingStrategy: 'PREFIX_AWARE', PrefixAwareRoutingConfig: { PrefixLength: 2048, ConcurrencyThreshold: 8 } },
      })],
    });
  });

  test('managed instance scaling with a scale-in policy', () => {
    // GIVEN / WHEN
    const { stack } = stackWith({
      instanceScaling: {
        minCapacity: 0,
        maxCapacity: 4,
        scaleInStrategy: SharedGpuScaleInStrategy.CONSOLIDATION,
        scaleInMaximumStepSize: 2,
        scaleInCooldown: Duration.minutes(30),
      },
    });

    // THEN
    Template.fromStack(stack).hasResourceProperties('AWS::SageMaker::EndpointConfig', {
      ProductionVariants: [Match.objectLike({
        ManagedInstanceScaling: {
          Status: 'ENABLED',
          MinInstanceCount: 0,
          MaxInstanceCount: 4,
          ScaleInPolicy: { Strategy: 'CONSOLIDATION', MaximumStepSize: 2, CooldownInMinutes: 30 },
        },
      })],
    });
  });

  test('managed instance scaling without a scale-in policy sends none', () => {
    const { stack } = stackWith({ instanceScaling: { minCapacity: 1, maxCapacity: 2 } });
    Template.fromStack(stack).hasResourceProperties('AWS::SageMaker::EndpointConfig', {
      ProductionVariants: [Match.objectLike({
        ManagedInstanceScaling: { Status: 'ENABLED', MinInstanceCount: 1, MaxInstanceCount: 2, ScaleInPolicy: Match.absent() },
      })],
    });
  });

  test('a KMS key is used on an instance type without NVMe storage', () => {
    // GIVEN
    const app = new App();
    const stack = new Stack(app, 'Stack', { env: ENV });
    const key = new kms.Key(stack, 'Key', { enableKeyRotation: true });

    // WHEN
    new SharedGpuEndpoint(stack, 'Shared', { instanceType: InstanceType.of('ml.p3.8xlarge'), encryptionKey: key });

    // THEN
    Template.fromStack(stack).hasResourceProperties('AWS::SageMaker::EndpointConfig', {
      KmsKeyId: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Key'), 'Arn'] },
    });
  });

  test('a KMS key is created by default (rotation on) on an instance type without NVMe storage', () => {
    // GIVEN
    const { app, stack, endpoint } = stackWith({ instanceType: InstanceType.of('ml.p3.8xlarge') });

    // WHEN
    addModel(endpoint);

    // THEN
    const template = Template.fromStack(stack);
    template.resourceCountIs('AWS::KMS::Key', 1);
    template.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
    template.hasResourceProperties('AWS::SageMaker::EndpointConfig', {
      KmsKeyId: { 'Fn::GetAtt': [stack.getLogicalId(endpoint.encryptionKey!.node.defaultChild as any), 'Arn'] },
    });
    Annotations.fromStack(stack).hasNoWarning('*', Match.stringLikeRegexp('encryptionKey'));
    expectValidTemplate(stack);
    expectNagClean(app);
  });

  test('no KMS key is created on an NVMe instance type, and no warning is raised (the user gave no key to leave off)', () => {
    // GIVEN / WHEN
    const { stack, endpoint } = stackWith();

    // THEN
    expect(endpoint.encryptionKey).toBeUndefined();
    Template.fromStack(stack).resourceCountIs('AWS::KMS::Key', 0);
    Annotations.fromStack(stack).hasNoWarning('*', Match.stringLikeRegexp('^encryptionKey:'));
  });

  test('a KMS key is left out, with a warning, on an NVMe instance type', () => {
    // GIVEN
    const app = new App();
    const stack = new Stack(app, 'Stack', { env: ENV });
    const key = new kms.Key(stack, 'Key', { enableKeyRotation: true });

    // WHEN
    new SharedGpuEndpoint(stack, 'Shared', { instanceType: InstanceType.ML_P4D_24XLARGE, encryptionKey: key });

    // THEN
    Template.fromStack(stack).hasResourceProperties('AWS::SageMaker::EndpointConfig', { KmsKeyId: Match.absent() });
    Annotations.fromStack(stack).hasWarning('/Stack/Shared',
      Match.stringLikeRegexp('encryptionKey: left off the endpoint config because variant AllTraffic \\(ml.p4d.24xlarge\\) uses NVMe instance storage'));
  });

  test('an instance type missing from the instance table warns that fit cannot be checked', () => {
    const { stack } = stackWith({ instanceType: InstanceType.of('ml.g7.2xlarge') });
    Annotations.fromStack(stack).hasWarning('/Stack/Shared', Match.stringLikeRegexp('cannot be checked to fit'));
  });
});

describe('SharedGpuEndpoint validation', () => {
  test('fails if prefix-aware routing settings are out of range', () => {
    expect(() => SharedGpuRouting.prefixAware({ prefixLength: 512, concurrencyThreshold: 2000 }))
      .toThrow(/prefixLength: got 512, expected an integer between 1024 and 65536[\s\S]*concurrencyThreshold: got 2000, expected an integer between 1 and 1024/);
  });

  test('fails if the endpoint name does not match the SageMaker pattern', () => {
    expect(() => stackWith({ endpointName: 'bad_name' })).toThrow(/endpointName: got 'bad_name', expected 1-63 letters/);
  });

  test('fails if initialInstanceCount is below 1', () => {
    expect(() => stackWith({ initialInstanceCount: 0 })).toThrow(/initialInstanceCount: got 0, expected an integer >= 1/);
  });

  test('fails if managed instance scaling min exceeds max, or initial count exceeds max', () => {
    expect(() => stackWith({ initialInstanceCount: 3, instanceScaling: { minCapacity: 3, maxCapacity: 2 } }))
      .toThrow(/instanceScaling.minCapacity: got 3, expected at most instanceScaling.maxCapacity \(2\)[\s\S]*initialInstanceCount: got 3, expected at most instanceScaling.maxCapacity \(2\)/);
  });

  test('fails if maxCapacity is 0', () => {
    expect(() => stackWith({ instanceScaling: { minCapacity: 0, maxCapacity: 0 } }))
      .toThrow(/instanceScaling.maxCapacity: got 0, expected an integer >= 1/);
  });

  test('fails if the scale-in cooldown is outside 5 minutes to 1 day', () => {
    expect(() => stackWith({
      instanceScaling: {
        minCapacity: 0, maxCapacity: 2, scaleInStrategy: SharedGpuScaleInStrategy.IDLE_RELEASE, scaleInCooldown: Duration.minutes(2),
      },
    })).toThrow(/instanceScaling.scaleInCooldown: got '2 minutes', expected whole minutes between 5 minutes and 1 day/);
  });

  test('fails if scale-in settings are given without a strategy', () => {
    expect(() => stackWith({ instanceScaling: { minCapacity: 0, maxCapacity: 2, scaleInMaximumStepSize: 200 } }))
      .toThrow(/scaleInMaximumStepSize: got 200, expected an integer between 1 and 100[\s\S]*scaleInStrategy: got nothing, expected IDLE_RELEASE or CONSOLIDATION/);
  });
});

describe('grants', () => {
  test('grantInvoke allows InvokeEndpoint on the endpoint ARN only', () => {
    // GIVEN
    const { stack, endpoint } = stackWith();
    const fn = new iam.Role(stack, 'Caller', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });

    // WHEN
    endpoint.grantInvoke(fn);

    // THEN
    Template.fromStack(stack).hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: Match.stringLikeRegexp('^Caller') }],
      PolicyDocument: {
        Statement: [{ Action: ['sagemaker:InvokeEndpoint', 'sagemaker:InvokeEndpointWithResponseStream'], Effect: 'Allow', Resource: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Shared'), 'EndpointArn'] } }],
      },
    });
  });

  test('an imported endpoint grants on its lowercase ARN', () => {
    // GIVEN
    const app = new App();
    const stack = new Stack(app, 'Stack', { env: ENV });
    const imported = SharedGpuEndpoint.fromEndpointName(stack, 'Imported', 'MCP-Shared');
    const role = new iam.Role(stack, 'Caller', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });

    // WHEN
    imported.grantInvoke(role);

    // THEN
    Template.fromStack(stack).hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: { Statement: [Match.objectLike({ Resource: { 'Fn::Join': ['', Match.arrayWith([':sagemaker:us-east-1:123456789012:endpoint/mcp-shared'])] } })] },
    });
  });
});

describe('metrics', () => {
  test('normalized utilization metrics are per variant in /aws/sagemaker/Endpoints', () => {
    const { stack, endpoint } = stackWith();
    const metric = endpoint.metricGpuUtilizationNormalized();
    expect(metric.namespace).toBe('/aws/sagemaker/Endpoints');
    expect(metric.metricName).toBe('GPUUtilizationNormalized');
    expect(metric.statistic).toBe('Average');
    expect(Object.keys(metric.dimensions!)).toEqual(['EndpointName', 'VariantName']);
    expect(stack.resolve(metric.dimensions!.VariantName)).toBe('AllTraffic');
    expect(endpoint.metricGpuMemoryUtilizationNormalized().metricName).toBe('GPUMemoryUtilizationNormalized');
    expect(endpoint.metricCpuUtilizationNormalized().metricName).toBe('CPUUtilizationNormalized');
    expect(endpoint.metricInvocations().statistic).toBe('Sum');
  });
});
