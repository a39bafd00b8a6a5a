import { Annotations, Duration, FeatureFlags, Stack, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cloudwatchActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sns from 'aws-cdk-lib/aws-sns';
import { S3_SERVER_ACCESS_LOGS_USE_BUCKET_POLICY } from 'aws-cdk-lib/cx-api';
import { Construct } from 'constructs';

/**
 * What every example shares in its stack (each created once per stack, when an example first asks for it): one SNS
 * topic every alarm notifies, one bucket for S3 server access logs, and the customer-managed key that encrypts both.
 * Subscribe your on-call address to the topic (`AlarmTopic`) after deploying.
 */
export interface Operations {
  /** Pass to each construct's `alarmActions`. */
  readonly alarmActions: cloudwatch.IAlarmAction[];
  /** Pass to each construct's `serverAccessLogsBucket`. */
  readonly accessLogsBucket: s3.IBucket;
  /** Log retention of the examples: one year, what AWS Control Tower's CT.CLOUDWATCH.PR.2 asks for. */
  readonly logRetention: logs.RetentionDays;
}

const ID = 'Operations';

export function operationsFor(stack: Stack): Operations {
  const existing = stack.node.tryFindChild(ID) as OperationsConstruct | undefined;
  return existing ?? new OperationsConstruct(stack, ID);
}

class OperationsConstruct extends Construct implements Operations {
  public readonly logRetention = logs.RetentionDays.ONE_YEAR;
  private readonly key: kms.Key;
  private accessLogs?: s3.IBucket;
  private alarmTopic?: sns.Topic;

  constructor(scope: Stack, id: string) {
    super(scope, id);
    const key = this.key = new kms.Key(this, 'Key', { description: 'Encrypts the alarm topic and the S3 access logs of the MCP examples', enableKeyRotation: true });
    // CloudWatch publishes alarms to an encrypted topic with this key:
    // https://docs.aws.amazon.com/sns/latest/dg/sns-key-management.html#compatibility-with-aws-services
    key.addToResourcePolicy(new iam.PolicyStatement({
      principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
      actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
      resources: ['*'],
      conditions: { StringEquals: { 'aws:SourceAccount': scope.account } },
    }));
    // AWS Control Tower CT.KMS.PR.3: only AWS services may create grants on the key.
    key.addToResourcePolicy(new iam.PolicyStatement({
      effect: iam.Effect.DENY,
      principals: [new iam.AnyPrincipal()],
      actions: ['kms:CreateGrant'],
      resources: ['*'],
      conditions: { BoolIfExists: { 'kms:GrantIsForAWSResource': 'false', 'aws:PrincipalIsAWSService': 'false' } },
    }));
  }

  /** The alarm topic's action, the topic created on first use. */
  public get alarmActions(): cloudwatch.IAlarmAction[] {
    this.alarmTopic ??= new sns.Topic(this, 'AlarmTopic', { displayName: 'MCP example alarms', masterKey: this.key, enforceSSL: true });
    return [new cloudwatchActions.SnsAction(this.alarmTopic)];
  }

  /** The access-log bucket, created on first use (a stack whose examples create no bucket gets none). */
  public get accessLogsBucket(): s3.IBucket {
    this.accessLogs ??= this.createAccessLogsBucket();
    return this.accessLogs;
  }

  private createAccessLogsBucket(): s3.IBucket {
    // S3 delivers server access logs to an SSE-KMS bucket only if the key lets the logging service use it:
    // https://docs.aws.amazon.com/AmazonS3/latest/userguide/enable-server-access-logging.html
    this.key.addToResourcePolicy(new iam.PolicyStatement({
      principals: [new iam.ServicePrincipal('logging.s3.amazonaws.com')],
      actions: ['kms:GenerateDataKey'],
      resources: ['*'],
      conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
    }));
    const bucket = new s3.Bucket(this, 'AccessLogs', {
      encryption: s3.BucketEncryption.KMS,
      encryptionKey: this.key,
      bucketKeyEnabled: true,
      enforceSSL: true,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      versioned: true,
      lifecycleRules: [{
        id: 'ExpireAccessLogs',
        expiration: Duration.days(365),
        noncurrentVersionExpiration: Duration.days(7),
        abortIncompleteMultipartUploadAfter: Duration.days(1),
      }],
    });
    Validations.of(bucket).acknowledge({ id: 'AwsSolutions-S1', reason: 'This is the server access log bucket: logging it into itself would log its own log deliveries.' });
    // S3's documented bucket policy for log delivery (ACLs stay off), from this account's buckets only:
    // https://docs.aws.amazon.com/AmazonS3/latest/userguide/enable-server-access-logging.html
    bucket.addToResourcePolicy(new iam.PolicyStatement({
      principals: [new iam.ServicePrincipal('logging.s3.amazonaws.com')],
      actions: ['s3:PutObject'],
      resources: [bucket.arnForObjects('*')],
      conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
    }));
    // With @aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy (a `cdk init` flag), CDK adds the same bucket-policy grant
    // for each bucket that logs here. Without it, CDK would switch a Bucket construct to the LogDeliveryWrite ACL, so
    // the buckets get a reference instead (and the statement above is the grant).
    if (FeatureFlags.of(this).isEnabled(S3_SERVER_ACCESS_LOGS_USE_BUCKET_POLICY)) return bucket;
    // CDK then says it cannot add its grant to the reference, for each bucket that logs here: the grant is above.
    Annotations.of(Stack.of(this)).acknowledgeWarning('@aws-cdk/aws-s3:accessLogsPolicyNotAdded',
      'The access-log bucket (Operations/AccessLogs) grants logging.s3.amazonaws.com s3:PutObject for this account in its own policy.');
    return s3.Bucket.fromBucketAttributes(this, 'AccessLogsRef', {
      bucketArn: bucket.bucketArn,
      bucketName: bucket.bucketName,
      encryptionKey: this.key,
    });
  }
}
