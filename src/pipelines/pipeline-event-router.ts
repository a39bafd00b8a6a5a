import { Duration, IResource, Resource, Stack, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { PipelineRouterFunction } from './pipeline-router-function';
import { ITrainingPipeline } from './training-pipeline';
import { FunctionNetworkOptions } from '../core/function-network';
import {
  DEFAULT_RESULT_TTL_DAYS,
  PIPELINE_EXECUTION_DETAIL_TYPE,
  PIPELINE_STEP_DETAIL_TYPE,
  RESULT_TTL_DAYS_ENV,
  RESULTS_PARTITION_KEY,
  RESULTS_QUEUE_URL_ENV,
  RESULTS_SESSION_INDEX,
  RESULTS_SESSION_KEY,
  RESULTS_SESSION_SORT_KEY,
  RESULTS_TABLE_ENV,
  RESULTS_TTL_ATTRIBUTE,
} from '../private/contract.generated';
import { addAlarmActions, createEncryptedLogGroup, createKey } from '../private/encryption';
import { finishFunctionNetwork, functionVpcProps, validateFunctionNetwork } from '../private/function-vpc';
import { IAM_ACTION } from '../private/iam-actions';
import { PropValidator } from '../private/validation';

/** Pipeline execution statuses (`PipelineExecutionStatus`). */
export enum PipelineExecutionStatus {
  EXECUTING = 'Executing',
  STOPPING = 'Stopping',
  STOPPED = 'Stopped',
  FAILED = 'Failed',
  SUCCEEDED = 'Succeeded',
}

const FINAL_STATUSES = [PipelineExecutionStatus.SUCCEEDED, PipelineExecutionStatus.FAILED, PipelineExecutionStatus.STOPPED];

/** Properties of a `PipelineEventRouter`. The network options put its router function in your VPC. */
export interface PipelineEventRouterProps extends FunctionNetworkOptions {
  /**
   * Only route events of these pipelines (matched on `detail.pipelineArn`, ignoring case).
   * @default - events of every pipeline in this account and region
   */
  readonly pipelines?: ITrainingPipeline[];

  /**
   * Execution statuses to record.
   * @default - the final ones: Succeeded, Failed, Stopped
   */
  readonly statuses?: PipelineExecutionStatus[];

  /**
   * Also route "Execution Step Status Change" events for failed steps, recording `failedStep` and `failureReason` on
   * the execution's result (never changing its status).
   * @default false
   */
  readonly recordStepFailures?: boolean;

  /**
   * How long a result stays in the table (DynamoDB TTL), between 1 hour and 3650 days.
   * @default Duration.days(30)
   */
  readonly resultTtl?: Duration;

  /**
   * Customer-managed key for the results table, the queues and their messages.
   * @default - a new key with rotation enabled
   */
  readonly encryptionKey?: kms.IKey;

  /**
   * Also send each recorded result to an SQS queue (the results queue; KMS, TLS only), for consumers that want a push.
   * @default false
   */
  readonly enableResultsQueue?: boolean;

  /**
   * How many times Lambda retries a failed asynchronous invocation before dead-lettering the event (0-2).
   * @default 2
   */
  readonly retryAttempts?: number;
  /**
   * What the dead-letter alarm does when it fires, e.g. `[new cloudwatch_actions.SnsAction(topic)]`.
   *
   * @default - the alarm changes state but notifies nobody
   */
  readonly alarmActions?: cloudwatch.IAlarmAction[];
  /**
   * How long the handler's log group (KMS-encrypted with the encryption key) keeps its logs.
   *
   * @default logs.RetentionDays.ONE_MONTH
   */
  readonly logRetention?: logs.RetentionDays;
}

/** A pipeline results table written by a `PipelineEventRouter`, created here or imported. */
export interface IPipelineEventRouter extends IResource {
  /** One item per execution (key `executionArn`), with the sparse `BySession` index (key `sessionId`, sort `startedAt`). */
  readonly resultsTable: dynamodb.ITable;
  /** The customer-managed key encrypting the results table (every router encrypts it with one). */
  readonly encryptionKey: kms.IKey;
  /**
   * Grants reading results by execution and by session (what the runtime's `getTrainingResultByExecution` and
   * `getTrainingResult` need): `dynamodb:GetItem` and `dynamodb:Query` on the table and its `BySession` index, and
   * `kms:Decrypt` on the key.
   */
  grantReadResults(grantee: iam.IGrantable): iam.Grant;
  /**
   * Grants reading the result of one execution by its ARN only (the runtime's `getTrainingResultByExecution`, which the
   * MCP `get_training_result` tool calls): `dynamodb:GetItem` on the table and `kms:Decrypt` on the key.
   */
  grantReadResultsByExecution(grantee: iam.IGrantable): iam.Grant;
}

/** An existing router's results table, to import a `PipelineEventRouter` from. */
export interface PipelineEventRouterAttributes {
  /**
   * The results table, e.g. `dynamodb.Table.fromTableArn(this, 'Results', arn)` for a router deployed elsewhere.
   */
  readonly resultsTable: dynamodb.ITable;
  /**
   * The customer-managed key encrypting the results table. Required unless the results table carries its encryption key.
   * @default - the given results table's encryption key
   */
  readonly encryptionKey?: kms.IKey;
}

function grantResults(grantee: iam.IGrantable, table: dynamodb.ITable, key: kms.IKey, byExecutionOnly: boolean): iam.Grant {
  const grant = iam.Grant.addToPrincipal({
    grantee,
    actions: byExecutionOnly ? [IAM_ACTION.dynamodb.GetItem] : [IAM_ACTION.dynamodb.GetItem, IAM_ACTION.dynamodb.Query],
    resourceArns: byExecutionOnly ? [table.tableArn] : [table.tableArn, `${table.tableArn}/index/${RESULTS_SESSION_INDEX}`],
  });
  // Explicit action: the broad KMS grant helpers add kms:ReEncrypt* / GenerateDataKey* wildcards.
  return grant.combine(key.grant(grantee, IAM_ACTION.kms.Decrypt));
}

/**
 * Records SageMaker pipeline results for MCP tools: an EventBridge rule on "SageMaker Model Building Pipeline Execution
 * Status Change" invokes the bundled `pipeline-router` function, which parses the session id the runtime's
 * `startTraining` wrote into the execution description and records
 * `{sessionId, executionArn, pipelineArn, status, failureReason?, failedStep?, startedAt, endedAt}` in a DynamoDB table
 * (customer-managed KMS key, point-in-time recovery, TTL) with conditional writes, so duplicates and out-of-order
 * events never regress a final status. Events the function cannot process are retried by Lambda and then land in
 * the dead-letter queue, as do events EventBridge could not deliver; the dead-letter alarm fires on its first message.
 */
export class PipelineEventRouter extends Resource implements IPipelineEventRouter {
  /**
   * Imports the results table of a router deployed elsewhere (another stack or app), e.g. for an `McpToolServer`'s
   * training results.
   */
  public static fromPipelineEventRouterAttributes(scope: Construct, id: string, attrs: PipelineEventRouterAttributes): IPipelineEventRouter {
    const key = attrs.encryptionKey ?? attrs.resultsTable.encryptionKey;
    new PropValidator(`PipelineEventRouter.fromPipelineEventRouterAttributes '${id}'`)
      .check(key !== undefined, 'encryptionKey', undefined,
        'the customer-managed key of the results table (readers need kms:Decrypt on it), or a resultsTable with its encryptionKey')
      .throwIfInvalid();
    class Import extends Resource implements IPipelineEventRouter {
      public readonly resultsTable = attrs.resultsTable;
      public readonly encryptionKey = key!;
      public grantReadResults(grantee: iam.IGrantable): iam.Grant {
        return grantResults(grantee, this.resultsTable, this.encryptionKey, false);
      }
      public grantReadResultsByExecution(grantee: iam.IGrantable): iam.Grant {
        return grantResults(grantee, this.resultsTable, this.encryptionKey, true);
      }
    }
    return new Import(scope, id);
  }

  /** One item per execution (key `executionArn`), with the sparse `BySession` index (key `sessionId`, sort `startedAt`). */
  public readonly resultsTable: dynamodb.ITable;
  /** The key encrypting the table and queues. */
  public readonly encryptionKey: kms.IKey;
  /** The function that records events. */
  public readonly handler: lambda.IFunction;
  /** The rule for execution status changes. */
  public readonly rule: events.Rule;
  /**
   * The rule for failed steps.
   * @default - none unless step failures are recorded
   */
  public readonly stepFailureRule?: events.Rule;
  /** Events that could not be delivered (EventBridge) or processed (Lambda, after retries). */
  public readonly deadLetterQueue: sqs.Queue;
  /** Fires when the dead-letter queue holds at least one message. */
  public readonly deadLetterAlarm: cloudwatch.Alarm;
  /**
   * The queue results are also sent to.
   * @default - none unless the results queue is enabled
   */
  public readonly resultsQueue?: sqs.Queue;

  constructor(scope: Construct, id: string, props: PipelineEventRouterProps = {}) {
    super(scope, id);
    const v = new PropValidator(`PipelineEventRouter '${id}'`);
    const ttl = props.resultTtl ?? Duration.days(DEFAULT_RESULT_TTL_DAYS);
    if (!ttl.isUnresolved()) {
      const hours = ttl.toHours({ integral: false });
      v.check(hours >= 1 && hours <= 3650 * 24, 'resultTtl', ttl.toHumanString(), 'between 1 hour and 3650 days');
    }
    v.range('retryAttempts', props.retryAttempts, 0, 2);
    v.check(props.pipelines === undefined || props.pipelines.length > 0, 'pipelines', props.pipelines, 'at least one pipeline, or nothing for all pipelines');
    v.check(props.statuses === undefined || props.statuses.length > 0, 'statuses', props.statuses, 'at least one status, or nothing for the final statuses');
    validateFunctionNetwork(v, '', props);
    v.throwIfInvalid();

    this.encryptionKey = props.encryptionKey ?? createKey(this, 'Key', `Encrypts the pipeline results of ${this.node.path}`);

    const resultsTable = new dynamodb.Table(this, 'ResultsTable', {
      partitionKey: { name: RESULTS_PARTITION_KEY, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      encryption: dynamodb.TableEncryption.CUSTOMER_MANAGED,
      encryptionKey: this.encryptionKey,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: RESULTS_TTL_ATTRIBUTE,
    });
    resultsTable.addGlobalSecondaryIndex({
      indexName: RESULTS_SESSION_INDEX,
      partitionKey: { name: RESULTS_SESSION_KEY, type: dynamodb.AttributeType.STRING },
      sortKey: { name: RESULTS_SESSION_SORT_KEY, type: dynamodb.AttributeType.STRING },
      projectionType: dynamodb.ProjectionType.ALL,
    });
    this.resultsTable = resultsTable;

    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetterQueue', {
      encryption: sqs.QueueEncryption.KMS,
      encryptionMasterKey: this.encryptionKey,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      // Says this queue is a dead-letter queue (AWS's default permission, stated; CT.SQS.PR.1 wants no DLQ for it).
      redriveAllowPolicy: { redrivePermission: sqs.RedrivePermission.ALLOW_ALL },
    });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is the dead-letter queue of the router rule targets, the router function and the results queue.',
    });

    if (props.enableResultsQueue) {
      this.resultsQueue = new sqs.Queue(this, 'ResultsQueue', {
        encryption: sqs.QueueEncryption.KMS,
        encryptionMasterKey: this.encryptionKey,
        enforceSSL: true,
        deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: 5 },
      });
    }

    const role = new iam.Role(this, 'HandlerRole', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Records SageMaker pipeline results for ${this.node.path}`,
    });
    const logGroup = createEncryptedLogGroup(this, 'HandlerLogs', { key: this.encryptionKey, retention: props.logRetention });
    logGroup.grantWrite(role);

    const ttlDays = ttl.isUnresolved() ? DEFAULT_RESULT_TTL_DAYS : ttl.toHours({ integral: false }) / 24;
    const fn = new PipelineRouterFunction(this, 'Handler', {
      role,
      logGroup,
      timeout: Duration.seconds(30),
      memorySize: 256,
      deadLetterQueue: this.deadLetterQueue,
      retryAttempts: props.retryAttempts ?? 2,
      maxEventAge: Duration.hours(6),
      ...functionVpcProps(props),
      environment: {
        [RESULTS_TABLE_ENV]: this.resultsTable.tableName,
        [RESULT_TTL_DAYS_ENV]: String(ttlDays),
        ...(this.resultsQueue ? { [RESULTS_QUEUE_URL_ENV]: this.resultsQueue.queueUrl } : {}),
      },
    });
    this.handler = fn;
    finishFunctionNetwork(fn, role, props);
    Validations.of(fn).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'The bundled handlers are built and tested for nodejs22.x (esbuild target node22); the runtime moves with the library, not per deployment.',
    });
    // Explicit actions (the broad grant helpers add kms:ReEncrypt* / GenerateDataKey* wildcards).
    iam.Grant.addToPrincipal({
      grantee: role, actions: [IAM_ACTION.dynamodb.UpdateItem, IAM_ACTION.dynamodb.GetItem], resourceArns: [this.resultsTable.tableArn],
    });
    this.encryptionKey.grant(role, IAM_ACTION.kms.Decrypt, IAM_ACTION.kms.Encrypt, IAM_ACTION.kms.GenerateDataKey);
    if (this.resultsQueue) this.resultsQueue.grant(role, IAM_ACTION.sqs.SendMessage);

    const pipelineFilter = props.pipelines
      ? { pipelineArn: props.pipelines.flatMap((p) => events.Match.equalsIgnoreCase(p.pipelineArn)) }
      : {};
    const target = new targets.LambdaFunction(fn, { deadLetterQueue: this.deadLetterQueue });
    this.rule = new events.Rule(this, 'Rule', {
      description: 'SageMaker pipeline execution status changes to record',
      eventPattern: {
        source: ['aws.sagemaker'],
        detailType: [PIPELINE_EXECUTION_DETAIL_TYPE],
        detail: {
          currentPipelineExecutionStatus: props.statuses ?? FINAL_STATUSES,
          ...pipelineFilter,
        },
      },
      targets: [target],
    });
    if (props.recordStepFailures) {
      this.stepFailureRule = new events.Rule(this, 'StepFailureRule', {
        description: 'SageMaker pipeline steps that failed',
        eventPattern: {
          source: ['aws.sagemaker'],
          detailType: [PIPELINE_STEP_DETAIL_TYPE],
          detail: { currentStepStatus: ['Failed'], ...pipelineFilter },
        },
        targets: [target],
      });
    }

    // EventBridge writes undeliverable events to the KMS-encrypted dead-letter queue: the key must let it. The rule ARNs
    // cannot be named here (rule -> function -> role policy -> queue -> key would be a cycle): this account's rules.
    const stack = Stack.of(this);
    this.encryptionKey.addToResourcePolicy(new iam.PolicyStatement({
      principals: [new iam.ServicePrincipal('events.amazonaws.com')],
      actions: [IAM_ACTION.kms.Decrypt, IAM_ACTION.kms.GenerateDataKey],
      resources: ['*'],
      conditions: {
        StringEquals: { 'aws:SourceAccount': stack.account },
        ArnLike: { 'aws:SourceArn': stack.formatArn({ service: 'events', resource: 'rule', resourceName: '*' }) },
      },
    }));

    this.deadLetterAlarm = new cloudwatch.Alarm(this, 'DeadLetterAlarm', {
      alarmDescription: `Pipeline events that ${this.node.path} could not record are waiting in its dead-letter queue`,
      metric: this.metricDeadLetterMessages(),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    addAlarmActions(props.alarmActions, this.deadLetterAlarm);
  }

  /**
   * Grants reading results by execution and by session (what the runtime's `getTrainingResultByExecution` and
   * `getTrainingResult` need): `dynamodb:GetItem` and `dynamodb:Query` on the table and its `BySession` index, and
   * `kms:Decrypt` on the key.
   */
  public grantReadResults(grantee: iam.IGrantable): iam.Grant {
    return grantResults(grantee, this.resultsTable, this.encryptionKey, false);
  }

  /**
   * Grants reading the result of one execution by its ARN only (the runtime's `getTrainingResultByExecution`, which the
   * MCP `get_training_result` tool calls): `dynamodb:GetItem` on the table and `kms:Decrypt` on the key.
   */
  public grantReadResultsByExecution(grantee: iam.IGrantable): iam.Grant {
    return grantResults(grantee, this.resultsTable, this.encryptionKey, true);
  }

  /**
   * Messages waiting in the dead-letter queue (SQS `ApproximateNumberOfMessagesVisible`).
   * @default - Maximum over 1 minute
   */
  public metricDeadLetterMessages(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period: Duration.minutes(1), ...props });
  }
}
