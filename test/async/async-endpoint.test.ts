import { App, Duration, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { AsyncEndpoint, AsyncEndpointProps, AsyncNotificationTopic, AsyncWorkload, IAsyncEndpoint } from '../../src/async';
import { ContainerImage, InstanceType, ModelSource } from '../../src/core';
import { templateSnapshot } from '../support/snapshot';
import { ASYNC_ENV } from 'cdk-sagemaker-mcp-runtime/internal/contract';

const ENV = { account: '123456789012', region: 'us-east-1' };
const MODEL = ModelSource.fromContainer(ContainerImage.fromDlc('huggingface-pytorch-inference', '2.1.0-transformers4.37.0-cpu-py310-ubuntu22.04'));

function build(props: Partial<AsyncEndpointProps> = {}) {
  const app = new App();
  const stack = new Stack(app, 'Test', { env: ENV });
  const endpoint = new AsyncEndpoint(stack, 'Async', { model: MODEL, instanceType: InstanceType.ML_M5_XLARGE, ...props });
  return { app, stack, endpoint, template: () => Template.fromStack(stack) };
}

function statementsOf(template: Template): any[] {
  return Object.values(template.findResources('AWS::IAM::Policy')).flatMap((p: any) => p.Properties.PolicyDocument.Statement);
}

describe('defaults', () => {
  const { stack, endpoint } = build();
  const template = Template.fromStack(stack);

  test('creates a rotating customer-managed key', () => {
    template.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
  });

  test('creates a KMS-encrypted, TLS-only, private, versioned bucket with lifecycle rules 7/30/30 days', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      VersioningConfiguration: { Status: 'Enabled' },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms', KMSMasterKeyID: Match.anyValue() } }] },
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      LifecycleConfiguration: {
        Rules: [
          // Versioned: an expired object's noncurrent version goes a day later (src/private/storage.ts).
          Match.objectLike({ Id: 'ExpireNoncurrentVersions', NoncurrentVersionExpiration: { NoncurrentDays: 1 }, ExpiredObjectDeleteMarker: true }),
          Match.objectLike({ Prefix: 'inputs/', ExpirationInDays: 7, Status: 'Enabled' }),
          Match.objectLike({ Prefix: 'outputs/', ExpirationInDays: 30 }),
          Match.objectLike({ Prefix: 'failures/', ExpirationInDays: 30 }),
        ],
      },
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
  });

  test('creates KMS-encrypted, TLS-only success and error topics', () => {
    template.resourceCountIs('AWS::SNS::Topic', 2);
    template.allResourcesProperties('AWS::SNS::Topic', { KmsMasterKeyId: Match.anyValue() });
    template.resourcePropertiesCountIs('AWS::SNS::TopicPolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    }, 2);
  });

  test('configures async inference: output/failure paths, output key, both topics, CPU default concurrency 4', () => {
    template.hasResourceProperties('AWS::SageMaker::EndpointConfig', {
      AsyncInferenceConfig: {
        OutputConfig: {
          S3OutputPath: { 'Fn::Join': ['', ['s3://', { Ref: Match.stringLikeRegexp('AsyncBucket') }, '/outputs']] },
          S3FailurePath: { 'Fn::Join': ['', ['s3://', { Ref: Match.stringLikeRegexp('AsyncBucket') }, '/failures']] },
          KmsKeyId: { 'Fn::GetAtt': [Match.stringLikeRegexp('AsyncKey'), 'Arn'] },
          NotificationConfig: {
            SuccessTopic: { Ref: Match.stringLikeRegexp('AsyncSuccessTopic') },
            ErrorTopic: { Ref: Match.stringLikeRegexp('AsyncErrorTopic') },
            IncludeInferenceResponseIn: Match.absent(),
          },
        },
        ClientConfig: { MaxConcurrentInvocationsPerInstance: 4 },
      },
      KmsKeyId: Match.anyValue(),
      ProductionVariants: [Match.objectLike({ VariantName: 'AllTraffic', InstanceType: 'ml.m5.xlarge', InitialInstanceCount: 1 })],
    });
    expect(endpoint.workload).toBe(AsyncWorkload.CPU_PROCESSING);
  });

  test('grants the endpoint role input reads, output/failure writes, publish on both topics, and the key', () => {
    const statements = statementsOf(template);
    const join = (prefix: string) => ({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [Match.stringLikeRegexp('AsyncBucket'), 'Arn'] }, prefix]] });
    template.hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: Match.stringLikeRegexp('AsyncRole') }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          { Action: 's3:GetObject', Effect: 'Allow', Resource: join('/inputs/*') },
          { Action: ['s3:PutObject', 's3:AbortMultipartUpload'], Effect: 'Allow', Resource: [join('/outputs/*'), join('/failures/*')] },
          { Action: 'sns:Publish', Effect: 'Allow', Resource: [{ Ref: Match.stringLikeRegexp('AsyncSuccessTopic') }, { Ref: Match.stringLikeRegexp('AsyncErrorTopic') }] },
          { Action: ['kms:Decrypt', 'kms:GenerateDataKey'], Effect: 'Allow', Resource: { 'Fn::GetAtt': [Match.stringLikeRegexp('AsyncKey'), 'Arn'] } },
        ]),
      },
    });
    // never a wildcard action on a data service
    for (const st of statements) {
      for (const action of [st.Action].flat()) expect(action).not.toMatch(/^(sagemaker|s3|dynamodb|sns|sqs):\*$/);
    }
    expect(JSON.stringify(template.toJSON())).not.toContain('AmazonSageMakerFullAccess');
  });

  test('the endpoint is the Resource child and waits for its role policies', () => {
    const endpoints = template.findResources('AWS::SageMaker::Endpoint');
    const [logicalId, resource] = Object.entries(endpoints)[0] as [string, any];
    expect(logicalId).toMatch(/^Async[0-9A-F]{8}$/);
    // The model's permissions are in the role's DefaultPolicy: the endpoint waits for the role and that policy.
    expect(resource.DependsOn).toEqual([expect.stringMatching(/^AsyncAsyncIoPolicy/),
      expect.stringMatching(/^AsyncRoleDefaultPolicy/), expect.stringMatching(/^AsyncRole[0-9A-F]{8}$/)]);
    const [role] = Object.values(template.findResources('AWS::IAM::Role', { Properties: { Description: Match.stringLikeRegexp('async endpoint') } })) as any[];
    expect(role.Properties.Policies).toBeUndefined();
  });

  test('records results: job table with customer KMS, PITR and TTL attribute', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [{ AttributeName: 'inferenceId', KeyType: 'HASH' }],
      SSESpecification: { SSEEnabled: true, SSEType: 'KMS', KMSMasterKeyId: Match.anyValue() },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
    });
  });

  test('both topics feed one KMS queue with the SNS envelope (raw delivery off), which has a DLQ after 5 receives', () => {
    template.resourcePropertiesCountIs('AWS::SNS::Subscription', { Protocol: 'sqs', RawMessageDelivery: false }, 2);
    template.hasResourceProperties('AWS::SQS::Queue', {
      KmsMasterKeyId: Match.anyValue(),
      VisibilityTimeout: 180,
      RedrivePolicy: { deadLetterTargetArn: Match.anyValue(), maxReceiveCount: 5 },
    });
    template.allResourcesProperties('AWS::SQS::Queue', { KmsMasterKeyId: Match.anyValue() });
    template.resourcePropertiesCountIs('AWS::SQS::QueuePolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    }, 2);
  });

  test('the bundled recorder reads the queue with partial batch responses and may only PutItem', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Runtime: 'nodejs22.x',
      Handler: 'index.handler',
      Environment: {
        Variables: Match.objectLike({ [ASYNC_ENV.JOB_TABLE_NAME]: { Ref: Match.anyValue() }, [ASYNC_ENV.JOB_RETENTION_SECONDS]: String(30 * 86400) }),
      },
    });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', { FunctionResponseTypes: ['ReportBatchItemFailures'], BatchSize: 10 });
    template.hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: Match.stringLikeRegexp('RecorderRole') }],
      PolicyDocument: { Statement: Match.arrayWith([{ Action: 'dynamodb:PutItem', Effect: 'Allow', Resource: [{ 'Fn::GetAtt': [Match.stringLikeRegexp('JobTable'), 'Arn'] }] }]) },
    });
    // a role of its own: no managed policies
    const roles = template.findResources('AWS::IAM::Role');
    for (const role of Object.values(roles) as any[]) expect(role.Properties.ManagedPolicyArns).toBeUndefined();
  });

  test('alarms on any message in the recorder DLQ', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Namespace: 'AWS/SQS',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [Match.stringLikeRegexp('DeadLetterQueue'), 'QueueName'] } }],
    });
  });

  test('no autoscaling and no oldest-request alarm unless asked', () => {
    template.resourceCountIs('AWS::ApplicationAutoScaling::ScalableTarget', 0);
    template.resourceCountIs('AWS::CloudWatch::Alarm', 1);
  });

  test('runtimeEnvironment carries the contract env vars with the defaults 900 s / 3600 s', () => {
    const env = stack.resolve(endpoint.runtimeEnvironment);
    expect(Object.keys(env).sort()).toEqual([
      ASYNC_ENV.ENDPOINT_NAME, ASYNC_ENV.INPUT_BUCKET, ASYNC_ENV.INPUT_PREFIX, ASYNC_ENV.INVOCATION_TIMEOUT_SECONDS,
      ASYNC_ENV.JOB_TABLE_NAME, ASYNC_ENV.REQUEST_TTL_SECONDS,
    ].sort());
    expect(env).toMatchObject({
      [ASYNC_ENV.INPUT_PREFIX]: 'inputs/',
      [ASYNC_ENV.INVOCATION_TIMEOUT_SECONDS]: '900',
      [ASYNC_ENV.REQUEST_TTL_SECONDS]: '3600',
      [ASYNC_ENV.ENDPOINT_NAME]: { 'Fn::GetAtt': [expect.stringMatching(/^Async/), 'EndpointName'] },
    });
  });

  test('snapshot', () => {
    expect(templateSnapshot(stack)).toMatchSnapshot();
  });
});

describe('options', () => {
  test('a GPU instance defaults to the GPU LLM workload with 1 concurrent invocation', () => {
    const { endpoint, template } = build({ instanceType: InstanceType.ML_G5_2XLARGE });
    expect(endpoint.workload).toBe(AsyncWorkload.GPU_LLM);
    template().hasResourceProperties('AWS::SageMaker::EndpointConfig', {
      AsyncInferenceConfig: { ClientConfig: { MaxConcurrentInvocationsPerInstance: 1 } },
    });
  });

  test('a concurrency outside the workload range warns and is kept', () => {
    const { stack, template } = build({ instanceType: InstanceType.ML_G5_2XLARGE, invocation: { maxConcurrentInvocationsPerInstance: 8 } });
    template().hasResourceProperties('AWS::SageMaker::EndpointConfig', {
      AsyncInferenceConfig: { ClientConfig: { MaxConcurrentInvocationsPerInstance: 8 } },
    });
    Annotations.fromStack(stack).hasWarning('/Test/Async', Match.stringLikeRegexp('invocation.maxConcurrentInvocationsPerInstance: got 8, expected 1-2 for a GPU LLM workload'));
  });

  test('a concurrency inside the workload range does not warn', () => {
    const { stack } = build({ invocation: { workload: AsyncWorkload.CPU_PROCESSING, maxConcurrentInvocationsPerInstance: 8 } });
    Annotations.fromStack(stack).hasNoWarning('/Test/Async', Match.stringLikeRegexp('maxConcurrentInvocationsPerInstance'));
  });

  test('notifications.includeInferenceResponseIn is rendered', () => {
    const { template } = build({ notifications: { includeInferenceResponseIn: [AsyncNotificationTopic.SUCCESS, AsyncNotificationTopic.ERROR] } });
    template().hasResourceProperties('AWS::SageMaker::EndpointConfig', {
      AsyncInferenceConfig: { OutputConfig: { NotificationConfig: { IncludeInferenceResponseIn: ['SUCCESS_NOTIFICATION_TOPIC', 'ERROR_NOTIFICATION_TOPIC'] } } },
    });
  });

  test('custom prefixes and expirations reach the paths, lifecycle rules and env', () => {
    const { stack, endpoint, template } = build({
      storage: {
        inputPrefix: 'in/',
        outputPrefix: 'out/',
        failurePrefix: 'err/',
        inputExpiration: Duration.days(1),
        outputExpiration: Duration.days(3),
        failureExpiration: Duration.days(14),
      },
    });
    template().hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: {
        Rules: [
          Match.objectLike({ Id: 'ExpireNoncurrentVersions' }),
          Match.objectLike({ Prefix: 'in/', ExpirationInDays: 1 }),
          Match.objectLike({ Prefix: 'out/', ExpirationInDays: 3 }),
          Match.objectLike({ Prefix: 'err/', ExpirationInDays: 14 }),
        ],
      },
    });
    template().hasResourceProperties('AWS::SageMaker::EndpointConfig', {
      AsyncInferenceConfig: { OutputConfig: { S3OutputPath: { 'Fn::Join': ['', ['s3://', Match.anyValue(), '/out']] } } },
    });
    // results live as long as outputs unless told otherwise
    template().hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ [ASYNC_ENV.JOB_RETENTION_SECONDS]: String(3 * 86400) }) },
    });
    expect(stack.resolve(endpoint.runtimeEnvironment)[ASYNC_ENV.INPUT_PREFIX]).toBe('in/');
  });

  test('a bucket of yours (s3.Bucket) is used and gets the lifecycle rules; an imported one gets none', () => {
    const app = new App();
    const stack = new Stack(app, 'Test', { env: ENV });
    const own = new s3.Bucket(stack, 'Own', { enforceSSL: true });
    const a = new AsyncEndpoint(stack, 'A', { model: MODEL, instanceType: InstanceType.ML_M5_XLARGE, storage: { bucket: own } });
    const imported = s3.Bucket.fromBucketName(stack, 'Imported', 'existing-io');
    const b = new AsyncEndpoint(stack, 'B', { model: MODEL, instanceType: InstanceType.ML_M5_XLARGE, storage: { bucket: imported }, results: { enabled: false } });
    const template = Template.fromStack(stack);
    template.resourceCountIs('AWS::S3::Bucket', 1);
    template.hasResourceProperties('AWS::S3::Bucket', { LifecycleConfiguration: { Rules: Match.arrayWith([Match.objectLike({ Id: 'AExpireInputs' })]) } });
    expect(a.bucket).toBe(own);
    expect(b.bucket).toBe(imported);
    template.hasResourceProperties('AWS::SageMaker::EndpointConfig', {
      AsyncInferenceConfig: { OutputConfig: { S3OutputPath: 's3://existing-io/outputs' } },
    });
  });

  test('the invocation timeout and request TTL become the runtime defaults', () => {
    const { stack, endpoint } = build({ invocation: { invocationTimeout: Duration.minutes(5), requestTtl: Duration.minutes(10) } });
    expect(stack.resolve(endpoint.runtimeEnvironment)).toMatchObject({
      [ASYNC_ENV.INVOCATION_TIMEOUT_SECONDS]: '300',
      [ASYNC_ENV.REQUEST_TTL_SECONDS]: '600',
    });
  });

  test('results disabled: no table, queue or function, and the table left out of the env', () => {
    const { stack, endpoint, template } = build({ results: { enabled: false } });
    template().resourceCountIs('AWS::DynamoDB::Table', 0);
    template().resourceCountIs('AWS::SQS::Queue', 0);
    template().resourceCountIs('AWS::Lambda::Function', 0);
    expect(endpoint.jobTable).toBeUndefined();
    expect(stack.resolve(endpoint.runtimeEnvironment)[ASYNC_ENV.JOB_TABLE_NAME]).toBeUndefined();
    // the notifications are still configured (SageMaker publishes; subscribe your own consumer)
    template().hasResourceProperties('AWS::SageMaker::EndpointConfig', {
      AsyncInferenceConfig: { OutputConfig: { NotificationConfig: { SuccessTopic: Match.anyValue(), ErrorTopic: Match.anyValue() } } },
    });
  });

  test('results.retention sets the recorder TTL', () => {
    const { template } = build({ results: { retention: Duration.days(2) } });
    template().hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ [ASYNC_ENV.JOB_RETENTION_SECONDS]: '172800' }) },
    });
  });

  test('a given key and role are used', () => {
    const app = new App();
    const stack = new Stack(app, 'Test', { env: ENV });
    const key = new kms.Key(stack, 'MyKey', { enableKeyRotation: true });
    const role = new iam.Role(stack, 'MyRole', { assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com') });
    const endpoint = new AsyncEndpoint(stack, 'Async', { model: MODEL, instanceType: InstanceType.ML_M5_XLARGE, encryptionKey: key, role });
    const template = Template.fromStack(stack);
    // The given key, and the result queues' own key (its policy names the topics, so it cannot be the topics' key).
    expect(Object.keys(template.findResources('AWS::KMS::Key'))).toEqual([
      stack.getLogicalId(key.node.defaultChild as kms.CfnKey),
      stack.getLogicalId(endpoint.node.findChild('Results').node.findChild('QueueKey').node.defaultChild as kms.CfnKey),
    ]);
    expect(endpoint.encryptionKey).toBe(key);
    template.allResourcesProperties('AWS::SNS::Topic', { KmsMasterKeyId: stack.resolve(key.keyArn) });
    template.hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: Match.stringLikeRegexp('MyRole') }],
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Action: 'sns:Publish' })]) },
    });
  });

  test('the topics and the result queues use different keys: no key -> topic -> key cycle under restrictSqsDescryption', () => {
    // GIVEN the flag `cdk init` writes: the queue key's policy names the topics that may use it
    const app = new App({ context: { '@aws-cdk/aws-sns-subscriptions:restrictSqsDescryption': true } });
    const stack = new Stack(app, 'Test', { env: ENV });
    // WHEN
    const endpoint = new AsyncEndpoint(stack, 'Async', { model: MODEL, instanceType: InstanceType.ML_M5_XLARGE });
    const template = Template.fromStack(stack);
    // THEN the topics are under the endpoint's key, the queues under the other one, whose policy names the topics
    const queueKey = endpoint.node.findChild('Results').node.findChild('QueueKey') as kms.Key;
    template.allResourcesProperties('AWS::SNS::Topic', { KmsMasterKeyId: stack.resolve(endpoint.encryptionKey!.keyArn) });
    template.allResourcesProperties('AWS::SQS::Queue', { KmsMasterKeyId: stack.resolve(queueKey.keyArn) });
    template.hasResource('AWS::KMS::Key', {
      Properties: {
        KeyPolicy: {
          Statement: Match.arrayWith([Match.objectLike({
            Principal: { Service: 'sns.amazonaws.com' },
            Condition: { ArnEquals: { 'aws:SourceArn': stack.resolve(endpoint.successTopic.topicArn) } },
          })]),
        },
      },
    });
    const endpointKeyPolicy = JSON.stringify(stack.resolve((endpoint.encryptionKey!.node.defaultChild as kms.CfnKey).keyPolicy));
    expect(endpointKeyPolicy).not.toContain('sns.amazonaws.com');
  });

  test('endpointName is used and the ARN is lowercase', () => {
    const { stack, endpoint, template } = build({ endpointName: 'MCP-Doc-Async' });
    template().hasResourceProperties('AWS::SageMaker::Endpoint', { EndpointName: 'MCP-Doc-Async' });
    expect(stack.resolve(endpoint.endpointArn)).toEqual({
      'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':sagemaker:us-east-1:123456789012:endpoint/mcp-doc-async']],
    });
  });

  test('alarms.oldestRequestAgeThreshold adds an alarm on ApproximateAgeOfOldestRequest', () => {
    const { endpoint, template } = build({ alarms: { oldestRequestAgeThreshold: Duration.minutes(15) } });
    template().hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateAgeOfOldestRequest',
      Namespace: 'AWS/SageMaker',
      Statistic: 'Maximum',
      Threshold: 900,
      ComparisonOperator: 'GreaterThanThreshold',
      Period: 60,
    });
    expect(endpoint.oldestRequestAgeAlarm).toBeDefined();
  });
});

describe('autoscaling', () => {
  test('target tracking on ApproximateBacklogSizePerInstance with asymmetric cooldowns (min 1 by default)', () => {
    const { template, endpoint } = build({ autoScaling: {} });
    template().hasResourceProperties('AWS::ApplicationAutoScaling::ScalableTarget', {
      ServiceNamespace: 'sagemaker',
      ScalableDimension: 'sagemaker:variant:DesiredInstanceCount',
      ResourceId: { 'Fn::Join': ['', ['endpoint/', { 'Fn::GetAtt': [Match.anyValue(), 'EndpointName'] }, '/variant/AllTraffic']] },
      MinCapacity: 1,
      MaxCapacity: 8,
    });
    template().hasResourceProperties('AWS::ApplicationAutoScaling::ScalingPolicy', {
      PolicyType: 'TargetTrackingScaling',
      TargetTrackingScalingPolicyConfiguration: {
        TargetValue: 5,
        ScaleOutCooldown: 60,
        ScaleInCooldown: 300,
        CustomizedMetricSpecification: {
          MetricName: 'ApproximateBacklogSizePerInstance',
          Namespace: 'AWS/SageMaker',
          Statistic: 'Average',
          Dimensions: [{ Name: 'EndpointName', Value: { 'Fn::GetAtt': [Match.anyValue(), 'EndpointName'] } }],
        },
      },
    });
    template().resourcePropertiesCountIs('AWS::ApplicationAutoScaling::ScalingPolicy', { PolicyType: 'StepScaling' }, 0);
    expect(endpoint.scaleFromZeroAlarm).toBeUndefined();
  });

  test('minCapacity 0 adds the scale-from-zero recipe exactly as documented', () => {
    const { template, endpoint } = build({ autoScaling: { minCapacity: 0, maxCapacity: 2 } });
    template().hasResourceProperties('AWS::ApplicationAutoScaling::ScalableTarget', { MinCapacity: 0, MaxCapacity: 2 });
    template().hasResourceProperties('AWS::ApplicationAutoScaling::ScalingPolicy', {
      PolicyName: 'HasBacklogWithoutCapacity-ScalingPolicy',
      PolicyType: 'StepScaling',
      StepScalingPolicyConfiguration: {
        AdjustmentType: 'ChangeInCapacity',
        MetricAggregationType: 'Average',
        Cooldown: 300,
        StepAdjustments: [{ MetricIntervalLowerBound: 0, ScalingAdjustment: 1 }],
      },
    });
    const policies = template().findResources('AWS::ApplicationAutoScaling::ScalingPolicy', { Properties: { PolicyType: 'StepScaling' } });
    template().hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'HasBacklogWithoutCapacity',
      Namespace: 'AWS/SageMaker',
      Statistic: 'Average',
      EvaluationPeriods: 2,
      DatapointsToAlarm: 2,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'missing',
      Period: 60,
      Dimensions: [{ Name: 'EndpointName', Value: Match.anyValue() }],
      AlarmActions: [{ Ref: Object.keys(policies)[0] }],
    });
    expect(endpoint.scaleFromZeroAlarm).toBeDefined();
  });

  test('symmetric cooldowns warn', () => {
    const { stack } = build({ autoScaling: { scaleOutCooldown: Duration.minutes(5), scaleInCooldown: Duration.minutes(5) } });
    Annotations.fromStack(stack).hasWarning('/Test/Async', Match.stringLikeRegexp('scaleOutCooldown'));
  });
});

describe('validation', () => {
  const fails = (props: Partial<AsyncEndpointProps>) => () => build(props);

  test('fails if the concurrency per instance is 0', () => {
    expect(fails({ invocation: { maxConcurrentInvocationsPerInstance: 0 } }))
      .toThrow(/invocation\.maxConcurrentInvocationsPerInstance: got 0, expected an integer between 1 and 1000/);
  });
  test('fails if the concurrency per instance is above 1000', () => {
    expect(fails({ invocation: { maxConcurrentInvocationsPerInstance: 1001 } }))
      .toThrow(/invocation\.maxConcurrentInvocationsPerInstance: got 1001, expected an integer between 1 and 1000/);
  });
  test('fails if the request TTL is less than twice the invocation timeout (names both values)', () => {
    expect(fails({ invocation: { invocationTimeout: Duration.minutes(5), requestTtl: Duration.minutes(8) } }))
      .toThrow(/invocation\.requestTtl: got 480 with invocation\.invocationTimeout 300, expected at least 2 x 300 = 600 seconds/);
  });
  test('fails if the default request TTL is less than twice a long invocation timeout', () => {
    expect(fails({ invocation: { invocationTimeout: Duration.minutes(40) } }))
      .toThrow(/invocation\.requestTtl: got 3600 with invocation\.invocationTimeout 2400, expected at least 2 x 2400 = 4800/);
  });
  test('fails if the invocation timeout is above 3600 seconds', () => {
    expect(fails({ invocation: { invocationTimeout: Duration.seconds(3601), requestTtl: Duration.hours(6) } }))
      .toThrow(/invocation\.invocationTimeout: got 3601, expected an integer between 1 and 3600 seconds/);
  });
  test('fails if the invocation timeout is not whole seconds', () => {
    expect(fails({ invocation: { invocationTimeout: Duration.millis(1500) } })).toThrow(/invocation\.invocationTimeout: got 1.5, expected an integer between 1 and 3600/);
  });
  test('fails if the request TTL is below 60 seconds', () => {
    expect(fails({ invocation: { invocationTimeout: Duration.seconds(10), requestTtl: Duration.seconds(59) } }))
      .toThrow(/invocation\.requestTtl: got 59, expected an integer between 60 and 21600 seconds/);
  });
  test('fails if the request TTL is above 21600 seconds', () => {
    expect(fails({ invocation: { requestTtl: Duration.hours(7) } })).toThrow(/invocation\.requestTtl: got 25200, expected an integer between 60 and 21600 seconds/);
  });
  test('fails if a prefix does not end with a slash', () => {
    expect(fails({ storage: { inputPrefix: 'inputs' } })).toThrow(/storage\.inputPrefix: got 'inputs', expected a key prefix of safe characters ending with '\/'/);
  });
  test('fails if a prefix starts with a slash', () => {
    expect(fails({ storage: { outputPrefix: '/outputs/' } })).toThrow(/storage\.outputPrefix: got '\/outputs\/', expected a key prefix/);
  });
  test('fails if prefixes overlap', () => {
    expect(fails({ storage: { inputPrefix: 'jobs/', outputPrefix: 'jobs/out/' } }))
      .toThrow(/storage\.outputPrefix: got 'jobs\/out\/', expected a prefix that does not overlap storage\.inputPrefix \('jobs\/'\)/);
  });
  test('fails if an expiration is not whole days', () => {
    expect(fails({ storage: { outputExpiration: Duration.hours(36) } }))
      .toThrow(/storage\.outputExpiration: got '1 day 12 hours', expected a whole number of days, at least 1/);
  });
  test('fails if the results retention is shorter than a day', () => {
    expect(fails({ results: { retention: Duration.hours(1) } })).toThrow(/results\.retention: got '1 hour', expected a whole number of days, at least 1/);
  });
  test('fails if autoScaling.maxCapacity is below minCapacity', () => {
    expect(fails({ autoScaling: { minCapacity: 3, maxCapacity: 2 } })).toThrow(/autoScaling.maxCapacity: got 2, expected at least minCapacity \(3\)/);
  });
  test('fails if autoScaling.minCapacity is negative', () => {
    expect(fails({ autoScaling: { minCapacity: -1 } })).toThrow(/autoScaling.minCapacity: got -1, expected an integer >= 0/);
  });
  test('fails if autoScaling.targetBacklogPerInstance is not positive', () => {
    expect(fails({ autoScaling: { targetBacklogPerInstance: 0 } })).toThrow(/autoScaling.targetBacklogPerInstance: got 0, expected a number > 0/);
  });
  test('fails if endpointName is invalid', () => {
    expect(fails({ endpointName: 'bad_name' })).toThrow(/endpointName: got 'bad_name', expected 1-63 letters/);
  });
  test('fails if a topic is listed twice in the notifications\' inline responses', () => {
    expect(fails({ notifications: { includeInferenceResponseIn: [AsyncNotificationTopic.ERROR, AsyncNotificationTopic.ERROR] } }))
      .toThrow(/notifications\.includeInferenceResponseIn: got \["ERROR_NOTIFICATION_TOPIC","ERROR_NOTIFICATION_TOPIC"\], expected each topic at most once/);
  });
  test('fails if the oldest-request threshold is zero', () => {
    expect(fails({ alarms: { oldestRequestAgeThreshold: Duration.seconds(0) } }))
      .toThrow(/alarms\.oldestRequestAgeThreshold: got '0 seconds', expected a duration > 0/);
  });
  test('fails if an imported endpoint\'s prefixes overlap, naming the attribute (attributes are flat)', () => {
    const stack = new Stack(new App(), 'Test', { env: ENV });
    const bucket = s3.Bucket.fromBucketName(stack, 'Io', 'existing-io');
    expect(() => AsyncEndpoint.fromAsyncEndpointAttributes(stack, 'Imported', { endpointName: 'doc-async', bucket, inputPrefix: 'jobs/', outputPrefix: 'jobs/out/' }))
      .toThrow(/imported AsyncEndpoint 'Imported'[\s\S]*- outputPrefix: got 'jobs\/out\/', expected a prefix that does not overlap inputPrefix/);
  });
  test('fails with every problem at once', () => {
    expect(fails({ invocation: { maxConcurrentInvocationsPerInstance: 0, requestTtl: Duration.seconds(30) }, storage: { inputPrefix: 'x' } }))
      .toThrow(/3 problems[\s\S]*invocation\.maxConcurrentInvocationsPerInstance[\s\S]*invocation\.requestTtl[\s\S]*storage\.inputPrefix/);
  });
});

describe('grants', () => {
  test('grantSubmit: InvokeEndpointAsync on the endpoint, PutObject on the input prefix, GenerateDataKey on the key', () => {
    const { stack, endpoint } = build({ endpointName: 'doc-async' });
    const user = new iam.Role(stack, 'Tool', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    endpoint.grantSubmit(user);
    Template.fromStack(stack).hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: Match.stringLikeRegexp('Tool') }],
      PolicyDocument: {
        Statement: [
          { Action: 'sagemaker:InvokeEndpointAsync', Effect: 'Allow', Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':sagemaker:us-east-1:123456789012:endpoint/doc-async']] } },
          { Action: 's3:PutObject', Effect: 'Allow', Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [Match.stringLikeRegexp('AsyncBucket'), 'Arn'] }, '/inputs/*']] } },
          { Action: 'kms:GenerateDataKey', Effect: 'Allow', Resource: { 'Fn::GetAtt': [Match.stringLikeRegexp('AsyncKey'), 'Arn'] } },
        ],
      },
    });
  });

  test('grantReadResults: GetItem on the job table, GetObject and prefix-limited ListBucket on outputs and failures, Decrypt on the key', () => {
    const { stack, endpoint } = build();
    const user = new iam.Role(stack, 'Tool', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    endpoint.grantReadResults(user);
    const bucketArn = { 'Fn::GetAtt': [Match.stringLikeRegexp('AsyncBucket'), 'Arn'] };
    Template.fromStack(stack).hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: Match.stringLikeRegexp('Tool') }],
      PolicyDocument: {
        Statement: [
          { Action: 's3:GetObject', Effect: 'Allow', Resource: [{ 'Fn::Join': ['', [bucketArn, '/outputs/*']] }, { 'Fn::Join': ['', [bucketArn, '/failures/*']] }] },
          // without ListBucket, S3 answers GetObject on a pending job's missing output with 403 instead of 404
          { Action: 's3:ListBucket', Effect: 'Allow', Resource: bucketArn, Condition: { StringLike: { 's3:prefix': ['outputs/*', 'failures/*'] } } },
          { Action: 'kms:Decrypt', Effect: 'Allow', Resource: { 'Fn::GetAtt': [Match.stringLikeRegexp('AsyncKey'), 'Arn'] } },
          { Action: 'dynamodb:GetItem', Effect: 'Allow', Resource: [{ 'Fn::GetAtt': [Match.stringLikeRegexp('JobTable'), 'Arn'] }] },
        ],
      },
    });
  });

  test('bindToFunction sets the runtime env and grants both', () => {
    const { stack, endpoint } = build();
    const fn = new lambda.Function(stack, 'ToolFn', { runtime: lambda.Runtime.NODEJS_22_X, handler: 'index.handler', code: lambda.Code.fromInline('exports.handler=async()=>1') });
    endpoint.bindToFunction(fn);
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::Lambda::Function', {
      Handler: 'index.handler',
      Environment: {
        Variables: Match.objectLike({
          [ASYNC_ENV.ENDPOINT_NAME]: Match.anyValue(), [ASYNC_ENV.JOB_TABLE_NAME]: Match.anyValue(), [ASYNC_ENV.INPUT_BUCKET]: Match.anyValue(),
        }),
      },
    });
    const actions = statementsOf(template).map((s) => s.Action);
    expect(actions).toEqual(expect.arrayContaining(['sagemaker:InvokeEndpointAsync', 's3:PutObject', 's3:GetObject', 'dynamodb:GetItem']));
  });

  test('an imported endpoint grants on its lowercase ARN, its prefixes and its table', () => {
    const app = new App();
    const stack = new Stack(app, 'Test', { env: ENV });
    const table = dynamodb.Table.fromTableName(stack, 'Jobs', 'async-jobs');
    const imported = AsyncEndpoint.fromAsyncEndpointAttributes(stack, 'Imported', {
      endpointName: 'Doc-Async', bucket: s3.Bucket.fromBucketName(stack, 'Io', 'my-io'), inputPrefix: 'in/', jobTable: table,
    });
    const user = new iam.Role(stack, 'Tool', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    imported.grantSubmit(user);
    imported.grantReadResults(user);
    const statements = statementsOf(Template.fromStack(stack));
    expect(stack.resolve(statements[0].Resource)).toEqual({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':sagemaker:us-east-1:123456789012:endpoint/doc-async']] });
    expect(JSON.stringify(statements)).toContain('my-io/in/*');
    expect(JSON.stringify(statements)).toContain('dynamodb:GetItem');
    expect(stack.resolve(imported.runtimeEnvironment)).toMatchObject({
      [ASYNC_ENV.ENDPOINT_NAME]: 'Doc-Async', [ASYNC_ENV.INPUT_BUCKET]: 'my-io', [ASYNC_ENV.INPUT_PREFIX]: 'in/', [ASYNC_ENV.JOB_TABLE_NAME]: 'async-jobs',
    });
  });

  test('fromEndpointName and fromEndpointArn import by name (exact case) or ARN, with invoke grants and variant metrics', () => {
    const stack = new Stack(new App(), 'Test', { env: ENV });
    const byName = AsyncEndpoint.fromEndpointName(stack, 'ByName', 'Doc-Async');
    const byArn = AsyncEndpoint.fromEndpointArn(stack, 'ByArn', 'arn:aws:sagemaker:us-east-1:123456789012:endpoint/Doc-Async');
    expect(byName.endpointName).toBe('Doc-Async');
    expect(stack.resolve(byName.endpointArn)).toEqual({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':sagemaker:us-east-1:123456789012:endpoint/doc-async']] });
    expect(byArn.endpointArn).toBe('arn:aws:sagemaker:us-east-1:123456789012:endpoint/doc-async');
    expect(byName.metricInvocationFailures().dimensions).toEqual({ EndpointName: 'Doc-Async', VariantName: 'AllTraffic' });
  });

  test('fromEndpointName and fromEndpointArn return an IAsyncEndpoint: backlog metrics work, bucket-bound members name the import to use', () => {
    const stack = new Stack(new App(), 'Test', { env: ENV });
    const byName: IAsyncEndpoint = AsyncEndpoint.fromEndpointName(stack, 'ByName', 'Doc-Async');
    const byArn: IAsyncEndpoint = AsyncEndpoint.fromEndpointArn(stack, 'ByArn', 'arn:aws:sagemaker:us-east-1:123456789012:endpoint/Doc-Async');
    expect(byName.metricApproximateBacklogSize().dimensions).toEqual({ EndpointName: 'Doc-Async' });
    expect(byArn.metricApproximateBacklogSize().dimensions).toEqual({ EndpointName: 'Doc-Async' });
    expect([byName.bucket, byName.inputPrefix, byName.outputPrefix]).toEqual([undefined, 'inputs/', 'outputs/']);
    const user = new iam.User(stack, 'User');
    const refusal = /AsyncEndpoint 'Test\/ByName'\.grantSubmit: got an endpoint imported by name or ARN \(no bucket known\), expected one with its bucket and prefixes: import it with AsyncEndpoint\.fromAsyncEndpointAttributes/;
    expect(() => byName.grantSubmit(user)).toThrow(refusal);
    expect(() => byArn.grantReadResults(user)).toThrow(/ByArn'\.grantReadResults: got an endpoint imported by name or ARN/);
    expect(() => byName.runtimeEnvironment).toThrow(/ByName'\.runtimeEnvironment: got an endpoint imported by name or ARN/);
    expect(() => AsyncEndpoint.fromEndpointArn(stack, 'Bad', 'arn:aws:s3:::bucket')).toThrow(/endpointArn: got 'arn:aws:s3:::bucket', expected an endpoint ARN/);
  });

  test('exposes its L1s: cfnEndpoint, cfnEndpointConfig, and cfnModel (none for an existing model)', () => {
    const { stack, endpoint } = build();
    expect(stack.resolve(endpoint.cfnEndpoint.endpointConfigName)).toEqual(stack.resolve(endpoint.cfnEndpointConfig.attrEndpointConfigName));
    expect(stack.resolve(endpoint.cfnModel!.executionRoleArn)).toEqual(stack.resolve(endpoint.role.roleArn));
    const existing = build({ model: ModelSource.fromModelName('my-model') }).endpoint;
    expect(existing.cfnModel).toBeUndefined();
  });

  test('fails if an imported endpoint has overlapping prefixes', () => {
    const stack = new Stack(new App(), 'Test', { env: ENV });
    expect(() => AsyncEndpoint.fromAsyncEndpointAttributes(stack, 'I', {
      endpointName: 'x', bucket: s3.Bucket.fromBucketName(stack, 'Io', 'my-io'), inputPrefix: 'outputs/',
    })).toThrow(/outputPrefix: got 'outputs\/', expected a prefix that does not overlap inputPrefix/);
  });
});

describe('metrics', () => {
  const { stack, endpoint } = build({ endpointName: 'doc-async' });
  const resolved = (m: any) => ({ ...stack.resolve(m.toMetricConfig().metricStat), account: undefined, region: undefined });

  test.each([
    ['metricApproximateBacklogSize', 'ApproximateBacklogSize', 'Average'],
    ['metricApproximateBacklogSizePerInstance', 'ApproximateBacklogSizePerInstance', 'Average'],
    ['metricApproximateAgeOfOldestRequest', 'ApproximateAgeOfOldestRequest', 'Maximum'],
    ['metricHasBacklogWithoutCapacity', 'HasBacklogWithoutCapacity', 'Average'],
  ] as const)('%s: AWS/SageMaker %s, EndpointName only, %s', (method, metricName, statistic) => {
    const m = resolved(endpoint[method]());
    expect(m).toMatchObject({ namespace: 'AWS/SageMaker', metricName, statistic });
    expect(m.dimensions).toEqual([{ name: 'EndpointName', value: { 'Fn::GetAtt': [expect.any(String), 'EndpointName'] } }]);
  });

  // AWS's per-variant async metrics (https://docs.aws.amazon.com/sagemaker/latest/dg/async-inference-monitor.html),
  // InvocationsProcesssed spelled as that page spells it.
  test.each([
    ['metricInvocationFailures', 'InvocationFailures', 'Sum'],
    ['metricInvocationsProcessed', 'InvocationsProcesssed', 'Sum'],
    ['metricExpiredRequests', 'ExpiredRequests', 'Sum'],
    ['metricRequestDownloadFailures', 'RequestDownloadFailures', 'Sum'],
    ['metricResponseUploadFailures', 'ResponseUploadFailures', 'Sum'],
    ['metricNotificationFailures', 'NotificationFailures', 'Sum'],
    ['metricTimeInBacklog', 'TimeInBacklog', 'Average'],
    ['metricTotalProcessingTime', 'TotalProcessingTime', 'Average'],
  ] as const)('%s: AWS/SageMaker %s per variant, %s', (method, metricName, statistic) => {
    const m = resolved(endpoint[method]());
    expect(m).toMatchObject({ namespace: 'AWS/SageMaker', metricName, statistic });
    expect(m.dimensions.map((d: any) => d.name).sort()).toEqual(['EndpointName', 'VariantName']);
  });

  test.each([
    ['metricInvocations', 'Invocations', 'metricInvocationsProcessed'],
    ['metricInvocationsPerInstance', 'InvocationsPerInstance', 'metricApproximateBacklogSizePerInstance'],
    ['metricOverheadLatency', 'OverheadLatency', 'metricTotalProcessingTime'],
  ] as const)('fails if %s is asked for: SageMaker does not publish %s for an async endpoint', (method, metricName, instead) => {
    const imported = AsyncEndpoint.fromEndpointName(stack, `Imported${method}`, 'doc-async');
    for (const e of [endpoint, imported]) {
      expect(() => e[method]()).toThrow(new RegExp(`\\.${method}: got a request for '${metricName}', which SageMaker does not publish for an async endpoint `
        + `\\(https://docs\\.aws\\.amazon\\.com/sagemaker/latest/dg/async-inference-monitor\\.html\\), expected ${instead}\\(\\)`));
    }
  });
});
