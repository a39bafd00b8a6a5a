import { createServer, Server } from 'http';
import { AddressInfo } from 'net';
import { accepted, fail, ok } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { completeAsyncOutput, LocalEnv, recordAsyncJob, recordTrainingResult, startLocalEnv } from '../support/local-env';
import { createSageMakerMcpHandler, sageMakerMcpToolNames } from 'cdk-sagemaker-mcp-runtime/mcp';

let env: LocalEnv;
let http: Server;
let url: URL;
let client: Client;

type CallResult = { isError?: boolean; structuredContent?: any; content: Array<{ type: string; text?: string }> };
const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallResult;

beforeAll(async () => {
  env = await startLocalEnv();
  const handler = createSageMakerMcpHandler(env.config);
  http = createServer(toNodeHandler(handler));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
  const { port } = http.address() as AddressInfo;
  url = new URL(`http://127.0.0.1:${port}/mcp`);
  // The 2026-07-28 revision (negotiated through server/discover); one suite below speaks the 2025 revision.
  client = new Client({ name: 'test-client', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(url));
});

afterAll(async () => {
  await client?.close();
  await new Promise<void>((resolve) => http?.close(() => resolve()));
  await env?.stop();
});

beforeEach(() => env.runtime.clear());

describe('tools/list', () => {
  test('the client negotiated the 2026-07-28 revision over stateless HTTP', () => {
    expect(client.getProtocolEra()).toBe('modern');
  });

  test('lists every configured tool with input and output schemas', async () => {
    // WHEN
    const { tools } = await client.listTools();
    // THEN
    expect(tools.map((t) => t.name)).toEqual(sageMakerMcpToolNames(env.config));
    expect(tools.map((t) => t.name)).toEqual([
      'invoke_endpoint', 'describe_endpoint', 'start_async_inference', 'get_async_inference_result', 'wait_for_async_inference',
      'get_online_features', 'put_feature_record', 'start_training', 'get_training_status', 'wait_for_training_run', 'get_training_result',
      'get_model_provenance',
    ]);
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(80);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
    }
    const invoke = tools.find((t) => t.name === 'invoke_endpoint')!;
    expect(invoke.inputSchema.required).toEqual(expect.arrayContaining(['endpointName', 'payload']));
    expect(invoke.description).toContain('churn-xgb');
    expect(invoke.description).toContain('llama3-8b');
    expect(JSON.stringify(invoke.inputSchema)).toContain('"prompt"');
    expect(tools.find((t) => t.name === 'start_async_inference')!.outputSchema!.required).toEqual(expect.arrayContaining(['handle', 'checkAfterSeconds']));
  });
});

describe('invoke_endpoint', () => {
  test('sends CSV rows and returns the parsed answer as structured content and text', async () => {
    // GIVEN
    env.runtime.script('churn-xgb', ok('0.87', { contentType: 'text/csv', invokedProductionVariant: 'Blue' }));
    // WHEN
    const result = await call('invoke_endpoint', { endpointName: 'churn-xgb', payload: { format: 'csv', rows: [[1, 'a,b', 2.5, true]] } });
    // THEN
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ endpointName: 'churn-xgb', csv: [['0.87']], attempts: 1, invokedProductionVariant: 'Blue' });
    expect(JSON.parse(result.content[0].text!)).toEqual(result.structuredContent);
    const [request] = env.runtime.requestsFor('churn-xgb');
    expect(request.headers['content-type']).toBe('text/csv');
    expect(request.bodyText).toBe('1,"a,b",2.5,true');
  });

  test('an endpoint of the openai family (vLLM) gets an OpenAI completions body and its choices[0].text back', async () => {
    // GIVEN the stand-in answers as vLLM's SageMaker server does (AWS's quick start reads result['choices'][0]['text']:
    // https://github.com/aws/model-hosting-container-standards/blob/main/docs/sagemaker/01_quickstart.md)
    env.runtime.script('churn-xgb', ok({ id: 'cmpl-1', object: 'text_completion', choices: [{ index: 0, text: ' Paris.', finish_reason: 'stop' }] }));
    // WHEN the agent names the family for the call
    const result = await call('invoke_endpoint', {
      endpointName: 'churn-xgb', payload: { format: 'prompt', prompt: 'Capital of France?', maxNewTokens: 8, modelFamily: 'openai' },
    });
    // THEN
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ generatedText: ' Paris.' });
    const [request] = env.runtime.requestsFor('churn-xgb');
    expect(JSON.parse(request.bodyText)).toEqual({ prompt: 'Capital of France?', max_tokens: 8 });
  });

  test('builds the model family payload for a prompt and routes to the inference component', async () => {
    // GIVEN
    env.runtime.script('shared-llm', ok({ choices: [{ message: { content: 'Hello!' } }] }));
    // WHEN
    const result = await call('invoke_endpoint', {
      endpointName: 'shared-llm', inferenceComponentName: 'llama3-8b', payload: { format: 'prompt', prompt: 'Hi', maxNewTokens: 16 },
    });
    // THEN
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ generatedText: 'Hello!', inferenceComponentName: 'llama3-8b' });
    const [request] = env.runtime.requestsFor('shared-llm');
    expect(request.headers['x-amzn-sagemaker-inference-component']).toBe('llama3-8b');
    expect(JSON.parse(request.bodyText)).toEqual({ messages: [{ role: 'user', content: 'Hi' }], max_tokens: 16 });
  });

  test('a ModelError is a tool error that is not retryable, with the container status and logs', async () => {
    // GIVEN
    env.runtime.script('churn-xgb', fail('ModelError', { originalStatusCode: 400, originalMessage: 'bad feature count' }));
    // WHEN
    const result = await call('invoke_endpoint', { endpointName: 'churn-xgb', payload: { format: 'json', data: { x: 1 } } });
    // THEN
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ errorName: 'ModelInvocationError', retryable: false, originalStatusCode: 400 });
    expect(result.structuredContent.logStreamArn).toMatch(/^arn:aws:logs:/);
    expect(result.structuredContent.message).toContain('bad feature count');
    expect(JSON.parse(result.content[0].text!)).toEqual(result.structuredContent);
    expect(env.runtime.requestsFor('churn-xgb')).toHaveLength(1);
  });

  test('ServiceUnavailable on every attempt is a retryable tool error', async () => {
    // GIVEN
    env.runtime.setDefault('churn-xgb', fail('ServiceUnavailable'));
    // WHEN
    const result = await call('invoke_endpoint', { endpointName: 'churn-xgb', payload: { format: 'text', text: 'x' } });
    // THEN
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ errorName: 'TransientEndpointError', retryable: true });
    expect(env.runtime.requestsFor('churn-xgb').length).toBe(3);
  });

  test('refuses an endpoint that is not allow-listed, without calling SageMaker', async () => {
    // WHEN
    const result = await call('invoke_endpoint', { endpointName: 'prod-secret-model', payload: { format: 'json', data: 1 } });
    // THEN
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ errorName: 'EndpointNotAllowed', retryable: false });
    expect(result.structuredContent.message).toContain('churn-xgb');
    expect(env.runtime.requests).toHaveLength(0);
  });

  test('refuses an inference component that is not allow-listed, and a shared endpoint without one', async () => {
    // WHEN
    const wrong = await call('invoke_endpoint', { endpointName: 'shared-llm', inferenceComponentName: 'other', payload: { format: 'prompt', prompt: 'x' } });
    const missing = await call('invoke_endpoint', { endpointName: 'shared-llm', payload: { format: 'prompt', prompt: 'x' } });
    // THEN
    expect(wrong.structuredContent).toMatchObject({ errorName: 'InferenceComponentNotAllowed', retryable: false });
    expect(missing.structuredContent).toMatchObject({ errorName: 'InferenceComponentNotAllowed', retryable: false });
    expect(env.runtime.requests).toHaveLength(0);
  });

  test('bad arguments fail the input schema with a structured, non-retryable error', async () => {
    // WHEN
    const result = await call('invoke_endpoint', { endpointName: 'churn-xgb', payload: { format: 'xml', data: '<a/>' } });
    // THEN
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ errorName: 'InvalidArguments', retryable: false });
    expect(result.structuredContent.message).toMatch(/payload|format/);
    expect(env.runtime.requests).toHaveLength(0);
  });
});

describe('describe_endpoint', () => {
  test('returns the status and variants of an allow-listed endpoint', async () => {
    // WHEN
    const result = await call('describe_endpoint', { endpointName: 'churn-xgb' });
    // THEN
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      endpointName: 'churn-xgb',
      status: 'InService',
      asyncInference: false,
      variants: [{ variantName: 'AllTraffic', currentInstanceCount: 1 }],
    });
  });

  test('refuses an endpoint that is not allow-listed', async () => {
    const result = await call('describe_endpoint', { endpointName: 'other' });
    expect(result.structuredContent).toMatchObject({ errorName: 'EndpointNotAllowed', retryable: false });
  });

  test('an allow-listed endpoint that does not exist is a non-retryable error', async () => {
    const result = await call('describe_endpoint', { endpointName: 'shared-llm' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ errorName: 'ValidationException', retryable: false });
  });
});

describe('async inference', () => {
  test('start returns an opaque handle at once; the result is read from the job table', async () => {
    // GIVEN
    env.runtime.script('doc-summarizer', accepted({ inferenceId: 'job-1' }));
    // WHEN
    const started = await call('start_async_inference', { endpointName: 'doc-summarizer', payload: { format: 'json', data: { doc: 'long text' } } });
    // THEN
    expect(started.isError).toBeFalsy();
    const { handle, status, checkAfterSeconds } = started.structuredContent;
    expect(status).toBe('pending');
    expect(checkAfterSeconds).toBe(30);
    expect(handle).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(handle).not.toContain('job-1');
    expect(Buffer.from(handle, 'base64url').toString('latin1')).not.toMatch(/s3:|job-1|outputs/);

    const pending = await call('get_async_inference_result', { handle });
    expect(pending.structuredContent).toMatchObject({ status: 'pending', checkAfterSeconds: 30 });

    await completeAsyncOutput(env, 'outputs/job-1.out', { summary: 'short' });
    await recordAsyncJob(env, 'job-1', 's3://mcp-async-bucket/outputs/job-1.out');
    const done = await call('get_async_inference_result', { handle });
    expect(done.structuredContent).toMatchObject({ status: 'completed', endpointName: 'doc-summarizer', output: { json: { summary: 'short' } } });
  });

  test('without a job table the output object is checked once per call', async () => {
    // GIVEN
    env.runtime.script('batch-scorer', accepted({ inferenceId: 'job-2' }));
    const { handle } = (await call('start_async_inference', { endpointName: 'batch-scorer', payload: { format: 'text', text: 'a,b' } })).structuredContent;
    // WHEN
    const pending = await call('get_async_inference_result', { handle });
    await completeAsyncOutput(env, 'outputs/job-2.out', [0.1, 0.9]);
    const done = await call('get_async_inference_result', { handle });
    // THEN
    expect(pending.structuredContent.status).toBe('pending');
    expect(done.structuredContent).toMatchObject({ status: 'completed', output: { json: [0.1, 0.9] } });
  });

  test('a forged or tampered handle is refused', async () => {
    // GIVEN
    env.runtime.script('doc-summarizer', accepted({ inferenceId: 'job-3' }));
    const { handle } = (await call('start_async_inference', { endpointName: 'doc-summarizer', payload: { format: 'json', data: 1 } })).structuredContent;
    const tampered = `${handle.slice(0, 20)}${handle[20] === 'A' ? 'B' : 'A'}${handle.slice(21)}`;
    // WHEN
    const results = await Promise.all([tampered, 'not-a-handle', Buffer.from('{"e":"doc-summarizer","id":"x"}').toString('base64url')]
      .map((h) => call('get_async_inference_result', { handle: h })));
    // THEN
    for (const r of results) expect(r.structuredContent).toMatchObject({ errorName: 'InvalidHandleError', retryable: false });
  });

  test('refuses an async endpoint that is not allow-listed', async () => {
    const result = await call('start_async_inference', { endpointName: 'churn-xgb', payload: { format: 'json', data: 1 } });
    expect(result.structuredContent).toMatchObject({ errorName: 'EndpointNotAllowed', retryable: false });
  });

  test('ServiceUnavailable from InvokeEndpointAsync is retryable', async () => {
    env.runtime.script('doc-summarizer', fail('ServiceUnavailable'), fail('ServiceUnavailable'), fail('ServiceUnavailable'));
    const result = await call('start_async_inference', { endpointName: 'doc-summarizer', payload: { format: 'json', data: 1 } });
    expect(result.structuredContent).toMatchObject({ errorName: 'TransientEndpointError', retryable: true });
  });
});

describe('feature store', () => {
  test('reads a record cast to its declared types, and a missing record as found=false', async () => {
    // WHEN
    const found = await call('get_online_features', { featureGroupName: 'users', recordId: 'u1' });
    const missing = await call('get_online_features', { featureGroupName: 'users', recordId: 'nobody' });
    // THEN
    expect(found.structuredContent).toMatchObject({ found: true, features: { user_id: 'u1', calls: 3, score: 0.75 } });
    expect(missing.structuredContent).toMatchObject({ found: false, recordId: 'nobody', features: { calls: null } });
  });

  test('writes a record with typed values, and refuses a value of the wrong type before calling', async () => {
    // WHEN
    const written = await call('put_feature_record', { featureGroupName: 'users', record: { user_id: 'u2', calls: 7, score: 0.5 } });
    const refused = await call('put_feature_record', { featureGroupName: 'users', record: { user_id: 'u3', calls: 'many' } });
    // THEN
    expect(written.structuredContent).toEqual({ featureGroupName: 'users', recordId: 'u2', written: true, mode: 'put', eventTime: expect.any(String), preservedFeatures: [] });
    expect(env.featureStore.getStored('users', 'u2')).toMatchObject({ calls: '7', score: '0.5' });
    expect(refused.structuredContent).toMatchObject({ errorName: 'FeatureValueError', retryable: false });
    expect(env.featureStore.getStored('users', 'u3')).toBeUndefined();
  });

  test('refuses a group that is not allow-listed; ServiceUnavailable is retryable', async () => {
    const denied = await call('get_online_features', { featureGroupName: 'payments', recordId: 'x' });
    expect(denied.structuredContent).toMatchObject({ errorName: 'FeatureGroupNotAllowed', retryable: false });
    env.featureStore.failNext('GetRecord', 'ServiceUnavailable');
    env.featureStore.failNext('GetRecord', 'ServiceUnavailable');
    env.featureStore.failNext('GetRecord', 'ServiceUnavailable');
    const unavailable = await call('get_online_features', { featureGroupName: 'users', recordId: 'u1' });
    expect(unavailable.structuredContent).toMatchObject({ retryable: true });
  });
});

describe('training', () => {
  test('start_training returns a handle with the session id as correlation id; status and result follow it', async () => {
    // WHEN
    const started = await call('start_training', { pipelineName: 'churn-training', parameters: { MaxRounds: 20 }, sessionId: 'sess-42' });
    // THEN
    expect(started.isError).toBeFalsy();
    expect(started.structuredContent).toMatchObject({ status: 'Executing', sessionId: 'sess-42', checkAfterSeconds: 60 });
    const [execution] = env.control.executions();
    expect(execution.PipelineExecutionDescription).toMatch(/^session_id=sess-42; triggered at /);
    expect(execution.PipelineParameters).toEqual([{ Name: 'MaxRounds', Value: '20' }]);
    const { handle } = started.structuredContent;
    expect(handle).not.toContain('arn');

    env.control.setSteps(execution.PipelineExecutionArn, [{ StepName: 'TrainModel', StepStatus: 'Executing' }]);
    const running = await call('get_training_status', { handle });
    expect(running.structuredContent).toMatchObject({ status: 'Executing', final: false, steps: [{ name: 'TrainModel', status: 'Executing' }], checkAfterSeconds: 60 });

    const pending = await call('get_training_result', { handle });
    expect(pending.structuredContent).toMatchObject({ status: 'pending', sessionId: 'sess-42' });
    await recordTrainingResult(env, execution.PipelineExecutionArn, {
      status: 'Failed',
      sessionId: 'sess-42',
      pipelineArn: execution.PipelineArn,
      failureReason: 'AlgorithmError',
      failedStep: 'TrainModel',
      startedAt: '2024-01-01T00:00:00.000Z',
      endedAt: '2024-01-01T00:10:00.000Z',
      eventTime: '2024-01-01T00:10:00.000Z',
    });
    const failed = await call('get_training_result', { handle });
    expect(failed.structuredContent).toMatchObject({ status: 'Failed', failedStep: 'TrainModel', failureReason: 'AlgorithmError' });
    expect(failed.structuredContent.checkAfterSeconds).toBeUndefined();
  });

  test('refuses a pipeline that is not allow-listed and a parameter that may not be overridden', async () => {
    const pipeline = await call('start_training', { pipelineName: 'other' });
    const parameter = await call('start_training', { pipelineName: 'churn-training', parameters: { RoleArn: 'x' } });
    expect(pipeline.structuredContent).toMatchObject({ errorName: 'PipelineNotAllowed', retryable: false });
    expect(parameter.structuredContent).toMatchObject({ errorName: 'PipelineParameterNotAllowed', retryable: false });
  });

  test('a throttled start is retryable', async () => {
    env.control.failNext('StartPipelineExecution', 'ThrottlingException');
    env.control.failNext('StartPipelineExecution', 'ThrottlingException');
    env.control.failNext('StartPipelineExecution', 'ThrottlingException');
    env.control.failNext('StartPipelineExecution', 'ThrottlingException');
    const result = await call('start_training', { pipelineName: 'churn-training', sessionId: 'sess-throttled' });
    expect(result.structuredContent).toMatchObject({ errorName: 'ThrottlingException', retryable: true });
  });

  test('get_model_provenance walks forward from a training handle', async () => {
    // GIVEN
    const { handle } = (await call('start_training', { pipelineName: 'churn-training', sessionId: 'sess-lineage' })).structuredContent;
    const execution = env.control.executions().find((e) => e.PipelineExecutionDescription?.includes('sess-lineage'))!;
    const modelPackage = 'arn:aws:sagemaker:us-east-1:123456789012:model-package/churn/1';
    env.control.addAssociation({ SourceArn: execution.PipelineExecutionArn, DestinationArn: modelPackage, AssociationType: 'Produced', DestinationType: 'Model' });
    env.control.addModelPackage(modelPackage, { ModelPackageArn: modelPackage, ModelPackageGroupName: 'churn', ModelPackageStatus: 'Completed', ModelApprovalStatus: 'Approved' });
    // WHEN
    const result = await call('get_model_provenance', { handle });
    // THEN
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.direction).toBe('forward');
    expect(result.structuredContent.nodes.map((n: { kind: string }) => n.kind)).toEqual(['pipeline-execution', 'model-package']);
  });
});

describe('a 2025-era client (initialize handshake)', () => {
  let legacy: Client;
  beforeAll(async () => {
    legacy = new Client({ name: 'legacy-client', version: '1.0.0' });
    await legacy.connect(new StreamableHTTPClientTransport(url));
  });
  afterAll(async () => legacy?.close());

  test('gets the same tools; successes carry structuredContent, errors the same error JSON as text only', async () => {
    // GIVEN
    expect(legacy.getProtocolEra()).toBe('legacy');
    env.runtime.script('churn-xgb', ok({ p: 1 }), fail('ModelError', { originalStatusCode: 400 }));
    // WHEN
    const { tools } = await legacy.listTools();
    const good = (await legacy.callTool({ name: 'invoke_endpoint', arguments: { endpointName: 'churn-xgb', payload: { format: 'json', data: 1 } } })) as CallResult;
    const bad = (await legacy.callTool({ name: 'invoke_endpoint', arguments: { endpointName: 'churn-xgb', payload: { format: 'json', data: 2 } } })) as CallResult;
    const invalid = (await legacy.callTool({ name: 'invoke_endpoint', arguments: { endpointName: 'churn-xgb' } })) as CallResult;
    // THEN: 2025-era SDK v1 clients validate structuredContent against the output schema even on errors
    expect(tools.map((t) => t.name)).toEqual(sageMakerMcpToolNames(env.config));
    expect(good.structuredContent).toMatchObject({ json: { p: 1 } });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toBeUndefined();
    expect(JSON.parse(bad.content[0].text!)).toMatchObject({ errorName: 'ModelInvocationError', retryable: false, originalStatusCode: 400 });
    expect(invalid.structuredContent).toBeUndefined();
    expect(JSON.parse(invalid.content[0].text!)).toMatchObject({ errorName: 'InvalidArguments', retryable: false });
  });
});
