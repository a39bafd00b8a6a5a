/**
 * What the library does to everything it stores (src/private/encryption.ts, src/private/storage.ts): the CreateGrant Deny on
 * every key it creates (Control Tower CT.KMS.PR.3), KMS-encrypted log groups whose key lets the regional CloudWatch
 * Logs principal in (https://docs.aws.amazon.com/AmazonCloudWatch/latest/logs/encrypt-log-data-kms.html), log retention
 * (30 days unless set), alarm actions on every alarm a construct creates (scale-from-zero alarms keep only their
 * scaling policy), and versioned buckets whose noncurrent versions expire.
 */
import { App, Duration, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { AsyncEndpoint } from '../../src/async';
import { ContainerImage, InstanceType, ModelSource } from '../../src/core';
import { FeatureGroup, Feature } from '../../src/features';
import { McpToolServer } from '../../src/mcp';
import { PipelineEventRouter } from '../../src/pipelines';
import { RealtimeEndpoint } from '../../src/realtime';
import { SharedGpuEndpoint } from '../../src/shared-gpu';

const ENV = { account: '123456789012', region: 'us-east-1' };
const MODEL = ModelSource.fromContainer(ContainerImage.fromDlc('huggingface-pytorch-inference', '2.1.0-transformers4.37.0-cpu-py310-ubuntu22.04'));
const ACTION_ARN = 'arn:aws:sns:us-east-1:123456789012:oncall';
const ACTIONS: cloudwatch.IAlarmAction[] = [{ bind: () => ({ alarmActionArn: ACTION_ARN }) }];

/** One of each construct that creates keys, log groups, alarms or buckets, with library defaults unless `opts` says. */
function buildAll(opts: { alarmActions?: cloudwatch.IAlarmAction[]; logRetention?: logs.RetentionDays } = {}) {
  const app = new App();
  const stack = new Stack(app, 'Hygiene', { env: ENV });
  const asyncEndpoint = new AsyncEndpoint(stack, 'Async', {
    model: MODEL,
    instanceType: InstanceType.ML_M5_XLARGE,
    alarms: { oldestRequestAgeThreshold: Duration.minutes(15) },
    autoScaling: { minCapacity: 0, maxCapacity: 2, targetBacklogPerInstance: 5 },
    ...opts,
  });
  const realtime = new RealtimeEndpoint(stack, 'Realtime', {
    model: MODEL,
    instanceType: InstanceType.ML_M5_XLARGE,
    dataCapture: {},
    alarms: { modelLatencyP99Threshold: Duration.seconds(1), invocation5XXRateThreshold: 1 },
    alarmActions: opts.alarmActions,
  });
  new SharedGpuEndpoint(stack, 'Shared', { instanceType: InstanceType.ML_M5_XLARGE });
  const userId = Feature.text('user_id');
  const eventTime = Feature.text('event_time');
  new FeatureGroup(stack, 'Features', { featureGroupName: 'hygiene', features: [userId, eventTime], recordIdentifier: userId, eventTime });
  new PipelineEventRouter(stack, 'Router', { ...opts });
  new McpToolServer(stack, 'Mcp', { realtimeEndpoints: [{ endpoint: realtime }], asyncEndpoints: [{ endpoint: asyncEndpoint }], ...opts });
  return { stack, template: Template.fromStack(stack).toJSON() };
}

const ofType = (template: any, type: string) => Object.entries<any>(template.Resources).filter(([, r]) => r.Type === type);
const statements = (key: any): any[] => key.Properties.KeyPolicy.Statement;

describe('library defaults', () => {
  let template: any;
  beforeAll(() => { ({ template } = buildAll()); });

  test('every key the library creates denies CreateGrant unless an AWS service asks (CT.KMS.PR.3)', () => {
    const keys = ofType(template, 'AWS::KMS::Key');
    expect(keys.length).toBeGreaterThanOrEqual(6);
    for (const [id, key] of keys) {
      expect({ id, statement: statements(key).find((s) => s.Effect === 'Deny') }).toEqual({
        id,
        statement: {
          Sid: 'DenyCreateGrantUnlessForAnAwsResource',
          Effect: 'Deny',
          Principal: { AWS: '*' },
          Action: 'kms:CreateGrant',
          Resource: '*',
          Condition: { BoolIfExists: { 'kms:GrantIsForAWSResource': 'false', 'aws:PrincipalIsAWSService': 'false' } },
        },
      });
      expect(key.Properties.EnableKeyRotation).toBe(true);
    }
  });

  test('every log group is KMS-encrypted with a key that lets the regional Logs principal in for this account\'s groups', () => {
    const groups = ofType(template, 'AWS::Logs::LogGroup');
    expect(groups.length).toBe(3);
    for (const [id, group] of groups) {
      const keyId = group.Properties.KmsKeyId?.['Fn::GetAtt']?.[0];
      expect({ id, keyId }).toEqual({ id, keyId: expect.any(String) });
      expect(group.DependsOn).toEqual(expect.arrayContaining([keyId]));
      expect(statements(template.Resources[keyId])).toContainEqual({
        Effect: 'Allow',
        Principal: { Service: 'logs.us-east-1.amazonaws.com' },
        Action: ['kms:Encrypt*', 'kms:Decrypt*', 'kms:ReEncrypt*', 'kms:GenerateDataKey*', 'kms:Describe*'],
        Resource: '*',
        Condition: {
          ArnLike: {
            'kms:EncryptionContext:aws:logs:arn': { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':logs:us-east-1:123456789012:log-group:*']] },
          },
        },
      });
      expect(group.Properties.RetentionInDays).toBe(30);
    }
  });

  test('alarms notify nobody unless asked; the scale-from-zero alarm keeps its scaling policy', () => {
    const alarms = ofType(template, 'AWS::CloudWatch::Alarm');
    // async: oldest request, result DLQ, scale from zero; realtime: 2; router: 1; MCP server: 2.
    expect(alarms.length).toBe(8);
    const withActions = alarms.filter(([, a]) => a.Properties.AlarmActions);
    expect(withActions.map(([id]) => id)).toEqual([expect.stringMatching(/^AsyncScaleFromZeroAlarm/)]);
  });

  test('every bucket is versioned and expires noncurrent versions and expired delete markers', () => {
    const buckets = ofType(template, 'AWS::S3::Bucket');
    expect(buckets.length).toBe(3);
    for (const [id, bucket] of buckets) {
      expect({ id, versioning: bucket.Properties.VersioningConfiguration }).toEqual({ id, versioning: { Status: 'Enabled' } });
      expect(bucket.Properties.LifecycleConfiguration.Rules).toContainEqual(expect.objectContaining({
        Id: 'ExpireNoncurrentVersions',
        Status: 'Enabled',
        NoncurrentVersionExpiration: { NoncurrentDays: expect.any(Number) },
        ExpiredObjectDeleteMarker: true,
        AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
      }));
    }
    // The async bucket's own expirations stay beside the noncurrent rule.
    const asyncBucket = buckets.find(([id]) => id.startsWith('AsyncBucket'))![1];
    expect(asyncBucket.Properties.LifecycleConfiguration.Rules.map((r: any) => r.Id)).toEqual(
      ['ExpireNoncurrentVersions', 'AsyncExpireInputs', 'AsyncExpireOutputs', 'AsyncExpireFailures']);
  });

  test('dead-letter queues say they are dead-letter queues (CT.SQS.PR.1)', () => {
    const dlqs = ofType(template, 'AWS::SQS::Queue').filter(([id]) => /DeadLetterQueue/.test(id));
    expect(dlqs.length).toBe(2);
    for (const [, q] of dlqs) expect(q.Properties.RedriveAllowPolicy).toEqual({ redrivePermission: 'allowAll' });
  });
});

describe('with alarmActions and logRetention', () => {
  let template: any;
  beforeAll(() => { ({ template } = buildAll({ alarmActions: ACTIONS, logRetention: logs.RetentionDays.ONE_YEAR })); });

  test('every alarm notifies the actions given, except the scale-from-zero alarm (its action is the scaling policy)', () => {
    for (const [id, alarm] of ofType(template, 'AWS::CloudWatch::Alarm')) {
      if (id.startsWith('AsyncScaleFromZeroAlarm')) {
        expect(alarm.Properties.AlarmActions).toEqual([{ Ref: expect.stringMatching(/^AsyncScaleFromZeroPolicy/) }]);
      } else {
        expect({ id, actions: alarm.Properties.AlarmActions }).toEqual({ id, actions: [ACTION_ARN] });
      }
    }
  });

  test('log groups keep the retention given', () => {
    for (const [, group] of ofType(template, 'AWS::Logs::LogGroup')) expect(group.Properties.RetentionInDays).toBe(365);
  });
});

test('a log group encrypted with an imported key gets a synth warning (its policy is not the library\'s to change)', () => {
  const app = new App();
  const stack = new Stack(app, 'Imported', { env: ENV });
  const key = kms.Key.fromKeyArn(stack, 'Key', 'arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab');
  new McpToolServer(stack, 'Mcp', { realtimeEndpoints: [{ endpoint: RealtimeEndpoint.fromEndpointName(stack, 'E', 'e') }], logEncryptionKey: key });
  Annotations.fromStack(stack).hasWarning('/Imported/Mcp/LogGroup', Match.stringLikeRegexp('logs\\.us-east-1\\.amazonaws\\.com'));
  expect(Template.fromStack(stack).findResources('AWS::KMS::Key')).toEqual({});
});

test('a created bucket logs server access to the bucket given', () => {
  const app = new App();
  const stack = new Stack(app, 'AccessLogs', { env: ENV });
  const logsBucket = s3.Bucket.fromBucketName(stack, 'Logs', 'access-logs');
  new RealtimeEndpoint(stack, 'Realtime', { model: MODEL, instanceType: InstanceType.ML_M5_XLARGE, dataCapture: { serverAccessLogsBucket: logsBucket } });
  Template.fromStack(stack).hasResourceProperties('AWS::S3::Bucket', {
    LoggingConfiguration: { DestinationBucketName: 'access-logs', LogFilePrefix: 'data-capture/' },
  });
});
