import { Annotations, ArnFormat, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { IAM_ACTION } from './iam-actions';

/**
 * Internal (not exported from src/core/index.ts): the one way this library creates a KMS key, a log group, and wires
 * alarm actions. See https://github.com/cdk-sagemaker-mcp/cdk-sagemaker-mcp/blob/main/docs/reliability.md ("Encryption and Control Tower") for the reasons and the AWS pages.
 */

/**
 * The log-group retention when the user sets none: 30 days (Control Tower's CT.CLOUDWATCH.PR.2 asks for >= 365).
 * `logs.RetentionDays.ONE_MONTH` written as its value, so that loading this module does not load aws-logs' LogGroup.
 */
export const DEFAULT_LOG_RETENTION: logs.RetentionDays = 30;

/**
 * AWS Control Tower's CT.KMS.PR.3 statement: nobody may call CreateGrant on the key unless an AWS service integrated
 * with KMS calls it on their behalf (`kms:GrantIsForAWSResource`, e.g. SageMaker, DynamoDB, EBS) or the caller is an
 * AWS service principal (`aws:PrincipalIsAWSService`). Both conditions must be false for the Deny to apply.
 * https://docs.aws.amazon.com/kms/latest/developerguide/conditions-kms.html#conditions-kms-grant-is-for-aws-resource
 * https://docs.aws.amazon.com/controltower/latest/controlreference/kms-rules.html
 */
export function denyGrantsOutsideAwsServices(): iam.PolicyStatement {
  return new iam.PolicyStatement({
    sid: 'DenyCreateGrantUnlessForAnAwsResource',
    effect: iam.Effect.DENY,
    principals: [new iam.AnyPrincipal()],
    actions: [IAM_ACTION.kms.CreateGrant],
    resources: ['*'],
    conditions: { BoolIfExists: { 'kms:GrantIsForAWSResource': 'false', 'aws:PrincipalIsAWSService': 'false' } },
  });
}

/** A customer-managed key with yearly rotation whose policy limits CreateGrant to AWS services (CT.KMS.PR.3). */
export function createKey(scope: Construct, id: string, description: string): kms.Key {
  const key = new kms.Key(scope, id, { description, enableKeyRotation: true });
  key.addToResourcePolicy(denyGrantsOutsideAwsServices());
  return key;
}

const keysOpenToLogs = new WeakSet<kms.IKey>();

/**
 * Lets this region's CloudWatch Logs service use `key` for this account's log groups, as AWS documents:
 * https://docs.aws.amazon.com/AmazonCloudWatch/latest/logs/encrypt-log-data-kms.html ("Principal": {"Service":
 * "logs.Region.amazonaws.com"} with an `ArnLike` condition on `kms:EncryptionContext:aws:logs:arn`). The condition names
 * the account and region's log groups, since naming the group itself would make the key and the group depend on each
 * other. Returns false when the key is imported (its policy is not ours to change).
 */
export function allowLogsToUseKey(scope: Construct, key: kms.IKey): boolean {
  if (keysOpenToLogs.has(key)) return true;
  const stack = Stack.of(scope);
  const { statementAdded } = key.addToResourcePolicy(new iam.PolicyStatement({
    principals: [new iam.ServicePrincipal(`logs.${stack.region}.amazonaws.com`)],
    actions: [IAM_ACTION.kms['Encrypt*'], IAM_ACTION.kms['Decrypt*'], IAM_ACTION.kms['ReEncrypt*'], IAM_ACTION.kms['GenerateDataKey*'], IAM_ACTION.kms['Describe*']],
    resources: ['*'],
    conditions: {
      ArnLike: {
        'kms:EncryptionContext:aws:logs:arn': stack.formatArn({
          service: 'logs', resource: 'log-group', resourceName: '*', arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        }),
      },
    },
  }));
  if (statementAdded) keysOpenToLogs.add(key);
  return statementAdded;
}

export interface EncryptedLogGroupOptions {
  readonly key: kms.IKey;
  /** @default DEFAULT_LOG_RETENTION */
  readonly retention?: logs.RetentionDays;
  /** @default RemovalPolicy.RETAIN (the LogGroup default) */
  readonly removalPolicy?: RemovalPolicy;
}

/**
 * A log group encrypted with `key` (CT.CLOUDWATCH.PR.3). CloudWatch Logs checks the key policy when the group is
 * created, so the group waits for the key; an imported key gets a synth warning, since its policy must already allow
 * the Logs service principal.
 */
export function createEncryptedLogGroup(scope: Construct, id: string, options: EncryptedLogGroupOptions): logs.LogGroup {
  const logGroup = new logs.LogGroup(scope, id, {
    retention: options.retention ?? DEFAULT_LOG_RETENTION,
    encryptionKey: options.key,
    removalPolicy: options.removalPolicy,
  });
  if (allowLogsToUseKey(scope, options.key)) {
    logGroup.node.addDependency(options.key);
  } else {
    Annotations.of(logGroup).addWarningV2('cdk-sagemaker-mcp:logGroupKeyPolicy',
      `Log group ${logGroup.node.path} is encrypted with an imported KMS key: its key policy must allow the service principal `
      + `logs.${Stack.of(scope).region}.amazonaws.com (https://docs.aws.amazon.com/AmazonCloudWatch/latest/logs/encrypt-log-data-kms.html), `
      + 'or the log group cannot be created.');
  }
  return logGroup;
}

/** Adds `actions` to every alarm given (alarms whose action is a scaling policy are not passed here). */
export function addAlarmActions(actions: cloudwatch.IAlarmAction[] | undefined, ...alarms: Array<cloudwatch.Alarm | undefined>): void {
  if (!actions || actions.length === 0) return;
  for (const alarm of alarms) alarm?.addAlarmAction(...actions);
}
