/**
 * Multi-model endpoints through the real SDK client and the local runtime's `multiModel` stand-in: TargetModel on the
 * wire, the first-load latency `prewarmTargetModels` reports, ModelNotReadyException retried while a model loads, and
 * failures reported per model.
 */
import { SageMakerRuntimeClient } from '@aws-sdk/client-sagemaker-runtime';
import { fail, multiModel, SageMakerRuntimeServer, start } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { createRuntimeClient, invokeEndpoint, prewarmTargetModels } from 'cdk-sagemaker-mcp-runtime/invoke';

describe('multi-model endpoints', () => {
  let sm: SageMakerRuntimeServer;
  let client: SageMakerRuntimeClient;
  beforeAll(async () => {
    sm = await start();
    client = createRuntimeClient(sm.clientConfig({ retry: { maxAttempts: 3, baseDelayMs: 0, maxDelayMs: 0 } }));
  });
  afterAll(async () => {
    client.destroy();
    await sm.stop();
  });
  beforeEach(() => sm.clear());

  test('invokeEndpoint sends targetModel as X-Amzn-SageMaker-Target-Model and the endpoint routes on it', async () => {
    sm.setDefault('churn', multiModel({ 'a.tar.gz': {}, 'eu/b.tar.gz': {} }));
    const a = await invokeEndpoint({ endpointName: 'churn', targetModel: 'a.tar.gz', body: '1,2', contentType: 'text/csv' }, { client });
    const b = await invokeEndpoint({ endpointName: 'churn', targetModel: 'eu/b.tar.gz', body: '3,4', contentType: 'text/csv' }, { client });
    expect(a.json()).toEqual({ targetModel: 'a.tar.gz', input: '1,2' });
    expect(b.json()).toEqual({ targetModel: 'eu/b.tar.gz', input: '3,4' });
    expect(sm.requestsFor('churn').map((r) => r.headers['x-amzn-sagemaker-target-model'])).toEqual(['a.tar.gz', 'eu/b.tar.gz']);
  });

  test('a single-model invocation sends no TargetModel header', async () => {
    await invokeEndpoint({ endpointName: 'single', body: 'x', contentType: 'text/plain' }, { client });
    expect(sm.requestsFor('single')[0].headers).not.toHaveProperty('x-amzn-sagemaker-target-model');
  });

  test('prewarmTargetModels loads each model once, in order, and reports each first-load time', async () => {
    sm.setDefault('churn', multiModel({ 'a.tar.gz': { loadMs: 120 }, 'b.tar.gz': { loadMs: 40 } }));
    // A fake clock (no timed assertions in tests): each report is the difference of two readings around its request.
    let t = 0;
    const reports = await prewarmTargetModels(
      { endpointName: 'churn', targetModels: ['a.tar.gz', 'b.tar.gz'], body: '1,2', contentType: 'text/csv' },
      { client, now: () => (t += 1) },
    );
    expect(reports).toEqual([
      { targetModel: 'a.tar.gz', loaded: true, firstLoadMs: 1, attempts: 1 },
      { targetModel: 'b.tar.gz', loaded: true, firstLoadMs: 1, attempts: 1 },
    ]);
    expect(sm.requestsFor('churn').map((r) => r.headers['x-amzn-sagemaker-target-model'])).toEqual(['a.tar.gz', 'b.tar.gz']);
  });

  test('a model answering ModelNotReadyException while it loads is retried, and the attempts are reported', async () => {
    sm.setDefault('churn', multiModel({ 'slow.tar.gz': { notReadyFirst: true } }));
    const [report] = await prewarmTargetModels({ endpointName: 'churn', targetModels: ['slow.tar.gz'], body: '1', contentType: 'text/csv' }, { client });
    expect(report).toMatchObject({ targetModel: 'slow.tar.gz', loaded: true, attempts: 2 });
  });

  test('an unknown model is reported as not loaded, without stopping the others', async () => {
    sm.setDefault('churn', multiModel({ 'a.tar.gz': {} }));
    const reports = await prewarmTargetModels(
      { endpointName: 'churn', targetModels: ['missing.tar.gz', 'a.tar.gz'], body: '1', contentType: 'text/csv' }, { client },
    );
    expect(reports[0]).toMatchObject({ targetModel: 'missing.tar.gz', loaded: false });
    expect(reports[0].error).toMatch(/EndpointValidationError: .*missing\.tar\.gz was not found/);
    expect(reports[1]).toMatchObject({ targetModel: 'a.tar.gz', loaded: true });
  });

  test('a model error counts as loaded (the container ran), unless modelErrorMeansLoaded is false', async () => {
    sm.setDefault('churn', fail('ModelError', { originalStatusCode: 400, originalMessage: 'bad row' }));
    const input = { endpointName: 'churn', targetModels: ['a.tar.gz'], body: 'x', contentType: 'text/csv' };
    const [lenient] = await prewarmTargetModels(input, { client });
    const [strict] = await prewarmTargetModels(input, { client, modelErrorMeansLoaded: false });
    expect(lenient).toMatchObject({ loaded: true, error: expect.stringMatching(/^ModelInvocationError: /) });
    expect(strict).toMatchObject({ loaded: false });
  });

  test('the stand-in refuses a multi-model call without TargetModel', async () => {
    sm.setDefault('churn', multiModel({ 'a.tar.gz': {} }));
    await expect(invokeEndpoint({ endpointName: 'churn', body: '1', contentType: 'text/csv' }, { client }))
      .rejects.toThrow(/name a TargetModel/);
  });
});
