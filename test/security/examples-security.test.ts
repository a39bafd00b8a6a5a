/**
 * Security review of every example: each `add*Example` function of `examples/*.ts` is synthesized in its own Stack
 * (env 123456789012 / us-east-1; the MCP example together with the examples it exposes) and its template must have
 * no account-wide data-plane grants, encryption at rest on every store, TLS-only resource policies, and a clean
 * cdk-nag AwsSolutions report whose every acknowledgement carries a reason. Each rule is also shown to fail on a raw
 * L1 resource that breaks it.
 */
import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import { App, CfnResource, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import {
  acknowledgements,
  acknowledgementsWithoutReason,
  identityStatements,
  isAccountWide,
  render,
  storesWithoutTlsOnly,
  unencryptedStores,
  wildcardDataPlaneGrants,
} from './checks';
import { AsyncEndpoint } from '../../src/async';
import { ContainerImage, InstanceType, ModelSource } from '../../src/core';
import { RealtimeEndpoint } from '../../src/realtime';
import { nagReport } from '../support/nag-checks';

const ENV = { account: '123456789012', region: 'us-east-1' };
const EXAMPLES_DIR = join(__dirname, '..', '..', 'examples');

type ExampleFn = (stack: Stack, ...rest: any[]) => unknown;

/** Every exported `add*Example` function, by name. `app.ts` and `demo.ts` are apps, not examples (demo.ts runs on import). */
function discoverExamples(): Map<string, ExampleFn> {
  const found = new Map<string, ExampleFn>();
  for (const file of readdirSync(EXAMPLES_DIR).filter((f) => f.endsWith('.ts') && !['app.ts', 'demo.ts'].includes(f))) {
    if (!/export function add\w+Example\b/.test(readFileSync(join(EXAMPLES_DIR, file), 'utf8'))) continue;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require(join(EXAMPLES_DIR, file));
    for (const [name, value] of Object.entries(mod)) {
      if (/^add\w+Example$/.test(name) && typeof value === 'function') found.set(name, value as ExampleFn);
    }
  }
  return found;
}

const examples = discoverExamples();

/** Builds one example in its own app and stack; examples that expose others get those in the same stack. */
function buildExample(name: string): { app: App; stack: Stack } {
  const app = new App({ context: { 'aws:cdk:disable-creation-stack-traces': true } });
  const stack = new Stack(app, name.replace(/^add/, ''), { env: ENV });
  const fn = examples.get(name)!;
  if (name === 'addMcpExample' || name === 'addDashboardExample') {
    const call = (n: string) => examples.get(n)!(stack);
    const exposed = {
      realtime: call('addRealtimeExample'),
      async: call('addAsyncExample'),
      sharedGpu: call('addSharedGpuExample'),
      featureGroup: call('addFeatureStoreExample'),
      pipelines: call('addPipelinesExample'),
    };
    // The dashboard example graphs the MCP example's server and what it exposes.
    if (name === 'addMcpExample') fn(stack, exposed);
    else fn(stack, exposed, examples.get('addMcpExample')!(stack, exposed));
  } else if (fn.length === 1) {
    fn(stack);
  } else {
    throw new Error(`${name} takes ${fn.length} arguments: wire its inputs in buildExample`);
  }
  return { app, stack };
}

const names = [...examples.keys()].sort();
const STORE_TYPES = ['AWS::S3::Bucket', 'AWS::DynamoDB::Table', 'AWS::SQS::Queue', 'AWS::SNS::Topic', 'AWS::SageMaker::FeatureGroup', 'AWS::SageMaker::EndpointConfig'];
const reviewed = new Map<string, { statements: number; dataPlane: number; stores: number }>();

test('the examples are discovered', () => {
  expect(names).toEqual(expect.arrayContaining([
    'addAsyncExample', 'addFeatureStoreExample', 'addPipelinesExample', 'addRealtimeExample', 'addSharedGpuExample',
  ]));
});

describe.each(names)('%s', (name) => {
  let app: App;
  let stack: Stack;
  let template: any;
  let nag: ReturnType<typeof nagReport>;
  beforeAll(() => {
    ({ app, stack } = buildExample(name));
    nag = nagReport(app);
    template = Template.fromStack(stack).toJSON();
  });

  test('no IAM statement allows sagemaker/s3/dynamodb/sns/sqs actions on an account-wide resource', () => {
    expect(wildcardDataPlaneGrants(template)).toEqual([]);
  });

  test('every store is encrypted at rest with KMS', () => {
    expect(unencryptedStores(template)).toEqual([]);
  });

  test('every bucket, queue and topic has a TLS-only resource policy', () => {
    expect(storesWithoutTlsOnly(template)).toEqual([]);
  });

  test('cdk-nag AwsSolutions is clean', () => {
    expect(nag.findings.map((f) => `${f.ruleId} at ${f.constructPath}`)).toEqual([]);
  });

  test('every acknowledgement has a reason', () => {
    expect(acknowledgementsWithoutReason(stack)).toEqual([]);
  });

  test('the review looked at something (not vacuous)', () => {
    const statements = identityStatements(template.Resources);
    const dataPlane = statements.filter(({ statement }) => [].concat(statement.Action ?? []).some((a: string) => /^(sagemaker|s3|dynamodb|sns|sqs):/.test(a)));
    const stores = Object.values<any>(template.Resources).filter((r) => STORE_TYPES.includes(r.Type)).length;
    // Type-wide grants (e.g. training-job/* for jobs SageMaker Pipelines names at run time) are allowed when
    // acknowledged; they are listed so the reviewer sees them.
    const typeWide = dataPlane.flatMap(({ statement }) => [].concat(statement.Resource ?? []).map(render).filter((r) => /\/\*$/.test(r) && !/\{/.test(r.split('/')[0])));
    reviewed.set(name, { statements: statements.length, dataPlane: dataPlane.length, stores });
    // eslint-disable-next-line no-console
    console.log(`[security] ${name}: ${Object.keys(template.Resources).length} resources, ${statements.length} IAM statements `
      + `(${dataPlane.length} on sagemaker/s3/dynamodb/sns/sqs, none account-wide${typeWide.length ? `; scoped wildcards: ${typeWide.join(', ')}` : ''}), ${stores} stores checked for KMS, `
      + `${acknowledgements(stack).length} cdk-nag acknowledgements, each with a reason`);
    expect(statements.length).toBeGreaterThan(0);
  });
});

test('across the examples, data-plane grants and stores were reviewed', () => {
  const totals = [...reviewed.values()].reduce(
    (t, r) => ({ dataPlane: t.dataPlane + r.dataPlane, stores: t.stores + r.stores }),
    { dataPlane: 0, stores: 0 },
  );
  expect(reviewed.size).toBe(names.length);
  expect(totals.dataPlane).toBeGreaterThan(10);
  expect(totals.stores).toBeGreaterThan(5);
});

describe('each rule can fail (raw L1 resources that break it)', () => {
  const fresh = () => new Stack(new App(), 'Negative', { env: ENV });

  test('render resolves Fn::Join and Fn::Sub far enough to see a wildcard', () => {
    expect(render({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':s3:::*']] })).toBe('arn:aws:s3:::*');
    expect(render({ 'Fn::Sub': 'arn:${AWS::Partition}:sqs:us-east-1:${AWS::AccountId}:*' })).toBe('arn:aws:sqs:us-east-1:{Ref AWS.AccountId}:*');
    expect(isAccountWide('arn:aws:sagemaker:us-east-1:123456789012:endpoint/chat')).toBe(false);
    expect(isAccountWide(render({ 'Fn::Join': ['', [{ 'Fn::GetAtt': ['Bucket', 'Arn'] }, '/*']] }))).toBe(false);
  });

  test('wildcard data-plane grants are found, in managed policies and inline role policies', () => {
    // GIVEN
    const stack = fresh();
    new iam.CfnPolicy(stack, 'Wide', {
      policyName: 'wide',
      roles: ['r'],
      policyDocument: {
        Version: '2012-10-17',
        Statement: [
          { Effect: 'Allow', Action: 'sagemaker:InvokeEndpoint', Resource: '*' },
          { Effect: 'Allow', Action: ['s3:GetObject'], Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':s3:::*']] } },
          { Effect: 'Allow', Action: ['sns:Publish'], Resource: 'arn:aws:sns:us-east-1:123456789012:alerts' },
          { Effect: 'Allow', Action: ['ecr:GetAuthorizationToken'], Resource: '*' },
        ],
      },
    });
    new iam.CfnRole(stack, 'Role', {
      assumeRolePolicyDocument: { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }] },
      policies: [{
        policyName: 'inline',
        policyDocument: {
          Version: '2012-10-17',
          Statement: [
            { Effect: 'Allow', Action: 'sqs:SendMessage', Resource: { 'Fn::Sub': 'arn:${AWS::Partition}:sqs:us-east-1:${AWS::AccountId}:*' } },
            { Effect: 'Allow', Action: 'dynamodb:GetItem', Resource: 'arn:aws:dynamodb:*:*:table/jobs' },
            { Effect: 'Allow', NotAction: 'iam:*', Resource: 'arn:aws:s3:::b' },
          ],
        },
      }],
    });
    // WHEN
    const problems = wildcardDataPlaneGrants(Template.fromStack(stack).toJSON());
    // THEN the four wide grants and the NotAction are found; the scoped SNS grant and the non-data ECR call are not
    expect(problems).toEqual([
      'Wide: sagemaker:InvokeEndpoint on *',
      'Wide: s3:GetObject on arn:aws:s3:::*',
      'Role.Policies[inline]: sqs:SendMessage on arn:aws:sqs:us-east-1:{Ref AWS.AccountId}:*',
      'Role.Policies[inline]: dynamodb:GetItem on arn:aws:dynamodb:*:*:table/jobs',
      'Role.Policies[inline]: an Allow with NotAction',
    ]);
  });

  test('unencrypted stores are found; an NVMe endpoint config needs no key and must not have one', () => {
    // GIVEN one store of each kind without encryption
    const stack = fresh();
    new s3.CfnBucket(stack, 'Bucket', { bucketEncryption: { serverSideEncryptionConfiguration: [{ serverSideEncryptionByDefault: { sseAlgorithm: 'AES256' } }] } });
    new dynamodb.CfnTable(stack, 'Table', { keySchema: [{ attributeName: 'id', keyType: 'HASH' }], attributeDefinitions: [{ attributeName: 'id', attributeType: 'S' }], billingMode: 'PAY_PER_REQUEST' });
    new sqs.CfnQueue(stack, 'Queue', {});
    new sns.CfnTopic(stack, 'Topic', {});
    new sagemaker.CfnFeatureGroup(stack, 'Group', {
      featureGroupName: 'g',
      recordIdentifierFeatureName: 'id',
      eventTimeFeatureName: 't',
      featureDefinitions: [{ featureName: 'id', featureType: 'String' }, { featureName: 't', featureType: 'String' }],
      onlineStoreConfig: { EnableOnlineStore: true },
      offlineStoreConfig: { S3StorageConfig: { S3Uri: 's3://b/p' } },
    });
    new sagemaker.CfnEndpointConfig(stack, 'Ebs', { productionVariants: [{ variantName: 'A', modelName: 'm', instanceType: 'ml.m5.large', initialInstanceCount: 1 }] });
    new sagemaker.CfnEndpointConfig(stack, 'Nvme', { productionVariants: [{ variantName: 'A', modelName: 'm', instanceType: 'ml.g5.2xlarge', initialInstanceCount: 1 }] });
    new sagemaker.CfnEndpointConfig(stack, 'Mixed', {
      kmsKeyId: 'alias/endpoints',
      productionVariants: [
        { variantName: 'A', modelName: 'm', instanceType: 'ml.m5.large', initialInstanceCount: 1 },
        { variantName: 'B', modelName: 'm', instanceType: 'ml.g5.2xlarge', initialInstanceCount: 1 },
      ],
    });
    // WHEN
    const problems = unencryptedStores(Template.fromStack(stack).toJSON());
    // THEN
    expect(problems).toEqual([
      'Bucket (S3 bucket): no KMS BucketEncryption',
      'Table (DynamoDB table): SSESpecification is not KMS',
      'Queue (SQS queue): no KmsMasterKeyId',
      'Topic (SNS topic): no KmsMasterKeyId',
      'Group (feature group): online store without SecurityConfig.KmsKeyId',
      'Group (feature group): offline store without S3StorageConfig.KmsKeyId',
      'Ebs (endpoint config): no KmsKeyId on EBS-backed instances',
      'Mixed (endpoint config): KmsKeyId with NVMe instance storage (ml.g5.2xlarge): CreateEndpointConfig fails',
    ]);
  });

  test('stores without a TLS-only policy are found', () => {
    // GIVEN a bucket whose policy only allows, a queue with no policy, and a topic with a proper Deny
    const stack = fresh();
    const bucket = new s3.CfnBucket(stack, 'Bucket', {});
    new s3.CfnBucketPolicy(stack, 'BucketPolicy', {
      bucket: bucket.ref,
      policyDocument: { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { AWS: '123456789012' }, Action: 's3:GetObject', Resource: 'arn:aws:s3:::b/*' }] },
    });
    new sqs.CfnQueue(stack, 'Queue', {});
    const topic = new sns.CfnTopic(stack, 'Topic', {});
    new sns.CfnTopicPolicy(stack, 'TopicPolicy', {
      topics: [topic.ref],
      policyDocument: { Version: '2012-10-17', Statement: [{ Effect: 'Deny', Principal: '*', Action: 'sns:Publish', Resource: topic.ref, Condition: { Bool: { 'aws:SecureTransport': 'false' } } }] },
    });
    // WHEN
    const problems = storesWithoutTlsOnly(Template.fromStack(stack).toJSON());
    // THEN
    expect(problems).toEqual([
      'BucketPolicy: no Deny when aws:SecureTransport is false',
      'Bucket (S3 bucket): no TLS-only resource policy',
      'Queue (SQS queue): no TLS-only resource policy',
    ]);
  });

  test('cdk-nag reports a raw bucket, and an acknowledgement without a reason is found', () => {
    // GIVEN
    const app = new App();
    const stack = new Stack(app, 'Nag', { env: ENV });
    const bucket = new s3.CfnBucket(stack, 'Bucket', {});
    const queue = new sqs.CfnQueue(stack, 'Queue', { kmsMasterKeyId: 'alias/aws/sqs' });
    // What `Validations.of(x).acknowledge` records, with the reason left empty.
    (queue as CfnResource).node.addMetadata('aws:cdk:acknowledged-rules', { 'AwsSolutions-SQS3': '' });
    // WHEN
    const report = nagReport(app);
    // THEN
    expect(report.findings.some((f) => f.ruleId.startsWith('AwsSolutions-S') && f.constructPath.includes(bucket.node.path))).toBe(true);
    expect(acknowledgementsWithoutReason(stack)).toEqual(['AwsSolutions-SQS3 at Nag/Queue: empty reason']);
  });
});

/** Configurations the examples do not exercise. */
describe('endpoint config encryption beyond the examples', () => {
  const cpuModel = () => ModelSource.fromContainer(ContainerImage.fromImageUri('763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-inference:2.1.0-cpu-py310'));
  const endpointConfigProblems = (build: (stack: Stack) => void) => {
    const stack = new Stack(new App(), 'Endpoint', { env: ENV });
    build(stack);
    return unencryptedStores(Template.fromStack(stack).toJSON()).filter((p) => p.includes('endpoint config'));
  };

  test('an AsyncEndpoint on an EBS-backed instance type gets a KmsKeyId by default', () => {
    expect(endpointConfigProblems((s) => new AsyncEndpoint(s, 'Async', { model: cpuModel(), instanceType: InstanceType.ML_M5_XLARGE }))).toEqual([]);
  });

  test('a RealtimeEndpoint on an EBS-backed instance type gets a KmsKeyId by default', () => {
    expect(endpointConfigProblems((s) => new RealtimeEndpoint(s, 'Ep', { model: cpuModel(), instanceType: InstanceType.ML_M5_LARGE }))).toEqual([]);
  });

  // The API refuses KmsKeyId when ANY variant has NVMe storage: an m5 + g5 endpoint with a key would fail to create.
  test('a RealtimeEndpoint mixing EBS and NVMe variants leaves KmsKeyId out', () => {
    expect(endpointConfigProblems((s) => {
      const ep = new RealtimeEndpoint(s, 'Ep', { model: cpuModel(), instanceType: InstanceType.ML_M5_LARGE, encryptionKey: new kms.Key(s, 'Key') });
      ep.addVariant('Gpu', { instanceType: InstanceType.ML_G5_2XLARGE, model: cpuModel() });
    })).toEqual([]);
  });
});
