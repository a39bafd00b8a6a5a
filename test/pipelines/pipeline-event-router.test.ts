import * as path from 'path';
import { App, Duration, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import { addPipelinesExample } from '../../examples/pipelines';
import { PipelineDefinition, PipelineEventRouter, PipelineExecutionStatus, TrainingPipeline } from '../../src/pipelines';
import { expectNagClean } from '../support/nag-checks';
import { templateSnapshot } from '../support/snapshot';
import { expectValidTemplate } from '../support/template-checks';
import { RESULTS_QUEUE_URL_ENV, RESULTS_TABLE_ENV, RESULT_TTL_DAYS_ENV } from 'cdk-sagemaker-mcp-runtime/internal/contract';

const ENV = { account: '123456789012', region: 'us-east-1' };
const FIXTURE = path.join(__dirname, '..', 'fixtures', 'pipelines', 'train-xgboost.definition.json');

function setup() {
  const app = new App();
  const stack = new Stack(app, 'Stack', { env: ENV });
  return { app, stack };
}

describe('PipelineEventRouter', () => {
  // The router with the defaults, built once: the tests that use it only read it.
  let defaults: { stack: Stack; template: Template };
  beforeAll(() => {
    const { stack } = setup();
    new PipelineEventRouter(stack, 'Router');
    defaults = { stack, template: Template.fromStack(stack) };
  });

  test('default: rule on final execution statuses of every pipeline, KMS table with PITR, TTL and session index', () => {
    // GIVEN / WHEN the default router
    const { stack, template } = defaults;
    // THEN
    template.resourceCountIs('AWS::Events::Rule', 1);
    template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: {
        'source': ['aws.sagemaker'],
        'detail-type': ['SageMaker Model Building Pipeline Execution Status Change'],
        'detail': { currentPipelineExecutionStatus: ['Succeeded', 'Failed', 'Stopped'] },
      },
      Targets: [Match.objectLike({ DeadLetterConfig: { Arn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^RouterDeadLetterQueue'), 'Arn'] } } })],
    });
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [{ AttributeName: 'executionArn', KeyType: 'HASH' }],
      SSESpecification: { SSEEnabled: true, SSEType: 'KMS', KMSMasterKeyId: Match.anyValue() },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      GlobalSecondaryIndexes: [Match.objectLike({
        IndexName: 'BySession',
        KeySchema: [{ AttributeName: 'sessionId', KeyType: 'HASH' }, { AttributeName: 'startedAt', KeyType: 'RANGE' }],
      })],
    });
    template.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
    template.hasResourceProperties('AWS::SQS::Queue', { KmsMasterKeyId: Match.anyValue(), MessageRetentionPeriod: 1209600 });
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
    template.hasResourceProperties('AWS::Lambda::Function', {
      Runtime: 'nodejs22.x',
      DeadLetterConfig: { TargetArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^RouterDeadLetterQueue'), 'Arn'] } },
      Environment: { Variables: { [RESULTS_TABLE_ENV]: { Ref: Match.stringLikeRegexp('^RouterResultsTable') }, [RESULT_TTL_DAYS_ENV]: '30' } },
    });
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 21600 });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Namespace: 'AWS/SQS',
      Statistic: 'Maximum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    // EventBridge may use the key for the dead-letter queue, for this account's rules only
    template.hasResourceProperties('AWS::KMS::Key', {
      KeyPolicy: {
        Statement: Match.arrayWith([Match.objectLike({
          Principal: { Service: 'events.amazonaws.com' },
          Action: ['kms:Decrypt', 'kms:GenerateDataKey'],
          Condition: { StringEquals: { 'aws:SourceAccount': '123456789012' }, ArnLike: Match.anyValue() },
        })]),
      },
    });
    expectValidTemplate(stack);
  });

  test('limits to given pipelines (ignoring case), chosen statuses, step failures, results queue and TTL', () => {
    // GIVEN
    const { stack } = setup();
    const pipeline = TrainingPipeline.fromPipelineName(stack, 'P', 'Churn');
    // WHEN
    const router = new PipelineEventRouter(stack, 'Router', {
      pipelines: [pipeline],
      statuses: [PipelineExecutionStatus.EXECUTING, PipelineExecutionStatus.SUCCEEDED],
      recordStepFailures: true,
      enableResultsQueue: true,
      resultTtl: Duration.days(7),
      retryAttempts: 1,
    });
    // THEN
    const template = Template.fromStack(stack);
    const arnPattern = [{ 'equals-ignore-case': { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':sagemaker:us-east-1:123456789012:pipeline/Churn']] } }];
    template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: Match.objectLike({ detail: { currentPipelineExecutionStatus: ['Executing', 'Succeeded'], pipelineArn: arnPattern } }),
    });
    template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: {
        'source': ['aws.sagemaker'],
        'detail-type': ['SageMaker Model Building Pipeline Execution Step Status Change'],
        'detail': { currentStepStatus: ['Failed'], pipelineArn: arnPattern },
      },
    });
    expect(router.stepFailureRule).toBeDefined();
    template.hasResourceProperties('AWS::SQS::Queue', {
      KmsMasterKeyId: Match.anyValue(),
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^RouterDeadLetterQueue'), 'Arn'] }, maxReceiveCount: 5 },
    });
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: { [RESULT_TTL_DAYS_ENV]: '7', [RESULTS_QUEUE_URL_ENV]: { Ref: Match.stringLikeRegexp('^RouterResultsQueue') } } },
    });
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', { MaximumRetryAttempts: 1 });
    // the function may write the table and send to the results queue, with explicit actions only
    template.hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: Match.stringLikeRegexp('^RouterHandlerRole') }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Action: ['dynamodb:UpdateItem', 'dynamodb:GetItem'], Resource: { 'Fn::GetAtt': [Match.stringLikeRegexp('^RouterResultsTable'), 'Arn'] } }),
          Match.objectLike({ Action: ['kms:Decrypt', 'kms:Encrypt', 'kms:GenerateDataKey'] }),
          Match.objectLike({ Action: 'sqs:SendMessage', Resource: { 'Fn::GetAtt': [Match.stringLikeRegexp('^RouterResultsQueue'), 'Arn'] } }),
        ]),
      },
    });
    expectValidTemplate(stack);
  });

  test('snapshot of the default configuration', () => {
    // GIVEN / WHEN the default router
    // THEN
    expect(templateSnapshot(defaults.stack)).toMatchSnapshot();
  });

  test('cdk-nag finds nothing in the example (pipeline + router with step failures)', () => {
    // GIVEN
    const { app, stack } = setup();
    // WHEN
    const { pipeline, router } = addPipelinesExample(stack);
    // THEN
    expect(pipeline.pipelineName).toBe('churn-training');
    expect(router.stepFailureRule).toBeDefined();
    expectValidTemplate(stack);
    expectNagClean(app);
  });

  test('cdk-nag finds nothing with a results queue', () => {
    // GIVEN
    const { app, stack } = setup();
    const role = new iam.Role(stack, 'Role', { assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com') });
    const pipeline = new TrainingPipeline(stack, 'Pipeline', { definition: PipelineDefinition.fromFile(FIXTURE), role });
    // WHEN
    new PipelineEventRouter(stack, 'Router', { pipelines: [pipeline], enableResultsQueue: true });
    // THEN
    expectNagClean(app);
  });

  describe('grants', () => {
    test('grantReadResults: GetItem and Query on the table and its session index, kms:Decrypt', () => {
      // GIVEN
      const { stack } = setup();
      const router = new PipelineEventRouter(stack, 'Router');
      const reader = new iam.Role(stack, 'Reader', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
      // WHEN
      router.grantReadResults(reader);
      // THEN
      const tableArn = { 'Fn::GetAtt': [Match.stringLikeRegexp('^RouterResultsTable'), 'Arn'] };
      Template.fromStack(stack).hasResourceProperties('AWS::IAM::Policy', {
        Roles: [{ Ref: Match.stringLikeRegexp('^Reader') }],
        PolicyDocument: {
          Statement: [
            { Action: ['dynamodb:GetItem', 'dynamodb:Query'], Effect: 'Allow', Resource: [tableArn, { 'Fn::Join': ['', [tableArn, '/index/BySession']] }] },
            { Action: 'kms:Decrypt', Effect: 'Allow', Resource: { 'Fn::GetAtt': [Match.stringLikeRegexp('^RouterKey'), 'Arn'] } },
          ],
        },
      });
    });
    test('grantReadResultsByExecution: GetItem on the table only (no Query, no index), kms:Decrypt', () => {
      // GIVEN
      const { stack } = setup();
      const router = new PipelineEventRouter(stack, 'Router');
      const reader = new iam.Role(stack, 'Reader', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
      // WHEN
      router.grantReadResultsByExecution(reader);
      // THEN
      Template.fromStack(stack).hasResourceProperties('AWS::IAM::Policy', {
        Roles: [{ Ref: Match.stringLikeRegexp('^Reader') }],
        PolicyDocument: {
          Statement: [
            { Action: 'dynamodb:GetItem', Effect: 'Allow', Resource: { 'Fn::GetAtt': [Match.stringLikeRegexp('^RouterResultsTable'), 'Arn'] } },
            { Action: 'kms:Decrypt', Effect: 'Allow', Resource: { 'Fn::GetAtt': [Match.stringLikeRegexp('^RouterKey'), 'Arn'] } },
          ],
        },
      });
    });

    test('an imported router (table ARN and key) grants on that table and key, in another stack', () => {
      // GIVEN: a router's table in another stack, known only by ARN
      const { stack } = setup();
      const tableArn = 'arn:aws:dynamodb:us-east-1:123456789012:table/pipeline-results';
      const keyArn = 'arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';
      const router = PipelineEventRouter.fromPipelineEventRouterAttributes(stack, 'Router', {
        resultsTable: dynamodb.Table.fromTableArn(stack, 'Results', tableArn),
        encryptionKey: kms.Key.fromKeyArn(stack, 'Key', keyArn),
      });
      const reader = new iam.Role(stack, 'Reader', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
      // WHEN
      router.grantReadResults(reader);
      // THEN
      expect(stack.resolve(router.resultsTable.tableName)).toBe('pipeline-results');
      Template.fromStack(stack).hasResourceProperties('AWS::IAM::Policy', {
        PolicyDocument: {
          Statement: [
            { Action: ['dynamodb:GetItem', 'dynamodb:Query'], Effect: 'Allow', Resource: [tableArn, `${tableArn}/index/BySession`] },
            { Action: 'kms:Decrypt', Effect: 'Allow', Resource: keyArn },
          ],
        },
      });
    });

    test('an imported router given a table uses the table\'s key', () => {
      // GIVEN
      const { stack } = setup();
      const key = new kms.Key(stack, 'TableKey');
      const table = dynamodb.Table.fromTableAttributes(stack, 'Table', { tableName: 'pipeline-results', encryptionKey: key });
      // WHEN
      const router = PipelineEventRouter.fromPipelineEventRouterAttributes(stack, 'Router', { resultsTable: table });
      // THEN
      expect(router.resultsTable).toBe(table);
      expect(router.encryptionKey).toBe(key);
    });

    test('fails if encryptionKey is unknown (a table without its key, and no key)', () => {
      // GIVEN
      const { stack } = setup();
      const table = dynamodb.Table.fromTableArn(stack, 'T', 'arn:aws:dynamodb:us-east-1:123456789012:table/t');
      // WHEN / THEN
      expect(() => PipelineEventRouter.fromPipelineEventRouterAttributes(stack, 'Router', { resultsTable: table }))
        .toThrow(/encryptionKey: got nothing, expected the customer-managed key of the results table/);
    });
  });

  describe('validation', () => {
    test('fails if the TTL, retry attempts, pipelines or statuses are out of range', () => {
      // GIVEN
      const { stack } = setup();
      // WHEN / THEN
      expect(() => new PipelineEventRouter(stack, 'Router', {
        resultTtl: Duration.minutes(30),
        retryAttempts: 3,
        pipelines: [],
        statuses: [],
      })).toThrow(/4 problems[\s\S]*resultTtl: got '30 minutes', expected between 1 hour and 3650 days[\s\S]*retryAttempts: got 3, expected an integer between 0 and 2[\s\S]*pipelines: got \[\], expected at least one pipeline[\s\S]*statuses: got \[\], expected at least one status/);
    });
  });
});
