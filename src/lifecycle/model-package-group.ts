import { Arn, ArnFormat, IResource, Lazy, Names, Resource, Stack, Token } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import { Construct } from 'constructs';
import { IAM_ACTION, iamActionsFor } from '../private/iam-actions';
import { acknowledgeGrantWildcards } from '../private/nag';
import { PropValidator, SAGEMAKER_NAME_EXPECTED, SAGEMAKER_NAME_PATTERN } from '../private/validation';

/** A SageMaker model package group (Model Registry): the versions a training pipeline registers, created here or imported. */
export interface IModelPackageGroup extends IResource {
  /** The group name. @attribute */
  readonly modelPackageGroupName: string;
  /** `arn:<partition>:sagemaker:<region>:<account>:model-package-group/<name>`. @attribute */
  readonly modelPackageGroupArn: string;
  /**
   * `arn:<partition>:sagemaker:<region>:<account>:model-package/<name>/*`: the ARNs of the group's versions (SageMaker
   * lowercases the group name in them).
   */
  readonly modelPackageVersionsArn: string;

  /**
   * Grants registering versions in this group (what a pipeline's RegisterModel step does): `sagemaker:CreateModelPackage`
   * on the group's versions and `sagemaker:DescribeModelPackageGroup` on the group.
   */
  grantRegister(grantee: iam.IGrantable): iam.Grant;
  /**
   * Grants reading the group and its versions: `sagemaker:DescribeModelPackageGroup` on the group,
   * `sagemaker:DescribeModelPackage` on its versions and `sagemaker:ListModelPackages` (which IAM authorizes only on `*`).
   */
  grantDescribe(grantee: iam.IGrantable): iam.Grant;
  /**
   * Grants listing and describing the group's versions (what the MCP `list_model_versions` tool calls):
   * `sagemaker:ListModelPackages` (which IAM authorizes only on `*`) and `sagemaker:DescribeModelPackage` on its versions.
   */
  grantReadVersions(grantee: iam.IGrantable): iam.Grant;
  /**
   * Grants approving or rejecting versions: `sagemaker:UpdateModelPackage` on the group's versions, with the
   * `sagemaker:ModelApprovalStatus` condition key limiting it to Approved/Rejected, and `sagemaker:DescribeModelPackage`.
   */
  grantApprove(grantee: iam.IGrantable): iam.Grant;
  /**
   * Grants moving versions through one ModelLifeCycle stage (a person's gate, such as the one a production
   * `ApprovedModelDeployment` waits for): `sagemaker:UpdateModelPackage` on the group's versions with the
   * `sagemaker:ModelLifeCycle:stage` condition key equal to `stage` (any stage status: approve or reject), and
   * `sagemaker:DescribeModelPackage` (https://docs.aws.amazon.com/sagemaker/latest/dg/model-registry-staging-construct-set-up.html).
   */
  grantApproveStage(grantee: iam.IGrantable, stage: string): iam.Grant;
}

/** Props of a `ModelPackageGroup`. */
export interface ModelPackageGroupProps {
  /**
   * The group name (`^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$`). Lowercase is safest: SageMaker lowercases it in version ARNs.
   * @default - a lowercase name generated from the construct path
   */
  readonly modelPackageGroupName?: string;
  /**
   * Description (at most 1024 characters).
   * @default - none
   */
  readonly description?: string;
  /**
   * Accounts that may deploy the group's versions: the resource policy of AWS's cross-account deployment page
   * (https://docs.aws.amazon.com/sagemaker/latest/dg/model-registry-deploy-xaccount.html), `sagemaker:DescribeModelPackageGroup`
   * on the group and `sagemaker:DescribeModelPackage`, `sagemaker:ListModelPackages`, `sagemaker:UpdateModelPackage`
   * and `sagemaker:CreateModel` on its versions (`model-package/<group>/*`). UpdateModelPackage lets those accounts
   * change a version (its approval status, lifecycle stage, metadata), as that page's policy does. The artifacts'
   * bucket and key and the images are not covered: grant those accounts read of them where they live.
   * @default - no resource policy (this account only)
   */
  readonly crossAccountReaders?: string[];
}

/** Why a grant on `model-package/<group>/*` is as narrow as it can be. */
const VERSIONS_REASON = 'Scoped to the versions of this one group (model-package/<group>/*): SageMaker numbers each version it registers, so their ARNs are not known at deploy time.';

abstract class ModelPackageGroupBase extends Resource implements IModelPackageGroup {
  public abstract readonly modelPackageGroupName: string;
  public abstract readonly modelPackageGroupArn: string;

  public get modelPackageVersionsArn(): string {
    return versionsArn(this, this.modelPackageGroupName);
  }

  /** DescribeModelPackageGroup on this group: what registering and describing both need. */
  private grantDescribeGroup(grantee: iam.IGrantable): iam.Grant {
    const actions = [IAM_ACTION.sagemaker.DescribeModelPackageGroup];
    return iam.Grant.addToPrincipal({ grantee, actions, resourceArns: [this.modelPackageGroupArn] });
  }

  public grantRegister(grantee: iam.IGrantable): iam.Grant {
    const versions = [this.modelPackageVersionsArn];
    const grant = iam.Grant.addToPrincipal({ grantee, actions: [IAM_ACTION.sagemaker.CreateModelPackage], resourceArns: versions })
      .combine(this.grantDescribeGroup(grantee));
    return acknowledgeGrantWildcards(this, grant, VERSIONS_REASON);
  }

  public grantDescribe(grantee: iam.IGrantable): iam.Grant {
    const grant = this.grantDescribeGroup(grantee)
      .combine(iam.Grant.addToPrincipal({ grantee, actions: iamActionsFor('SageMaker.DescribeModelPackage'), resourceArns: [this.modelPackageVersionsArn] }))
      .combine(iam.Grant.addToPrincipal({ grantee, actions: iamActionsFor('SageMaker.ListModelPackages'), resourceArns: ['*'] }));
    return acknowledgeGrantWildcards(this, grant, `ListModelPackages has no required resource type: IAM authorizes it on * only. ${VERSIONS_REASON}`);
  }

  public grantReadVersions(grantee: iam.IGrantable): iam.Grant {
    const grant = iam.Grant.addToPrincipal({ grantee, actions: iamActionsFor('SageMaker.DescribeModelPackage'), resourceArns: [this.modelPackageVersionsArn] })
      .combine(iam.Grant.addToPrincipal({ grantee, actions: iamActionsFor('SageMaker.ListModelPackages'), resourceArns: ['*'] }));
    return acknowledgeGrantWildcards(this, grant, `ListModelPackages has no required resource type: IAM authorizes it on * only. ${VERSIONS_REASON}`);
  }

  public grantApprove(grantee: iam.IGrantable): iam.Grant {
    const grant = iam.Grant.addToPrincipal({
      grantee,
      actions: [IAM_ACTION.sagemaker.UpdateModelPackage],
      resourceArns: [this.modelPackageVersionsArn],
      conditions: { StringEquals: { 'sagemaker:ModelApprovalStatus': ['Approved', 'Rejected'] } },
    }).combine(iam.Grant.addToPrincipal({ grantee, actions: iamActionsFor('SageMaker.DescribeModelPackage'), resourceArns: [this.modelPackageVersionsArn] }));
    return acknowledgeGrantWildcards(this, grant, VERSIONS_REASON);
  }

  public grantApproveStage(grantee: iam.IGrantable, stage: string): iam.Grant {
    if (!Token.isUnresolved(stage) && !/^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$/.test(stage)) {
      // ModelLifeCycle.Stage: "^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$" (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_ModelLifeCycle.html)
      throw new Error(`ModelPackageGroup.grantApproveStage: stage: got '${stage}', expected 1-63 letters, digits or hyphens (e.g. 'Production')`);
    }
    const grant = iam.Grant.addToPrincipal({
      grantee,
      actions: [IAM_ACTION.sagemaker.UpdateModelPackage],
      resourceArns: [this.modelPackageVersionsArn],
      conditions: { StringEquals: { 'sagemaker:ModelLifeCycle:stage': stage } },
    }).combine(iam.Grant.addToPrincipal({ grantee, actions: iamActionsFor('SageMaker.DescribeModelPackage'), resourceArns: [this.modelPackageVersionsArn] }));
    return acknowledgeGrantWildcards(this, grant, VERSIONS_REASON);
  }
}

function versionsArn(scope: Construct, groupName: string): string {
  const name = Token.isUnresolved(groupName) ? groupName : groupName.toLowerCase();
  return Stack.of(scope).formatArn({ service: 'sagemaker', resource: 'model-package', resourceName: `${name}/*` });
}

const GROUP_ARN = /^arn:aws[a-z-]*:sagemaker:[a-z0-9-]+:\d{12}:model-package-group\/[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$/;

/**
 * A SageMaker model package group (`AWS::SageMaker::ModelPackageGroup`): where a `TrainingPipeline`'s RegisterModel step
 * writes versions, which a person or CI approves, and from which `ApprovedModelDeployment` deploys.
 */
export class ModelPackageGroup extends ModelPackageGroupBase {
  /** Imports a group of this stack's account and region by name. */
  public static fromModelPackageGroupName(scope: Construct, id: string, modelPackageGroupName: string): IModelPackageGroup {
    new PropValidator(`ModelPackageGroup.fromModelPackageGroupName '${id}'`)
      .pattern('modelPackageGroupName', modelPackageGroupName, SAGEMAKER_NAME_PATTERN, SAGEMAKER_NAME_EXPECTED, 63)
      .throwIfInvalid();
    const arn = Stack.of(scope).formatArn({ service: 'sagemaker', resource: 'model-package-group', resourceName: modelPackageGroupName });
    return new ImportedModelPackageGroup(scope, id, modelPackageGroupName, arn);
  }

  /** Imports a group by ARN (`arn:<partition>:sagemaker:<region>:<account>:model-package-group/<name>`), possibly of another account. */
  public static fromModelPackageGroupArn(scope: Construct, id: string, modelPackageGroupArn: string): IModelPackageGroup {
    new PropValidator(`ModelPackageGroup.fromModelPackageGroupArn '${id}'`)
      .pattern('modelPackageGroupArn', modelPackageGroupArn, GROUP_ARN, 'arn:<partition>:sagemaker:<region>:<account>:model-package-group/<name>')
      .throwIfInvalid();
    const name = Arn.split(modelPackageGroupArn, ArnFormat.SLASH_RESOURCE_NAME).resourceName!;
    return new ImportedModelPackageGroup(scope, id, name, modelPackageGroupArn);
  }

  public readonly modelPackageGroupName: string;
  public readonly modelPackageGroupArn: string;
  /** The AWS::SageMaker::ModelPackageGroup. */
  public readonly cfnModelPackageGroup: sagemaker.CfnModelPackageGroup;
  private readonly readers: string[];

  constructor(scope: Construct, id: string, props: ModelPackageGroupProps = {}) {
    super(scope, id);
    const v = new PropValidator(`ModelPackageGroup '${id}'`);
    v.pattern('modelPackageGroupName', props.modelPackageGroupName, SAGEMAKER_NAME_PATTERN, SAGEMAKER_NAME_EXPECTED, 63);
    if (props.description !== undefined && !Token.isUnresolved(props.description)) {
      v.check(props.description.length <= 1024, 'description', `${props.description.length} characters`, 'at most 1024 characters');
    }
    for (const account of props.crossAccountReaders ?? []) {
      if (!Token.isUnresolved(account)) v.check(/^\d{12}$/.test(account), 'crossAccountReaders', account, 'a 12-digit AWS account id');
    }
    v.check(props.crossAccountReaders === undefined || props.crossAccountReaders.length > 0, 'crossAccountReaders', '[]', 'at least one account, or nothing for this account only');
    v.throwIfInvalid();

    const name = props.modelPackageGroupName
      ?? Names.uniqueResourceName(this, { maxLength: 63, separator: '-', allowedSpecialCharacters: '-' }).toLowerCase();
    this.modelPackageGroupName = name;
    this.modelPackageGroupArn = Stack.of(this).formatArn({ service: 'sagemaker', resource: 'model-package-group', resourceName: name });
    this.readers = [...props.crossAccountReaders ?? []];
    this.cfnModelPackageGroup = new sagemaker.CfnModelPackageGroup(this, 'Resource', {
      modelPackageGroupName: name,
      modelPackageGroupDescription: props.description,
      modelPackageGroupPolicy: Lazy.any({ produce: () => (this.readers.length > 0 ? this.crossAccountPolicy(this.readers) : undefined) }),
    });
  }

  /**
   * Adds an account to the cross-account readers (the group's resource policy), once however often it is added. A
   * `ModelPromotionSource` adds its target accounts.
   */
  public addCrossAccountReader(account: string): void {
    if (!Token.isUnresolved(account) && !/^\d{12}$/.test(account)) {
      throw new Error(`ModelPackageGroup '${this.node.id}': crossAccountReaders: got '${account}', expected a 12-digit AWS account id`);
    }
    if (!this.readers.includes(account)) this.readers.push(account);
  }

  /**
   * The two statements of AWS's cross-account deployment page
   * (https://docs.aws.amazon.com/sagemaker/latest/dg/model-registry-deploy-xaccount.html), with its Sids. The second
   * names CreateModel and ListModelPackages on the versions as that page does: in the Service Authorization Reference
   * CreateModel's resource type is `model` and ListModelPackages has none, but here they sit in the group's own policy,
   * which grants the other account the use of these versions from its CreateModel.
   */
  private crossAccountPolicy(accounts: string[]) {
    const principals = accounts.map((a) => new iam.AccountPrincipal(a));
    return new iam.PolicyDocument({
      statements: [
        new iam.PolicyStatement({
          sid: 'AddPermModelPackageGroup',
          principals,
          actions: [IAM_ACTION.sagemaker.DescribeModelPackageGroup],
          resources: [this.modelPackageGroupArn],
        }),
        new iam.PolicyStatement({
          sid: 'AddPermModelPackageVersion',
          principals,
          actions: [IAM_ACTION.sagemaker.DescribeModelPackage, IAM_ACTION.sagemaker.ListModelPackages, IAM_ACTION.sagemaker.UpdateModelPackage,
            IAM_ACTION.sagemaker.CreateModel],
          resources: [this.modelPackageVersionsArn],
        }),
      ],
    }).toJSON();
  }
}

class ImportedModelPackageGroup extends ModelPackageGroupBase {
  constructor(scope: Construct, id: string, public readonly modelPackageGroupName: string, public readonly modelPackageGroupArn: string) {
    super(scope, id);
  }

  public get modelPackageVersionsArn(): string {
    // An imported group's versions live in the group's own account and region.
    const arn = Arn.split(this.modelPackageGroupArn, ArnFormat.SLASH_RESOURCE_NAME);
    const name = Token.isUnresolved(this.modelPackageGroupName) ? this.modelPackageGroupName : this.modelPackageGroupName.toLowerCase();
    return Arn.format({ ...arn, resource: 'model-package', resourceName: `${name}/*` });
  }
}
