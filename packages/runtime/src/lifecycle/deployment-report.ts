/**
 * Reports one deployment outcome three ways: a JSON log line that is also a CloudWatch metric (embedded metric format,
 * https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Embedded_Metric_Format_Specification.html:
 * Lambda turns the `_aws` block into a data point of `ModelDeploymentOutcome`, dimensions StackName and Outcome, with no
 * PutMetricData call), and, when a topic is configured, an SNS notification.
 */
import type { SNSClient } from '@aws-sdk/client-sns';
import type { DeploymentOutcome } from './approved-deployment';
import { DEPLOY_METRIC_NAME, DEPLOY_METRIC_NAMESPACE, DEPLOY_METRIC_OUTCOME_DIMENSION, DEPLOY_METRIC_STACK_DIMENSION } from '../contract/lifecycle';
import { snsSdk } from '../core/aws-sdk';
import { redactSecrets } from '../core/errors';

/** The log line of an outcome, with its embedded metric. */
export function deploymentLogRecord(o: DeploymentOutcome, now: Date = new Date()): Record<string, unknown> {
  return {
    _aws: {
      Timestamp: now.getTime(),
      CloudWatchMetrics: [{
        Namespace: DEPLOY_METRIC_NAMESPACE,
        Dimensions: [[DEPLOY_METRIC_STACK_DIMENSION, DEPLOY_METRIC_OUTCOME_DIMENSION]],
        Metrics: [{ Name: DEPLOY_METRIC_NAME, Unit: 'Count' }],
      }],
    },
    [DEPLOY_METRIC_STACK_DIMENSION]: o.stackName,
    [DEPLOY_METRIC_OUTCOME_DIMENSION]: o.outcome,
    [DEPLOY_METRIC_NAME]: 1,
    reason: redactSecrets(o.reason),
    ...(o.modelPackageArn ? { modelPackageArn: o.modelPackageArn } : {}),
    ...(o.version !== undefined ? { version: o.version } : {}),
    ...(o.servingVersion !== undefined ? { servingVersion: o.servingVersion } : {}),
  };
}

export interface ReportOptions {
  readonly sns?: SNSClient;
  readonly topicArn?: string;
  /** @default console.log */
  readonly log?: (line: string) => void;
}

/** Writes the log line (and metric) and publishes to the topic when one is configured. */
export async function reportDeploymentOutcome(o: DeploymentOutcome, options: ReportOptions): Promise<void> {
  (options.log ?? console.log)(JSON.stringify(deploymentLogRecord(o)));
  if (options.sns && options.topicArn) {
    const { PublishCommand } = snsSdk();
    await options.sns.send(new PublishCommand({
      TopicArn: options.topicArn,
      // Subject: at most 100 printable ASCII characters (https://docs.aws.amazon.com/sns/latest/api/API_Publish.html).
      Subject: `Model deployment ${o.outcome}: ${o.stackName}`.replace(/[^ -~]/g, '?').slice(0, 100),
      Message: JSON.stringify({
        outcome: o.outcome,
        reason: redactSecrets(o.reason),
        stackName: o.stackName,
        modelPackageArn: o.modelPackageArn,
        version: o.version,
        servingVersion: o.servingVersion,
      }),
    }));
  }
}
