/**
 * Promotion across accounts: a registry account's `ModelPromotionSource` and the staging and production
 * `ApprovedModelDeployment`s of examples/promotion.ts synthesize with policies that name each other and nothing broader
 * (AWS's cross-account deployment page, https://docs.aws.amazon.com/sagemaker/latest/dg/model-registry-deploy-xaccount.html,
 * and EventBridge's cross-account delivery, https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-cross-account.html).
 */
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { promotionExampleApp, PRODUCTION_ACCOUNT, PROMOTION_REGION, REGISTRY_ACCOUNT, STAGING_ACCOUNT } from '../../examples/promotion';
import { ApprovedModelDeployment, ModelPackageGroup, ModelPromotionSource, PromotionStep } from '../../src/lifecycle';
import { storesWithoutTlsOnly, unencryptedStores, wildcardDataPlaneGrants } from '../security/checks';
import { iamReferenceProblems, identityStatements } from '../support/iam-reference';
import { expectNagClean } from '../support/nag-checks';
import { expectValidTemplate } from '../support/template-checks';

const root = (account: string) => ({ AWS: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:iam::${account}:root`]] } });
const bus = (account: string) => ({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:events:${PROMOTION_REGION}:${account}:event-bus/default`]] });
const versions = { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:sagemaker:${PROMOTION_REGION}:${REGISTRY_ACCOUNT}:model-package/churn/*`]] };
const versionsLiteral = `arn:aws:sagemaker:${PROMOTION_REGION}:${REGISTRY_ACCOUNT}:model-package/churn/*`;

/** Every principal-policy statement of the stack that names `action`. */
function statementsWith(stack: Stack, action: string): any[] {
  return identityStatements(Template.fromStack(stack).toJSON()).filter((s: any) => [s.Action].flat().includes(action));
}

describe('registry account', () => {
  const example = promotionExampleApp(new App());
  const t = Template.fromStack(example.registry);

  test('the group\'s policy: AWS\'s two statements, to the staging and production accounts only', () => {
    const principal = { AWS: [root(STAGING_ACCOUNT).AWS, root(PRODUCTION_ACCOUNT).AWS] };
    t.hasResourceProperties('AWS::SageMaker::ModelPackageGroup', {
      ModelPackageGroupName: 'churn',
      ModelPackageGroupPolicy: {
        Version: '2012-10-17',
        Statement: [
          { Sid: 'AddPermModelPackageGroup', Effect: 'Allow', Principal: principal, Action: 'sagemaker:DescribeModelPackageGroup', Resource: Match.anyValue() },
          {
            Sid: 'AddPermModelPackageVersion',
            Effect: 'Allow',
            Principal: principal,
            Action: ['sagemaker:DescribeModelPackage', 'sagemaker:ListModelPackages', 'sagemaker:UpdateModelPackage', 'sagemaker:CreateModel'],
            Resource: versions,
          },
        ],
      },
    });
  });

  test('artifacts, key and images: read, decrypt through S3, pull; to the two accounts only', () => {
    const principal = { AWS: [root(STAGING_ACCOUNT).AWS, root(PRODUCTION_ACCOUNT).AWS] };
    t.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([{
          Effect: 'Allow',
          Principal: principal,
          Action: 's3:GetObject',
          Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [Match.stringLikeRegexp('^Artifacts'), 'Arn'] }, '/churn/*']] },
        }]),
      },
    });
    t.hasResourceProperties('AWS::KMS::Key', {
      KeyPolicy: {
        Statement: Match.arrayWith([{
          Effect: 'Allow',
          Principal: principal,
          Action: 'kms:Decrypt',
          Resource: '*',
          Condition: { StringEquals: { 'kms:ViaService': `s3.${PROMOTION_REGION}.amazonaws.com` } },
        }]),
      },
    });
    // Narrower than the `ecr:*` of AWS's example: the three actions a pull needs.
    t.hasResourceProperties('AWS::ECR::Repository', {
      RepositoryPolicyText: {
        Statement: [{
          Effect: 'Allow',
          Principal: principal,
          Action: ['ecr:BatchGetImage', 'ecr:GetDownloadUrlForLayer', 'ecr:BatchCheckLayerAvailability'],
        }],
      },
    });
  });

  test('every state change of the group goes to the two default buses, with a role that may put events there only', () => {
    t.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: {
        'source': ['aws.sagemaker'],
        'detail-type': ['SageMaker Model Package State Change'],
        'detail': { ModelPackageGroupName: [{ 'equals-ignore-case': 'churn' }] },
      },
      Targets: [
        { Arn: bus(STAGING_ACCOUNT), Id: Match.anyValue(), RoleArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('DeliveryRole'), 'Arn'] } },
        { Arn: bus(PRODUCTION_ACCOUNT), Id: Match.anyValue(), RoleArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('DeliveryRole'), 'Arn'] } },
      ],
    });
    expect(statementsWith(example.registry, 'events:PutEvents')).toEqual([
      { Action: 'events:PutEvents', Effect: 'Allow', Resource: bus(STAGING_ACCOUNT) },
      { Action: 'events:PutEvents', Effect: 'Allow', Resource: bus(PRODUCTION_ACCOUNT) },
    ]);
    t.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: {
        Statement: [{
          Action: 'sts:AssumeRole',
          Effect: 'Allow',
          Principal: { Service: 'events.amazonaws.com' },
          Condition: { StringEquals: { 'aws:SourceAccount': REGISTRY_ACCOUNT } },
        }],
      },
    });
  });

  test('the production approver may set the Production stage only (sagemaker:ModelLifeCycle:stage)', () => {
    expect(statementsWith(example.registry, 'sagemaker:UpdateModelPackage')).toEqual([{
      Action: 'sagemaker:UpdateModelPackage',
      Effect: 'Allow',
      Resource: versions,
      Condition: { StringEquals: { 'sagemaker:ModelLifeCycle:stage': 'Production' } },
    }]);
  });

  test('every action exists and every ARN fits its resource type; the template passes the schema checks', () => {
    expect(iamReferenceProblems(t.toJSON())).toEqual([]);
    expectValidTemplate(example.registry);
  });
});

describe('staging and production accounts', () => {
  const example = promotionExampleApp(new App());

  test.each([
    ['staging', () => example.staging, STAGING_ACCOUNT],
    ['production', () => example.production, PRODUCTION_ACCOUNT],
  ])('%s: its default bus takes the group\'s state changes from the registry account only', (_name, stackOf, account) => {
    Template.fromStack(stackOf()).hasResourceProperties('AWS::Events::EventBusPolicy', {
      EventBusName: 'default',
      Statement: {
        Effect: 'Allow',
        Principal: root(REGISTRY_ACCOUNT),
        Action: 'events:PutEvents',
        Resource: bus(account),
        Condition: { StringEquals: { 'events:source': 'aws.sagemaker', 'events:detail-type': 'SageMaker Model Package State Change' } },
      },
    });
    Template.fromStack(stackOf()).resourceCountIs('AWS::Events::EventBusPolicy', 1);
  });

  test('staging: approvals of the registry\'s group from the registry account and region; may record on its versions', () => {
    const t = Template.fromStack(example.staging);
    t.hasResourceProperties('AWS::Events::Rule', { EventPattern: registryApprovals({}) });
    t.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({
          DEPLOY_PROMOTION_STEP: 'staging',
          DEPLOY_MODEL_PACKAGE_GROUP_ARN: `arn:aws:sagemaker:${PROMOTION_REGION}:${REGISTRY_ACCOUNT}:model-package-group/churn`,
        }),
      },
    });
    expect(statementsWith(example.staging, 'sagemaker:UpdateModelPackage')).toEqual([{ Action: 'sagemaker:UpdateModelPackage', Effect: 'Allow', Resource: versionsLiteral }]);
  });

  test('production: only the Production/Approved stage of an approved version routes to it; it may describe the versions, not update them', () => {
    const t = Template.fromStack(example.production);
    t.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: registryApprovals({ ModelLifeCycle: { Stage: ['Production'], StageStatus: ['Approved'] } }),
    });
    t.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ DEPLOY_PROMOTION_STEP: 'production', DEPLOY_REQUIRED_STAGE: 'Production', DEPLOY_REQUIRED_STAGE_STATUS: 'Approved' }) },
    });
    expect(statementsWith(example.production, 'sagemaker:UpdateModelPackage')).toEqual([]);
    expect(statementsWith(example.production, 'sagemaker:DescribeModelPackage')).toEqual(expect.arrayContaining([
      { Action: 'sagemaker:DescribeModelPackage', Effect: 'Allow', Resource: versionsLiteral },
    ]));
  });

  test('no statement of either account names a resource of any account but its own and the registry\'s', () => {
    for (const [stack, own] of [[example.staging, STAGING_ACCOUNT], [example.production, PRODUCTION_ACCOUNT]] as const) {
      const accounts = new Set([...JSON.stringify(Template.fromStack(stack).toJSON()).matchAll(/:(\d{12}):/g)].map((m) => m[1]));
      expect([...accounts].sort()).toEqual([REGISTRY_ACCOUNT, own].sort());
      expect(iamReferenceProblems(Template.fromStack(stack).toJSON())).toEqual([]);
      expectValidTemplate(stack);
    }
  });
});

describe('validation', () => {
  const registry = () => new Stack(new App(), 'Registry', { env: { account: REGISTRY_ACCOUNT, region: PROMOTION_REGION } });

  test('fails if a target account is malformed, the registry itself, repeated, or none is given', () => {
    const stack = registry();
    const group = new ModelPackageGroup(stack, 'G', { modelPackageGroupName: 'churn' });
    expect(() => new ModelPromotionSource(stack, 'P', { modelPackageGroup: group, targetAccounts: ['123', REGISTRY_ACCOUNT, STAGING_ACCOUNT, STAGING_ACCOUNT] }))
      .toThrow(/targetAccounts: got '123', expected a 12-digit AWS account id[\s\S]*targetAccounts: got '111111111111', expected another account than the registry's own[\s\S]*expected each account once/);
    expect(() => new ModelPromotionSource(stack, 'Q', { modelPackageGroup: group, targetAccounts: [] })).toThrow(/targetAccounts: got '\[\]', expected at least one account/);
  });

  test('fails if the production gate or an approved stage is not a ModelLifeCycle name', () => {
    expect(() => PromotionStep.production({ stage: 'Prod uction', stageStatus: 'OK!' }))
      .toThrow(/stage: got 'Prod uction', expected 1-63 letters, digits or hyphens; stageStatus: got 'OK!'/);
    const stack = registry();
    const group = new ModelPackageGroup(stack, 'G', { modelPackageGroupName: 'churn' });
    expect(() => group.grantApproveStage(new iam.Role(stack, 'R', { assumedBy: new iam.AccountRootPrincipal() }), 'Pre Production'))
      .toThrow(/grantApproveStage: stage: got 'Pre Production'/);
  });

  test('an imported bucket gets no policy here: a warning says so', () => {
    const stack = registry();
    const group = new ModelPackageGroup(stack, 'G', { modelPackageGroupName: 'churn' });
    new ModelPromotionSource(stack, 'P', { modelPackageGroup: group, targetAccounts: [STAGING_ACCOUNT], artifactsBucket: s3.Bucket.fromBucketName(stack, 'B', 'elsewhere') });
    const warnings = stack.node.findAll().flatMap((c) => c.node.metadata).filter((m) => m.type === 'aws:cdk:warning').map((m) => String(m.data));
    expect(warnings).toEqual(expect.arrayContaining([expect.stringMatching(/artifactsBucket is imported/)]));
  });

  test('a group of this account gets no bus policy; allowRegistryEvents: false leaves a foreign group\'s bus alone', () => {
    const own = registry();
    new ApprovedModelDeployment(own, 'D', {
      modelPackageGroup: new ModelPackageGroup(own, 'G', { modelPackageGroupName: 'churn' }),
      initialModelPackageArn: `arn:aws:sagemaker:${PROMOTION_REGION}:${REGISTRY_ACCOUNT}:model-package/churn/1`,
    });
    Template.fromStack(own).resourceCountIs('AWS::Events::EventBusPolicy', 0);
    const target = new Stack(new App(), 'Target', { env: { account: STAGING_ACCOUNT, region: PROMOTION_REGION } });
    new ApprovedModelDeployment(target, 'D', {
      modelPackageGroup: ModelPackageGroup.fromModelPackageGroupArn(target, 'G', `arn:aws:sagemaker:${PROMOTION_REGION}:${REGISTRY_ACCOUNT}:model-package-group/churn`),
      initialModelPackageArn: `arn:aws:sagemaker:${PROMOTION_REGION}:${REGISTRY_ACCOUNT}:model-package/churn/1`,
      allowRegistryEvents: false,
    });
    Template.fromStack(target).resourceCountIs('AWS::Events::EventBusPolicy', 0);
  });
});

test('the three stacks pass cdk-nag AwsSolutions and the examples\' security review (stores encrypted and TLS-only)', () => {
  const app = new App();
  const example = promotionExampleApp(app);
  for (const stack of [example.registry, example.staging, example.production]) {
    const template = Template.fromStack(stack).toJSON();
    expect([...unencryptedStores(template), ...storesWithoutTlsOnly(template)]).toEqual([]);
  }
  // The registry grants nothing account-wide (the deploying handlers' ListModelPackages is on * as IAM requires).
  expect(wildcardDataPlaneGrants(Template.fromStack(example.registry).toJSON())).toEqual([]);
  expectNagClean(app);
});

/** The pattern of a deploying account's rule: approved versions of the registry's group, from its account and region. */
function registryApprovals(detail: Record<string, unknown>) {
  return {
    'source': ['aws.sagemaker'],
    'account': [REGISTRY_ACCOUNT],
    'region': [PROMOTION_REGION],
    'detail-type': ['SageMaker Model Package State Change'],
    'detail': { ModelPackageGroupName: [{ 'equals-ignore-case': 'churn' }], ModelApprovalStatus: ['Approved'], ...detail },
  };
}
