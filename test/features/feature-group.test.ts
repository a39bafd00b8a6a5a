import { App, Duration, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { MCP_USER_FEATURES } from '../../packages/runtime/test/support/feature-schemas';
import {
  Feature,
  FeatureGroup,
  FeatureGroupProps,
  FeatureGroupThroughput,
  FeatureStoreOperation,
  OfflineStoreTableFormat,
  OnlineStoreStorageType,
} from '../../src/features';
import { expectNagClean } from '../support/nag-checks';
import { templateSnapshot } from '../support/snapshot';
import { expectValidTemplate } from '../support/template-checks';
import { parseFeatureGroupSchema } from 'cdk-sagemaker-mcp-runtime/features';

const ENV = { account: '123456789012', region: 'us-east-1' };
const userId = Feature.text('user_id');
const eventTime = Feature.text('event_time');
const BASE: FeatureGroupProps = {
  featureGroupName: 'mcp-user-features',
  features: [userId, eventTime, Feature.integral('tool_calls_last_7d'), Feature.fractional('error_rate_last_24h')],
  recordIdentifier: userId,
  eventTime,
};

const STACK_ID = 'arn:aws:cloudformation:us-east-1:123456789012:stack/Stack/1c2fa620-982a-11e3-aff7-50e2416294e0';

/** The default table name's suffix: the first group of the stack id's UUID. */
const STACK_SUFFIX = { 'Fn::Select': [0, { 'Fn::Split': ['-', { 'Fn::Select': [2, { 'Fn::Split': ['/', { Ref: 'AWS::StackId' }] }] }] }] };

/** Evaluates the intrinsics a default table name (or a Glue ARN) is made of, for a given stack id. */
function tableNameFor(value: any, stackId: string): any {
  const ev = (v: any): any => {
    if (typeof v === 'string' || typeof v === 'number') return v;
    if (Array.isArray(v)) return v.map(ev);
    if (v.Ref === 'AWS::StackId') return stackId;
    if (v.Ref === 'AWS::Partition') return 'aws';
    if (v['Fn::Join']) return ev(v['Fn::Join'][1]).join(v['Fn::Join'][0]);
    if (v['Fn::Split']) return String(ev(v['Fn::Split'][1])).split(v['Fn::Split'][0]);
    if (v['Fn::Select']) return ev(v['Fn::Select'][1])[v['Fn::Select'][0]];
    throw new Error(`cannot evaluate ${JSON.stringify(v)}`);
  };
  return ev(value);
}

function setup(props: Partial<FeatureGroupProps> = {}) {
  const app = new App();
  const stack = new Stack(app, 'Stack', { env: ENV });
  const group = new FeatureGroup(stack, 'Users', { ...BASE, ...props });
  return { app, stack, group, template: () => Template.fromStack(stack) };
}

function failsWith(props: Partial<FeatureGroupProps>, ...messages: RegExp[]) {
  let error: Error | undefined;
  try {
    setup(props);
  } catch (e) {
    error = e as Error;
  }
  expect(error).toBeDefined();
  for (const m of messages) expect(error!.message).toMatch(m);
}

describe('defaults', () => {
  // The group with the defaults, built once (its template synthesized once): the tests that use it only read it.
  let defaults: ReturnType<typeof setup>;
  beforeAll(() => {
    const built = setup();
    const template = built.template();
    defaults = { ...built, template: () => template };
  });

  test('an online Standard store and an Iceberg offline store, both KMS-encrypted with one rotated key', () => {
    // GIVEN / WHEN
    const { template, group } = defaults;
    // THEN
    const t = template();
    t.resourceCountIs('AWS::KMS::Key', 1);
    t.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
    t.hasResourceProperties('AWS::SageMaker::FeatureGroup', {
      FeatureGroupName: 'mcp-user-features',
      RecordIdentifierFeatureName: 'user_id',
      EventTimeFeatureName: 'event_time',
      FeatureDefinitions: [
        { FeatureName: 'user_id', FeatureType: 'String' },
        { FeatureName: 'event_time', FeatureType: 'String' },
        { FeatureName: 'tool_calls_last_7d', FeatureType: 'Integral' },
        { FeatureName: 'error_rate_last_24h', FeatureType: 'Fractional' },
      ],
      OnlineStoreConfig: { EnableOnlineStore: true, StorageType: 'Standard', SecurityConfig: { KmsKeyId: { 'Fn::GetAtt': [Match.stringLikeRegexp('UsersKey'), 'Arn'] } } },
      OfflineStoreConfig: {
        S3StorageConfig: {
          S3Uri: { 'Fn::Join': ['', ['s3://', { Ref: Match.stringLikeRegexp('UsersOfflineStoreBucket') }, '/feature-store']] },
          KmsKeyId: { 'Fn::GetAtt': [Match.stringLikeRegexp('UsersKey'), 'Arn'] },
        },
        DisableGlueTableCreation: false,
        DataCatalogConfig: { Catalog: 'AwsDataCatalog', Database: 'sagemaker_featurestore', TableName: Match.anyValue() },
        TableFormat: 'Iceberg',
      },
      ThroughputConfig: { ThroughputMode: 'OnDemand' },
      RoleArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('UsersOfflineStoreRole'), 'Arn'] },
    });
    expect(group.offlineStoreDatabaseName).toBe('sagemaker_featurestore');
    expect(tableNameFor(group.stack.resolve(group.offlineStoreTableName), STACK_ID)).toBe('mcp_user_features_1c2fa620');
  });

  test('the default Glue table name cannot meet a table left by an earlier creation of the stack (Glue tables outlive their group)', () => {
    // GIVEN / WHEN
    const { group } = defaults;
    const config = Object.values<any>(Template.fromStack(group.stack).findResources('AWS::SageMaker::FeatureGroup'))[0]
      .Properties.OfflineStoreConfig.DataCatalogConfig;
    // THEN: the same group name, two creations of the stack, two table names; each a valid Glue name
    const first = tableNameFor(config.TableName, STACK_ID);
    const second = tableNameFor(config.TableName, 'arn:aws:cloudformation:us-east-1:123456789012:stack/Test/9d3e5b10-0f1a-11ef-8c7e-0a1b2c3d4e5f');
    expect(first).toBe('mcp_user_features_1c2fa620');
    expect(second).toBe('mcp_user_features_9d3e5b10');
    for (const name of [first, second]) expect(name).toMatch(/^[a-z0-9_]{1,255}$/);
    // The offline store role's Glue grant names the same table.
    const policies = Object.values<any>(Template.fromStack(group.stack).findResources('AWS::IAM::Policy'));
    const glue = policies.flatMap((p) => p.Properties.PolicyDocument.Statement).find((st: any) => [st.Action].flat().includes('glue:UpdateTable'));
    expect([glue.Resource].flat().map((r: any) => tableNameFor(r, STACK_ID)))
      .toContain('arn:aws:glue:us-east-1:123456789012:table/sagemaker_featurestore/mcp_user_features_1c2fa620');
  });

  test('offlineStore.tableName sets the Glue table name as given', () => {
    const { stack, group } = setup({ offlineStore: { tableName: 'users_v1' } });
    Template.fromStack(stack).hasResourceProperties('AWS::SageMaker::FeatureGroup', {
      OfflineStoreConfig: Match.objectLike({ DataCatalogConfig: Match.objectLike({ TableName: 'users_v1' }) }),
    });
    expect(group.offlineStoreTableName).toBe('users_v1');
  });

  test('config keys are CloudFormation PascalCase, never camelCase (the L1 passes `any` through)', () => {
    const fg = Object.values(defaults.template().findResources('AWS::SageMaker::FeatureGroup'))[0] as any;
    const keys = JSON.stringify([fg.Properties.OnlineStoreConfig, fg.Properties.OfflineStoreConfig]).match(/"([A-Za-z]+)":/g)!;
    for (const k of keys) expect(k).toMatch(/^"[A-Z]/);
  });

  test('the created bucket is KMS-encrypted, TLS-only, private and versioned', () => {
    const t = defaults.template();
    t.hasResourceProperties('AWS::S3::Bucket', {
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms' }, BucketKeyEnabled: true }] },
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      VersioningConfiguration: { Status: 'Enabled' },
    });
    t.hasResource('AWS::S3::Bucket', { DeletionPolicy: 'Retain' });
    t.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
  });

  test('the offline-store role has exactly S3 on its prefix, Glue on its table, KMS on its key, and no managed policy', () => {
    const t = defaults.template();
    t.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: { Statement: [{ Action: 'sts:AssumeRole', Principal: { Service: 'sagemaker.amazonaws.com' } }] },
      ManagedPolicyArns: Match.absent(),
    });
    t.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: [
          { Action: ['s3:PutObject', 's3:GetObject', 's3:PutObjectAcl'], Effect: 'Allow', Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [Match.anyValue(), 'Arn'] }, '/feature-store/*']] } },
          { Action: 's3:GetBucketAcl', Effect: 'Allow', Resource: { 'Fn::GetAtt': [Match.anyValue(), 'Arn'] } },
          {
            Action: ['glue:GetTable', 'glue:UpdateTable'],
            Effect: 'Allow',
            Resource: [
              { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':glue:us-east-1:123456789012:catalog']] },
              { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':glue:us-east-1:123456789012:database/sagemaker_featurestore']] },
              { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':glue:us-east-1:123456789012:table/sagemaker_featurestore/mcp_user_features_', STACK_SUFFIX]] },
            ],
          },
          { Action: ['kms:GenerateDataKey', 'kms:Decrypt'], Effect: 'Allow', Resource: { 'Fn::GetAtt': [Match.stringLikeRegexp('UsersKey'), 'Arn'] } },
        ],
      },
    });
  });

  test('the feature group is created after the role and its policy', () => {
    const fg = Object.values(defaults.template().findResources('AWS::SageMaker::FeatureGroup'))[0] as any;
    expect(fg.DependsOn).toEqual(expect.arrayContaining([expect.stringMatching(/^UsersOfflineStoreRoleDefaultPolicy/), expect.stringMatching(/^UsersOfflineStoreRole/)]));
  });

  test('a name is generated when none is given, and the table name follows it', () => {
    const { group, template } = setup({ featureGroupName: undefined });
    expect(group.featureGroupName).toMatch(/^[a-zA-Z0-9]([_-]*[a-zA-Z0-9]){0,63}$/);
    template().hasResourceProperties('AWS::SageMaker::FeatureGroup', {
      OfflineStoreConfig: Match.objectLike({
        DataCatalogConfig: Match.objectLike({
          TableName: { 'Fn::Join': ['', [`${group.featureGroupName.toLowerCase().replace(/-/g, '_')}_`, STACK_SUFFIX]] },
        }),
      }),
    });
  });

  test('the schema for the runtime lists every feature with its declared type', () => {
    const { group, stack } = defaults;
    const schema = parseFeatureGroupSchema(stack.resolve(group.schemaJson));
    expect(schema).toEqual({ ...MCP_USER_FEATURES, onlineStorageType: 'Standard' });
    expect(group.schema).toEqual(schema);
  });

  test('the schema carries the online store type, which decides how the runtime writes some features of a record', () => {
    expect(setup({ onlineStore: { storageType: OnlineStoreStorageType.IN_MEMORY } }).group.schema!.onlineStorageType).toBe('InMemory');
    expect(setup({ onlineStore: { enabled: false } }).group.schema!.onlineStorageType).toBe('None');
  });

  test('snapshot', () => {
    expect(templateSnapshot(defaults.stack)).toMatchSnapshot();
  });

  test('the template passes the CloudFormation schema and API-reference checks, and cdk-nag', () => {
    const { app, stack } = defaults;
    expectValidTemplate(stack);
    expectNagClean(app);
  });
});

describe('options', () => {
  test('InMemory storage with a TTL in the largest whole unit', () => {
    setup({ onlineStore: { storageType: OnlineStoreStorageType.IN_MEMORY, ttl: Duration.days(14) } }).template().hasResourceProperties('AWS::SageMaker::FeatureGroup', {
      OnlineStoreConfig: Match.objectLike({ StorageType: 'InMemory', TtlDuration: { Unit: 'Weeks', Value: 2 } }),
    });
    setup({ onlineStore: { ttl: Duration.seconds(90) } }).template().hasResourceProperties('AWS::SageMaker::FeatureGroup', {
      OnlineStoreConfig: Match.objectLike({ TtlDuration: { Unit: 'Seconds', Value: 90 } }),
    });
    setup({ onlineStore: { ttl: Duration.hours(36) } }).template().hasResourceProperties('AWS::SageMaker::FeatureGroup', {
      OnlineStoreConfig: Match.objectLike({ TtlDuration: { Unit: 'Hours', Value: 36 } }),
    });
  });

  test('separate keys for each store, and a bucket and prefix passed in', () => {
    const app = new App();
    const stack = new Stack(app, 'Stack', { env: ENV });
    const onlineKey = new kms.Key(stack, 'OnlineKey', { enableKeyRotation: true });
    const offlineKey = new kms.Key(stack, 'OfflineKey', { enableKeyRotation: true });
    const bucket = new s3.Bucket(stack, 'Lake', { encryptionKey: offlineKey, enforceSSL: true });
    new FeatureGroup(stack, 'Users', { ...BASE, onlineStore: { encryptionKey: onlineKey }, offlineStore: { bucket, prefix: 'lake/features', encryptionKey: offlineKey } });
    const t = Template.fromStack(stack);
    t.resourceCountIs('AWS::S3::Bucket', 1);
    t.resourceCountIs('AWS::KMS::Key', 2);
    t.hasResourceProperties('AWS::SageMaker::FeatureGroup', {
      OnlineStoreConfig: Match.objectLike({ SecurityConfig: { KmsKeyId: { 'Fn::GetAtt': [Match.stringLikeRegexp('OnlineKey'), 'Arn'] } } }),
      OfflineStoreConfig: Match.objectLike({
        S3StorageConfig: { S3Uri: { 'Fn::Join': ['', ['s3://', { Ref: Match.stringLikeRegexp('Lake') }, '/lake/features']] }, KmsKeyId: { 'Fn::GetAtt': [Match.stringLikeRegexp('OfflineKey'), 'Arn'] } },
      }),
    });
  });

  test('a Glue table format with a Fractional event time, a custom database and table, an existing table', () => {
    const ts = Feature.fractional('ts');
    setup({
      features: [userId, ts],
      eventTime: ts,
      offlineStore: { tableFormat: OfflineStoreTableFormat.GLUE, databaseName: 'ml_features', tableName: 'users_v2', disableGlueTableCreation: true },
    }).template().hasResourceProperties('AWS::SageMaker::FeatureGroup', {
      EventTimeFeatureName: 'ts',
      OfflineStoreConfig: Match.objectLike({ TableFormat: 'Glue', DisableGlueTableCreation: true, DataCatalogConfig: { Catalog: 'AwsDataCatalog', Database: 'ml_features', TableName: 'users_v2' } }),
    });
  });

  test('offline store disabled: no bucket, no role, online only', () => {
    const { template, group } = setup({ offlineStore: { enabled: false } });
    const t = template();
    t.resourceCountIs('AWS::S3::Bucket', 0);
    t.resourceCountIs('AWS::IAM::Role', 0);
    t.hasResourceProperties('AWS::SageMaker::FeatureGroup', { OfflineStoreConfig: Match.absent(), RoleArn: Match.absent() });
    expect(group.offlineStoreTableName).toBeUndefined();
  });

  test('online store disabled: offline only, no online key config', () => {
    setup({ onlineStore: { enabled: false } }).template().hasResourceProperties('AWS::SageMaker::FeatureGroup', {
      OnlineStoreConfig: { EnableOnlineStore: false },
      OfflineStoreConfig: Match.anyValue(),
    });
  });

  test('provisioned throughput with units', () => {
    setup({ throughput: FeatureGroupThroughput.provisioned({ readCapacityUnits: 100, writeCapacityUnits: 50 }) }).template().hasResourceProperties('AWS::SageMaker::FeatureGroup', {
      ThroughputConfig: { ThroughputMode: 'Provisioned', ProvisionedReadCapacityUnits: 100, ProvisionedWriteCapacityUnits: 50 },
    });
  });

  test('a role passed in gets the same statements and no role is created', () => {
    const app = new App();
    const stack = new Stack(app, 'Stack', { env: ENV });
    const role = new iam.Role(stack, 'Mine', { assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com') });
    new FeatureGroup(stack, 'Users', { ...BASE, role, description: 'user behaviour' });
    const t = Template.fromStack(stack);
    t.resourceCountIs('AWS::IAM::Role', 1);
    t.hasResourceProperties('AWS::SageMaker::FeatureGroup', { RoleArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('Mine'), 'Arn'] }, Description: 'user behaviour' });
    t.hasResourceProperties('AWS::IAM::Policy', { Roles: [{ Ref: Match.stringLikeRegexp('Mine') }], PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Action: ['glue:GetTable', 'glue:UpdateTable'] })]) } });
  });

  test('access logs go to the bucket passed in', () => {
    const app = new App();
    const stack = new Stack(app, 'Stack', { env: ENV });
    const logs = new s3.Bucket(stack, 'Logs');
    new FeatureGroup(stack, 'Users', { ...BASE, offlineStore: { serverAccessLogsBucket: logs } });
    Template.fromStack(stack).hasResourceProperties('AWS::S3::Bucket', { LoggingConfiguration: { DestinationBucketName: { Ref: Match.stringLikeRegexp('Logs') }, LogFilePrefix: 'feature-store-offline/' } });
  });

  test('every option together still passes the template checks', () => {
    const ts = Feature.fractional('ts');
    const { stack } = setup({
      features: [userId, ts, Feature.integral('n')],
      eventTime: ts,
      description: 'all options',
      onlineStore: { ttl: Duration.minutes(30) },
      offlineStore: { tableFormat: OfflineStoreTableFormat.GLUE, databaseName: 'ml_features', prefix: 'a/b' },
      throughput: FeatureGroupThroughput.provisioned({ readCapacityUnits: 1, writeCapacityUnits: 1 }),
    });
    expectValidTemplate(stack);
  });
});

describe('validation', () => {
  test('fails if the group name does not match the pattern', () => {
    failsWith({ featureGroupName: 'bad name!' }, /featureGroupName: got 'bad name!', expected 1-64 letters, digits, hyphens or underscores/);
    failsWith({ featureGroupName: 'ends-with-' }, /featureGroupName: got 'ends-with-'/);
  });

  test('fails if the group name is longer than 64 characters', () => {
    failsWith({ featureGroupName: 'a'.repeat(65) }, /featureGroupName: got 'a{65}', expected at most 64 characters/);
  });

  test('fails if a feature name does not match the pattern or is too long', () => {
    const bad = Feature.text('has space');
    const long = Feature.integral('f'.repeat(65));
    failsWith({ features: [...BASE.features, bad, long] }, /features\[4\]\.name: got 'has space'/, /features\[5\]\.name: got 'f{65}', expected at most 64 characters/);
  });

  test('fails if a feature uses a reserved name', () => {
    failsWith({ features: [...BASE.features, Feature.text('is_deleted'), Feature.text('write_time'), Feature.text('api_invocation_time')] },
      /features\[4\]\.name: got 'is_deleted', expected not a reserved name \(is_deleted, write_time, api_invocation_time\)/,
      /features\[5\]\.name: got 'write_time'/, /features\[6\]\.name: got 'api_invocation_time'/);
  });

  test('fails if two features share a name', () => {
    failsWith({ features: [...BASE.features, Feature.integral('user_id')] }, /features\[4\]\.name: got 'user_id', expected a name not used by another feature/);
  });

  test('fails if there are no features or more than 2500', () => {
    failsWith({ features: [] }, /features: got '0 features', expected between 1 and 2500 features/);
    const many = Array.from({ length: 2499 }, (_, i) => Feature.integral(`f${i}`));
    failsWith({ features: [userId, eventTime, ...many] }, /features: got '2501 features', expected between 1 and 2500 features/);
  });

  test('fails if the record identifier or event time is not among the features', () => {
    failsWith({ recordIdentifier: Feature.text('other_id'), eventTime: Feature.text('ts') },
      /recordIdentifier: got 'other_id', expected one of the features \(user_id, event_time, tool_calls_last_7d, error_rate_last_24h\)/,
      /eventTime: got 'ts', expected one of the features/);
  });

  test('fails if the record identifier is declared with another type than passed', () => {
    failsWith({ recordIdentifier: Feature.integral('user_id') }, /recordIdentifier: got 'user_id \(Integral\)', expected the declared type String/);
  });

  test('fails if the event time is Integral', () => {
    const ts = Feature.integral('ts');
    failsWith({ features: [userId, ts], eventTime: ts }, /eventTime: got 'ts \(Integral\)', expected a String or Fractional feature/);
  });

  test('fails if the event time is Fractional with an Iceberg offline store', () => {
    const ts = Feature.fractional('ts');
    failsWith({ features: [userId, ts], eventTime: ts }, /eventTime: got 'ts \(Fractional\)', expected a String feature: an Iceberg offline store accepts String event times only/);
  });

  test('fails if the description is longer than 128 characters', () => {
    failsWith({ description: 'd'.repeat(129) }, /description: got '129 characters', expected at most 128 characters/);
  });

  test('fails if both stores are disabled', () => {
    failsWith({ onlineStore: { enabled: false }, offlineStore: { enabled: false } }, /onlineStore.enabled\/offlineStore.enabled: got 'false\/false', expected at least one store enabled/);
  });

  test('fails if a TTL is set without an online store, or is not whole seconds', () => {
    failsWith({ onlineStore: { enabled: false, ttl: Duration.days(1) } }, /onlineStore.ttl: got '1 day', expected no TTL when the online store is disabled/);
    failsWith({ onlineStore: { ttl: Duration.millis(1500) } }, /onlineStore.ttl: got '1 second 500 millis', expected a whole number of seconds, at least 1 second/);
  });

  test('fails if online options are set with the online store disabled', () => {
    failsWith({ onlineStore: { enabled: false, storageType: OnlineStoreStorageType.IN_MEMORY } }, /onlineStore.storageType: got 'InMemory', expected unset when the online store is disabled/);
  });

  test('fails if offline options are set with the offline store disabled', () => {
    failsWith({ offlineStore: { enabled: false, tableName: 'x', prefix: 'p' } }, /offlineStore.prefix: got 'a value', expected unset when the offline store is disabled/, /offlineStore.tableName: got 'a value'/);
  });

  test('fails if the Glue database or table name is not a Glue name', () => {
    failsWith({ offlineStore: { databaseName: 'My-DB', tableName: 'Users.V2' } },
      /offlineStore.databaseName: got 'My-DB', expected 1-255 lower-case letters, digits or underscores/,
      /offlineStore.tableName: got 'Users.V2', expected 1-255 lower-case letters, digits or underscores/);
  });

  test('fails if the prefix starts or ends with a slash', () => {
    failsWith({ offlineStore: { prefix: '/features/' } }, /offlineStore.prefix: got '\/features\/', expected a key prefix without leading or trailing slash/);
  });

  test('fails if provisioned units are out of range', () => {
    failsWith({ throughput: FeatureGroupThroughput.provisioned({ readCapacityUnits: -1, writeCapacityUnits: 10_000_001 }) },
      /throughput.readCapacityUnits: got -1, expected an integer between 0 and 10000000/,
      /throughput.writeCapacityUnits: got 10000001, expected an integer between 0 and 10000000/);
  });

  test('fails if provisioned throughput is used with an InMemory online store', () => {
    failsWith({
      throughput: FeatureGroupThroughput.provisioned({ readCapacityUnits: 1, writeCapacityUnits: 1 }),
      onlineStore: { storageType: OnlineStoreStorageType.IN_MEMORY },
    },
    /throughput: got 'Provisioned', expected OnDemand with an InMemory online store/);
  });

  test('reports every problem in one error', () => {
    failsWith({ featureGroupName: 'bad name', description: 'd'.repeat(200), features: [userId, eventTime, Feature.text('is_deleted')] }, /3 problems/);
  });
});

describe('grants', () => {
  function withGrantee(props: Partial<FeatureGroupProps> = {}) {
    const s = setup(props);
    const grantee = new iam.Role(s.stack, 'Tool', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    return { ...s, grantee };
  }
  const arn = (name: string) => ({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:sagemaker:us-east-1:123456789012:feature-group/${name}`]] });

  test('grantReadOnline: GetRecord and BatchGetRecord on the group, kms:Decrypt on the online key', () => {
    const { group, grantee, template } = withGrantee();
    group.grantReadOnline(grantee);
    template().hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: Match.stringLikeRegexp('Tool') }],
      PolicyDocument: {
        Statement: [
          { Action: ['sagemaker:GetRecord', 'sagemaker:BatchGetRecord'], Effect: 'Allow', Resource: arn('mcp-user-features') },
          { Action: 'kms:Decrypt', Effect: 'Allow', Resource: { 'Fn::GetAtt': [Match.stringLikeRegexp('UsersKey'), 'Arn'] } },
        ],
      },
    });
  });

  test('grantWriteOnline: PutRecord (which authorizes UpdateRecord calls too) and DeleteRecord on the group', () => {
    const { group, grantee, template } = withGrantee();
    group.grantWriteOnline(grantee);
    template().hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: Match.stringLikeRegexp('Tool') }],
      PolicyDocument: { Statement: Match.arrayWith([{ Action: ['sagemaker:PutRecord', 'sagemaker:DeleteRecord'], Effect: 'Allow', Resource: arn('mcp-user-features') }]) },
    });
  });

  test.each([
    ['grantGetRecord', 'sagemaker:GetRecord'],
    ['grantPutRecord', 'sagemaker:PutRecord'],
  ] as const)('%s: only %s on the group, kms:Decrypt on the online key', (method, action) => {
    // GIVEN
    const { group, grantee, template } = withGrantee();
    // WHEN
    group[method](grantee);
    // THEN: exactly one record action (no BatchGetRecord, no DeleteRecord)
    template().hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: Match.stringLikeRegexp('Tool') }],
      PolicyDocument: {
        Statement: [
          { Action: action, Effect: 'Allow', Resource: arn('mcp-user-features') },
          { Action: 'kms:Decrypt', Effect: 'Allow', Resource: { 'Fn::GetAtt': [Match.stringLikeRegexp('UsersKey'), 'Arn'] } },
        ],
      },
    });
  });

  test('grantUpdateRecord: PutRecord limited to UpdateRecord calls (sagemaker:IsUpdateRecord), IAM having no UpdateRecord action', () => {
    // GIVEN
    const { group, grantee, template } = withGrantee();
    // WHEN
    group.grantUpdateRecord(grantee);
    // THEN
    template().hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: Match.stringLikeRegexp('Tool') }],
      PolicyDocument: {
        Statement: [
          { Action: 'sagemaker:PutRecord', Condition: { Bool: { 'sagemaker:IsUpdateRecord': 'true' } }, Effect: 'Allow', Resource: arn('mcp-user-features') },
          { Action: 'kms:Decrypt', Effect: 'Allow', Resource: { 'Fn::GetAtt': [Match.stringLikeRegexp('UsersKey'), 'Arn'] } },
        ],
      },
    });
  });

  test('grantPutRecord on an imported group without a known online key grants PutRecord only', () => {
    // GIVEN
    const { stack, grantee, template } = withGrantee();
    const imported = FeatureGroup.fromFeatureGroupName(stack, 'Imported', 'orders');
    // WHEN
    imported.grantPutRecord(grantee);
    // THEN
    const statements = Object.values(template().findResources('AWS::IAM::Policy'))
      .filter((p: any) => JSON.stringify(p.Properties.Roles).includes('Tool'))
      .flatMap((p: any) => p.Properties.PolicyDocument.Statement);
    expect(statements).toEqual([{ Action: 'sagemaker:PutRecord', Effect: 'Allow', Resource: arn('orders') }]);
  });

  test('a mixed-case name is granted under both spellings (ARN case unconfirmed)', () => {
    const { group, grantee, template } = withGrantee({ featureGroupName: 'UserFeatures' });
    group.grantReadOnline(grantee);
    template().hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: Match.stringLikeRegexp('Tool') }],
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Resource: [arn('UserFeatures'), arn('userfeatures')] })]) },
    });
  });

  test('grantQueryOffline: Athena workgroup, Glue read on the table, S3 read on the prefix, KMS decrypt, results bucket', () => {
    const { group, grantee, template, stack } = withGrantee();
    const results = new s3.Bucket(stack, 'Results', { encryption: s3.BucketEncryption.KMS });
    group.grantQueryOffline(grantee, { workGroupName: 'features', resultsBucket: results, resultsPrefix: 'q' });
    template().hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: Match.stringLikeRegexp('Tool') }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          {
            Action: ['athena:StartQueryExecution', 'athena:GetQueryExecution', 'athena:GetQueryResults', 'athena:StopQueryExecution', 'athena:GetWorkGroup'],
            Effect: 'Allow',
            Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':athena:us-east-1:123456789012:workgroup/features']] },
          },
          Match.objectLike({ Action: ['glue:GetDatabase', 'glue:GetTable', 'glue:GetPartitions'], Resource: Match.arrayWith([{ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':glue:us-east-1:123456789012:table/sagemaker_featurestore/mcp_user_features_', STACK_SUFFIX]] }]) }),
          { Action: 's3:GetObject', Effect: 'Allow', Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [Match.stringLikeRegexp('UsersOfflineStoreBucket'), 'Arn'] }, '/feature-store/*']] } },
          { Action: 'kms:Decrypt', Effect: 'Allow', Resource: { 'Fn::GetAtt': [Match.stringLikeRegexp('UsersKey'), 'Arn'] } },
          { Action: ['s3:PutObject', 's3:GetObject', 's3:AbortMultipartUpload'], Effect: 'Allow', Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [Match.stringLikeRegexp('Results'), 'Arn'] }, '/q/*']] } },
          { Action: ['kms:GenerateDataKey', 'kms:Decrypt'], Effect: 'Allow', Resource: { 'Fn::GetAtt': [Match.stringLikeRegexp('ResultsKey'), 'Arn'] } },
        ]),
      },
    });
  });

  test('no grant uses a wildcard action', () => {
    const { group, grantee, template } = withGrantee();
    group.grantReadOnline(grantee);
    group.grantWriteOnline(grantee);
    group.grantQueryOffline(grantee);
    expect(JSON.stringify(template().findResources('AWS::IAM::Policy'))).not.toMatch(/"[a-z0-9]+:[A-Za-z]*\*"/);
  });

  test('an imported group grants online access; grantQueryOffline needs its offline attributes', () => {
    const app = new App();
    const stack = new Stack(app, 'Stack', { env: ENV });
    const grantee = new iam.Role(stack, 'Tool', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    const imported = FeatureGroup.fromFeatureGroupName(stack, 'Imported', 'shared-features');
    imported.grantReadOnline(grantee);
    expect(() => imported.grantQueryOffline(grantee)).toThrow(/offline store is unknown; import it with fromFeatureGroupAttributes/);
    const bucket = s3.Bucket.fromBucketName(stack, 'Lake', 'lake-bucket');
    FeatureGroup.fromFeatureGroupAttributes(stack, 'WithOffline', { featureGroupName: 'shared-features', offlineStoreBucket: bucket, offlineStorePrefix: 'fs', databaseName: 'sagemaker_featurestore', tableName: 'shared_features_1700000000' })
      .grantQueryOffline(grantee);
    const t = Template.fromStack(stack);
    t.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          { Action: ['sagemaker:GetRecord', 'sagemaker:BatchGetRecord'], Effect: 'Allow', Resource: arn('shared-features') },
          { Action: 's3:GetObject', Effect: 'Allow', Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':s3:::lake-bucket/fs/*']] } },
        ]),
      },
    });
  });
});

describe('metrics', () => {
  test('online store metrics: namespace AWS/SageMaker, dimensions FeatureGroupName + OperationName', () => {
    const { group } = setup();
    const m = group.metricConsumedReadRequestsUnits();
    expect(m.namespace).toBe('AWS/SageMaker');
    expect(m.metricName).toBe('ConsumedReadRequestsUnits');
    expect(m.dimensions).toEqual({ FeatureGroupName: 'mcp-user-features', OperationName: 'GetRecord' });
    expect(m.statistic).toBe('Sum');
  });

  test('each metric has its official name and documented default statistic', () => {
    const { group } = setup();
    const cases: Array<[any, string, string, string]> = [
      [group.metricInvocations(), 'Invocations', 'Sum', 'GetRecord'],
      [group.metricOperation4XXErrors(), 'Operation4XXErrors', 'Sum', 'GetRecord'],
      [group.metricOperation5XXErrors(), 'Operation5XXErrors', 'Sum', 'GetRecord'],
      [group.metricThrottledRequests(), 'ThrottledRequests', 'Sum', 'GetRecord'],
      [group.metricLatency(), 'Latency', 'Average', 'GetRecord'],
      [group.metricConsumedWriteRequestsUnits(), 'ConsumedWriteRequestsUnits', 'Sum', 'PutRecord'],
      [group.metricConsumedReadCapacityUnits(), 'ConsumedReadCapacityUnits', 'Sum', 'GetRecord'],
      [group.metricConsumedWriteCapacityUnits(), 'ConsumedWriteCapacityUnits', 'Sum', 'PutRecord'],
    ];
    for (const [m, name, statistic, op] of cases) {
      expect([m.metricName, m.statistic, m.dimensions.OperationName]).toEqual([name, statistic, op]);
    }
  });

  test('the operation and statistic can be chosen', () => {
    const m = setup().group.metricLatency({ operation: FeatureStoreOperation.PUT_RECORD, statistic: 'p99', period: Duration.minutes(1) });
    expect(m.dimensions).toEqual({ FeatureGroupName: 'mcp-user-features', OperationName: 'PutRecord' });
    expect(m.statistic).toBe('p99');
  });
});
