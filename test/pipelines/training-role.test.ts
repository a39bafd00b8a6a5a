import { App, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as ecr from 'aws-cdk-lib/aws-ecr';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { addPipelinesExample } from '../../examples/pipelines';
import { PipelineDefinition, TrainingJobRole, TrainingJobRoleProps, TrainingPipeline } from '../../src/pipelines';
import { expectNagClean, nagReport } from '../support/nag-checks';
import { expectValidTemplate } from '../support/template-checks';

const ENV = { account: '123456789012', region: 'us-east-1' };

/**
 * What CreateTrainingJob's execution role needs (https://docs.aws.amazon.com/sagemaker/latest/dg/sagemaker-roles.html,
 * "CreateTrainingJob API: Execution Role Permissions"), action by action.
 */
const TRAINING_JOB_ACTIONS = [
  's3:GetObject', 's3:PutObject', 's3:ListBucket',
  'logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:PutLogEvents', 'logs:DescribeLogStreams',
  'cloudwatch:PutMetricData',
  'ecr:GetAuthorizationToken', 'ecr:BatchGetImage', 'ecr:GetDownloadUrlForLayer', 'ecr:BatchCheckLayerAvailability',
  'kms:Decrypt', 'kms:GenerateDataKey', 'kms:Encrypt', 'kms:DescribeKey', 'kms:CreateGrant',
];

function setup() {
  const app = new App();
  const stack = new Stack(app, 'Stack', { env: ENV });
  const data = s3.Bucket.fromBucketName(stack, 'Data', 'training-data');
  const models = s3.Bucket.fromBucketName(stack, 'Models', 'model-artifacts');
  const repo = ecr.Repository.fromRepositoryName(stack, 'Repo', 'churn-trainer');
  const key = kms.Key.fromKeyArn(stack, 'Key', 'arn:aws:kms:us-east-1:123456789012:key/0b6f1a3c-1111-2222-3333-444455556666');
  const props: TrainingJobRoleProps = {
    inputs: [{ bucket: data, prefix: 'churn/train/' }],
    outputs: [{ bucket: models, prefix: 'churn/' }],
    imageRepositories: [repo],
    encryptionKeys: [key],
  };
  return { app, stack, props };
}

/** The statements of the policy attached to the role whose logical id starts with `rolePrefix`, resolved. */
function statementsOf(stack: Stack, rolePrefix: RegExp): any[] {
  const policies = Object.values<any>(Template.fromStack(stack).findResources('AWS::IAM::Policy'))
    .filter((p) => p.Properties.Roles.some((r: any) => rolePrefix.test(r.Ref)));
  return policies.flatMap((p) => p.Properties.PolicyDocument.Statement);
}

const arn = (rest: string) => ({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, rest]] });

describe('TrainingJobRole', () => {
  test('holds what CreateTrainingJob needs, action by action, each scoped to what was named', () => {
    // GIVEN
    const { stack, props } = setup();
    // WHEN
    new TrainingJobRole(stack, 'Jobs', props);
    // THEN
    const t = Template.fromStack(stack);
    t.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: { Statement: [Match.objectLike({ Principal: { Service: 'sagemaker.amazonaws.com' } })] },
      ManagedPolicyArns: Match.absent(),
    });
    expect(statementsOf(stack, /^Jobs/)).toEqual([
      { Action: 's3:GetObject', Effect: 'Allow', Resource: arn(':s3:::training-data/churn/train/*') },
      { Action: 's3:PutObject', Effect: 'Allow', Resource: arn(':s3:::model-artifacts/churn/*') },
      { Action: 's3:ListBucket', Effect: 'Allow', Resource: [arn(':s3:::training-data'), arn(':s3:::model-artifacts')] },
      {
        Action: ['logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:PutLogEvents', 'logs:DescribeLogStreams'],
        Effect: 'Allow',
        Resource: arn(':logs:us-east-1:123456789012:log-group:/aws/sagemaker/TrainingJobs*'),
      },
      {
        Action: 'cloudwatch:PutMetricData',
        Effect: 'Allow',
        Resource: '*',
        Condition: { StringEquals: { 'cloudwatch:namespace': '/aws/sagemaker/TrainingJobs' } },
      },
      { Action: 'ecr:GetAuthorizationToken', Effect: 'Allow', Resource: '*' },
      {
        Action: ['ecr:BatchGetImage', 'ecr:GetDownloadUrlForLayer', 'ecr:BatchCheckLayerAvailability'],
        Effect: 'Allow',
        Resource: arn(':ecr:us-east-1:123456789012:repository/churn-trainer'),
      },
      {
        Action: ['kms:Decrypt', 'kms:GenerateDataKey', 'kms:Encrypt', 'kms:DescribeKey'],
        Effect: 'Allow',
        Resource: 'arn:aws:kms:us-east-1:123456789012:key/0b6f1a3c-1111-2222-3333-444455556666',
      },
      {
        Action: 'kms:CreateGrant',
        Effect: 'Allow',
        Resource: 'arn:aws:kms:us-east-1:123456789012:key/0b6f1a3c-1111-2222-3333-444455556666',
        Condition: { Bool: { 'kms:GrantIsForAWSResource': 'true' } },
      },
    ]);
    const granted = statementsOf(stack, /^Jobs/).flatMap((s) => [s.Action].flat());
    expect([...granted].sort()).toEqual([...TRAINING_JOB_ACTIONS].sort());
  });

  test('no wildcard action, and `*` resources only where IAM allows nothing narrower', () => {
    const { stack, props } = setup();
    new TrainingJobRole(stack, 'Jobs', props);
    for (const s of statementsOf(stack, /^Jobs/)) {
      for (const action of [s.Action].flat()) expect(action).not.toContain('*');
      if ([s.Resource].flat().includes('*')) expect(['ecr:GetAuthorizationToken', 'cloudwatch:PutMetricData']).toContain(s.Action);
    }
  });

  test('grantPassRole: iam:PassRole on this role only, only to SageMaker', () => {
    // GIVEN
    const { stack, props } = setup();
    const jobs = new TrainingJobRole(stack, 'Jobs', props);
    const pipelineRole = new iam.Role(stack, 'PipelineRole', { assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com') });
    // WHEN
    jobs.grantPassRole(pipelineRole);
    // THEN
    expect(statementsOf(stack, /^PipelineRole/)).toEqual([{
      Action: 'iam:PassRole',
      Effect: 'Allow',
      Resource: { 'Fn::GetAtt': [expect.stringMatching(/^Jobs/), 'Arn'] },
      Condition: { StringEquals: { 'iam:PassedToService': 'sagemaker.amazonaws.com' } },
    }]);
  });

  test('is cdk-nag clean: each remaining wildcard acknowledged with its reason, nothing else', () => {
    const { app, stack, props } = setup();
    new TrainingJobRole(stack, 'Jobs', { ...props, inputs: [{ bucket: props.inputs![0].bucket }] });
    expectValidTemplate(stack);
    expectNagClean(app);
    const acks = nagReport(app).acknowledgements.filter((a) => a.constructPath.startsWith('Stack/Jobs'));
    // (each synth re-runs the acknowledging validation: compare the distinct ids)
    expect([...new Set(acks.map((a) => a.ruleId))].sort()).toEqual([
      'AwsSolutions-IAM5[Resource::*]',
      'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:logs:us-east-1:123456789012:log-group:/aws/sagemaker/TrainingJobs*]',
      'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::model-artifacts/churn/*]',
      'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::training-data/*]',
    ]);
    for (const a of acks) expect(a.reason.length).toBeGreaterThan(60);
  });

  test('fails if there is no output, or a prefix starts with "/"', () => {
    const { stack, props } = setup();
    try {
      new TrainingJobRole(stack, 'Jobs', { ...props, outputs: [], inputs: [{ bucket: props.inputs![0].bucket, prefix: '/churn' }] });
      throw new Error('expected a validation error');
    } catch (e) {
      expect((e as Error).message).toContain('outputs: got \'0 locations\', expected at least one S3 location');
      expect((e as Error).message).toContain("inputs[0].prefix: got '/churn', expected a key prefix without a leading \"/\"");
    }
  });
});

describe('TrainingPipeline trainingJobRole', () => {
  function definition(roleArn: unknown) {
    return {
      Version: '2020-12-01',
      Steps: [{
        Name: 'Train',
        Type: 'Training',
        Arguments: {
          AlgorithmSpecification: { TrainingImage: '123456789012.dkr.ecr.us-east-1.amazonaws.com/churn-trainer:1', TrainingInputMode: 'File' },
          RoleArn: roleArn,
          OutputDataConfig: { S3OutputPath: 's3://model-artifacts/churn/' },
          StoppingCondition: { MaxRuntimeInSeconds: 3600 },
          ResourceConfig: { VolumeSizeInGB: 30, InstanceCount: 1, InstanceType: 'ml.m5.xlarge' },
        },
      }],
    };
  }

  test.each([
    ['an object', (d: object) => PipelineDefinition.fromObject(d)],
    ['a JSON string (e.g. the SageMaker Python SDK output)', (d: object) => PipelineDefinition.fromJsonString(JSON.stringify(d))],
  ])('creates the role, writes its ARN where %s names TRAINING_JOB_ROLE_ARN, and lets the pipeline role pass it', (_what, make) => {
    // GIVEN
    const { stack, props } = setup();
    const role = new iam.Role(stack, 'PipelineRole', { assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com') });
    // WHEN
    const pipeline = new TrainingPipeline(stack, 'Pipeline', {
      definition: make(definition(TrainingPipeline.TRAINING_JOB_ROLE_ARN)),
      role,
      trainingJobRole: props,
    });
    // THEN
    expect(pipeline.trainingJobRole).toBeDefined();
    const jobRoleId = stack.resolve(pipeline.trainingJobRole!.roleArn)['Fn::GetAtt'][0];
    const t = Template.fromStack(stack);
    const cfn = Object.values<any>(t.findResources('AWS::SageMaker::Pipeline'))[0];
    const body = JSON.stringify(cfn.Properties.PipelineDefinition.PipelineDefinitionBody);
    expect(body).toContain(`{"Fn::GetAtt":["${jobRoleId}","Arn"]}`);
    expect(body).not.toContain('cdk-sagemaker-mcp:training-job-role-arn');
    expect(cfn.DependsOn).toEqual(expect.arrayContaining([jobRoleId]));
    expect(statementsOf(stack, /^PipelineRole/)).toContainEqual({
      Action: 'iam:PassRole',
      Effect: 'Allow',
      Resource: { 'Fn::GetAtt': [jobRoleId, 'Arn'] },
      Condition: { StringEquals: { 'iam:PassedToService': 'sagemaker.amazonaws.com' } },
    });
    expect(statementsOf(stack, new RegExp(`^${jobRoleId}`)).flatMap((s) => [s.Action].flat()).sort()).toEqual([...TRAINING_JOB_ACTIONS].sort());
  });

  test('fails if the definition names TRAINING_JOB_ROLE_ARN without trainingJobRole', () => {
    const { stack } = setup();
    const role = new iam.Role(stack, 'PipelineRole', { assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com') });
    expect(() => new TrainingPipeline(stack, 'Pipeline', {
      definition: PipelineDefinition.fromObject(definition(TrainingPipeline.TRAINING_JOB_ROLE_ARN)),
      role,
    })).toThrow(/trainingJobRole: got nothing, expected the training job role's permissions: the definition names TrainingPipeline.TRAINING_JOB_ROLE_ARN/);
  });

  test('warns when a Training step runs as the pipeline\'s own role, and when the created role is never named', () => {
    // GIVEN
    const { stack, props } = setup();
    const role = new iam.Role(stack, 'PipelineRole', { assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com') });
    // WHEN
    new TrainingPipeline(stack, 'Pipeline', { definition: PipelineDefinition.fromObject(definition(role.roleArn)), role, trainingJobRole: props });
    // THEN
    const annotations = Annotations.fromStack(stack);
    annotations.hasWarning('/Stack/Pipeline', Match.stringLikeRegexp("a Training step's RoleArn is the pipeline's own role"));
    annotations.hasWarning('/Stack/Pipeline', Match.stringLikeRegexp('trainingJobRole: created, but no step of the definition names it'));
  });
});

describe('the pipelines example', () => {
  test('its training step runs as a training job role that can read the data, write the model, log, publish metrics and pull the image', () => {
    // GIVEN
    const app = new App();
    const stack = new Stack(app, 'Demo', { env: ENV });
    // WHEN
    const { pipeline } = addPipelinesExample(stack);
    // THEN: the step's RoleArn is not the pipeline's role (which can only start jobs)
    const cfn = Object.values<any>(Template.fromStack(stack).findResources('AWS::SageMaker::Pipeline'))[0];
    const body = cfn.Properties.PipelineDefinition.PipelineDefinitionBody;
    const pipelineRoleId = stack.resolve(pipeline.role.roleArn)['Fn::GetAtt'][0];
    const jobRoleId = stack.resolve(pipeline.trainingJobRole!.roleArn)['Fn::GetAtt'][0];
    expect(JSON.stringify(body)).toContain(`"RoleArn\\":\\"",{"Fn::GetAtt":["${jobRoleId}","Arn"]}`);
    expect(jobRoleId).not.toBe(pipelineRoleId);
    const statements = statementsOf(stack, new RegExp(`^${jobRoleId}`));
    expect(statements.flatMap((s) => [s.Action].flat()).sort()).toEqual(TRAINING_JOB_ACTIONS.filter((a) => !a.startsWith('kms:')).sort());
    expect(statements).toContainEqual({ Action: 's3:GetObject', Effect: 'Allow', Resource: arn(':s3:::example-training-data/churn/*') });
    expect(statements).toContainEqual({ Action: 's3:PutObject', Effect: 'Allow', Resource: arn(':s3:::example-training-data/churn/models/*') });
    expect(statements).toContainEqual(expect.objectContaining({
      Action: ['ecr:BatchGetImage', 'ecr:GetDownloadUrlForLayer', 'ecr:BatchCheckLayerAvailability'],
      Resource: arn(':ecr:us-east-1:683313688378:repository/sagemaker-xgboost'),
    }));
    Annotations.fromStack(stack).hasNoWarning('*', Match.stringLikeRegexp('RoleArn is the pipeline'));
    expectNagClean(app);
  });
});
