import { Annotations, Stack, Token } from 'aws-cdk-lib';
import * as ecr from 'aws-cdk-lib/aws-ecr';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { ModelPackageGroup } from './model-package-group';
import { MODEL_PACKAGE_STATE_CHANGE_DETAIL_TYPE } from '../private/contract.generated';
import { defaultBusArn } from '../private/default-bus';
import { IAM_ACTION } from '../private/iam-actions';
import { PropValidator } from '../private/validation';

/** Props of a `ModelPromotionSource`. */
export interface ModelPromotionSourceProps {
  /** The registry's group whose versions the target accounts deploy. */
  readonly modelPackageGroup: ModelPackageGroup;
  /**
   * The accounts that deploy the group's versions (e.g. staging and production), in this stack's region: each is added
   * to the group's cross-account readers and gets the group's events on its default event bus.
   */
  readonly targetAccounts: string[];
  /**
   * The bucket holding the versions' model artifacts: its policy lets the target accounts `s3:GetObject` on
   * the artifacts key pattern (AWS's page shows `s3:*` on the bucket's objects as an example; reading is what a deploy needs).
   *
   * @default - no bucket policy (share the artifacts some other way)
   */
  readonly artifactsBucket?: s3.IBucket;
  /**
   * The objects of the artifacts bucket the target accounts may read.
   *
   * @default '*'
   */
  readonly artifactsKeyPattern?: string;
  /**
   * The key the artifacts are encrypted with: its key policy lets the target accounts `kms:Decrypt` through S3 in this
   * region (`kms:ViaService`). AWS's page uses a grant (CreateGrant with Decrypt and GenerateDataKey) instead; that a
   * key-policy statement is an equivalent is not confirmed by that page.
   *
   * @default - no key policy statement
   */
  readonly artifactsKey?: kms.IKey;
  /**
   * The repositories of the versions' inference images: their policies let the target accounts pull
   * (`ecr:BatchGetImage`, `ecr:GetDownloadUrlForLayer`, `ecr:BatchCheckLayerAvailability`), narrower than the `ecr:*`
   * of AWS's example. Images in AWS's own registries (the built-in algorithms and frameworks) need none.
   *
   * @default - none
   */
  readonly imageRepositories?: ecr.IRepository[];
}

/**
 * The registry account's side of promoting a model package group's versions to other accounts
 * (https://docs.aws.amazon.com/sagemaker/latest/dg/model-registry-deploy-xaccount.html): the group's resource policy
 * for each target account, read of the artifacts (bucket and key policies) and pull of the images, and a rule that
 * delivers every "SageMaker Model Package State Change" of the group (approvals and ModelLifeCycle stage changes) to
 * each target account's default event bus in this region, with a role allowed `events:PutEvents` on those buses only
 * (https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-cross-account.html). Each target account's
 * `ApprovedModelDeployment`, given the group by ARN, lets this account put those events on its bus.
 */
export class ModelPromotionSource extends Construct {
  /** Delivers the group's state changes to the target accounts' default buses. */
  public readonly forwardingRule: events.Rule;
  /** The role the rule's targets put events with: `events:PutEvents` on the target accounts' default buses. */
  public readonly deliveryRole: iam.Role;

  constructor(scope: Construct, id: string, props: ModelPromotionSourceProps) {
    super(scope, id);
    const v = new PropValidator(`ModelPromotionSource '${id}'`);
    const stack = Stack.of(this);
    v.check(props.targetAccounts.length > 0, 'targetAccounts', '[]', 'at least one account');
    for (const account of props.targetAccounts) {
      if (Token.isUnresolved(account)) continue;
      v.check(/^\d{12}$/.test(account), 'targetAccounts', account, 'a 12-digit AWS account id');
      v.check(Token.isUnresolved(stack.account) || account !== stack.account, 'targetAccounts', account, 'another account than the registry\'s own');
    }
    v.check(new Set(props.targetAccounts).size === props.targetAccounts.length, 'targetAccounts', props.targetAccounts.join(', '), 'each account once');
    v.throwIfInvalid();

    const group = props.modelPackageGroup;
    const accounts = props.targetAccounts;
    for (const account of accounts) group.addCrossAccountReader(account);
    const principals = accounts.map((a) => new iam.AccountPrincipal(a));

    if (props.artifactsBucket) {
      const added = props.artifactsBucket.addToResourcePolicy(new iam.PolicyStatement({
        principals,
        actions: [IAM_ACTION.s3.GetObject],
        resources: [props.artifactsBucket.arnForObjects(props.artifactsKeyPattern ?? '*')],
      }));
      if (!added.statementAdded) {
        Annotations.of(this).addWarningV2('cdk-sagemaker-mcp:promotionBucketPolicy',
          'artifactsBucket is imported: its policy cannot be changed here, so the target accounts get no read of the artifacts; add the statement where the bucket is defined');
      }
    }
    if (props.artifactsKey) {
      const added = props.artifactsKey.addToResourcePolicy(new iam.PolicyStatement({
        principals,
        actions: [IAM_ACTION.kms.Decrypt],
        resources: ['*'],
        conditions: { StringEquals: { 'kms:ViaService': `s3.${stack.region}.amazonaws.com` } },
      }), true);
      if (!added.statementAdded) {
        Annotations.of(this).addWarningV2('cdk-sagemaker-mcp:promotionKeyPolicy',
          'artifactsKey is imported: its key policy cannot be changed here; grant the target accounts Decrypt where the key is defined');
      }
    }
    for (const repository of props.imageRepositories ?? []) {
      const added = repository.addToResourcePolicy(new iam.PolicyStatement({
        principals,
        actions: [IAM_ACTION.ecr.BatchGetImage, IAM_ACTION.ecr.GetDownloadUrlForLayer, IAM_ACTION.ecr.BatchCheckLayerAvailability],
      }));
      if (!added.statementAdded) {
        Annotations.of(this).addWarningV2('cdk-sagemaker-mcp:promotionRepositoryPolicy',
          `image repository ${repository.node.path} is imported: its policy cannot be changed here; let the target accounts pull where it is defined`);
      }
    }

    // "We recommend always using IAM roles when the target of a rule is an event bus" (eb-event-bus-perms): the target
    // adds events:PutEvents on its bus to this role.
    this.deliveryRole = new iam.Role(this, 'DeliveryRole', {
      assumedBy: new iam.ServicePrincipal('events.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': stack.account } },
      }),
      description: `Delivers the state changes of model package group ${group.modelPackageGroupName} to ${accounts.join(', ')}`,
    });
    this.forwardingRule = new events.Rule(this, 'ForwardingRule', {
      description: `Approvals and stage changes of model package group ${group.modelPackageGroupName}, to the deploying accounts`,
      eventPattern: {
        source: ['aws.sagemaker'],
        detailType: [MODEL_PACKAGE_STATE_CHANGE_DETAIL_TYPE],
        detail: { ModelPackageGroupName: events.Match.equalsIgnoreCase(group.modelPackageGroupName) },
      },
    });
    for (const account of accounts) {
      const bus = events.EventBus.fromEventBusArn(this, `Bus${account}`, defaultBusArn(stack, account));
      this.forwardingRule.addTarget(new targets.EventBus(bus, { role: this.deliveryRole }));
    }
  }
}
