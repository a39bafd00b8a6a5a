/**
 * The runtime's training functions through the REAL @aws-sdk/client-sagemaker against the local control-plane server
 * (JSON 1.1 over HTTP): starting with the correlation description and an idempotency token, status with every page of
 * steps, and a lineage walk with paging, a depth limit and a cycle.
 */
import { SageMakerClient } from '@aws-sdk/client-sagemaker';
import { SageMakerControlServer, startSageMakerControlServer } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-control-server';
import { parseCorrelationDescription } from 'cdk-sagemaker-mcp-runtime/internal/contract';
import { getModelProvenance } from 'cdk-sagemaker-mcp-runtime/lineage';
import { getTrainingStatus, startTraining, TrainingRequestError } from 'cdk-sagemaker-mcp-runtime/pipelines';

let cp: SageMakerControlServer;
let sagemaker: SageMakerClient;

beforeAll(async () => {
  cp = await startSageMakerControlServer({ pageSize: 2 });
  sagemaker = new SageMakerClient(cp.clientConfig());
  cp.addPipeline('churn');
});

afterAll(async () => {
  sagemaker?.destroy();
  await cp?.stop();
});

describe('startTraining', () => {
  test('starts with session_id=<id>; triggered at <ISO time>, parameters as strings and a deterministic token', async () => {
    // GIVEN
    const now = new Date('2026-11-29T15:00:00.000Z');
    // WHEN
    const result = await startTraining({
      pipelineName: 'churn',
      sessionId: 'mcp-session-1',
      displayName: 'retrain-1',
      parameters: { InputDataUri: 's3://bucket/data/', MaxRounds: 15, Shuffle: true },
      now,
    }, { sagemaker });
    // THEN
    expect(result.status).toBe('Executing');
    expect(result.executionArn).toMatch(/^arn:aws:sagemaker:us-east-1:123456789012:pipeline\/churn\/execution\/[0-9a-f]{12}$/);
    const request = cp.requestsFor('StartPipelineExecution').at(-1)!;
    expect(request.target).toBe('SageMaker.StartPipelineExecution');
    expect(request.contentType).toMatch(/^application\/x-amz-json-1\.1/);
    expect(request.body).toEqual({
      PipelineName: 'churn',
      PipelineExecutionDisplayName: 'retrain-1',
      PipelineExecutionDescription: 'session_id=mcp-session-1; triggered at 2026-11-29T15:00:00.000Z',
      PipelineParameters: [{ Name: 'InputDataUri', Value: 's3://bucket/data/' }, { Name: 'MaxRounds', Value: '15' }, { Name: 'Shuffle', Value: 'true' }],
      ClientRequestToken: result.clientRequestToken,
    });
    expect(result.clientRequestToken).toMatch(/^[0-9a-f]{64}$/);
    expect(parseCorrelationDescription(result.description)).toEqual({ sessionId: 'mcp-session-1', triggeredAt: '2026-11-29T15:00:00.000Z' });
  });

  test('a retried call (same session, pipeline, parameters) does not start a second execution', async () => {
    // GIVEN
    const req = { pipelineName: 'churn', sessionId: 'mcp-session-retry', parameters: { MaxRounds: 3 } };
    const before = cp.executions().length;
    // WHEN
    const first = await startTraining({ ...req, now: new Date('2026-11-29T15:00:00Z') }, { sagemaker });
    const retried = await startTraining({ ...req, now: new Date('2026-11-29T15:00:05Z') }, { sagemaker });
    const rerun = await startTraining({ ...req, attempt: '2' }, { sagemaker });
    // THEN
    expect(retried.executionArn).toBe(first.executionArn);
    expect(rerun.executionArn).not.toBe(first.executionArn);
    expect(cp.executions().length).toBe(before + 2);
    // AND a parameter given as the string SageMaker passes on is the same request
    const asString = await startTraining({ ...req, parameters: { MaxRounds: '3' } }, { sagemaker });
    expect([asString.clientRequestToken, asString.executionArn]).toEqual([first.clientRequestToken, first.executionArn]);
  });

  test.each([
    ['a session id with ";"', { sessionId: 'a;b' }, /sessionId: got "a;b", expected printable ASCII characters without spaces or ";"/],
    ['a session id with a space', { sessionId: 'a b' }, /sessionId: got "a b"/],
    ['an empty session id', { sessionId: '' }, /sessionId: got ""/],
    ['a display name with "_"', { displayName: 'bad_name' }, /displayName: got "bad_name", expected 1-82 letters, digits or hyphens/],
    ['a display name of 83 characters', { displayName: 'a'.repeat(83) }, /displayName: got "a{80}…"/],
    ['a bad parameter name', { parameters: { 'Max Rounds': 1 } }, /parameters\.Max Rounds: got "Max Rounds", expected a parameter name/],
    ['a non-finite number', { parameters: { MaxRounds: Infinity } }, /parameters\.MaxRounds: got Infinity, expected a string, finite number or boolean/],
  ])('fails if given %s, before calling SageMaker', async (_name, override, message) => {
    // GIVEN
    const calls = cp.requestsFor('StartPipelineExecution').length;
    // WHEN / THEN
    await expect(startTraining({ pipelineName: 'churn', sessionId: 'ok', ...override } as any, { sagemaker })).rejects.toThrow(message);
    await expect(startTraining({ pipelineName: 'churn', sessionId: 'ok', ...override } as any, { sagemaker })).rejects.toBeInstanceOf(TrainingRequestError);
    expect(cp.requestsFor('StartPipelineExecution').length).toBe(calls);
  });

  test('fails if the description would exceed 3072 characters (a session id of 3022 is the longest that fits)', async () => {
    // "session_id=" (11) + id + "; triggered at " (15) + ISO time (24) = 3072 for a 3022-character id
    const ok = await startTraining({ pipelineName: 'churn', sessionId: 's'.repeat(3022) }, { sagemaker });
    expect(ok.description).toHaveLength(3072);
    await expect(startTraining({ pipelineName: 'churn', sessionId: 's'.repeat(3023) }, { sagemaker }))
      .rejects.toThrow(/sessionId: got "s{80}…", expected a session id short enough for a description of at most 3072 characters \(got 3073\)/);
  });

  test('an unknown pipeline surfaces the service error (ResourceNotFound)', async () => {
    await expect(startTraining({ pipelineName: 'nope', sessionId: 'x' }, { sagemaker })).rejects.toMatchObject({ name: 'ResourceNotFound' });
  });

  test('a client built from sagemakerConfig works too', async () => {
    const result = await startTraining({ pipelineName: 'churn', sessionId: 'from-config' }, { sagemakerConfig: cp.clientConfig() });
    expect(result.status).toBe('Executing');
  });
});

describe('getTrainingStatus', () => {
  test('describes the execution and reads every page of steps', async () => {
    // GIVEN an execution with 5 steps (the server pages 2 at a time)
    const { executionArn } = await startTraining({ pipelineName: 'churn', sessionId: 'status-1' }, { sagemaker });
    cp.setSteps(executionArn, [
      { StepName: 'Register', StepStatus: 'Starting' },
      { StepName: 'CheckAccuracy', StepStatus: 'Succeeded' },
      { StepName: 'Evaluate', StepStatus: 'Succeeded' },
      { StepName: 'Train', StepStatus: 'Failed', FailureReason: 'ClientError: out of memory' },
      { StepName: 'Preprocess', StepStatus: 'Succeeded' },
    ]);
    cp.updateExecution(executionArn, { PipelineExecutionStatus: 'Failed', FailureReason: 'Step Train failed' });
    // WHEN
    const status = await getTrainingStatus(executionArn, { sagemaker });
    // THEN
    expect(status).toEqual({
      executionArn,
      pipelineArn: cp.pipelineArn('churn'),
      status: 'Failed',
      failureReason: 'Step Train failed',
      sessionId: 'status-1',
      steps: [
        { name: 'Register', status: 'Starting' },
        { name: 'CheckAccuracy', status: 'Succeeded' },
        { name: 'Evaluate', status: 'Succeeded' },
        { name: 'Train', status: 'Failed', failureReason: 'ClientError: out of memory' },
        { name: 'Preprocess', status: 'Succeeded' },
      ],
    });
    const pages = cp.requestsFor('ListPipelineExecutionSteps').filter((r) => r.body.PipelineExecutionArn === executionArn);
    expect(pages).toHaveLength(3);
    expect(pages[0].body.NextToken).toBeUndefined();
    expect(pages[1].body.NextToken).toBeDefined();
  });

  test('an unknown execution surfaces ResourceNotFound', async () => {
    await expect(getTrainingStatus(`${cp.pipelineArn('churn')}/execution/000000000000`, { sagemaker })).rejects.toMatchObject({ name: 'ResourceNotFound' });
  });
});

describe('getModelProvenance', () => {
  const A = (id: string) => `arn:aws:sagemaker:us-east-1:123456789012:artifact/${id}`;
  const modelPackage = 'arn:aws:sagemaker:us-east-1:123456789012:model-package/churn/3';
  const trainingJob = 'arn:aws:sagemaker:us-east-1:123456789012:training-job/pipelines-abc-train';
  let execution: string;

  beforeAll(async () => {
    execution = cp.addExecution('churn', { PipelineExecutionStatus: 'Succeeded', PipelineExecutionDescription: 'session_id=lineage; triggered at 2026-11-29T15:00:00Z' });
    cp.addModelPackage(modelPackage, { ModelPackageName: 'churn', ModelPackageGroupName: 'churn', ModelPackageVersion: 3, ModelPackageStatus: 'Completed', ModelApprovalStatus: 'Approved', CreationTime: new Date() });
    cp.addTrainingJob(trainingJob, { TrainingJobStatus: 'Completed', ModelArtifacts: { S3ModelArtifacts: 's3://bucket/model.tar.gz' } });
    cp.addArtifact(A('model'), { ArtifactType: 'Model', ArtifactName: 'model', Source: { SourceUri: 's3://bucket/model.tar.gz' } });
    cp.addArtifact(A('dataset'), { ArtifactType: 'DataSet', Source: { SourceUri: 's3://bucket/train/' } });
    cp.addArtifact(A('code'), { ArtifactType: 'Code', Source: { SourceUri: 's3://bucket/code/train.py' } });
    cp.addArtifact(A('image'), { ArtifactType: 'Image', Source: { SourceUri: '683313688378.dkr.ecr.us-east-1.amazonaws.com/sagemaker-xgboost:1.7-1' } });
    const edge = (SourceArn: string, SourceType: string, DestinationArn: string, DestinationType: string, AssociationType = 'ContributedTo') =>
      cp.addAssociation({ SourceArn, SourceType, DestinationArn, DestinationType, AssociationType });
    // model package <- model artifact <- training job <- dataset, image; execution -> model package
    edge(A('model'), 'Model', modelPackage, 'ModelPackage');
    edge(execution, 'Execution', modelPackage, 'ModelPackage', 'AssociatedWith');
    edge(trainingJob, 'SageMakerTrainingJob', A('model'), 'Model', 'Produced');
    edge(A('dataset'), 'DataSet', trainingJob, 'SageMakerTrainingJob');
    edge(A('image'), 'Image', trainingJob, 'SageMakerTrainingJob');
    edge(A('code'), 'Code', trainingJob, 'SageMakerTrainingJob');
    // a cycle: the model package is recorded as contributing to the dataset it was built from
    edge(modelPackage, 'ModelPackage', A('dataset'), 'DataSet', 'DerivedFrom');
  });

  test('backward: walks every page, describes what it meets, terminates on the cycle', async () => {
    // WHEN
    const graph = await getModelProvenance(modelPackage, { sagemaker, direction: 'backward', maxDepth: 5, pageSize: 2 });
    // THEN
    expect(graph.nodes.map((n) => [n.arn, n.kind, n.depth])).toEqual([
      [modelPackage, 'model-package', 0],
      [A('model'), 'artifact', 1],
      [execution, 'pipeline-execution', 1],
      [trainingJob, 'training-job', 2],
      [A('dataset'), 'artifact', 3],
      [A('image'), 'artifact', 3],
      [A('code'), 'artifact', 3],
    ]);
    // the training job's three inputs came on two pages of MaxResults 2
    const pages = cp.requestsFor('ListAssociations').filter((r) => r.body.DestinationArn === trainingJob);
    expect(pages.map((r) => [r.body.NextToken === undefined, r.body.MaxResults])).toEqual([[true, 2], [false, 2]]);
    expect(graph.nodes[0].details).toMatchObject({ status: 'Completed', approvalStatus: 'Approved', version: 3 });
    expect(graph.nodes[1]).toMatchObject({ lineageType: 'Model', details: { artifactType: 'Model', sourceUri: 's3://bucket/model.tar.gz' } });
    expect(graph.nodes[2].details).toMatchObject({ status: 'Succeeded', sessionId: 'lineage', pipelineArn: cp.pipelineArn('churn') });
    expect(graph.nodes[3].details).toMatchObject({ status: 'Completed', modelArtifacts: 's3://bucket/model.tar.gz' });
    expect(graph.nodes[4].details).toMatchObject({ artifactType: 'DataSet', sourceUri: 's3://bucket/train/' });
    expect(graph.edges).toHaveLength(7);
    expect(graph.revisits).toBe(1); // dataset <- model package: already in the graph
    expect(graph.truncated).toBe(false);
  });

  test('forward: what a training job produced', async () => {
    const graph = await getModelProvenance(trainingJob, { sagemaker, direction: 'forward', maxDepth: 2 });
    expect(graph.nodes.map((n) => n.arn)).toEqual([trainingJob, A('model'), modelPackage]);
    expect(graph.truncated).toBe(true); // the model package (depth 2) was not expanded
  });

  test('the depth limit stops the walk and says so', async () => {
    const graph = await getModelProvenance(modelPackage, { sagemaker, maxDepth: 1 });
    expect(graph.nodes.map((n) => n.depth)).toEqual([0, 1, 1]);
    expect(graph.truncated).toBe(true);
  });

  test('an association type filter and a describe failure that does not stop the walk', async () => {
    // GIVEN the next DescribeArtifact fails
    cp.failNext('DescribeArtifact', 'AccessDeniedException', 'not authorized to perform: sagemaker:DescribeArtifact');
    // WHEN
    const graph = await getModelProvenance(modelPackage, { sagemaker, associationType: 'ContributedTo', maxDepth: 1 });
    // THEN
    expect(graph.nodes.map((n) => n.arn)).toEqual([modelPackage, A('model')]);
    expect(graph.nodes[1].describeError).toMatch(/AccessDeniedException: not authorized/);
    expect(cp.requestsFor('ListAssociations').at(-1)!.body).toEqual({ DestinationArn: modelPackage, AssociationType: 'ContributedTo', MaxResults: 100 });
  });

  test('the node budget stops paging and expanding, and says truncated', async () => {
    // GIVEN an entity with 7 inputs, each with an input of its own
    const hub = A('hub');
    const input = (i: number) => A(`hub-input-${i}`);
    cp.addArtifact(hub, { ArtifactType: 'Model' });
    for (let i = 0; i < 7; i++) {
      cp.addAssociation({ SourceArn: input(i), SourceType: 'DataSet', DestinationArn: hub, DestinationType: 'Model', AssociationType: 'ContributedTo' });
      cp.addAssociation({ SourceArn: A(`deeper-${i}`), SourceType: 'DataSet', DestinationArn: input(i), DestinationType: 'DataSet', AssociationType: 'ContributedTo' });
    }
    const before = cp.requestsFor('ListAssociations').length;
    // WHEN the budget is 3 entities, read 2 associations per page
    const graph = await getModelProvenance(hub, { sagemaker, maxNodes: 3, pageSize: 2, describe: false });
    // THEN one page filled the budget: no second page of the hub, no expansion of its inputs
    const calls = cp.requestsFor('ListAssociations').slice(before);
    expect(calls.map((r) => r.body)).toEqual([{ DestinationArn: hub, MaxResults: 2 }]);
    expect(graph.nodes.map((n) => n.arn)).toEqual([hub, input(0), input(1)]);
    expect(graph.truncated).toBe(true);
  });

  test('MaxResults is 100 by default', async () => {
    const before = cp.requestsFor('ListAssociations').length;
    await getModelProvenance(trainingJob, { sagemaker, maxDepth: 1, describe: false });
    expect(cp.requestsFor('ListAssociations').slice(before).map((r) => r.body.MaxResults)).toEqual([100]);
  });

  test('fails if the options are out of range', async () => {
    await expect(getModelProvenance(modelPackage, { sagemaker, maxDepth: 0 })).rejects.toThrow(/maxDepth: got 0, expected an integer between 1 and 10/);
    await expect(getModelProvenance(modelPackage, { sagemaker, direction: 'sideways' as any })).rejects.toThrow(/direction: got "sideways"/);
    await expect(getModelProvenance(modelPackage, { sagemaker, pageSize: 101 })).rejects.toThrow(/pageSize: got 101, expected an integer between 1 and 100/);
  });

  test('kinds come from the ARN resource type', async () => {
    // GIVEN an artifact fed by a trial component, a pipeline and an action
    const root = A('kinds-root');
    cp.addArtifact(root, { ArtifactType: 'Model' });
    const sources: Array<[string, string, string]> = [
      ['arn:aws:sagemaker:us-east-1:123456789012:experiment-trial-component/x-aws-training-job', 'TrialComponent', 'trial-component'],
      ['arn:aws:sagemaker:us-east-1:123456789012:pipeline/p', 'Pipeline', 'other'],
      ['arn:aws:sagemaker:us-east-1:123456789012:action/deploy', 'Action', 'action'],
    ];
    for (const [arn, type] of sources) cp.addAssociation({ SourceArn: arn, SourceType: type, DestinationArn: root, DestinationType: 'Model', AssociationType: 'ContributedTo' });
    // WHEN
    const graph = await getModelProvenance(root, { sagemaker, direction: 'backward', maxDepth: 1, describe: false });
    // THEN
    expect(graph.nodes.filter((n) => n.arn !== root).map((n) => [n.arn, n.kind])).toEqual(sources.map(([arn, , kind]) => [arn, kind]));
  });
});
