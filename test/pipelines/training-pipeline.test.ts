import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, CfnParameter, Stack, Token } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import { PipelineDefinition, PipelineParameterType, TrainingPipeline } from '../../src/pipelines';
import { identityStatements } from '../support/iam-reference';
import { expectNagClean } from '../support/nag-checks';
import { templateSnapshot } from '../support/snapshot';
import { expectValidTemplate } from '../support/template-checks';

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'pipelines', 'train-xgboost.definition.json');
const ENV = { account: '123456789012', region: 'us-east-1' };

function setup() {
  const app = new App();
  const stack = new Stack(app, 'Stack', { env: ENV });
  const role = new iam.Role(stack, 'Role', { assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com') });
  return { app, stack, role };
}

function fixtureObject(): Record<string, any> {
  return JSON.parse(fs.readFileSync(FIXTURE, 'utf8'));
}

describe('TrainingPipeline', () => {
  test('deploys the definition inline with its role, version in description and tag', () => {
    // GIVEN
    const { stack, role } = setup();
    // WHEN
    const pipeline = new TrainingPipeline(stack, 'Pipeline', { definition: PipelineDefinition.fromFile(FIXTURE), role, pipelineName: 'churn' });
    // THEN
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::SageMaker::Pipeline', {
      PipelineName: 'churn',
      RoleArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Role'), 'Arn'] },
      PipelineDefinition: { PipelineDefinitionBody: JSON.stringify(fixtureObject()) },
      PipelineDescription: `Deployed by cdk-sagemaker-mcp [definition ${pipeline.definitionVersion}]`,
      Tags: [{ Key: 'cdk-sagemaker-mcp:definition-version', Value: pipeline.definitionVersion }],
    });
    expect(pipeline.definitionVersion).toMatch(/^[0-9a-f]{16}$/);
    expect(stack.resolve(pipeline.pipelineArn)).toEqual({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':sagemaker:us-east-1:123456789012:pipeline/churn']] });
    expect(pipeline.parameters!.map((p) => p.name)).toEqual(['InputDataUri', 'MaxRounds', 'TrainingInstanceType']);
    expect(pipeline.parameters![1]).toEqual({ name: 'MaxRounds', type: PipelineParameterType.INTEGER, defaultValue: '10' });
    expectValidTemplate(stack);
  });

  test('definitionVersion changes exactly when the definition changes (not on key order)', () => {
    // GIVEN
    const { stack, role } = setup();
    const original = fixtureObject();
    const reordered = Object.fromEntries(Object.entries(original).reverse());
    const changed = fixtureObject();
    changed.Steps[0].Arguments.StoppingCondition.MaxRuntimeInSeconds = 7200;
    // WHEN
    const a = new TrainingPipeline(stack, 'A', { definition: PipelineDefinition.fromFile(FIXTURE), role });
    const b = new TrainingPipeline(stack, 'B', { definition: PipelineDefinition.fromObject(reordered), role });
    const c = new TrainingPipeline(stack, 'C', { definition: PipelineDefinition.fromObject(changed), role });
    // THEN
    expect(b.definitionVersion).toBe(a.definitionVersion);
    expect(c.definitionVersion).not.toBe(a.definitionVersion);
  });

  test('a default name is generated in lowercase and matches the API pattern', () => {
    // GIVEN
    const { stack, role } = setup();
    // WHEN
    const pipeline = new TrainingPipeline(stack, 'MyTrainingPipeline', { definition: PipelineDefinition.fromFile(FIXTURE), role });
    // THEN
    expect(pipeline.pipelineName).toMatch(/^[a-z0-9](-*[a-z0-9]){0,255}$/);
    Template.fromStack(stack).hasResourceProperties('AWS::SageMaker::Pipeline', { PipelineName: pipeline.pipelineName });
  });

  test('tokens in an object definition are resolved in the body', () => {
    // GIVEN
    const { stack, role } = setup();
    const def = fixtureObject();
    def.Steps[0].Arguments.RoleArn = role.roleArn;
    // WHEN
    new TrainingPipeline(stack, 'Pipeline', { definition: PipelineDefinition.fromObject(def), role, maxParallelExecutionSteps: 2 });
    // THEN
    const resource = Object.values(Template.fromStack(stack).findResources('AWS::SageMaker::Pipeline'))[0] as any;
    const body = JSON.stringify(resource.Properties.PipelineDefinition.PipelineDefinitionBody);
    expect(body).toContain('Fn::Join');
    expect(body).toMatch(/Fn::GetAtt.*Role[0-9A-F]+.*Arn/);
    expect(resource.Properties.ParallelismConfiguration).toEqual({ MaxParallelExecutionSteps: 2 });
    expectValidTemplate(stack);
  });

  test('a definition over 100 KiB goes to S3 as an asset the role can read', () => {
    // GIVEN
    const { stack, role } = setup();
    const def = fixtureObject();
    def.Metadata = { padding: 'x'.repeat(PipelineDefinition.INLINE_MAX_BYTES) };
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'def-')), 'big.json');
    fs.writeFileSync(file, JSON.stringify(def));
    // WHEN
    new TrainingPipeline(stack, 'Pipeline', { definition: PipelineDefinition.fromFile(file), role });
    // THEN
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::SageMaker::Pipeline', {
      PipelineDefinition: { PipelineDefinitionS3Location: { Bucket: Match.anyValue(), Key: Match.stringLikeRegexp('^[0-9a-f]{64}\\.json$') } },
    });
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Action: Match.arrayWith(['s3:GetObject*']) })]) },
    });
  });

  test('snapshot of the default configuration', () => {
    // GIVEN
    const { stack, role } = setup();
    // WHEN
    new TrainingPipeline(stack, 'Pipeline', { definition: PipelineDefinition.fromFile(FIXTURE), role });
    // THEN
    expect(templateSnapshot(stack)).toMatchSnapshot();
  });

  test('cdk-nag finds nothing', () => {
    // GIVEN
    const { app, stack, role } = setup();
    // WHEN
    new TrainingPipeline(stack, 'Pipeline', { definition: PipelineDefinition.fromFile(FIXTURE), role, pipelineName: 'churn' });
    // THEN
    expectNagClean(app);
  });

  describe('grants', () => {
    test('the pipeline\'s role may run the definition\'s Training steps: create, describe, stop and tag training-job/* of this account and region', () => {
      // GIVEN
      const { stack, role } = setup();
      // WHEN
      new TrainingPipeline(stack, 'Pipeline', { definition: PipelineDefinition.fromFile(FIXTURE), role, pipelineName: 'churn' });
      // THEN
      const statements = identityStatements(Template.fromStack(stack).toJSON()).filter((st: any) => [st.Action].flat().includes('sagemaker:CreateTrainingJob'));
      expect(statements).toEqual([{
        Effect: 'Allow',
        Action: ['sagemaker:CreateTrainingJob', 'sagemaker:DescribeTrainingJob', 'sagemaker:StopTrainingJob', 'sagemaker:AddTags'],
        Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':sagemaker:us-east-1:123456789012:training-job/*']] },
      }]);
    });

    test('no training-job grant for a definition without a Training step', () => {
      const { stack, role } = setup();
      const definition = PipelineDefinition.fromObject({ Version: '2020-12-01', Steps: [{ Name: 'Gate', Type: 'Fail', Arguments: { ErrorMessage: 'stop' } }] });
      new TrainingPipeline(stack, 'Pipeline', { definition, role, pipelineName: 'gate' });
      const actions = identityStatements(Template.fromStack(stack).toJSON()).flatMap((st: any) => [st.Action].flat());
      expect(actions).not.toContain('sagemaker:CreateTrainingJob');
    });

    test('grantStartExecution: StartPipelineExecution on the pipeline ARN only', () => {
      // GIVEN
      const { stack, role } = setup();
      const pipeline = new TrainingPipeline(stack, 'Pipeline', { definition: PipelineDefinition.fromFile(FIXTURE), role, pipelineName: 'churn' });
      const caller = new iam.Role(stack, 'Caller', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
      // WHEN
      pipeline.grantStartExecution(caller);
      // THEN
      Template.fromStack(stack).hasResourceProperties('AWS::IAM::Policy', {
        Roles: [{ Ref: Match.stringLikeRegexp('^Caller') }],
        PolicyDocument: {
          Statement: [{
            Action: 'sagemaker:StartPipelineExecution',
            Effect: 'Allow',
            Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':sagemaker:us-east-1:123456789012:pipeline/churn']] },
          }],
        },
      });
    });

    test('grantReadExecutions: Describe/ListSteps on pipeline/<name>/execution/*, both casings for a mixed-case name', () => {
      // GIVEN
      const { stack } = setup();
      const pipeline = TrainingPipeline.fromPipelineName(stack, 'Imported', 'ChurnPipeline');
      const caller = new iam.Role(stack, 'Caller', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
      // WHEN
      pipeline.grantReadExecutions(caller);
      // THEN
      const arn = (name: string) => ({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:sagemaker:us-east-1:123456789012:pipeline/${name}/execution/*`]] });
      Template.fromStack(stack).hasResourceProperties('AWS::IAM::Policy', {
        PolicyDocument: {
          Statement: [{
            Action: ['sagemaker:DescribePipelineExecution', 'sagemaker:ListPipelineExecutionSteps'],
            Effect: 'Allow',
            Resource: [arn('ChurnPipeline'), arn('churnpipeline')],
          }],
        },
      });
    });

    test('fromPipelineArn keeps the ARN and reads the name', () => {
      // GIVEN
      const { stack } = setup();
      // WHEN
      const pipeline = TrainingPipeline.fromPipelineArn(stack, 'Imported', 'arn:aws:sagemaker:eu-west-1:111122223333:pipeline/other');
      // THEN
      expect(pipeline.pipelineName).toBe('other');
      expect(pipeline.pipelineArn).toBe('arn:aws:sagemaker:eu-west-1:111122223333:pipeline/other');
    });

    test('fromPipelineArn takes a token ARN unchecked and reads the name at deploy time', () => {
      // GIVEN
      const { stack } = setup();
      const arn = new CfnParameter(stack, 'PipelineArn').valueAsString;
      // WHEN
      const pipeline = TrainingPipeline.fromPipelineArn(stack, 'Imported', arn);
      // THEN
      expect(pipeline.pipelineArn).toBe(arn);
      expect(Token.isUnresolved(pipeline.pipelineName)).toBe(true);
    });

    test.each([
      ['a name', 'churn-training'],
      ['another service', 'arn:aws:sagemaker:us-east-1:123456789012:endpoint/churn'],
      ['no account', 'arn:aws:sagemaker:us-east-1::pipeline/churn'],
      ['a name with an underscore', 'arn:aws:sagemaker:us-east-1:123456789012:pipeline/churn_training'],
    ])('fails if fromPipelineArn gets %s, naming the prop, the value and the ARN format', (_what, bad) => {
      // GIVEN
      const { stack } = setup();
      // WHEN / THEN
      expect(() => TrainingPipeline.fromPipelineArn(stack, 'Imported', bad))
        .toThrow(`pipelineArn: got '${bad}', expected arn:<partition>:sagemaker:<region>:<account>:pipeline/<name>`);
    });
  });

  test('metricExecutionFailed: Sum of ExecutionFailed for this pipeline', () => {
    // GIVEN
    const { stack } = setup();
    const pipeline = TrainingPipeline.fromPipelineName(stack, 'Imported', 'churn');
    // WHEN
    const metric = pipeline.metricExecutionFailed();
    // THEN
    expect(metric.namespace).toBe('AWS/Sagemaker/ModelBuildingPipeline');
    expect(metric.metricName).toBe('ExecutionFailed');
    expect(metric.dimensions).toEqual({ PipelineName: 'churn' });
    expect(metric.statistic).toBe('Sum');
  });

  describe('validation', () => {
    test('fails if declared parameters are missing from the definition or have another type', () => {
      // GIVEN
      const { stack, role } = setup();
      // WHEN / THEN
      expect(() => new TrainingPipeline(stack, 'Pipeline', {
        definition: PipelineDefinition.fromFile(FIXTURE),
        role,
        parameters: [
          { name: 'Epochs', type: PipelineParameterType.INTEGER },
          { name: 'MaxRounds', type: PipelineParameterType.STRING },
        ],
      })).toThrow(/parameters\[Epochs\]: got 'Epochs', expected a parameter the definition declares \(InputDataUri, MaxRounds, TrainingInstanceType\)[\s\S]*parameters\[MaxRounds\]\.type: got 'String', expected Integer/);
    });

    test('fails if the name, display name, parallelism or description are out of range', () => {
      // GIVEN
      const { stack, role } = setup();
      // WHEN / THEN
      expect(() => new TrainingPipeline(stack, 'Pipeline', {
        definition: PipelineDefinition.fromFile(FIXTURE),
        role,
        pipelineName: 'bad_name',
        displayName: '-x',
        maxParallelExecutionSteps: 0,
        description: 'd'.repeat(3072),
      })).toThrow(/4 problems[\s\S]*pipelineName: got 'bad_name', expected 1-256 letters[\s\S]*displayName: got '-x'[\s\S]*maxParallelExecutionSteps: got 0, expected an integer >= 1[\s\S]*description: got '3072 characters', expected at most 3042 characters/);
    });

    test('fails if the definition is not JSON, quoting the text', () => {
      expect(() => PipelineDefinition.fromJsonString('{"Version": ')).toThrow(/definition: got text that is not JSON, '\{"Version": ' \(.+\), expected a JSON pipeline definition/);
    });

    test('fails if a long definition is not JSON, quoting its first 80 characters on one line', () => {
      // GIVEN
      const text = `{\n  "Version": "2020-12-01",\n  "Steps": [${'x'.repeat(200)}`;
      // WHEN / THEN
      expect(() => PipelineDefinition.fromJsonString(text))
        .toThrow(`got text that is not JSON, '${text.slice(0, 80).replace(/\n/g, '\\n')}...' (${text.length} characters)`);
    });

    test('fails if the definition has no steps, duplicate step names or bad parameters', () => {
      expect(() => PipelineDefinition.fromObject({ Steps: [], Parameters: [{ Name: 'a b', Type: 'Text' }] }))
        .toThrow(/definition\.Version: got nothing, expected a version string[\s\S]*definition\.Steps: got '0 steps', expected a non-empty list[\s\S]*definition\.Parameters\[0\]\.Name: got 'a b'[\s\S]*definition\.Parameters\[0\]\.Type: got 'Text', expected one of String, Integer, Float, Boolean/);
      expect(() => PipelineDefinition.fromObject({ Version: '2020-12-01', Steps: [{ Name: 'A', Type: 'Training' }, { Name: 'A', Type: 'Processing' }] }))
        .toThrow(/definition\.Steps\[1\]\.Name: got 'A', expected a name no other step uses/);
    });

    test('fails if the definition file cannot be read', () => {
      expect(() => PipelineDefinition.fromFile('/nonexistent/definition.json')).toThrow(/cannot read '\/nonexistent\/definition.json'/);
    });
  });
});
