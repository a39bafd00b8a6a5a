import { App, Duration, Size, Stack, Token } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as cloudwatch_actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as ecr from 'aws-cdk-lib/aws-ecr';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sns from 'aws-cdk-lib/aws-sns';
import { addRealtimeExample } from '../../examples/realtime';
import { ContainerImage, InstanceType, ModelData, ModelSource } from '../../src/core';
import { SageMakerEndpointBase } from '../../src/core/endpoint-base';
import { DataCaptureMode, RealtimeEndpoint, RealtimeEndpointProps } from '../../src/realtime';
import { expectNagClean, nagReport } from '../support/nag-checks';
import { templateSnapshot } from '../support/snapshot';
import { expectValidTemplate } from '../support/template-checks';
import { errorOf } from '../support/test-stacks';

const TGI = ContainerImage.fromDlc('huggingface-pytorch-tgi-inference', '2.7.0-tgi3.3.6-gpu-py311-cu124-ubuntu22.04');

function newStack(): Stack {
  const app = new App({ context: { 'aws:cdk:disable-creation-stack-traces': true } });
  return new Stack(app, 'Test', { env: { account: '123456789012', region: 'us-east-1' } });
}

function tgiModel(stack: Stack, key = 'llama/'): ModelSource {
  const bucket = s3.Bucket.fromBucketName(stack, `Artifacts${key.replace(/\W/g, '')}`, 'model-artifacts');
  return ModelSource.fromContainer(TGI, { modelData: ModelData.fromBucket(bucket, key) });
}

function endpoint(stack: Stack, props: Partial<RealtimeEndpointProps> = {}): RealtimeEndpoint {
  return new RealtimeEndpoint(stack, 'Chat', {
    model: props.model ?? tgiModel(stack),
    instanceType: InstanceType.ML_G5_2XLARGE,
    ...props,
  });
}

/** The statements of every IAM policy in the template. */
/** The identity statements of the template: its AWS::IAM::Policy documents and the roles' inline policies. */
function statements(template: Template): any[] {
  return [
    ...Object.values(template.findResources('AWS::IAM::Policy')).flatMap((p: any) => p.Properties.PolicyDocument.Statement),
    ...Object.values(template.findResources('AWS::IAM::Role')).flatMap((r: any) => (r.Properties.Policies ?? []).flatMap((p: any) => p.PolicyDocument.Statement)),
  ];
}

describe('RealtimeEndpoint defaults', () => {
  // The default endpoint, built once: the tests that use it only read it (those that add to it build their own).
  let defaults: { stack: Stack; ep: RealtimeEndpoint; template: Template };
  beforeAll(() => {
    const stack = newStack();
    const ep = endpoint(stack);
    defaults = { stack, ep, template: Template.fromStack(stack) };
  });

  test('creates a model, an endpoint config with one AllTraffic variant, and the endpoint', () => {
    // GIVEN / WHEN the default endpoint
    const { stack, template: t } = defaults;
    // THEN
    t.resourceCountIs('AWS::SageMaker::Model', 1);
    t.hasResourceProperties('AWS::SageMaker::Model', {
      ExecutionRoleArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('ChatRole'), 'Arn'] },
      PrimaryContainer: {
        Image: '763104351884.dkr.ecr.us-east-1.amazonaws.com/huggingface-pytorch-tgi-inference:2.7.0-tgi3.3.6-gpu-py311-cu124-ubuntu22.04',
        ModelDataSource: { S3DataSource: { S3Uri: 's3://model-artifacts/llama/', S3DataType: 'S3Prefix', CompressionType: 'None' } },
      },
    });
    t.hasResourceProperties('AWS::SageMaker::EndpointConfig', {
      ProductionVariants: [{
        VariantName: 'AllTraffic',
        InstanceType: 'ml.g5.2xlarge',
        InitialInstanceCount: 1,
        InitialVariantWeight: 1,
        ModelName: { 'Fn::GetAtt': [Match.stringLikeRegexp('ChatModel'), 'ModelName'] },
        VolumeSizeInGB: Match.absent(),
        ModelDataDownloadTimeoutInSeconds: Match.absent(),
        ContainerStartupHealthCheckTimeoutInSeconds: Match.absent(),
      }],
      KmsKeyId: Match.absent(),
      DataCaptureConfig: Match.absent(),
      EndpointConfigName: Match.absent(),
    });
    t.hasResourceProperties('AWS::SageMaker::Endpoint', {
      EndpointConfigName: { 'Fn::GetAtt': [Match.stringLikeRegexp('ChatEndpointConfig'), 'EndpointConfigName'] },
      EndpointName: Match.absent(),
    });
    t.resourceCountIs('AWS::ApplicationAutoScaling::ScalableTarget', 0);
    t.resourceCountIs('AWS::CloudWatch::Alarm', 0);
    expectValidTemplate(stack);
  });

  test('the endpoint is the construct\'s Resource child and waits for the role', () => {
    // GIVEN / WHEN the default endpoint
    const { ep, template: t } = defaults;
    // THEN
    const cfn = ep.node.defaultChild!;
    expect(cfn.node.id).toBe('Resource');
    const [ep1] = Object.values(t.findResources('AWS::SageMaker::Endpoint')) as any[];
    // The model's permissions are in the role's DefaultPolicy: the endpoint waits for the role and that policy.
    const [roleId, role] = Object.entries(t.findResources('AWS::IAM::Role'))[0] as [string, any];
    const [policyId] = Object.keys(t.findResources('AWS::IAM::Policy'));
    expect([...ep1.DependsOn].sort()).toEqual([policyId, roleId].sort());
    expect(role.Properties.Policies).toBeUndefined();
    t.resourceCountIs('AWS::IAM::Policy', 1);
  });

  test('the created role has exactly what the model needs and no managed policy', () => {
    // GIVEN / WHEN the default endpoint
    const t = defaults.template;
    // THEN
    t.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: { Statement: [{ Action: 'sts:AssumeRole', Principal: { Service: 'sagemaker.amazonaws.com' } }] },
      ManagedPolicyArns: Match.absent(),
    });
    const all = statements(t);
    const pull = all.find((s) => [s.Action].flat().includes('ecr:BatchGetImage'));
    expect(JSON.stringify(pull.Resource)).toContain(':ecr:us-east-1:763104351884:repository/huggingface-pytorch-tgi-inference');
    const read = all.find((s) => [s.Action].flat().includes('s3:GetObject*'));
    expect(JSON.stringify(read.Resource)).toContain(':s3:::model-artifacts/llama/*');
    expect(JSON.stringify(t.toJSON())).not.toContain('AmazonSageMakerFullAccess');
    for (const s of all) {
      // Only GetAuthorizationToken and the namespace-conditioned PutMetricData may use '*'.
      if (s.Resource === '*') expect(['ecr:GetAuthorizationToken', 'cloudwatch:PutMetricData']).toContain(s.Action);
    }
  });

  test('the model\'s permissions and a grant on endpoint.role afterwards land in the role\'s one DefaultPolicy', () => {
    // GIVEN
    const stack = newStack();
    const ep = endpoint(stack);
    const extra = s3.Bucket.fromBucketName(stack, 'Extra', 'extra-bucket');
    // WHEN
    extra.grantRead(ep.role!, 'reports/*');
    // THEN
    const t = Template.fromStack(stack);
    t.resourceCountIs('AWS::IAM::Policy', 1);
    const [policy] = Object.values(t.findResources('AWS::IAM::Policy')) as any[];
    const granted = policy.Properties.PolicyDocument.Statement;
    expect(granted.map((st: any) => [st.Action].flat()[0])).toEqual([
      'logs:CreateLogGroup', 'cloudwatch:PutMetricData', 'ecr:BatchCheckLayerAvailability', 'ecr:GetAuthorizationToken', 's3:GetObject*', 's3:GetObject*',
    ]);
    expect(JSON.stringify(granted)).toContain('extra-bucket/reports/*');
    expect(policy.Properties.Roles).toEqual([{ Ref: Object.keys(t.findResources('AWS::IAM::Role'))[0] }]);
  });

  test('cdk-nag: the role\'s own wildcards are acknowledged on its DefaultPolicy; the user\'s grant stays reported', () => {
    // GIVEN
    const stack = newStack();
    const ep = endpoint(stack);
    ep.role!.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: ['arn:aws:sqs:us-east-1:123456789012:jobs-*'] }));
    // WHEN
    const report = nagReport(stack.node.root as App);
    // THEN
    const policyPath = ep.role!.node.findChild('Default').node.findChild('DefaultPolicy').node.defaultChild!.node.path;
    const onRole = report.acknowledgements.filter((a) => a.constructPath === policyPath).map((a) => a.ruleId);
    expect(onRole).toEqual(expect.arrayContaining([
      expect.stringContaining('Action::s3:GetObject*'), expect.stringContaining('Resource::*'),
      expect.stringContaining('/aws/sagemaker/*'), expect.stringContaining('model-artifacts/llama/*'),
    ]));
    const reported = report.findings.filter((f) => f.ruleId.startsWith('AwsSolutions-IAM5')).map((f) => `${f.constructPath} ${f.ruleId}`);
    expect(reported).toEqual([expect.stringMatching(/Role\/Default\/DefaultPolicy\/Resource .*jobs-\*/)]);
  });

  test('a KMS-encrypted artifact bucket adds decrypt on its key to the role', () => {
    // GIVEN
    const stack = newStack();
    const key = new kms.Key(stack, 'ArtifactKey');
    const bucket = new s3.Bucket(stack, 'Artifacts', { encryption: s3.BucketEncryption.KMS, encryptionKey: key });
    // WHEN
    endpoint(stack, { model: ModelSource.fromContainer(TGI, { modelData: ModelData.fromBucket(bucket, 'model.tar.gz') }) });
    // THEN
    const decrypt = statements(Template.fromStack(stack)).find((s) => [s.Action].flat().includes('kms:Decrypt'));
    expect(decrypt.Resource).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/^ArtifactKey/), 'Arn'] });
  });

  test('snapshot of the default configuration', () => {
    // GIVEN / WHEN the default endpoint
    // THEN
    expect(templateSnapshot(defaults.stack)).toMatchSnapshot();
  });
});

describe('RealtimeEndpoint options', () => {
  test('endpointName, variant settings, volume size and timeouts are rendered', () => {
    // GIVEN
    const stack = newStack();
    // WHEN
    endpoint(stack, {
      endpointName: 'Mcp-Chat',
      variantName: 'Blue',
      instanceType: InstanceType.ML_M5_XLARGE,
      initialInstanceCount: 2,
      initialVariantWeight: 0.5,
      volumeSize: Size.gibibytes(100),
      modelDataDownloadTimeout: Duration.minutes(10),
      containerStartupHealthCheckTimeout: Duration.seconds(600),
    });
    // THEN
    const t = Template.fromStack(stack);
    t.hasResourceProperties('AWS::SageMaker::Endpoint', { EndpointName: 'Mcp-Chat' });
    t.hasResourceProperties('AWS::SageMaker::EndpointConfig', {
      ProductionVariants: [{
        VariantName: 'Blue',
        InstanceType: 'ml.m5.xlarge',
        InitialInstanceCount: 2,
        InitialVariantWeight: 0.5,
        VolumeSizeInGB: 100,
        ModelDataDownloadTimeoutInSeconds: 600,
        ContainerStartupHealthCheckTimeoutInSeconds: 600,
      }],
    });
    expectValidTemplate(stack);
  });

  test('a role passed in is used and no role is created', () => {
    // GIVEN
    const stack = newStack();
    const role = new iam.Role(stack, 'MyRole', { assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com') });
    // WHEN
    const ep = endpoint(stack, { role });
    // THEN
    expect(ep.role).toBe(role);
    const t = Template.fromStack(stack);
    t.resourceCountIs('AWS::IAM::Role', 1);
    t.hasResourceProperties('AWS::SageMaker::Model', { ExecutionRoleArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('MyRole'), 'Arn'] } });
  });

  test('an existing model by name creates no model and no role', () => {
    // GIVEN
    const stack = newStack();
    // WHEN
    const ep = endpoint(stack, { model: ModelSource.fromModelName('my-model') });
    // THEN
    expect(ep.role).toBeUndefined();
    expect(ep.cfnModel).toBeUndefined();
    const t = Template.fromStack(stack);
    t.resourceCountIs('AWS::SageMaker::Model', 0);
    t.resourceCountIs('AWS::IAM::Role', 0);
    // nothing was created to be removed: no construct anywhere under the endpoint is an IAM role
    expect(ep.node.findAll().filter((c) => c instanceof iam.Role)).toEqual([]);
    t.hasResourceProperties('AWS::SageMaker::EndpointConfig', { ProductionVariants: [{ ModelName: 'my-model' }] });
  });

  test('the L1s are exposed: cfnEndpoint, cfnEndpointConfig and the first variant\'s cfnModel', () => {
    // GIVEN
    const stack = newStack();
    // WHEN
    const ep = endpoint(stack, {});
    ep.cfnEndpoint.addPropertyOverride('Tags', [{ Key: 'team', Value: 'ml' }]);
    // THEN
    const t = Template.fromStack(stack);
    t.hasResourceProperties('AWS::SageMaker::Endpoint', { Tags: [{ Key: 'team', Value: 'ml' }] });
    expect(stack.resolve(ep.cfnEndpoint.endpointConfigName)).toEqual(stack.resolve(ep.cfnEndpointConfig.attrEndpointConfigName));
    expect(ep.cfnModel).toBeDefined();
    expect(stack.resolve(ep.cfnModel!.executionRoleArn)).toEqual(stack.resolve(ep.role!.roleArn));
  });

  test('an image from an ECR repository of yours is pulled with rights on that repository only', () => {
    // GIVEN
    const stack = newStack();
    const repo = ecr.Repository.fromRepositoryName(stack, 'Repo', 'my-model-image');
    // WHEN
    endpoint(stack, { model: ModelSource.fromContainer(ContainerImage.fromEcrRepository(repo, 'v1')) });
    // THEN
    const pull = statements(Template.fromStack(stack)).find((s) => [s.Action].flat().includes('ecr:BatchGetImage'));
    expect(JSON.stringify(pull.Resource)).toContain(':ecr:us-east-1:123456789012:repository/my-model-image');
  });
});

describe('production variants', () => {
  test('addVariant adds weighted variants; a new model source gets its own model', () => {
    // GIVEN
    const stack = newStack();
    const ep = endpoint(stack, { initialVariantWeight: 3 });
    // WHEN
    ep.addVariant('Challenger', { model: tgiModel(stack, 'llama-v2/'), instanceType: InstanceType.ML_G5_2XLARGE, initialVariantWeight: 1 });
    // THEN
    expect(ep.variantNames).toEqual(['AllTraffic', 'Challenger']);
    const t = Template.fromStack(stack);
    t.resourceCountIs('AWS::SageMaker::Model', 2);
    t.hasResourceProperties('AWS::SageMaker::EndpointConfig', {
      ProductionVariants: [
        Match.objectLike({ VariantName: 'AllTraffic', InitialVariantWeight: 3 }),
        Match.objectLike({ VariantName: 'Challenger', InitialVariantWeight: 1, ModelName: { 'Fn::GetAtt': [Match.stringLikeRegexp('ChatModel2'), 'ModelName'] } }),
      ],
    });
    expectValidTemplate(stack);
  });

  test('the same model source on the same instance type is one model', () => {
    // GIVEN
    const stack = newStack();
    const ep = endpoint(stack);
    // WHEN
    ep.addVariant('Second', { instanceType: InstanceType.ML_G5_2XLARGE });
    // THEN
    Template.fromStack(stack).resourceCountIs('AWS::SageMaker::Model', 1);
  });

  test('fails if more than 10 variants are added (checked at synth)', () => {
    // GIVEN
    const stack = newStack();
    const ep = endpoint(stack);
    // WHEN
    for (let i = 2; i <= 11; i++) ep.addVariant(`V${i}`, { instanceType: InstanceType.ML_G5_2XLARGE });
    // THEN
    expect(() => Template.fromStack(stack)).toThrow(/production variants: got 11, expected between 1 and 10 variants/);
  });

  test('fails if a variant name is used twice', () => {
    // GIVEN
    const stack = newStack();
    const ep = endpoint(stack);
    // WHEN / THEN
    expect(() => ep.addVariant('AllTraffic', { instanceType: InstanceType.ML_G5_2XLARGE }))
      .toThrow(/variantName: got 'AllTraffic', expected a name not already used/);
  });

  test('fails if every variant has weight 0', () => {
    // GIVEN
    const stack = newStack();
    const ep = endpoint(stack, { initialVariantWeight: 0 });
    // WHEN
    ep.addVariant('B', { instanceType: InstanceType.ML_G5_2XLARGE, initialVariantWeight: 0 });
    // THEN
    expect(() => Template.fromStack(stack)).toThrow(/initialVariantWeight: got \[0,0\], expected at least one variant with a weight > 0/);
  });

  test('fails if a variant name does not match the SageMaker pattern', () => {
    // GIVEN
    const stack = newStack();
    const ep = endpoint(stack);
    // WHEN / THEN
    expect(() => ep.addVariant('bad_name', { instanceType: InstanceType.ML_G5_2XLARGE }))
      .toThrow(/variantName: got 'bad_name', expected 1-63 letters, digits or hyphens/);
  });
});

describe('validation', () => {
  test.each([
    ['endpointName', { endpointName: 'chat_endpoint' }, /endpointName: got 'chat_endpoint', expected 1-63 letters, digits or hyphens/],
    ['initialInstanceCount', { initialInstanceCount: 0 }, /initialInstanceCount: got 0, expected an integer >= 1/],
    ['initialVariantWeight', { initialVariantWeight: -1 }, /initialVariantWeight: got -1, expected a number >= 0/],
    ['volumeSize below 1 GB', { volumeSize: Size.mebibytes(512) }, /volumeSize: got 0.5, expected an integer between 1 and 512 GB/],
    ['volumeSize above 512 GB', { volumeSize: Size.gibibytes(600) }, /volumeSize: got 600, expected an integer between 1 and 512 GB/],
    ['modelDataDownloadTimeout below 60 s', { modelDataDownloadTimeout: Duration.seconds(30) }, /modelDataDownloadTimeout: got 30, expected an integer between 60 and 3600 seconds/],
    ['modelDataDownloadTimeout above 3600 s', { modelDataDownloadTimeout: Duration.hours(2) }, /modelDataDownloadTimeout: got 7200, expected an integer between 60 and 3600 seconds/],
    ['containerStartupHealthCheckTimeout', { containerStartupHealthCheckTimeout: Duration.seconds(59) }, /containerStartupHealthCheckTimeout: got 59, expected an integer between 60 and 3600 seconds/],
  ])('fails if %s is out of range', (_name, props, message) => {
    // GIVEN
    const stack = newStack();
    // WHEN / THEN
    expect(() => endpoint(stack, props as Partial<RealtimeEndpointProps>)).toThrow(message);
  });

  test('fails if the instance type does not start with ml.', () => {
    expect(() => InstanceType.of('g5.2xlarge')).toThrow(/instanceType: got 'g5.2xlarge', expected a SageMaker instance type starting with 'ml.'/);
  });

  test('reports every problem at once', () => {
    // GIVEN
    const stack = newStack();
    // WHEN
    const message = errorOf(() => endpoint(stack, { endpointName: '-x', initialInstanceCount: 0, volumeSize: Size.gibibytes(0) }));
    // THEN
    expect(message).toMatch(/Invalid RealtimeEndpoint 'Chat': 3 problems/);
  });

  test('token values are not validated', () => {
    // GIVEN
    const stack = newStack();
    // WHEN / THEN
    expect(() => endpoint(stack, { initialInstanceCount: Token.asNumber({ Ref: 'Count' }), instanceType: InstanceType.of(Token.asString({ Ref: 'Type' })) })).not.toThrow();
  });
});

describe('data capture', () => {
  test('creates a KMS-encrypted, TLS-only, private, versioned bucket and grants the role writes under the prefix', () => {
    // GIVEN
    const stack = newStack();
    // WHEN
    endpoint(stack, { dataCapture: {} });
    // THEN
    const t = Template.fromStack(stack);
    t.hasResourceProperties('AWS::S3::Bucket', {
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms', KMSMasterKeyID: Match.anyValue() } }] },
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      VersioningConfiguration: { Status: 'Enabled' },
    });
    t.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
    t.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
    t.hasResourceProperties('AWS::SageMaker::EndpointConfig', {
      DataCaptureConfig: {
        EnableCapture: true,
        InitialSamplingPercentage: 20,
        DestinationS3Uri: { 'Fn::Join': ['', ['s3://', { Ref: Match.stringLikeRegexp('ChatDataCaptureBucket') }, '/data-capture']] },
        KmsKeyId: { 'Fn::GetAtt': [Match.stringLikeRegexp('^ChatKey'), 'Arn'] },
        CaptureOptions: [{ CaptureMode: 'InputAndOutput' }],
        CaptureContentTypeHeader: Match.absent(),
      },
    });
    const put = statements(t).find((s) => [s.Action].flat().includes('s3:PutObject'));
    expect(JSON.stringify(put.Resource)).toContain('/data-capture/*');
    expectValidTemplate(stack);
  });

  test('the created bucket uses the endpoint\'s key: one key for volumes and captures', () => {
    // GIVEN
    const stack = newStack();
    // WHEN
    const ep = endpoint(stack, { instanceType: InstanceType.ML_M5_XLARGE, dataCapture: {} });
    // THEN
    const t = Template.fromStack(stack);
    t.resourceCountIs('AWS::KMS::Key', 1);
    const keyArn = { 'Fn::GetAtt': [stack.getLogicalId(ep.encryptionKey!.node.defaultChild as any), 'Arn'] };
    t.hasResourceProperties('AWS::SageMaker::EndpointConfig', { KmsKeyId: keyArn, DataCaptureConfig: Match.objectLike({ KmsKeyId: keyArn }) });
    t.hasResourceProperties('AWS::S3::Bucket', {
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms', KMSMasterKeyID: keyArn }, BucketKeyEnabled: true }] },
    });
  });

  test('a given encryptionKey also encrypts the created bucket', () => {
    // GIVEN
    const stack = newStack();
    const key = new kms.Key(stack, 'VolumeKey');
    // WHEN
    endpoint(stack, { instanceType: InstanceType.ML_M5_XLARGE, encryptionKey: key, dataCapture: {} });
    // THEN
    const t = Template.fromStack(stack);
    t.resourceCountIs('AWS::KMS::Key', 1);
    t.hasResourceProperties('AWS::S3::Bucket', {
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { KMSMasterKeyID: { 'Fn::GetAtt': [Match.stringLikeRegexp('^VolumeKey'), 'Arn'] } } }] },
    });
  });

  test('on an NVMe instance type a key is created for the bucket only; the config goes without it, unannounced (nothing to act on)', () => {
    // GIVEN
    const stack = newStack();
    // WHEN
    const ep = endpoint(stack, { dataCapture: {} });
    // THEN
    const t = Template.fromStack(stack);
    t.resourceCountIs('AWS::KMS::Key', 1);
    expect(ep.encryptionKey).toBeDefined();
    t.hasResourceProperties('AWS::SageMaker::EndpointConfig', { KmsKeyId: Match.absent() });
    Annotations.fromStack(stack).hasNoWarning('/Test/Chat', Match.anyValue());
  });

  test('uses a bucket, key, sampling, mode and content types passed in', () => {
    // GIVEN
    const stack = newStack();
    const bucket = s3.Bucket.fromBucketName(stack, 'Captures', 'my-captures');
    const key = kms.Key.fromKeyArn(stack, 'Key', 'arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab');
    // WHEN
    endpoint(stack, {
      dataCapture: {
        bucket,
        encryptionKey: key,
        prefix: 'chat',
        samplingPercentage: 5,
        captureMode: DataCaptureMode.INPUT,
        jsonContentTypes: ['application/json'],
        csvContentTypes: ['text/csv'],
      },
    });
    // THEN
    const t = Template.fromStack(stack);
    t.resourceCountIs('AWS::S3::Bucket', 0);
    t.hasResourceProperties('AWS::SageMaker::EndpointConfig', {
      DataCaptureConfig: {
        DestinationS3Uri: 's3://my-captures/chat',
        KmsKeyId: 'arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab',
        InitialSamplingPercentage: 5,
        CaptureOptions: [{ CaptureMode: 'Input' }],
        CaptureContentTypeHeader: { JsonContentTypes: ['application/json'], CsvContentTypes: ['text/csv'] },
      },
    });
    expect(statements(t).some((s) => [s.Action].flat().includes('kms:GenerateDataKey*'))).toBe(true);
  });

  test.each([
    ['samplingPercentage', { samplingPercentage: 101 }, /dataCapture.samplingPercentage: got 101, expected an integer between 0 and 100 percent/],
    ['jsonContentTypes', { jsonContentTypes: [] }, /dataCapture.jsonContentTypes: got \[\], expected between 1 and 10 content types/],
    ['csvContentTypes', { csvContentTypes: Array.from({ length: 11 }, (_, i) => `text/csv${i}`) }, /dataCapture.csvContentTypes: got .*, expected between 1 and 10 content types/],
    ['prefix', { prefix: 'captures/' }, /dataCapture.prefix: got 'captures\/', expected a non-empty S3 key prefix without a leading or trailing slash/],
  ])('fails if %s is invalid', (_name, dataCapture, message) => {
    // GIVEN
    const stack = newStack();
    // WHEN / THEN
    expect(() => endpoint(stack, { dataCapture })).toThrow(message);
  });

  test('fails if role is unset when dataCapture is set and the endpoint serves an existing model', () => {
    // GIVEN
    const stack = newStack();
    // WHEN / THEN: SageMaker writes captures with the existing model's role, which the construct cannot grant
    expect(() => endpoint(stack, { model: ModelSource.fromModelName('my-model'), dataCapture: {} }))
      .toThrow(/role: got nothing, expected the execution role of the existing model served by variant 'AllTraffic' \(ModelSource.fromModelName\) when dataCapture is set/);
  });

  test('fails if role is unset when a variant added later serves an existing model and dataCapture is set', () => {
    // GIVEN
    const stack = newStack();
    const ep = endpoint(stack, { instanceType: InstanceType.ML_M5_XLARGE, dataCapture: {} });
    // WHEN / THEN
    expect(() => ep.addVariant('Existing', { model: ModelSource.fromModelName('my-model'), instanceType: InstanceType.ML_M5_XLARGE }))
      .toThrow(/role: got nothing, expected the execution role of the existing model served by variant 'Existing'/);
  });

  test('with an existing model, the given role (the model\'s) is granted the capture writes and no role is created', () => {
    // GIVEN
    const stack = newStack();
    const modelRole = iam.Role.fromRoleArn(stack, 'ModelRole', 'arn:aws:iam::123456789012:role/my-model-role');
    // WHEN
    endpoint(stack, { model: ModelSource.fromModelName('my-model'), role: modelRole, dataCapture: {} });
    // THEN
    const t = Template.fromStack(stack);
    t.resourceCountIs('AWS::IAM::Role', 0);
    const policies = Object.values(t.findResources('AWS::IAM::Policy')) as any[];
    expect(policies).toHaveLength(1);
    expect(policies[0].Properties.Roles).toEqual(['my-model-role']);
    const actions = policies[0].Properties.PolicyDocument.Statement.flatMap((st: any) => [st.Action].flat());
    expect(actions).toEqual(expect.arrayContaining(['s3:PutObject', 'kms:Encrypt']));
  });
});

describe('endpoint config KMS key', () => {
  test('is set for EBS-backed instance types', () => {
    // GIVEN
    const stack = newStack();
    const key = new kms.Key(stack, 'VolumeKey');
    // WHEN
    endpoint(stack, { encryptionKey: key, instanceType: InstanceType.ML_M5_XLARGE });
    // THEN
    Template.fromStack(stack).hasResourceProperties('AWS::SageMaker::EndpointConfig', {
      KmsKeyId: { 'Fn::GetAtt': [Match.stringLikeRegexp('VolumeKey'), 'Arn'] },
    });
    Annotations.fromStack(stack).hasNoWarning('*', Match.stringLikeRegexp('encryptionKey'));
  });

  test('is created by default (rotation on) for EBS-backed instance types', () => {
    // GIVEN
    const stack = newStack();
    // WHEN
    const ep = endpoint(stack, { instanceType: InstanceType.ML_M5_XLARGE });
    // THEN
    const t = Template.fromStack(stack);
    t.resourceCountIs('AWS::KMS::Key', 1);
    t.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
    t.hasResourceProperties('AWS::SageMaker::EndpointConfig', {
      KmsKeyId: { 'Fn::GetAtt': [stack.getLogicalId(ep.encryptionKey!.node.defaultChild as any), 'Arn'] },
    });
    Annotations.fromStack(stack).hasNoWarning('*', Match.stringLikeRegexp('encryptionKey'));
  });

  test('a created key and capture bucket keep the template valid and cdk-nag clean', () => {
    // GIVEN
    const app = new App({ context: { 'aws:cdk:disable-creation-stack-traces': true } });
    const stack = new Stack(app, 'Test', { env: { account: '123456789012', region: 'us-east-1' } });
    // WHEN
    endpoint(stack, { instanceType: InstanceType.ML_M5_XLARGE, dataCapture: {} });
    // THEN
    expectValidTemplate(stack);
    expectNagClean(app);
  });

  test('is neither created nor set by default for NVMe instance types, and no warning is raised (the user gave no key)', () => {
    // GIVEN
    const stack = newStack();
    // WHEN
    const ep = endpoint(stack);
    // THEN
    const t = Template.fromStack(stack);
    t.resourceCountIs('AWS::KMS::Key', 0);
    expect(ep.encryptionKey).toBeUndefined();
    t.hasResourceProperties('AWS::SageMaker::EndpointConfig', { KmsKeyId: Match.absent() });
    Annotations.fromStack(stack).hasNoWarning('/Test/Chat', Match.anyValue());
  });

  test('without a key, an NVMe variant added to an endpoint whose first variant is NVMe is warned about with the EBS ones', () => {
    const stack = newStack();
    const ep = endpoint(stack);
    ep.addVariant('Cpu', { instanceType: InstanceType.ML_M5_XLARGE });
    Annotations.fromStack(stack).hasWarning('/Test/Chat', Match.stringLikeRegexp(
      '^encryptionKey: none on the endpoint config .*the EBS volumes of Cpu \\(ml.m5.xlarge\\) therefore use an AWS-managed key'));
  });

  test('is left out, with a warning, when every variant uses NVMe instance storage', () => {
    // GIVEN
    const stack = newStack();
    const key = new kms.Key(stack, 'VolumeKey');
    // WHEN
    endpoint(stack, { encryptionKey: key, instanceType: InstanceType.ML_G5_2XLARGE });
    // THEN
    Template.fromStack(stack).hasResourceProperties('AWS::SageMaker::EndpointConfig', { KmsKeyId: Match.absent() });
    Annotations.fromStack(stack).hasWarning('/Test/Chat',
      Match.stringLikeRegexp('encryptionKey: left off the endpoint config because variant AllTraffic \\(ml.g5.2xlarge\\) uses NVMe instance storage, which a hardware module on the instance encrypts'));
  });

  test.each([
    ['given', true],
    ['created', false],
  ])('a %s key is left out, with a warning naming the NVMe variant, when NVMe and EBS variants are mixed', (_kind, given) => {
    // GIVEN
    const stack = newStack();
    const ep = endpoint(stack, { encryptionKey: given ? new kms.Key(stack, 'VolumeKey') : undefined, instanceType: InstanceType.ML_M5_XLARGE });
    // WHEN
    ep.addVariant('Gpu', { instanceType: InstanceType.ML_G5_XLARGE });
    // THEN
    Template.fromStack(stack).hasResourceProperties('AWS::SageMaker::EndpointConfig', { KmsKeyId: Match.absent() });
    Annotations.fromStack(stack).hasWarning('/Test/Chat', Match.stringLikeRegexp(
      'encryptionKey: left off the endpoint config because variant Gpu \\(ml.g5.xlarge\\) uses NVMe instance storage.*'
      + 'the EBS volumes of AllTraffic \\(ml.m5.xlarge\\) therefore use an AWS-managed key'));
  });
});

describe('autoscaling', () => {
  test('defaults: target 70 invocations per instance, scale out 60 s, in 300 s, 1-8 instances, after the endpoint', () => {
    // GIVEN
    const stack = newStack();
    // WHEN
    endpoint(stack, { endpointName: 'chat', autoScaling: {} });
    // THEN
    const t = Template.fromStack(stack);
    t.hasResource('AWS::ApplicationAutoScaling::ScalableTarget', {
      Properties: {
        ServiceNamespace: 'sagemaker',
        ResourceId: 'endpoint/chat/variant/AllTraffic',
        ScalableDimension: 'sagemaker:variant:DesiredInstanceCount',
        MinCapacity: 1,
        MaxCapacity: 8,
        RoleARN: Match.absent(),
      },
      DependsOn: [Match.stringLikeRegexp('^Chat[0-9A-F]{8}$')],
    });
    t.hasResourceProperties('AWS::ApplicationAutoScaling::ScalingPolicy', {
      PolicyType: 'TargetTrackingScaling',
      ScalingTargetId: { Ref: Match.stringLikeRegexp('ChatAllTrafficScalingTarget') },
      TargetTrackingScalingPolicyConfiguration: {
        TargetValue: 70,
        PredefinedMetricSpecification: { PredefinedMetricType: 'SageMakerVariantInvocationsPerInstance' },
        ScaleOutCooldown: 60,
        ScaleInCooldown: 300,
      },
    });
    t.resourceCountIs('AWS::ApplicationAutoScaling::ScalingPolicy', 1);
    t.resourceCountIs('AWS::IAM::Role', 1);
    expectValidTemplate(stack);
  });

  test('a generated endpoint name is read from the endpoint', () => {
    // GIVEN
    const stack = newStack();
    // WHEN
    endpoint(stack, { autoScaling: {} });
    // THEN
    Template.fromStack(stack).hasResourceProperties('AWS::ApplicationAutoScaling::ScalableTarget', {
      ResourceId: { 'Fn::Join': ['', ['endpoint/', { 'Fn::GetAtt': [Match.stringLikeRegexp('^Chat'), 'EndpointName'] }, '/variant/AllTraffic']] },
    });
  });

  test('every default is overridable, and the high-resolution concurrency policy is added on request', () => {
    // GIVEN
    const stack = newStack();
    const ep = endpoint(stack, { endpointName: 'chat' });
    // WHEN
    ep.autoScaleInstanceCount({
      minCapacity: 2,
      maxCapacity: 10,
      targetInvocationsPerInstance: 30,
      scaleOutCooldown: Duration.seconds(30),
      scaleInCooldown: Duration.minutes(10),
      targetConcurrentRequestsPerModel: 4,
    });
    // THEN
    const t = Template.fromStack(stack);
    t.hasResourceProperties('AWS::ApplicationAutoScaling::ScalableTarget', { MinCapacity: 2, MaxCapacity: 10 });
    t.hasResourceProperties('AWS::ApplicationAutoScaling::ScalingPolicy', {
      TargetTrackingScalingPolicyConfiguration: {
        TargetValue: 30,
        ScaleOutCooldown: 30,
        ScaleInCooldown: 600,
        PredefinedMetricSpecification: { PredefinedMetricType: 'SageMakerVariantInvocationsPerInstance' },
      },
    });
    t.hasResourceProperties('AWS::ApplicationAutoScaling::ScalingPolicy', {
      TargetTrackingScalingPolicyConfiguration: {
        TargetValue: 4,
        PredefinedMetricSpecification: { PredefinedMetricType: 'SageMakerVariantConcurrentRequestsPerModelHighResolution' },
      },
    });
  });

  test('a variant added with autoScaling gets its own target', () => {
    // GIVEN
    const stack = newStack();
    const ep = endpoint(stack, { endpointName: 'chat', autoScaling: {} });
    // WHEN
    ep.addVariant('Canary', { instanceType: InstanceType.ML_G5_2XLARGE, autoScaling: { maxCapacity: 2 } });
    // THEN
    const t = Template.fromStack(stack);
    t.resourceCountIs('AWS::ApplicationAutoScaling::ScalableTarget', 2);
    t.hasResourceProperties('AWS::ApplicationAutoScaling::ScalableTarget', { ResourceId: 'endpoint/chat/variant/Canary', MaxCapacity: 2 });
  });

  test('warns when scale-out is not faster than scale-in', () => {
    // GIVEN
    const stack = newStack();
    // WHEN
    endpoint(stack, { autoScaling: { scaleOutCooldown: Duration.minutes(5), scaleInCooldown: Duration.minutes(5) } });
    // THEN
    Annotations.fromStack(stack).hasWarning('*', Match.stringLikeRegexp('scaleOutCooldown \\(300 s\\) is not shorter than scaleInCooldown \\(300 s\\)'));
  });

  test('fails if minCapacity is 0, naming the endpoint types that scale to zero', () => {
    // GIVEN
    const stack = newStack();
    // WHEN / THEN
    expect(() => endpoint(stack, { autoScaling: { minCapacity: 0 } }))
      .toThrow(/autoScaling.minCapacity: got 0, expected at least 1: only async and inference-component endpoints scale to zero/);
  });

  test('fails if maxCapacity is below minCapacity', () => {
    // GIVEN
    const stack = newStack();
    // WHEN / THEN
    expect(() => endpoint(stack, { autoScaling: { minCapacity: 4, maxCapacity: 2 } }))
      .toThrow(/autoScaling.maxCapacity: got 2, expected at least minCapacity \(4\)/);
  });

  test('fails if a target value is not positive', () => {
    // GIVEN
    const stack = newStack();
    // WHEN / THEN
    expect(() => endpoint(stack, { autoScaling: { targetInvocationsPerInstance: 0 } }))
      .toThrow(/autoScaling.targetInvocationsPerInstance: got 0, expected a number > 0/);
  });

  test('fails if the variant does not exist or is already scaled', () => {
    // GIVEN
    const stack = newStack();
    const ep = endpoint(stack, { autoScaling: {} });
    // WHEN / THEN
    expect(() => ep.autoScaleInstanceCount({ variantName: 'Nope' })).toThrow(/variantName: got 'Nope', expected one of this endpoint's variants \(AllTraffic\)/);
    expect(() => ep.autoScaleInstanceCount()).toThrow(/autoScaleInstanceCount: got a second call for variant 'AllTraffic', expected one call per scalable target/);
  });
});

describe('alarms', () => {
  test('p99 model latency (in microseconds) and 5xx rate, missing data not breaching', () => {
    // GIVEN
    const stack = newStack();
    // WHEN
    const ep = endpoint(stack, { endpointName: 'chat' });
    const alarms = ep.addAlarms({ modelLatencyP99Threshold: Duration.seconds(2), invocation5XXRateThreshold: 5 });
    // THEN
    expect(alarms.modelLatencyP99).toBeDefined();
    expect(alarms.invocation5XXRate).toBeDefined();
    const t = Template.fromStack(stack);
    t.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ModelLatency',
      Namespace: 'AWS/SageMaker',
      ExtendedStatistic: 'p99',
      Threshold: 2_000_000,
      Dimensions: [{ Name: 'EndpointName', Value: 'chat' }, { Name: 'VariantName', Value: 'AllTraffic' }],
      TreatMissingData: 'notBreaching',
      EvaluationPeriods: 3,
      Period: 300,
    });
    t.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Threshold: 5,
      Metrics: Match.arrayWith([Match.objectLike({ Expression: 'IF(invocations > 0, 100 * errors / invocations, 0)' })]),
    });
  });

  test('a sub-millisecond latency threshold is kept, in microseconds', () => {
    // GIVEN
    const stack = newStack();
    const ep = endpoint(stack);
    // WHEN
    ep.addAlarms({ modelLatencyP99Threshold: Duration.millis(0.5) });
    // THEN
    Template.fromStack(stack).hasResourceProperties('AWS::CloudWatch::Alarm', { MetricName: 'ModelLatency', Threshold: 500 });
  });

  test('alarmActions at the top level notify on the alarms of props and of addAlarms', () => {
    // GIVEN
    const stack = newStack();
    const topic = new sns.Topic(stack, 'Ops');
    const alarmActions = [new cloudwatch_actions.SnsAction(topic)];
    // WHEN
    endpoint(stack, { alarms: { invocation5XXRateThreshold: 1 }, alarmActions });
    const later = new RealtimeEndpoint(stack, 'Later', { model: tgiModel(stack, 'later/'), instanceType: InstanceType.ML_G5_2XLARGE, alarmActions });
    later.addAlarms({ modelLatencyP99Threshold: Duration.seconds(1) });
    // THEN
    const alarms = Template.fromStack(stack).findResources('AWS::CloudWatch::Alarm');
    expect(Object.values(alarms).map((a) => a.Properties.AlarmActions)).toEqual([
      [{ Ref: stack.getLogicalId(topic.node.defaultChild as sns.CfnTopic) }],
      [{ Ref: stack.getLogicalId(topic.node.defaultChild as sns.CfnTopic) }],
    ]);
  });

  test('alarms from props cover the first variant only what is asked', () => {
    // GIVEN
    const stack = newStack();
    // WHEN
    endpoint(stack, { alarms: { invocation5XXRateThreshold: 1 } });
    // THEN
    Template.fromStack(stack).resourceCountIs('AWS::CloudWatch::Alarm', 1);
  });

  test.each([
    ['no threshold is given', {}, /modelLatencyP99Threshold\/invocation5XXRateThreshold: got nothing, expected at least one threshold/],
    ['the 5xx rate is above 100', { invocation5XXRateThreshold: 150 }, /alarms.invocation5XXRateThreshold: got 150, expected a number between 0 and 100 percent/],
    ['evaluationPeriods is 0', { invocation5XXRateThreshold: 1, evaluationPeriods: 0 }, /alarms.evaluationPeriods: got 0, expected an integer >= 1/],
    ['modelLatencyP99Threshold is below a microsecond', { modelLatencyP99Threshold: Duration.millis(0.0005) },
      /alarms.modelLatencyP99Threshold: got '0.0005 ms', expected at least 1 microsecond/],
  ])('fails if %s', (_name, alarms, message) => {
    // GIVEN
    const stack = newStack();
    // WHEN / THEN
    expect(() => endpoint(stack, { alarms })).toThrow(message);
  });
});

describe('grants', () => {
  test('grantInvoke allows sagemaker:InvokeEndpoint on this endpoint\'s ARN only', () => {
    // GIVEN
    const stack = newStack();
    const ep = endpoint(stack, { endpointName: 'Mixed-Case-Chat' });
    const fn = new iam.Role(stack, 'Caller', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    // WHEN
    ep.grantInvoke(fn);
    // THEN
    Template.fromStack(stack).hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: Match.stringLikeRegexp('Caller') }],
      PolicyDocument: { Statement: [{ Action: ['sagemaker:InvokeEndpoint', 'sagemaker:InvokeEndpointWithResponseStream'], Effect: 'Allow', Resource: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Chat'), 'EndpointArn'] } }] },
    });
  });

  test('grant passes other actions on the same ARN', () => {
    // GIVEN
    const stack = newStack();
    const ep = RealtimeEndpoint.fromEndpointName(stack, 'Imported', 'chat');
    const role = new iam.Role(stack, 'Caller', { assumedBy: new iam.AccountRootPrincipal() });
    // WHEN
    ep.grant(role, 'sagemaker:DescribeEndpoint');
    // THEN
    Template.fromStack(stack).hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: { Statement: [{ Action: 'sagemaker:DescribeEndpoint', Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':sagemaker:us-east-1:123456789012:endpoint/chat']] } }] },
    });
  });
});

describe('imports', () => {
  test('fromEndpointName keeps the name and lowercases the ARN', () => {
    // GIVEN
    const stack = newStack();
    // WHEN
    const ep = RealtimeEndpoint.fromEndpointName(stack, 'Imported', 'My-Chat');
    // THEN
    expect(ep.endpointName).toBe('My-Chat');
    expect(stack.resolve(ep.endpointArn)).toEqual({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':sagemaker:us-east-1:123456789012:endpoint/my-chat']] });
  });

  test('fromEndpointArn lowercases the ARN and parses the name', () => {
    // GIVEN
    const stack = newStack();
    // WHEN
    const ep = RealtimeEndpoint.fromEndpointArn(stack, 'Imported', 'arn:aws:sagemaker:us-east-1:123456789012:endpoint/My-Chat');
    // THEN
    expect(ep.endpointArn).toBe('arn:aws:sagemaker:us-east-1:123456789012:endpoint/my-chat');
    expect(ep.endpointName).toBe('My-Chat');
  });

  test('attributes set the default variant of metrics', () => {
    // GIVEN
    const stack = newStack();
    // WHEN
    const ep = RealtimeEndpoint.fromRealtimeEndpointAttributes(stack, 'Imported', { endpointName: 'chat', defaultVariantName: 'Blue' });
    // THEN
    expect(ep.metricInvocations().dimensions).toEqual({ EndpointName: 'chat', VariantName: 'Blue' });
  });

  test.each([
    ['neither name nor ARN is given', {}, /endpointName\/endpointArn: got nothing, expected at least one of endpointName or endpointArn/],
    ['the ARN is not an endpoint ARN', { endpointArn: 'arn:aws:sagemaker:us-east-1:123456789012:model/x' }, /endpointArn: got 'arn:aws:sagemaker:us-east-1:123456789012:model\/x', expected an endpoint ARN/],
    ['the name is invalid', { endpointName: 'a_b' }, /endpointName: got 'a_b', expected 1-63 letters/],
  ])('fails if %s', (_name, attrs, message) => {
    // GIVEN
    const stack = newStack();
    // WHEN / THEN
    expect(() => SageMakerEndpointBase.fromSageMakerEndpointAttributes(stack, 'Imported', attrs)).toThrow(message);
  });
});

describe('metrics', () => {
  test.each([
    ['metricInvocations', 'AWS/SageMaker', 'Invocations', 'Sum'],
    ['metricInvocationsPerInstance', 'AWS/SageMaker', 'InvocationsPerInstance', 'Sum'],
    ['metricModelLatency', 'AWS/SageMaker', 'ModelLatency', 'Average'],
    ['metricOverheadLatency', 'AWS/SageMaker', 'OverheadLatency', 'Average'],
    ['metricInvocation4XXErrors', 'AWS/SageMaker', 'Invocation4XXErrors', 'Sum'],
    ['metricInvocation5XXErrors', 'AWS/SageMaker', 'Invocation5XXErrors', 'Sum'],
    ['metricCpuUtilization', '/aws/sagemaker/Endpoints', 'CPUUtilization', 'Average'],
    ['metricGpuUtilization', '/aws/sagemaker/Endpoints', 'GPUUtilization', 'Average'],
    ['metricMemoryUtilization', '/aws/sagemaker/Endpoints', 'MemoryUtilization', 'Average'],
    ['metricGpuMemoryUtilization', '/aws/sagemaker/Endpoints', 'GPUMemoryUtilization', 'Average'],
    ['metricDiskUtilization', '/aws/sagemaker/Endpoints', 'DiskUtilization', 'Average'],
  ])('%s: %s %s, %s by default, per endpoint and variant', (method, namespace, metricName, statistic) => {
    // GIVEN
    const stack = newStack();
    const ep = endpoint(stack, { endpointName: 'chat', variantName: 'Blue' });
    // WHEN
    const m = (ep as any)[method]();
    // THEN
    expect({ namespace: m.namespace, metricName: m.metricName, statistic: m.statistic, dimensions: m.dimensions })
      .toEqual({ namespace, metricName, statistic, dimensions: { EndpointName: 'chat', VariantName: 'Blue' } });
  });

  test('variantName and statistic can be overridden', () => {
    // GIVEN
    const stack = newStack();
    const ep = endpoint(stack, { endpointName: 'chat' });
    // WHEN
    const m = ep.metricModelLatency({ variantName: 'Green', statistic: 'p90', period: Duration.minutes(1) });
    // THEN
    expect(m.dimensions).toEqual({ EndpointName: 'chat', VariantName: 'Green' });
    expect(m.statistic).toBe('p90');
    expect(m.period.toSeconds()).toBe(60);
  });
});

describe('example stack', () => {
  test('is a valid template and cdk-nag clean', () => {
    // GIVEN
    const app = new App({ context: { 'aws:cdk:disable-creation-stack-traces': true } });
    const stack = new Stack(app, 'Example', { env: { account: '123456789012', region: 'us-east-1' } });
    // WHEN
    const ep = addRealtimeExample(stack);
    // THEN
    expect(ep.endpointName).toBe('mcp-chat');
    expectValidTemplate(stack);
    expectNagClean(app);
  });
});
