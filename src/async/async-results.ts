import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sns from 'aws-cdk-lib/aws-sns';
import { SqsSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { ResultRecorderFunction } from './result-recorder-function';
import { FunctionNetworkOptions } from '../core/function-network';
import { ASYNC_ENV, JOB_ATTRIBUTES } from '../private/contract.generated';
import { addAlarmActions, createEncryptedLogGroup, createKey } from '../private/encryption';
import { finishFunctionNetwork, functionVpcProps } from '../private/function-vpc';
import { IAM_ACTION } from '../private/iam-actions';

/** Internal: what the job-results pipeline needs. */
export interface AsyncResultsProps {
  readonly successTopic: sns.ITopic;
  readonly errorTopic: sns.ITopic;
  readonly encryptionKey: kms.IKey;
  readonly retention: Duration;
  /** How far past the recorder's clock an `eventTime` may lie. */
  readonly maxEventTimeSkew: Duration;
  /** Deliveries before a message goes to the DLQ. */
  readonly maxReceiveCount: number;
  /** The recorder's log retention. */
  readonly logRetention?: logs.RetentionDays;
  /** Actions of the DLQ alarm. */
  readonly alarmActions?: cloudwatch.IAlarmAction[];
  /** Where the recorder runs. */
  readonly network?: FunctionNetworkOptions;
}

/**
 * Internal: SNS (success + error topics) -> SQS -> result recorder -> DynamoDB job table, with a DLQ and an alarm on
 * its depth. The table and the recorder's logs use the endpoint's key; the queues, one of their own. Raw message delivery stays off so the recorder receives the SNS envelope (and can tell a broken message
 * from a good one); partial batch responses retry only the records that failed.
 */
export class AsyncResults extends Construct {
  public readonly table: dynamodb.Table;
  public readonly queue: sqs.Queue;
  public readonly deadLetterQueue: sqs.Queue;
  public readonly recorder: ResultRecorderFunction;
  public readonly deadLetterAlarm: cloudwatch.Alarm;
  /** The key of both queues (SNS encrypts into the queue with it). */
  public readonly queueKey: kms.Key;

  constructor(scope: Construct, id: string, props: AsyncResultsProps) {
    super(scope, id);
    const key = props.encryptionKey;

    this.table = new dynamodb.Table(this, 'JobTable', {
      partitionKey: { name: JOB_ATTRIBUTES.INFERENCE_ID, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      encryption: dynamodb.TableEncryption.CUSTOMER_MANAGED,
      encryptionKey: key,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: JOB_ATTRIBUTES.EXPIRES_AT,
    });

    // The queues have a key of their own: SNS encrypts into the queue with its key, and the subscription names the topics
    // in that key's policy (`aws:SourceArn`, with `@aws-cdk/aws-sns-subscriptions:restrictSqsDescryption`, a `cdk init`
    // default). The topics are encrypted with the endpoint's key, so the two cannot share one: key -> topic -> key.
    this.queueKey = createKey(this, 'QueueKey', `Async inference notifications of ${scope.node.path} (result queue and its DLQ)`);
    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetterQueue', {
      encryption: sqs.QueueEncryption.KMS,
      encryptionMasterKey: this.queueKey,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      // Says this queue is a dead-letter queue (AWS's default permission, stated; CT.SQS.PR.1 wants no DLQ for it).
      redriveAllowPolicy: { redrivePermission: sqs.RedrivePermission.ALLOW_ALL },
    });

    const functionTimeout = Duration.seconds(30);
    this.queue = new sqs.Queue(this, 'Queue', {
      encryption: sqs.QueueEncryption.KMS,
      encryptionMasterKey: this.queueKey,
      enforceSSL: true,
      // AWS recommends at least six times the function timeout for an SQS event source.
      visibilityTimeout: Duration.seconds(functionTimeout.toSeconds() * 6),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: props.maxReceiveCount },
    });

    for (const topic of [props.successTopic, props.errorTopic]) {
      topic.addSubscription(new SqsSubscription(this.queue, { rawMessageDelivery: false }));
    }
    // The recorder trusts what reaches this queue (it checks the envelope's TopicArn, not the SNS signature): the queue
    // policy is the trust boundary. The subscriptions allow SNS to send from these topics; this Deny also overrides any
    // identity policy in the account that grants sqs:SendMessage on the queue, so only the two topics can mark a job
    // Completed or Failed. A request without aws:SourceArn (any direct SendMessage) matches ArnNotEquals, which is true
    // for a key absent from the request
    // (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_condition_operators.html).
    this.queue.addToResourcePolicy(new iam.PolicyStatement({
      sid: 'OnlyTheResultTopicsSend',
      effect: iam.Effect.DENY,
      principals: [new iam.AnyPrincipal()],
      actions: [IAM_ACTION.sqs.SendMessage],
      resources: [this.queue.queueArn],
      conditions: { ArnNotEquals: { 'aws:SourceArn': [props.successTopic.topicArn, props.errorTopic.topicArn] } },
    }));

    const logGroup = createEncryptedLogGroup(this, 'RecorderLogs', {
      key,
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // A role of our own instead of the default one with the AWSLambdaBasicExecutionRole managed policy.
    const role = new iam.Role(this, 'RecorderRole', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: 'Records SageMaker async inference results in the job table',
    });
    role.addToPrincipalPolicy(new iam.PolicyStatement({
      actions: [IAM_ACTION.logs.CreateLogStream, IAM_ACTION.logs.PutLogEvents],
      resources: [logGroup.logGroupArn],
    }));
    this.recorder = new ResultRecorderFunction(this, 'Recorder', {
      description: 'Records SageMaker async inference results (SNS -> SQS) in the job table',
      role,
      logGroup,
      timeout: functionTimeout,
      memorySize: 256,
      ...functionVpcProps(props.network ?? {}),
      environment: {
        [ASYNC_ENV.JOB_TABLE_NAME]: this.table.tableName,
        [ASYNC_ENV.JOB_RETENTION_SECONDS]: String(props.retention.toSeconds()),
        // The only sources the recorder records: anything else on the queue goes to the DLQ.
        [ASYNC_ENV.SUCCESS_TOPIC_ARN]: props.successTopic.topicArn,
        [ASYNC_ENV.ERROR_TOPIC_ARN]: props.errorTopic.topicArn,
        [ASYNC_ENV.MAX_EVENT_TIME_SKEW_SECONDS]: String(props.maxEventTimeSkew.toSeconds()),
      },
    });
    finishFunctionNetwork(this.recorder, role, props.network ?? {});
    Validations.of(this.recorder).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'The bundled handler is built and tested for nodejs22.x (the runtime projen pins for every handler of this library).',
    });
    // Exactly the one write the recorder makes (a conditional PutItem), and the key to encrypt it.
    this.table.grant(role, IAM_ACTION.dynamodb.PutItem);
    key.grant(role, IAM_ACTION.kms.Decrypt, IAM_ACTION.kms.Encrypt, IAM_ACTION.kms.GenerateDataKey);
    this.recorder.addEventSource(new SqsEventSource(this.queue, {
      batchSize: 10,
      reportBatchItemFailures: true,
    }));

    this.deadLetterAlarm = new cloudwatch.Alarm(this, 'DeadLetterAlarm', {
      alarmDescription: 'Async inference notifications the result recorder could not record are waiting in its DLQ',
      metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    addAlarmActions(props.alarmActions, this.deadLetterAlarm);
  }
}
