import { Arn, ArnFormat, CfnParameter, Duration, Stack, Token, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { ApprovedDeploymentFunction } from './approved-deployment-function';
import { IModelPackageGroup } from './model-package-group';
import { PromotionStep } from './promotion-step';
import { FunctionNetworkOptions } from '../core/function-network';
import { ModelPackageSourceOptions, ModelSource } from '../core/model-source';
import {
  DEPLOY_FINAL_STACK_STATUSES,
  DEPLOY_METRIC_NAME,
  DEPLOY_METRIC_NAMESPACE,
  DEPLOY_METRIC_OUTCOME_DIMENSION,
  DEPLOY_METRIC_STACK_DIMENSION,
  LIFECYCLE_ENV,
  MODEL_PACKAGE_STATE_CHANGE_DETAIL_TYPE,
  STACK_STATUS_CHANGE_DETAIL_TYPE,
} from '../private/contract.generated';
import { defaultBusArn } from '../private/default-bus';
import { addAlarmActions, createEncryptedLogGroup, createKey } from '../private/encryption';
import { finishFunctionNetwork, functionVpcProps, validateFunctionNetwork } from '../private/function-vpc';
import { IAM_ACTION, iamActionsFor } from '../private/iam-actions';
import { acknowledgeGrantWildcards } from '../private/nag';
import { PropValidator } from '../private/validation';

/** What the deployment handler reports, one metric data point each (the outcome metric). */
export enum DeploymentOutcome {
  /** UpdateStack started with the approved version. */
  UPDATED = 'updated',
  /** Nothing to do: another group, not an approval (e.g. a ModelLifeCycle stage change), or already serving. */
  SKIPPED = 'skipped',
  /**
   * Not deployed: older than the serving version, rolled back before, of a same-named group in another account, region
   * or partition, or the stack not updatable.
   */
  REFUSED = 'refused',
  /** The stack was busy: the version is deployed when the stack's running operation ends. */
  DEFERRED = 'deferred',
  /** Its stack update completed. */
  DEPLOYED = 'deployed',
  /** Its stack update was rolled back (e.g. by the endpoint's rollback alarms): the previous version serves. */
  ROLLED_BACK = 'rolled-back',
  /**
   * Its stack update ended in UPDATE_ROLLBACK_FAILED (the rollback failed: a person must fix the cause and continue the
   * rollback) or UPDATE_FAILED (not rolled back): which version serves is not known.
   */
  FAILED = 'failed',
}

/**
 * Props of an `ApprovedModelDeployment`. The network options put its handler in your VPC (it then needs a way to the
 * CloudFormation API, and to SNS when notifying: interface endpoints or a NAT).
 */
export interface ApprovedModelDeploymentProps extends FunctionNetworkOptions {
  /**
   * The group whose approved versions are deployed: of this account and region, or of a registry account
   * (a `ModelPackageGroup` imported by ARN), whose `ModelPromotionSource` delivers its events to this account.
   */
  readonly modelPackageGroup: IModelPackageGroup;
  /**
   * The step this deployment plays in a staged rollout: `PromotionStep.staging()` deploys on approval and records its
   * rollouts on the version; `PromotionStep.production()` deploys on a ModelLifeCycle stage, only what staging deployed.
   *
   * @default - a single deployment: deploys each approved version, records nothing
   */
  readonly promotionStep?: PromotionStep;
  /**
   * For a group of another account: add a statement to this account's default event bus policy that lets the group's
   * account put its "SageMaker Model Package State Change" events there (`events:PutEvents`, conditions `events:source`
   * and `events:detail-type`). Set false when the bus policy is managed elsewhere.
   *
   * @default - true when the group's account is another (literal) account than this stack's
   */
  readonly allowRegistryEvents?: boolean;
  /**
   * The version the endpoint serves until one is approved: the default of the stack parameter (a versioned model
   * package ARN of the group). Later deploys (`cdk deploy`) keep the parameter's current value.
   */
  readonly initialModelPackageArn: string;
  /**
   * The stack parameter (logical id) carrying the package ARN.
   *
   * @default 'ApprovedModelPackageArn'
   */
  readonly parameterName?: string;
  /**
   * Publish every outcome (updated, skipped, refused, deployed, rolled back) to this topic.
   *
   * @default - log line and metric only
   */
  readonly notificationTopic?: sns.ITopic;
  /**
   * How long the handler waits for a stack operation in progress before it defers the version (reported as
   * `DEFERRED`; the end of that operation runs the handler again, which then deploys the newest approved version).
   * Between 0 seconds and 10 minutes.
   *
   * @default Duration.minutes(5)
   */
  readonly maxWait?: Duration;
  /**
   * How many times Lambda retries an event the handler could not process (0-2) before dead-lettering it.
   *
   * @default 2
   */
  readonly retryAttempts?: number;
  /**
   * Key of the dead-letter queue and the handler's log group.
   *
   * @default - a new key with rotation enabled
   */
  readonly encryptionKey?: kms.IKey;
  /**
   * What the dead-letter and rollback alarms do when they fire.
   *
   * @default - the alarms change state but notify nobody
   */
  readonly alarmActions?: cloudwatch.IAlarmAction[];
  /**
   * Retention of the handler's log group.
   *
   * @default logs.RetentionDays.ONE_MONTH
   */
  readonly logRetention?: logs.RetentionDays;
}

const PACKAGE_ARN = /^arn:aws[a-z-]*:sagemaker:[a-z0-9-]+:\d{12}:model-package\/[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}\/\d+$/;

/**
 * Deploys the versions of a model package group that become Approved, through CloudFormation: the stack this construct
 * is in gets a parameter holding the package ARN (which the endpoint's model is made from with this construct's
 * model source), and a bundled handler, on "SageMaker Model Package State Change" events of the group, calls
 * `UpdateStack` on this stack with the previous template, the approved ARN and every other parameter at its previous
 * value. The endpoint's own rollout (canary or linear, rolled back on its alarms) then does the deploy. See
 * https://github.com/cdk-sagemaker-mcp/cdk-sagemaker-mcp/blob/main/docs/lifecycle.md for the design and its limits.
 *
 * The handler may only `cloudformation:DescribeStacks`, `cloudformation:DescribeStackEvents` (where it reads back
 * which versions were rolled back) and `cloudformation:UpdateStack` this stack, `sagemaker:ListModelPackages` (the
 * newest approved version, after a busy stack frees; IAM authorizes it on `*` only), and publish to the notification
 * topic (in a staged rollout, also `sagemaker:UpdateModelPackage` (staging) or `sagemaker:DescribeModelPackage`
 * (production) on the group's versions). Only the group's own account and region route approvals to it: a group of a
 * registry account arrives through that account's `ModelPromotionSource`. The update runs with the stack's CloudFormation service role, which it does not pass (no
 * `iam:PassRole`), so a stack deployed without one is refused.
 */
export class ApprovedModelDeployment extends Construct {
  /** The stack parameter carrying the package ARN. */
  public readonly parameter: CfnParameter;
  /** The package ARN the endpoint's model is made from (the parameter's value). */
  public readonly modelPackageArn: string;
  /** The group deployed from. */
  public readonly modelPackageGroup: IModelPackageGroup;
  /** The handler. */
  public readonly handler: lambda.IFunction;
  /** Routes the group's model package state changes to the handler. */
  public readonly approvalRule: events.Rule;
  /**
   * Routes the end of every update of this stack to the handler: it reports its own (deployed, rolled back, failed) and,
   * once the stack takes updates again, deploys an approved version a busy stack held back.
   */
  public readonly stackStatusRule: events.Rule;
  /** Events that could not be delivered (EventBridge) or processed (Lambda, after retries). */
  public readonly deadLetterQueue: sqs.Queue;
  /** Fires when the dead-letter queue holds a message. */
  public readonly deadLetterAlarm: cloudwatch.Alarm;
  /** Fires when one of the handler's updates is rolled back. */
  public readonly rollbackAlarm: cloudwatch.Alarm;
  /** Fires when one of the handler's updates fails without a completed rollback (the stack needs a person). */
  public readonly failedAlarm: cloudwatch.Alarm;
  /** The key of the dead-letter queue and the log group. */
  public readonly encryptionKey: kms.IKey;
  /**
   * The statement of this account's default event bus policy that lets the registry account deliver the group's events.
   * @default - none: the group is of this account, or registry events are not allowed
   */
  public readonly registryEventsPolicy?: events.CfnEventBusPolicy;

  private readonly stackName: string;

  constructor(scope: Construct, id: string, props: ApprovedModelDeploymentProps) {
    super(scope, id);
    const v = new PropValidator(`ApprovedModelDeployment '${id}'`);
    v.check(!Token.isUnresolved(props.initialModelPackageArn), 'initialModelPackageArn', 'a token',
      'a literal ARN (it is the default of a stack parameter, which CloudFormation takes only as a literal string; give the stack a literal account and region)');
    v.pattern('initialModelPackageArn', props.initialModelPackageArn, PACKAGE_ARN, 'arn:<partition>:sagemaker:<region>:<account>:model-package/<group>/<version>');
    const group = props.modelPackageGroup;
    if (!Token.isUnresolved(props.initialModelPackageArn) && !Token.isUnresolved(group.modelPackageGroupName)
      && PACKAGE_ARN.test(props.initialModelPackageArn)) {
      const inGroup = props.initialModelPackageArn.split('/')[1];
      v.check(inGroup.toLowerCase() === group.modelPackageGroupName.toLowerCase(), 'initialModelPackageArn', props.initialModelPackageArn,
        `a version of the group '${group.modelPackageGroupName}'`);
    }
    v.pattern('parameterName', props.parameterName, /^[A-Za-z0-9]{1,255}$/, '1-255 letters or digits (a CloudFormation parameter logical id)');
    v.range('retryAttempts', props.retryAttempts, 0, 2, { integer: true });
    const maxWait = props.maxWait ?? Duration.minutes(5);
    if (!maxWait.isUnresolved()) v.range('maxWait', maxWait.toSeconds(), 0, 600, { unit: 'seconds' });
    validateFunctionNetwork(v, '', props);
    v.throwIfInvalid();

    const stack = Stack.of(this);
    const step = props.promotionStep;
    this.stackName = stack.stackName;
    this.modelPackageGroup = group;
    this.parameter = new CfnParameter(stack, props.parameterName ?? 'ApprovedModelPackageArn', {
      type: 'String',
      default: props.initialModelPackageArn,
      allowedPattern: PACKAGE_ARN.source.slice(1, -1),
      description: `The approved version of model package group ${group.modelPackageGroupName} the endpoint serves; set by ${this.node.path} when a version is approved`,
    });
    this.modelPackageArn = this.parameter.valueAsString;

    this.encryptionKey = props.encryptionKey ?? createKey(this, 'Key', `Encrypts the dead-letter queue and logs of ${this.node.path}`);
    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetterQueue', {
      encryption: sqs.QueueEncryption.KMS,
      encryptionMasterKey: this.encryptionKey,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      redriveAllowPolicy: { redrivePermission: sqs.RedrivePermission.ALLOW_ALL },
    });
    Validations.of(this.deadLetterQueue).acknowledge({ id: 'AwsSolutions-SQS3', reason: 'This queue is the dead-letter queue of the deployment rules and handler.' });

    const role = new iam.Role(this, 'HandlerRole', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Deploys approved model package versions by updating stack ${this.stackName}`,
    });
    const logGroup = createEncryptedLogGroup(this, 'HandlerLogs', { key: this.encryptionKey, retention: props.logRetention });
    logGroup.grantWrite(role);
    const fn = new ApprovedDeploymentFunction(this, 'Handler', {
      role,
      logGroup,
      timeout: Duration.seconds(maxWait.isUnresolved() ? 360 : maxWait.toSeconds() + 60),
      memorySize: 256,
      deadLetterQueue: this.deadLetterQueue,
      retryAttempts: props.retryAttempts ?? 2,
      maxEventAge: Duration.hours(6),
      ...functionVpcProps(props),
      environment: {
        [LIFECYCLE_ENV.STACK_NAME]: this.stackName,
        [LIFECYCLE_ENV.PARAMETER_NAME]: this.parameter.logicalId,
        [LIFECYCLE_ENV.GROUP_NAME]: group.modelPackageGroupName,
        [LIFECYCLE_ENV.GROUP_ARN]: group.modelPackageGroupArn,
        [LIFECYCLE_ENV.MAX_WAIT_SECONDS]: maxWait.isUnresolved() ? '300' : String(maxWait.toSeconds()),
        ...(props.notificationTopic ? { [LIFECYCLE_ENV.TOPIC_ARN]: props.notificationTopic.topicArn } : {}),
        ...(step ? { [LIFECYCLE_ENV.PROMOTION_STEP]: step.name } : {}),
        ...(step?.stage ? { [LIFECYCLE_ENV.REQUIRED_STAGE]: step.stage } : {}),
        ...(step?.stageStatus ? { [LIFECYCLE_ENV.REQUIRED_STAGE_STATUS]: step.stageStatus } : {}),
      },
    });
    this.handler = fn;
    finishFunctionNetwork(fn, role, props);
    Validations.of(fn).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'The bundled handlers are built and tested for nodejs22.x (esbuild target node22); the runtime moves with the library, not per deployment.',
    });
    // This stack only (by name: the handler looks it up by name, and a stack id is per creation).
    acknowledgeGrantWildcards(this, iam.Grant.addToPrincipal({
      grantee: role,
      actions: iamActionsFor('CloudFormation.DescribeStacks', 'CloudFormation.DescribeStackEvents', 'CloudFormation.UpdateStack'),
      resourceArns: [stack.formatArn({ service: 'cloudformation', resource: 'stack', resourceName: `${this.stackName}/*` })],
    }), 'This one stack (stack/<name>/*): the trailing segment of a stack ARN is the id CloudFormation assigns at creation.');
    // The newest approved version, read after a busy stack frees.
    acknowledgeGrantWildcards(this, iam.Grant.addToPrincipal({ grantee: role, actions: iamActionsFor('SageMaker.ListModelPackages'), resourceArns: ['*'] }),
      'ListModelPackages has no required resource type: IAM authorizes it on * only. The handler lists the approved versions of its one group.');
    // Staging writes its outcome on the version; production reads it (and the stage) back.
    if (step) {
      const actions = step.name === 'staging' ? [IAM_ACTION.sagemaker.UpdateModelPackage] : iamActionsFor('SageMaker.DescribeModelPackage');
      acknowledgeGrantWildcards(this, iam.Grant.addToPrincipal({ grantee: role, actions, resourceArns: [group.modelPackageVersionsArn] }),
        'The versions of this one group (model-package/<group>/*): SageMaker numbers each version, so their ARNs are not known at deploy time.');
    }
    props.notificationTopic?.grantPublish(role);
    this.encryptionKey.grant(role, IAM_ACTION.kms.Decrypt, IAM_ACTION.kms.Encrypt, IAM_ACTION.kms.GenerateDataKey);

    const target = new targets.LambdaFunction(fn, { deadLetterQueue: this.deadLetterQueue, retryAttempts: 8, maxEventAge: Duration.hours(6) });
    // Only the group's own account and region (the events' `account` and `region`): a same-named group elsewhere whose
    // events reach this bus is not this group.
    const groupArn = Arn.split(group.modelPackageGroupArn, ArnFormat.SLASH_RESOURCE_NAME);
    this.approvalRule = new events.Rule(this, 'ApprovalRule', {
      description: `Approved versions of model package group ${group.modelPackageGroupName}`,
      eventPattern: {
        source: ['aws.sagemaker'],
        account: [groupArn.account!],
        region: [groupArn.region!],
        detailType: [MODEL_PACKAGE_STATE_CHANGE_DETAIL_TYPE],
        detail: {
          ModelPackageGroupName: events.Match.equalsIgnoreCase(group.modelPackageGroupName),
          ModelApprovalStatus: ['Approved'],
          // Production: only the stage gate (the handler checks it again, with the staging outcome).
          ...(step?.name === 'production' ? { ModelLifeCycle: { Stage: [step.stage!], StageStatus: [step.stageStatus!] } } : {}),
        },
      },
      targets: [target],
    });
    const foreign = !Token.isUnresolved(groupArn.account!) && !Token.isUnresolved(stack.account) && groupArn.account !== stack.account;
    if (props.allowRegistryEvents ?? foreign) {
      this.registryEventsPolicy = this.allowRegistryEvents(groupArn.account!);
    }
    this.stackStatusRule = new events.Rule(this, 'StackStatusRule', {
      description: `The end of every update of stack ${this.stackName} (model deployments and the updates they wait for)`,
      eventPattern: {
        source: ['aws.cloudformation'],
        detailType: [STACK_STATUS_CHANGE_DETAIL_TYPE],
        resources: [stack.stackId],
        detail: { 'status-details': { status: [...DEPLOY_FINAL_STACK_STATUSES] } },
      },
      targets: [target],
    });
    // EventBridge writes undeliverable events to the KMS-encrypted dead-letter queue: the key must let it.
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
      alarmDescription: `Model deployment events that ${this.node.path} could not process are waiting in its dead-letter queue`,
      metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period: Duration.minutes(1) }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    this.rollbackAlarm = new cloudwatch.Alarm(this, 'RollbackAlarm', {
      alarmDescription: `A model version that ${this.node.path} deployed was rolled back: the previous version still serves`,
      metric: this.metricOutcome(DeploymentOutcome.ROLLED_BACK),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    this.failedAlarm = new cloudwatch.Alarm(this, 'FailedAlarm', {
      alarmDescription: `A stack update that ${this.node.path} started failed without a completed rollback: stack ${this.stackName} needs a person `
        + '(UPDATE_ROLLBACK_FAILED: fix the cause and continue the rollback; UPDATE_FAILED: roll back or update)',
      metric: this.metricOutcome(DeploymentOutcome.FAILED),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    addAlarmActions(props.alarmActions, this.deadLetterAlarm, this.rollbackAlarm, this.failedAlarm);
  }

  /**
   * This account's default bus accepts the group's state changes from the registry account, and nothing else from it
   * (https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-event-bus-perms.html).
   */
  private allowRegistryEvents(registryAccount: string): events.CfnEventBusPolicy {
    const stack = Stack.of(this);
    const statementId = `ModelPromotion${this.node.addr}`.slice(0, 64);
    return new events.CfnEventBusPolicy(this, 'RegistryEventsPolicy', {
      eventBusName: 'default',
      statementId,
      statement: {
        Sid: statementId,
        Effect: 'Allow',
        Principal: { AWS: stack.formatArn({ service: 'iam', region: '', account: registryAccount, resource: 'root' }) },
        Action: IAM_ACTION.events.PutEvents,
        Resource: defaultBusArn(stack, stack.account),
        Condition: { StringEquals: { 'events:source': 'aws.sagemaker', 'events:detail-type': MODEL_PACKAGE_STATE_CHANGE_DETAIL_TYPE } },
      },
    });
  }

  /**
   * The endpoint's model from the deployed version: a `ModelSource` from the model package ARN, with
   * `sagemaker:DescribeModelPackage` on the group's versions (plus the artifact read and image pull of the options).
   */
  public modelSource(options: ModelPackageSourceOptions = {}): ModelSource {
    const versions = this.modelPackageGroup.modelPackageVersionsArn;
    return ModelSource.fromModelPackage(this.modelPackageArn, { modelPackageVersionsArn: versions, ...options });
  }

  /**
   * Outcomes the handler reported (`ModelDeploymentOutcome` in `CdkSageMakerMcp/ModelLifecycle`, dimensions StackName
   * and Outcome).
   * @default - Sum over 5 minutes
   */
  public metricOutcome(outcome: DeploymentOutcome, props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return new cloudwatch.Metric({
      namespace: DEPLOY_METRIC_NAMESPACE,
      metricName: DEPLOY_METRIC_NAME,
      dimensionsMap: { [DEPLOY_METRIC_STACK_DIMENSION]: this.stackName, [DEPLOY_METRIC_OUTCOME_DIMENSION]: outcome },
      statistic: 'Sum',
      period: Duration.minutes(5),
      ...props,
    });
  }
}
