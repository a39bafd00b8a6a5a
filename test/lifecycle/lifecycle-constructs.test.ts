import { App, Duration, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sns from 'aws-cdk-lib/aws-sns';
import { addLifecycleExample } from '../../examples/lifecycle';
import { ContainerImage, InstanceType, ModelSource } from '../../src/core';
import { ApprovedModelDeployment, DeploymentOutcome, ModelPackageGroup } from '../../src/lifecycle';
import { PipelineDefinition, TrainingPipeline } from '../../src/pipelines';
import { RealtimeEndpoint } from '../../src/realtime';
import { iamReferenceProblems, iamStatements, identityStatements } from '../support/iam-reference';
import { expectValidTemplate } from '../support/template-checks';

const ENV = { account: '123456789012', region: 'us-east-1' };
const ARN1 = 'arn:aws:sagemaker:us-east-1:123456789012:model-package/churn/1';
const newStack = () => new Stack(new App(), 'Endpoint', { env: ENV });

/** Every statement of the stack's identity policies that names one of `actions`. */
function statementsWith(stack: Stack, ...actions: string[]): any[] {
  return identityStatements(Template.fromStack(stack).toJSON())
    .filter((s: any) => [s.Action].flat().some((a: string) => actions.includes(a)));
}

describe('ModelPackageGroup', () => {
  test('creates the group with the given name and, for cross-account readers, the two statements of AWS\'s cross-account deployment page', () => {
    // https://docs.aws.amazon.com/sagemaker/latest/dg/model-registry-deploy-xaccount.html: DescribeModelPackageGroup on
    // the group; DescribeModelPackage, ListModelPackages, UpdateModelPackage and CreateModel on model-package/<group>/*.
    const stack = newStack();
    new ModelPackageGroup(stack, 'Group', { modelPackageGroupName: 'churn', crossAccountReaders: ['210987654321'] });
    const template = Template.fromStack(stack);
    const principal = { AWS: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':iam::210987654321:root']] } };
    template.hasResourceProperties('AWS::SageMaker::ModelPackageGroup', {
      ModelPackageGroupName: 'churn',
      ModelPackageGroupPolicy: {
        Version: '2012-10-17',
        Statement: [
          {
            Sid: 'AddPermModelPackageGroup',
            Effect: 'Allow',
            Principal: principal,
            Action: 'sagemaker:DescribeModelPackageGroup',
            Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':sagemaker:us-east-1:123456789012:model-package-group/churn']] },
          },
          {
            Sid: 'AddPermModelPackageVersion',
            Effect: 'Allow',
            Principal: principal,
            Action: ['sagemaker:DescribeModelPackage', 'sagemaker:ListModelPackages', 'sagemaker:UpdateModelPackage', 'sagemaker:CreateModel'],
            Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':sagemaker:us-east-1:123456789012:model-package/churn/*']] },
          },
        ],
      },
    });
    // AND every action exists and every ARN fits a resource type of its statement (the Service Authorization Reference)
    expect(iamReferenceProblems(template.toJSON())).toEqual([]);
    expect(iamStatements(template.toJSON()).map((s) => s.where)).toEqual(expect.arrayContaining([
      expect.stringMatching(/\(AWS::SageMaker::ModelPackageGroup\) ModelPackageGroupPolicy\.Statement\.1$/),
    ]));
  });

  test('fails naming every bad prop at once', () => {
    const stack = newStack();
    expect(() => new ModelPackageGroup(stack, 'Group', { modelPackageGroupName: 'no_underscores', crossAccountReaders: ['123'] }))
      .toThrow(/modelPackageGroupName: got 'no_underscores'[\s\S]*crossAccountReaders: got '123', expected a 12-digit AWS account id/);
    expect(() => ModelPackageGroup.fromModelPackageGroupArn(stack, 'Bad', 'arn:aws:sagemaker:us-east-1:123456789012:model-package/churn/1'))
      .toThrow(/modelPackageGroupArn: got .*expected arn:<partition>:sagemaker:<region>:<account>:model-package-group\/<name>/);
  });

  describe('grants', () => {
    test('register, describe, approve: the documented actions on the group and its versions only', () => {
      const stack = newStack();
      const group = new ModelPackageGroup(stack, 'Group', { modelPackageGroupName: 'Churn' });
      const role = new iam.Role(stack, 'R', { assumedBy: new iam.AccountRootPrincipal() });
      group.grantRegister(role);
      group.grantDescribe(role);
      group.grantApprove(role);
      const versions = { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':sagemaker:us-east-1:123456789012:model-package/churn/*']] };
      const groupArn = { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':sagemaker:us-east-1:123456789012:model-package-group/Churn']] };
      expect(statementsWith(stack, 'sagemaker:CreateModelPackage')).toEqual([{ Action: 'sagemaker:CreateModelPackage', Effect: 'Allow', Resource: versions }]);
      expect(statementsWith(stack, 'sagemaker:DescribeModelPackageGroup')).toEqual([
        { Action: 'sagemaker:DescribeModelPackageGroup', Effect: 'Allow', Resource: groupArn },
      ]);
      expect(statementsWith(stack, 'sagemaker:ListModelPackages')).toEqual([{ Action: 'sagemaker:ListModelPackages', Effect: 'Allow', Resource: '*' }]);
      expect(statementsWith(stack, 'sagemaker:UpdateModelPackage')).toEqual([{
        Action: 'sagemaker:UpdateModelPackage',
        Effect: 'Allow',
        Resource: versions,
        Condition: { StringEquals: { 'sagemaker:ModelApprovalStatus': ['Approved', 'Rejected'] } },
      }]);
    });

    test('an imported group of another account grants on that account\'s versions', () => {
      const stack = newStack();
      const group = ModelPackageGroup.fromModelPackageGroupArn(stack, 'G', 'arn:aws:sagemaker:eu-west-1:210987654321:model-package-group/fraud');
      expect(stack.resolve(group.modelPackageVersionsArn)).toBe('arn:aws:sagemaker:eu-west-1:210987654321:model-package/fraud/*');
    });
  });
});

describe('ModelSource.fromModelPackage', () => {
  test('a model whose container names the package, with describe, artifact read and image pull on its role', () => {
    const stack = newStack();
    const bucket = s3.Bucket.fromBucketName(stack, 'B', 'artifacts');
    new RealtimeEndpoint(stack, 'E', {
      model: ModelSource.fromModelPackage(ARN1, { artifactsBucket: bucket, artifactsKeyPattern: 'models/*', images: [ContainerImage.xgboost('1.7-1')] }),
      instanceType: InstanceType.of('ml.m5.xlarge'),
    });
    const t = Template.fromStack(stack);
    t.hasResourceProperties('AWS::SageMaker::Model', { Containers: [{ ModelPackageName: ARN1 }], PrimaryContainer: Match.absent() });
    expect(statementsWith(stack, 'sagemaker:DescribeModelPackage')).toEqual([{ Action: 'sagemaker:DescribeModelPackage', Effect: 'Allow', Resource: ARN1 }]);
    expect(JSON.stringify(statementsWith(stack, 's3:GetObject*'))).toContain('artifacts/models/*');
    expect(statementsWith(stack, 'ecr:BatchGetImage')).toHaveLength(1);
  });

  test('fails for a token ARN without the versions it may be', () => {
    const stack = newStack();
    expect(() => ModelSource.fromModelPackage(stack.resolve('x') && (new sns.Topic(stack, 'T')).topicArn))
      .toThrow(/modelPackageVersionsArn: .*modelPackageArn is a token/);
    expect(() => ModelSource.fromModelPackage('arn:aws:sagemaker:us-east-1:123456789012:model/churn'))
      .toThrow(/modelPackageArn: got .*model-package\/<group>\/<version>/);
  });
});

describe('ApprovedModelDeployment', () => {
  function deployment(props: Partial<ConstructorParameters<typeof ApprovedModelDeployment>[2]> = {}) {
    const stack = newStack();
    const group = new ModelPackageGroup(stack, 'Group', { modelPackageGroupName: 'churn' });
    const d = new ApprovedModelDeployment(stack, 'Deploy', { modelPackageGroup: group, initialModelPackageArn: ARN1, ...props });
    return { stack, group, d };
  }

  test('a stack parameter (default: the initial version) feeds the endpoint\'s model', () => {
    const { stack, d } = deployment();
    new RealtimeEndpoint(stack, 'E', { model: d.modelSource(), instanceType: InstanceType.of('ml.m5.xlarge') });
    const t = Template.fromStack(stack);
    t.hasParameter('ApprovedModelPackageArn', { Type: 'String', Default: ARN1 });
    t.hasResourceProperties('AWS::SageMaker::Model', { Containers: [{ ModelPackageName: { Ref: 'ApprovedModelPackageArn' } }] });
  });

  test('rules: approvals of this group in its own account and region, and the end of every update of this stack', () => {
    const { stack } = deployment();
    const t = Template.fromStack(stack);
    t.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: {
        'source': ['aws.sagemaker'],
        'account': ['123456789012'],
        'region': ['us-east-1'],
        'detail-type': ['SageMaker Model Package State Change'],
        'detail': { ModelPackageGroupName: [{ 'equals-ignore-case': 'churn' }], ModelApprovalStatus: ['Approved'] },
      },
    });
    t.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: {
        'source': ['aws.cloudformation'],
        'detail-type': ['CloudFormation Stack Status Change'],
        'resources': [{ Ref: 'AWS::StackId' }],
        'detail': {
          'status-details': { status: ['UPDATE_COMPLETE', 'UPDATE_FAILED', 'UPDATE_ROLLBACK_COMPLETE', 'UPDATE_ROLLBACK_FAILED', 'IMPORT_COMPLETE', 'IMPORT_ROLLBACK_COMPLETE'] },
        },
      },
    });
    t.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({
          DEPLOY_STACK_NAME: 'Endpoint',
          DEPLOY_MODEL_PACKAGE_PARAMETER: 'ApprovedModelPackageArn',
          DEPLOY_MODEL_PACKAGE_GROUP: 'churn',
          DEPLOY_MAX_WAIT_SECONDS: '300',
          DEPLOY_MODEL_PACKAGE_GROUP_ARN: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':sagemaker:us-east-1:123456789012:model-package-group/churn']] },
        }),
      },
      DeadLetterConfig: { TargetArn: Match.anyValue() },
      Timeout: 360,
    });
  });

  test('a group imported from a central registry account: approvals are routed from that account and region only', () => {
    const stack = newStack();
    const group = ModelPackageGroup.fromModelPackageGroupArn(stack, 'Central', 'arn:aws:sagemaker:eu-west-1:210987654321:model-package-group/churn');
    new ApprovedModelDeployment(stack, 'Deploy', { modelPackageGroup: group, initialModelPackageArn: 'arn:aws:sagemaker:eu-west-1:210987654321:model-package/churn/1' });
    Template.fromStack(stack).hasResourceProperties('AWS::Events::Rule', {
      EventPattern: Match.objectLike({ source: ['aws.sagemaker'], account: ['210987654321'], region: ['eu-west-1'] }),
    });
  });

  test('an environment-agnostic stack: approvals from the account and region it is deployed to', () => {
    const stack = new Stack(new App(), 'Agnostic');
    const group = new ModelPackageGroup(stack, 'Group', { modelPackageGroupName: 'churn' });
    new ApprovedModelDeployment(stack, 'Deploy', { modelPackageGroup: group, initialModelPackageArn: ARN1 });
    Template.fromStack(stack).hasResourceProperties('AWS::Events::Rule', {
      EventPattern: Match.objectLike({ source: ['aws.sagemaker'], account: [{ Ref: 'AWS::AccountId' }], region: [{ Ref: 'AWS::Region' }] }),
    });
  });

  test('alarms: a rolled-back update, and a failed one that needs a person (UPDATE_ROLLBACK_FAILED, UPDATE_FAILED)', () => {
    const stack = newStack();
    const group = new ModelPackageGroup(stack, 'Group', { modelPackageGroupName: 'churn' });
    const d = new ApprovedModelDeployment(stack, 'Deploy', { modelPackageGroup: group, initialModelPackageArn: ARN1 });
    const t = Template.fromStack(stack);
    t.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ModelDeploymentOutcome',
      Dimensions: Match.arrayWith([{ Name: 'Outcome', Value: 'failed' }]),
      AlarmDescription: Match.stringLikeRegexp('needs a person'),
    });
    expect(d.failedAlarm).toBeDefined();
  });

  describe('grants', () => {
    test('the handler may describe and update this stack only, publish to its topic, and pass no role', () => {
      const stack = newStack();
      const group = new ModelPackageGroup(stack, 'Group', { modelPackageGroupName: 'churn' });
      const topic = new sns.Topic(stack, 'Topic');
      new ApprovedModelDeployment(stack, 'Deploy', { modelPackageGroup: group, initialModelPackageArn: ARN1, notificationTopic: topic });
      expect(statementsWith(stack, 'cloudformation:UpdateStack')).toEqual([{
        Action: ['cloudformation:DescribeStacks', 'cloudformation:DescribeStackEvents', 'cloudformation:UpdateStack'],
        Effect: 'Allow',
        Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':cloudformation:us-east-1:123456789012:stack/Endpoint/*']] },
      }]);
      expect(statementsWith(stack, 'sns:Publish')).toHaveLength(1);
      // The newest approved version after a busy stack frees: ListModelPackages, which IAM authorizes on * only.
      expect(statementsWith(stack, 'sagemaker:ListModelPackages')).toEqual([{ Action: 'sagemaker:ListModelPackages', Effect: 'Allow', Resource: '*' }]);
      expect(statementsWith(stack, 'iam:PassRole')).toEqual([]);
    });
  });

  test('the outcome metric: ModelDeploymentOutcome by StackName and Outcome', () => {
    const { stack, d } = deployment();
    expect(stack.resolve(d.metricOutcome(DeploymentOutcome.ROLLED_BACK).toMetricConfig().metricStat)).toMatchObject({
      namespace: 'CdkSageMakerMcp/ModelLifecycle',
      metricName: 'ModelDeploymentOutcome',
      statistic: 'Sum',
      dimensions: [{ name: 'Outcome', value: 'rolled-back' }, { name: 'StackName', value: 'Endpoint' }],
    });
  });

  test('fails naming every bad prop at once', () => {
    const stack = newStack();
    const group = new ModelPackageGroup(stack, 'Group', { modelPackageGroupName: 'churn' });
    expect(() => new ApprovedModelDeployment(stack, 'D', {
      modelPackageGroup: group,
      initialModelPackageArn: 'arn:aws:sagemaker:us-east-1:123456789012:model-package/fraud/3',
      retryAttempts: 3,
      maxWait: Duration.minutes(11),
    })).toThrow(/initialModelPackageArn: got .*fraud\/3', expected a version of the group 'churn'[\s\S]*retryAttempts[\s\S]*maxWait/);
    expect(() => new ApprovedModelDeployment(new Stack(new App(), 'S'), 'D', {
      modelPackageGroup: group,
      initialModelPackageArn: new Stack(new App(), 'S2').formatArn({ service: 'sagemaker', resource: 'model-package', resourceName: 'churn/1' }),
    })).toThrow(/initialModelPackageArn: got 'a token', expected a literal ARN/);
  });
});

describe('TrainingPipeline.modelPackageGroup', () => {
  const definition = (groupName: string) => PipelineDefinition.fromObject({
    Version: '2020-12-01',
    Steps: [{ Name: 'Register', Type: 'RegisterModel', Arguments: { ModelPackageGroupName: groupName, ModelApprovalStatus: 'PendingManualApproval' } }],
  });
  const role = (stack: Stack) => new iam.Role(stack, 'Role', { assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com') });

  test('replaces MODEL_PACKAGE_GROUP_NAME with the group\'s name and lets the pipeline role register in it', () => {
    const stack = newStack();
    const group = new ModelPackageGroup(stack, 'Group', { modelPackageGroupName: 'churn' });
    new TrainingPipeline(stack, 'P', { definition: definition(TrainingPipeline.MODEL_PACKAGE_GROUP_NAME), role: role(stack), modelPackageGroup: group });
    const body = Object.values(Template.fromStack(stack).findResources('AWS::SageMaker::Pipeline'))[0].Properties.PipelineDefinition.PipelineDefinitionBody;
    expect(JSON.parse(body).Steps[0].Arguments.ModelPackageGroupName).toBe('churn');
    expect(statementsWith(stack, 'sagemaker:CreateModelPackage')).toHaveLength(1);
  });

  test('fails if a RegisterModel step names another group, or the placeholder is used without a group', () => {
    const stack = newStack();
    const group = new ModelPackageGroup(stack, 'Group', { modelPackageGroupName: 'churn' });
    expect(() => new TrainingPipeline(stack, 'P', { definition: definition('fraud'), role: role(stack), modelPackageGroup: group }))
      .toThrow(/definition: got 'a RegisterModel step writing to group 'fraud'', expected the modelPackageGroup 'churn'/);
    expect(() => new TrainingPipeline(stack, 'Q', { definition: definition(TrainingPipeline.MODEL_PACKAGE_GROUP_NAME), role: iam.Role.fromRoleName(stack, 'R2', 'r') }))
      .toThrow(/modelPackageGroup: .*the definition names TrainingPipeline.MODEL_PACKAGE_GROUP_NAME/);
  });
});

describe('the lifecycle example', () => {
  // cdk-nag and SageMakerMcpChecks run on the same example as test/lifecycle.integ.ts (synthesized by
  // test/security/control-tower.test.ts, which also applies the Control Tower rules).
  test('passes the CloudFormation schema checks', () => {
    const stack = new Stack(new App(), 'Lifecycle', { env: ENV });
    addLifecycleExample(stack);
    expectValidTemplate(stack);
  });

  test('its pipeline role may start the training job its first step runs (the integ app, test/lifecycle.integ.ts, is this example)', () => {
    const stack = new Stack(new App(), 'Lifecycle', { env: ENV });
    const { pipeline } = addLifecycleExample(stack);
    const roleId = stack.resolve((pipeline.role.node.defaultChild as iam.CfnRole).logicalId);
    const template = Template.fromStack(stack).toJSON();
    const roleStatements = Object.values<any>(template.Resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((x: any) => x.Ref === roleId))
      .flatMap((r) => r.Properties.PolicyDocument.Statement);
    expect(roleStatements).toEqual(expect.arrayContaining([expect.objectContaining({
      Action: expect.arrayContaining(['sagemaker:CreateTrainingJob', 'sagemaker:DescribeTrainingJob']),
      Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':sagemaker:us-east-1:123456789012:training-job/*']] },
    })]));
  });
});
