import { App, Duration, Size, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { specTextOf } from './spec-of';
import { addAsyncExample } from '../../examples/async';
import { addFeatureStoreExample } from '../../examples/feature-store';
import { addMcpExample, mcpExampleToolNames } from '../../examples/mcp-server';
import { addPipelinesExample } from '../../examples/pipelines';
import { addRealtimeExample } from '../../examples/realtime';
import { addSharedGpuExample } from '../../examples/shared-gpu';
import { userKeyedSchema } from '../../packages/runtime/test/support/feature-schemas';
import { AsyncEndpoint } from '../../src/async';
import { ContainerImage, InstanceType, ModelFamily, ModelSource } from '../../src/core';
import { FeatureGroup } from '../../src/features';
import { HuggingFaceHubModel, TextGenerationServer } from '../../src/huggingface';
import { McpToolServer, McpToolServerProps } from '../../src/mcp';
import { PipelineEventRouter, TrainingPipeline } from '../../src/pipelines';
import { RealtimeEndpoint } from '../../src/realtime';
import { ServerlessEndpoint } from '../../src/serverless';
import { InferenceComponent } from '../../src/shared-gpu';
import { expectNagClean } from '../support/nag-checks';
import { templateSnapshot } from '../support/snapshot';
import { expectValidTemplate } from '../support/template-checks';
import { MCP_ENV } from 'cdk-sagemaker-mcp-runtime/internal/contract';
import { parseMcpServerSpec } from 'cdk-sagemaker-mcp-runtime/mcp';

const ENV = { account: '123456789012', region: 'us-east-1' };
const USERS = userKeyedSchema('users', { name: 'calls', type: 'Integral' });

function importedStack() {
  const app = new App();
  const stack = new Stack(app, 'Mcp', { env: ENV });
  const props: McpToolServerProps = {
    realtimeEndpoints: [{ endpoint: RealtimeEndpoint.fromEndpointName(stack, 'Churn', 'churn-xgb'), description: 'churn' }],
    inferenceComponents: [{
      inferenceComponent: InferenceComponent.fromInferenceComponentAttributes(stack, 'Llama', { inferenceComponentName: 'llama3-8b', endpointName: 'shared-gpu' }),
      modelFamily: ModelFamily.LLAMA3,
    }],
    featureGroups: [{ featureGroup: FeatureGroup.fromFeatureGroupName(stack, 'Users', 'users'), schema: USERS }],
    pipelines: [{ pipeline: TrainingPipeline.fromPipelineName(stack, 'Churn Training', 'churn-training'), overridableParameters: ['MaxRounds'] }],
  };
  return { app, stack, props };
}

/** Every (action, resource) pair of the server role's policies, resolved. */
function policyPairs(stack: Stack, server: McpToolServer): string[] {
  const template = Template.fromStack(stack).toJSON();
  const roleId = stack.resolve((server.serverFunction.role!.node.defaultChild as iam.CfnRole).logicalId);
  const pairs: string[] = [];
  for (const resource of Object.values<any>(template.Resources)) {
    if (resource.Type !== 'AWS::IAM::Policy' || !resource.Properties.Roles.some((r: any) => r.Ref === roleId)) continue;
    for (const st of resource.Properties.PolicyDocument.Statement) {
      expect(st.Effect).toBe('Allow');
      for (const action of [st.Action].flat()) for (const res of [st.Resource].flat()) pairs.push(`${action} ${JSON.stringify(res)}`);
    }
  }
  return pairs.sort();
}

const pair = (stack: Stack, action: string, resource: string) => `${action} ${JSON.stringify(stack.resolve(resource))}`;

describe('McpToolServer', () => {
  // The server over importedStack()'s resources with the default options, built once: the tests that use it only read it.
  let defaults: ReturnType<typeof importedStack> & { server: McpToolServer; template: Template };
  beforeAll(() => {
    const built = importedStack();
    const server = new McpToolServer(built.stack, 'Mcp', built.props);
    defaults = { ...built, server, template: Template.fromStack(built.stack) };
  });

  test('a Lambda function (nodejs22.x) behind an AWS_IAM function URL, with timeout, JSON logs and alarms, and no reserved concurrency', () => {
    // GIVEN / WHEN the default server
    const { stack, template: t } = defaults;
    // THEN
    t.hasResourceProperties('AWS::Lambda::Function', {
      Runtime: 'nodejs22.x',
      Timeout: 90,
      MemorySize: 512,
      // Reserving needs 100 unreserved left in the account: a default reservation fails in accounts with a low quota.
      ReservedConcurrentExecutions: Match.absent(),
      LoggingConfig: { LogFormat: 'JSON', LogGroup: Match.anyValue() },
    });
    t.hasResourceProperties('AWS::Lambda::Url', { AuthType: 'AWS_IAM' });
    t.hasResourceProperties('AWS::CloudWatch::Alarm', { MetricName: 'Errors', Namespace: 'AWS/Lambda', Threshold: 1, Statistic: 'Sum' });
    t.hasResourceProperties('AWS::CloudWatch::Alarm', { MetricName: 'Throttles', Namespace: 'AWS/Lambda', Threshold: 1, Statistic: 'Sum' });
    t.hasResourceProperties('AWS::Logs::LogGroup', { RetentionInDays: 30 });
    expectValidTemplate(stack);
  });

  test('reservedConcurrentExecutions reserves exactly what is asked; 0 and fractions are refused', () => {
    const { stack, props } = importedStack();
    new McpToolServer(stack, 'Mcp', { ...props, reservedConcurrentExecutions: 25 });
    Template.fromStack(stack).hasResourceProperties('AWS::Lambda::Function', { ReservedConcurrentExecutions: 25 });
    // Above the former cap of 1000: accounts with a raised quota may reserve more.
    const big = importedStack();
    new McpToolServer(big.stack, 'Mcp', { ...big.props, reservedConcurrentExecutions: 1500 });
    Template.fromStack(big.stack).hasResourceProperties('AWS::Lambda::Function', { ReservedConcurrentExecutions: 1500 });
    for (const bad of [0, 2.5]) {
      const s = importedStack();
      expect(() => new McpToolServer(s.stack, 'Mcp', { ...s.props, reservedConcurrentExecutions: bad }))
        .toThrow(new RegExp(`reservedConcurrentExecutions: got ${bad}, expected an integer >= 1`));
    }
  });

  test('passes the spec through its secret and only the ARNs of the spec and handle key secrets', () => {
    // GIVEN / WHEN the default server
    const { server } = defaults;
    // THEN
    const template = defaults.template.toJSON();
    const fn = defaults.template.findResources('AWS::Lambda::Function');
    const env = Object.values<any>(fn)[0].Properties.Environment.Variables;
    const spec = parseMcpServerSpec<any>(specTextOf(template));
    expect(spec).toEqual({
      realtimeEndpoints: [
        { name: 'churn-xgb', description: 'churn' },
        { name: 'shared-gpu', inferenceComponents: ['llama3-8b'], componentModelFamilies: [{ component: 'llama3-8b', modelFamily: 'llama3' }] },
      ],
      asyncEndpoints: [],
      featureGroups: [{ schema: USERS, allowWrites: false }],
      pipelines: [{ name: 'churn-training', parameters: ['MaxRounds'] }],
      modelProvenance: false,
    });
    // Only the secret's ARN: the handler reads the key at cold start (see test/mcp/handle-key.test.ts).
    expect(Object.keys(env).sort()).toEqual(['AWS_NODEJS_CONNECTION_REUSE_ENABLED', MCP_ENV.HANDLE_KEY_SECRET_ARN, MCP_ENV.SPEC_DIGEST, MCP_ENV.SPEC_SECRET_ARN, 'POWERTOOLS_SERVICE_NAME']);
    expect(JSON.stringify(env)).not.toContain('resolve:secretsmanager');
    expect(env[MCP_ENV.HANDLE_KEY_SECRET_ARN]).toEqual({ Ref: expect.stringMatching(/^McpHandleKey/) });
    expect(env[MCP_ENV.SPEC_SECRET_ARN]).toEqual({ Ref: expect.stringMatching(/^McpSpec/) });
    expect(server.toolNames).toEqual(['invoke_endpoint', 'describe_endpoint', 'get_online_features', 'start_training', 'get_training_status', 'wait_for_training_run']);
  });

  test('an entry without modelFamily takes its endpoint\'s (the model source\'s) when the tool can build it', () => {
    // GIVEN endpoints whose model sources know their payload family
    const stack = new Stack(new App(), 'Families', { env: { account: '123456789012', region: 'us-east-1' } });
    const endpoint = (id: string, model: HuggingFaceHubModel) =>
      new RealtimeEndpoint(stack, id, { endpointName: id.toLowerCase(), model, instanceType: model.defaultInstanceType });
    const vllm = endpoint('Vllm', HuggingFaceHubModel.of('Qwen/Qwen2.5-7B-Instruct', { task: 'text-generation', textGenerationServer: TextGenerationServer.VLLM, containerVersion: '0.21' }));
    const tgi = endpoint('Tgi', HuggingFaceHubModel.of('org/model', { task: 'text-generation', containerVersion: '3.3' }));
    const tei = endpoint('Tei', HuggingFaceHubModel.of('BAAI/bge-base-en-v1.5', { task: 'feature-extraction', containerVersion: '1.8' }));
    // TEI embeddings have no payload family (the invoke tool builds no embedding body): undefined, not 'tei'.
    expect([vllm.modelFamily, tgi.modelFamily, tei.modelFamily]).toEqual([ModelFamily.OPENAI, ModelFamily.TGI, undefined]);
    expect(RealtimeEndpoint.fromEndpointName(stack, 'Imported', 'x').modelFamily).toBeUndefined();
    const serverless = new ServerlessEndpoint(stack, 'Small', {
      endpointName: 'small', memorySize: Size.gibibytes(2), maxConcurrency: 5, model: ModelSource.fromContainer(ContainerImage.fromDlc('huggingface-pytorch-inference', '2.6.0-transformers4.51-cpu-py312-ubuntu22.04'), { modelFamily: ModelFamily.MISTRAL }),
    });
    expect(serverless.modelFamily).toBe(ModelFamily.MISTRAL);
    // WHEN
    new McpToolServer(stack, 'Mcp', {
      realtimeEndpoints: [{ endpoint: vllm }, { endpoint: tgi, modelFamily: ModelFamily.LLAMA3 }, { endpoint: tei }],
      serverlessEndpoints: [{ endpoint: serverless }],
    });
    // THEN the entry's own choice wins; tei has no prompt builder, so the tool's default applies
    const spec = parseMcpServerSpec<any>(specTextOf(Template.fromStack(stack).toJSON()));
    expect(spec.realtimeEndpoints.map((e: any) => e.modelFamily)).toEqual(['openai', 'llama3', undefined, 'mistral']);
  });

  test('fails if an endpoint is given under another kind\'s entry (a serverless endpoint is its own entry, never realtime)', () => {
    // GIVEN
    const stack = new Stack(new App(), 'Kinds', { env: { account: '123456789012', region: 'us-east-1' } });
    const model = ModelSource.fromContainer(ContainerImage.fromImageUri('123456789012.dkr.ecr.us-east-1.amazonaws.com/m:1'));
    const serverless = new ServerlessEndpoint(stack, 'Small', { memorySize: Size.gibibytes(2), maxConcurrency: 5, model });
    const realtime = new RealtimeEndpoint(stack, 'Chat', { model, instanceType: InstanceType.ML_M5_LARGE });
    // WHEN / THEN both problems, in one error
    expect(() => new McpToolServer(stack, 'Mcp', {
      realtimeEndpoints: [{ endpoint: serverless }],
      serverlessEndpoints: [{ endpoint: realtime }],
    })).toThrow(/realtimeEndpoints\[0\]\.endpoint: got the ServerlessEndpoint 'Kinds\/Small', expected a realtime endpoint: give it under serverlessEndpoints[\s\S]*serverlessEndpoints\[0\]\.endpoint: got 'the RealtimeEndpoint 'Kinds\/Chat'', expected a serverless endpoint/);
  });

  test('default configuration snapshot', () => {
    expect(templateSnapshot(defaults.stack)).toMatchSnapshot();
  });

  test('cdk-nag AwsSolutions finds nothing unacknowledged', () => {
    expectNagClean(defaults.app);
  });

  test('fails if nothing is exposed, the timeout is below the invoke deadline, or an imported group has no schema', () => {
    const { stack } = importedStack();
    expect(() => new McpToolServer(stack, 'Empty', {})).toThrow(/props: got 'no endpoints.*expected at least one thing to expose/);
    expect(() => new McpToolServer(stack, 'Bad', {
      featureGroups: [{ featureGroup: FeatureGroup.fromFeatureGroupName(stack, 'G', 'g') }],
      timeout: Duration.seconds(30),
      reservedConcurrentExecutions: 0,
      realtimeEndpoints: [{ endpoint: RealtimeEndpoint.fromEndpointName(stack, 'E', 'e') }],
    })).toThrow(/3 problems/);
    // A family is a ModelFamily: a name the contract does not know fails where it is named.
    expect(() => ModelFamily.of('gpt')).toThrow("ModelFamily.of: got \"gpt\", expected one of 'tgi', 'llama3', 'mistral', 'falcon', 'openai'");
    try {
      new McpToolServer(stack, 'Bad2', {
        featureGroups: [{ featureGroup: FeatureGroup.fromFeatureGroupName(stack, 'G2', 'g2') }],
        timeout: Duration.seconds(30),
        realtimeEndpoints: [{ endpoint: RealtimeEndpoint.fromEndpointName(stack, 'E2', 'e2') }],
      });
      throw new Error('expected a validation error');
    } catch (e) {
      const message = (e as Error).message;
      expect(message).toContain('timeout: got 30, expected an integer between 75 and 900 seconds');
      expect(message).toContain("featureGroups[0].schema: got nothing, expected the schema of imported feature group 'g2'");
    }
  });

  test('an imported feature group whose attributes carry its schema needs no schema in the options', () => {
    // GIVEN
    const stack = new Stack(new App(), 'Mcp', { env: ENV });
    const featureGroup = FeatureGroup.fromFeatureGroupAttributes(stack, 'Users', { featureGroupName: 'users', schema: USERS });
    // WHEN
    new McpToolServer(stack, 'Mcp', { featureGroups: [{ featureGroup }] });
    // THEN
    const spec = parseMcpServerSpec<any>(specTextOf(Template.fromStack(stack).toJSON()));
    expect(spec.featureGroups).toEqual([{ schema: USERS, allowWrites: false }]);
  });

  test('fails if an async endpoint imported by name or ARN (no bucket) is exposed, naming the import to use', () => {
    const stack = new Stack(new App(), 'AsyncByName', { env: { account: '123456789012', region: 'us-east-1' } });
    expect(() => new McpToolServer(stack, 'Mcp', {
      asyncEndpoints: [{ endpoint: AsyncEndpoint.fromEndpointName(stack, 'Doc', 'doc-async') }],
    })).toThrow("asyncEndpoints[0].endpoint: got 'doc-async' imported by name or ARN (no bucket known), expected an async endpoint with its bucket and prefixes: import it with AsyncEndpoint.fromAsyncEndpointAttributes");
  });

  test('fails if trainingResults is given without pipelines', () => {
    const { stack } = importedStack();
    const app2 = new App();
    const other = new Stack(app2, 'P', { env: ENV });
    const { router } = addPipelinesExample(other);
    expect(() => new McpToolServer(other, 'Mcp', {
      realtimeEndpoints: [{ endpoint: RealtimeEndpoint.fromEndpointName(stack, 'E', 'e') }],
      trainingResults: router,
    })).toThrow(/trainingResults: got 'a PipelineEventRouter', expected at least one entry in pipelines/);
  });
});

describe('grants', () => {
  test('the role holds exactly the grants of what is exposed (imported resources), plus its own log group', () => {
    // GIVEN
    const { stack, props } = importedStack();
    // WHEN
    const server = new McpToolServer(stack, 'Mcp', props);
    // THEN
    const endpointArn = (name: string) => stack.formatArn({ service: 'sagemaker', resource: 'endpoint', resourceName: name });
    const componentArn = (name: string) => stack.formatArn({ service: 'sagemaker', resource: 'inference-component', resourceName: name });
    const groupArn = stack.formatArn({ service: 'sagemaker', resource: 'feature-group', resourceName: 'users' });
    const pipelineArn = stack.formatArn({ service: 'sagemaker', resource: 'pipeline', resourceName: 'churn-training' });
    expect(policyPairs(stack, server)).toEqual([
      pair(stack, 'logs:CreateLogStream', server.logGroup.logGroupArn),
      pair(stack, 'logs:PutLogEvents', server.logGroup.logGroupArn),
      pair(stack, 'sagemaker:InvokeEndpoint', endpointArn('churn-xgb')),
      pair(stack, 'sagemaker:InvokeEndpointWithResponseStream', endpointArn('churn-xgb')),
      pair(stack, 'sagemaker:DescribeEndpoint', endpointArn('churn-xgb')),
      pair(stack, 'sagemaker:InvokeEndpoint', endpointArn('shared-gpu')),
      pair(stack, 'sagemaker:InvokeEndpointWithResponseStream', endpointArn('shared-gpu')),
      pair(stack, 'sagemaker:InvokeEndpoint', componentArn('llama3-8b')),
      pair(stack, 'sagemaker:InvokeEndpointWithResponseStream', componentArn('llama3-8b')),
      pair(stack, 'sagemaker:DescribeEndpoint', endpointArn('shared-gpu')),
      pair(stack, 'sagemaker:GetRecord', groupArn),
      pair(stack, 'sagemaker:StartPipelineExecution', pipelineArn),
      pair(stack, 'sagemaker:DescribePipelineExecution', `${pipelineArn}/execution/*`),
      pair(stack, 'sagemaker:ListPipelineExecutionSteps', `${pipelineArn}/execution/*`),
      pair(stack, 'sagemaker:StopPipelineExecution', `${pipelineArn}/execution/*`),
      pair(stack, 'secretsmanager:GetSecretValue', server.handleKey.secretArn),
      pair(stack, 'secretsmanager:GetSecretValue', server.specSecret.secretArn),
    ].sort());
  });

  test('the example (every capability) grants exactly what each exposed construct grants, nothing else', () => {
    // GIVEN: the same constructs granted to a bare role through their own grantX methods
    const app = new App();
    const stack = new Stack(app, 'Demo', { env: ENV });
    const realtime = addRealtimeExample(stack);
    const asyncEndpoint = addAsyncExample(stack);
    const sharedGpu = addSharedGpuExample(stack);
    const featureGroup = addFeatureStoreExample(stack);
    const pipelines = addPipelinesExample(stack);
    // WHEN
    const server = addMcpExample(stack, { realtime, async: asyncEndpoint, sharedGpu, featureGroup, pipelines });
    // THEN
    const expected = new iam.Role(stack, 'Expected', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    server.logGroup.grantWrite(expected);
    realtime.grantInvoke(expected);
    realtime.grant(expected, 'sagemaker:DescribeEndpoint');
    sharedGpu.grantInvoke(expected);
    for (const c of sharedGpu.node.findAll().filter((x): x is InferenceComponent => x instanceof InferenceComponent)) c.grantInvoke(expected);
    sharedGpu.grant(expected, 'sagemaker:DescribeEndpoint');
    asyncEndpoint.grantSubmit(expected);
    asyncEndpoint.grantReadResults(expected);
    asyncEndpoint.grant(expected, 'sagemaker:DescribeEndpoint');
    featureGroup.grantGetRecord(expected);
    featureGroup.grantPutRecord(expected);
    pipelines.pipeline.grantStartExecution(expected);
    const readExecutions = pipelines.pipeline.grantReadExecutions(expected);
    pipelines.router.grantReadResultsByExecution(expected);
    // tasks/cancel of a start_training task: the same executions the server reads.
    iam.Grant.addToPrincipal({
      grantee: expected,
      actions: ['sagemaker:StopPipelineExecution'],
      resourceArns: readExecutions.principalStatements.flatMap((st) => st.resources),
    });
    iam.Grant.addToPrincipal({ grantee: expected, actions: ['secretsmanager:GetSecretValue'], resourceArns: [server.handleKey.secretArn, server.specSecret.secretArn] });
    const expectedPairs = policyPairs(stack, { serverFunction: { role: expected } } as unknown as McpToolServer);
    const actual = policyPairs(stack, server);
    expect(new Set(actual)).toEqual(new Set(expectedPairs));
    expect(actual.some((p) => p.includes('"*"'))).toBe(false);
    // No tool deletes records, batch-reads features or queries results by session.
    for (const unused of ['sagemaker:DeleteRecord', 'sagemaker:BatchGetRecord', 'dynamodb:Query']) {
      expect(actual.filter((p) => p.startsWith(`${unused} `))).toEqual([]);
    }
    expect(mcpExampleToolNames(server)).toEqual([
      'invoke_endpoint', 'describe_endpoint', 'start_async_inference', 'get_async_inference_result', 'wait_for_async_inference',
      'get_online_features', 'put_feature_record', 'start_training', 'get_training_status', 'wait_for_training_run', 'get_training_result',
    ]);
  });

  test('a router imported from another stack registers get_training_result and grants GetItem on its table only', () => {
    // GIVEN: the router's table known by ARN (deployed by another stack or app)
    const { stack, props } = importedStack();
    const tableArn = 'arn:aws:dynamodb:us-east-1:123456789012:table/pipeline-results';
    const keyArn = 'arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';
    const trainingResults = PipelineEventRouter.fromPipelineEventRouterAttributes(stack, 'Router', {
      resultsTable: dynamodb.Table.fromTableArn(stack, 'Results', tableArn),
      encryptionKey: kms.Key.fromKeyArn(stack, 'ResultsKey', keyArn),
    });
    // WHEN
    const server = new McpToolServer(stack, 'Mcp', { ...props, trainingResults });
    // THEN
    const pairs = policyPairs(stack, server);
    expect(pairs).toContain(`dynamodb:GetItem ${JSON.stringify(tableArn)}`);
    expect(pairs).toContain(`kms:Decrypt ${JSON.stringify(keyArn)}`);
    expect(pairs.filter((p) => p.startsWith('dynamodb:'))).toEqual([`dynamodb:GetItem ${JSON.stringify(tableArn)}`]);
    expect(specTextOf(Template.fromStack(stack).toJSON())).toContain('pipeline-results');
  });

  test('modelProvenance adds the lineage reads (ListAssociations cannot be scoped) and registers the tool', () => {
    const { stack, props } = importedStack();
    const server = new McpToolServer(stack, 'Mcp', { ...props, modelProvenance: true });
    const pairs = policyPairs(stack, server);
    expect(pairs).toContain('sagemaker:ListAssociations "*"');
    expect(pairs.filter((p) => p.startsWith('sagemaker:DescribeModelPackage'))).toHaveLength(4);
    expect(server.toolNames).toContain('get_model_provenance');
  });

  test('grantInvokeUrl grants InvokeFunctionUrl (AWS_IAM) and InvokeFunction via the URL', () => {
    const { stack, props } = importedStack();
    const server = new McpToolServer(stack, 'Mcp', props);
    const client = new iam.Role(stack, 'Agent', { assumedBy: new iam.AccountRootPrincipal() });
    server.grantInvokeUrl(client);
    Template.fromStack(stack).hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: Match.stringLikeRegexp('Agent') }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Action: 'lambda:InvokeFunctionUrl', Condition: { StringEquals: { 'lambda:FunctionUrlAuthType': 'AWS_IAM' } } }),
          Match.objectLike({ Action: 'lambda:InvokeFunction', Condition: { Bool: { 'lambda:InvokedViaFunctionUrl': true } } }),
        ]),
      },
    });
  });

  test('an imported async endpoint is granted submit, results and describe', () => {
    const { stack } = importedStack();
    const bucket = s3.Bucket.fromBucketName(stack, 'B', 'async-bucket');
    const table = dynamodb.Table.fromTableName(stack, 'T', 'jobs');
    const server = new McpToolServer(stack, 'Mcp', {
      asyncEndpoints: [{ endpoint: AsyncEndpoint.fromAsyncEndpointAttributes(stack, 'A', { endpointName: 'doc', bucket, jobTable: table }) }],
    });
    const pairs = policyPairs(stack, server);
    expect(pairs.map((p) => p.split(' ')[0])).toEqual([
      'dynamodb:GetItem', 'logs:CreateLogStream', 'logs:PutLogEvents', 's3:GetObject', 's3:GetObject', 's3:ListBucket', 's3:PutObject',
      'sagemaker:DescribeEndpoint', 'sagemaker:InvokeEndpointAsync', 'secretsmanager:GetSecretValue', 'secretsmanager:GetSecretValue',
    ]);
    expect(server.toolNames).toEqual(['describe_endpoint', 'start_async_inference', 'get_async_inference_result', 'wait_for_async_inference']);
  });
});

describe('example', () => {
  test('the whole example stack (every capability + McpToolServer) is cdk-nag clean and a valid template', () => {
    const app = new App();
    const stack = new Stack(app, 'Demo', { env: ENV });
    addMcpExample(stack, {
      realtime: addRealtimeExample(stack),
      async: addAsyncExample(stack),
      sharedGpu: addSharedGpuExample(stack),
      featureGroup: addFeatureStoreExample(stack),
      pipelines: addPipelinesExample(stack),
    });
    expectValidTemplate(stack);
    expectNagClean(app);
  });
});
