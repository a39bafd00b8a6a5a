import { InvokeEndpointCommand, SageMakerRuntimeClient } from '@aws-sdk/client-sagemaker-runtime';
import { fail, ok, reset, RuntimeErrorName, SageMakerRuntimeServer, start } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import {
  classifyError,
  EndpointRequestError,
  EndpointValidationError,
  ModelInvocationError,
  SageMakerMcpError,
  toToolError,
  TransientEndpointError,
} from 'cdk-sagemaker-mcp-runtime/core';
import { createRuntimeClient, invokeEndpoint, InvokeOptions } from 'cdk-sagemaker-mcp-runtime/invoke';

const NO_WAIT = { baseDelayMs: 0, maxDelayMs: 0 };

describe('invokeEndpoint against the local SageMaker runtime (real SDK client)', () => {
  let sm: SageMakerRuntimeServer;
  let client: SageMakerRuntimeClient;
  let opts: InvokeOptions;
  beforeAll(async () => {
    sm = await start();
    client = createRuntimeClient(sm.clientConfig({ maxSockets: 8, retry: { maxAttempts: 3, ...NO_WAIT } }));
    opts = { client };
  });
  afterAll(async () => {
    client.destroy();
    await sm.stop();
  });
  beforeEach(() => sm.clear());

  test('returns body, content type, variant and custom attributes, and sends every routing header', async () => {
    // GIVEN
    sm.script('clf', ok([{ label: 'greeting', score: 0.97 }], { invokedProductionVariant: 'Blue', customAttributes: 'c=1' }));
    // WHEN
    const result = await invokeEndpoint({
      endpointName: 'clf',
      body: '{"inputs":"hello"}',
      contentType: 'application/json',
      accept: 'application/json',
      targetVariant: 'Blue',
      inferenceComponentName: 'clf-ic',
      customAttributes: 'trace=abc',
      inferenceId: 'req-1',
    }, opts);
    // THEN
    expect(result.json()).toEqual([{ label: 'greeting', score: 0.97 }]);
    expect(result.text()).toBe('[{"label":"greeting","score":0.97}]');
    expect(result.body).toBeInstanceOf(Uint8Array);
    expect(result).toMatchObject({ contentType: 'application/json', invokedProductionVariant: 'Blue', customAttributes: 'c=1', attempts: 1 });
    expect(result.requestId).toMatch(/^[0-9a-f-]{36}$/);
    const [request] = sm.requestsFor('clf');
    expect(request.headers).toMatchObject({
      'content-type': 'application/json',
      'accept': 'application/json',
      'x-amzn-sagemaker-target-variant': 'Blue',
      'x-amzn-sagemaker-inference-component': 'clf-ic',
      'x-amzn-sagemaker-custom-attributes': 'trace=abc',
      'x-amzn-sagemaker-inference-id': 'req-1',
    });
    expect(request.bodyText).toBe('{"inputs":"hello"}');
  });

  const table: Array<[RuntimeErrorName, new (...args: never[]) => SageMakerMcpError, boolean]> = [
    ['ModelError', ModelInvocationError, false],
    ['ValidationError', EndpointValidationError, false],
    ['ModelNotReadyException', TransientEndpointError, true],
    ['ThrottlingException', TransientEndpointError, true],
    ['InternalFailure', TransientEndpointError, true],
    ['ServiceUnavailable', TransientEndpointError, true],
    ['InternalDependencyException', TransientEndpointError, true],
  ];

  test.each(table)('%s → %p (retryable %s), attempts match what the server saw', async (name, cls, retryable) => {
    // GIVEN every call fails
    sm.setDefault('ep', fail(name));
    // WHEN
    const error = await invokeEndpoint({ endpointName: 'ep', body: '{}', contentType: 'application/json' }, opts).catch((e) => e);
    // THEN
    expect(error).toBeInstanceOf(cls);
    expect(error.retryable).toBe(retryable);
    expect(error.code).toBe(name);
    expect(error.endpointName).toBe('ep');
    const expectedAttempts = retryable ? 3 : 1;
    expect(sm.requestsFor('ep')).toHaveLength(expectedAttempts);
    expect(error.attempts).toBe(expectedAttempts);
  });

  test('a transient error followed by success returns the success after 2 attempts', async () => {
    sm.script('ep', fail('ServiceUnavailable'), ok({ fine: true }));
    const result = await invokeEndpoint({ endpointName: 'ep', body: '{}', contentType: 'application/json' }, opts);
    expect(result.json()).toEqual({ fine: true });
    expect(result.attempts).toBe(2);
    expect(sm.requestsFor('ep')).toHaveLength(2);
  });

  test('connection resets are transient and retried', async () => {
    sm.script('ep', reset(), reset(), ok('x'));
    const result = await invokeEndpoint({ endpointName: 'ep', body: 'x', contentType: 'text/plain' }, opts);
    expect(result.text()).toBe('x');
    expect(sm.requestsFor('ep')).toHaveLength(3);
    sm.setDefault('ep2', reset());
    const error = await invokeEndpoint({ endpointName: 'ep2', body: 'x', contentType: 'text/plain' }, opts).catch((e) => e);
    expect(error).toBeInstanceOf(TransientEndpointError);
    expect(sm.requestsFor('ep2')).toHaveLength(3);
  });

  test('maxAttempts per call overrides the client budget', async () => {
    sm.setDefault('ep', fail('InternalFailure'));
    await expect(invokeEndpoint({ endpointName: 'ep', body: '{}', contentType: 'application/json' }, { ...opts, maxAttempts: 5 }))
      .rejects.toBeInstanceOf(TransientEndpointError);
    expect(sm.requestsFor('ep')).toHaveLength(5);
  });

  test('ModelError keeps the container status, message and log stream; 415 says the content type is wrong', async () => {
    sm.script('ep', fail('ModelError', { originalStatusCode: 415, originalMessage: 'Unsupported Media Type', logStreamArn: 'arn:aws:logs:us-east-1:123456789012:log-group:/aws/sagemaker/Endpoints/ep' }));
    const error = await invokeEndpoint({ endpointName: 'ep', body: '1,2', contentType: 'text/csv' }, opts).catch((e) => e);
    expect(error).toBeInstanceOf(ModelInvocationError);
    expect(error).toMatchObject({ originalStatusCode: 415, originalMessage: 'Unsupported Media Type', httpStatusCode: 424 });
    expect(error.message).toContain('content type "text/csv" does not match what the model container accepts');
    expect(error.message).toContain('endpoint "ep"');
    expect(toToolError(error)).toEqual({
      errorName: 'ModelInvocationError',
      message: error.message,
      retryable: false,
      originalStatusCode: 415,
      logStreamArn: 'arn:aws:logs:us-east-1:123456789012:log-group:/aws/sagemaker/Endpoints/ep',
    });
  });

  test('a 500 from the container is a permanent ModelInvocationError, not retried', async () => {
    sm.setDefault('ep', fail('ModelError', { originalStatusCode: 500, originalMessage: 'CUDA out of memory' }));
    const error = await invokeEndpoint({ endpointName: 'ep', body: '{}', contentType: 'application/json' }, opts).catch((e) => e);
    expect(error).toBeInstanceOf(ModelInvocationError);
    expect(error.message).toContain('answered 500: CUDA out of memory');
    expect(sm.requestsFor('ep')).toHaveLength(1);
  });

  test('the deadline bounds a slow endpoint and surfaces as a retryable TransientEndpointError', async () => {
    // GIVEN an endpoint that holds its answer for 5 s
    sm.setDefault('slow', ok('late', { delayMs: 5_000 }));
    // WHEN
    const started = Date.now();
    const error = await invokeEndpoint({ endpointName: 'slow', body: '{}', contentType: 'application/json' }, { ...opts, deadlineMs: 300 }).catch((e) => e);
    const elapsed = Date.now() - started;
    // THEN
    expect(error).toBeInstanceOf(TransientEndpointError);
    expect(error.code).toBe('DeadlineExceeded');
    expect(error.message).toContain('300 ms deadline');
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(2_000);
    await waitFor(() => sm.inFlight() === 0);
    expect(sm.inFlight()).toBe(0);
  });

  test('a slow attempt hits the per-attempt timeout and the retry succeeds', async () => {
    const quick = createRuntimeClient(sm.clientConfig({ attemptTimeoutMs: 200, retry: NO_WAIT }));
    sm.script('slowish', ok('late', { delayMs: 1_000 }), ok('on time'));
    const result = await invokeEndpoint({ endpointName: 'slowish', body: '{}', contentType: 'application/json' }, { client: quick });
    expect(result.text()).toBe('on time');
    expect(result.attempts).toBe(2);
    quick.destroy();
  });

  test('a caller abort is rethrown as the abort, not retried', async () => {
    sm.setDefault('slow', ok('late', { delayMs: 5_000 }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await invokeEndpoint({ endpointName: 'slow', body: '{}', contentType: 'application/json' }, { ...opts, signal: controller.signal }).catch((e) => e);
    expect(error).not.toBeInstanceOf(SageMakerMcpError);
    expect(error.name).toBe('AbortError');
    expect(sm.requestsFor('slow')).toHaveLength(1);
    expect(toToolError(error)).toMatchObject({ errorName: 'EndpointRequestError', retryable: false });
  });

  test('clientConfig creates one shared client per config object', async () => {
    // Each client has its own keep-alive agent: calls through one client reuse its connection, another client opens its own.
    const clientConfig = sm.clientConfig({ retry: NO_WAIT });
    const before = sm.connectionsAccepted();
    await invokeEndpoint({ endpointName: 'echo', body: 'a', contentType: 'text/plain' }, { clientConfig });
    await invokeEndpoint({ endpointName: 'echo', body: 'b', contentType: 'text/plain' }, { clientConfig });
    const echoes = sm.requestsFor('echo');
    expect(echoes.map((r) => r.bodyText)).toEqual(['a', 'b']);
    expect(sm.connectionsAccepted() - before).toBe(1);
    // An equal config in another object is another client
    await invokeEndpoint({ endpointName: 'echo', body: 'c', contentType: 'text/plain' }, { clientConfig: { ...clientConfig } });
    expect(sm.connectionsAccepted() - before).toBe(2);
  });

  test('a given client wins over clientConfig', async () => {
    // GIVEN a clientConfig that reaches nothing (a port no one listens on) next to a client that reaches the stand-in
    const nowhere = { ...sm.clientConfig({ retry: { maxAttempts: 1, ...NO_WAIT } }), endpoint: 'http://127.0.0.1:1' };
    // WHEN
    const result = await invokeEndpoint({ endpointName: 'echo', body: 'd', contentType: 'text/plain' }, { client, clientConfig: nowhere });
    // THEN the call went through the client
    expect(result.text()).toBe('d');
    await expect(invokeEndpoint({ endpointName: 'echo', body: 'e', contentType: 'text/plain' }, { clientConfig: nowhere })).rejects.toThrow(/ECONNREFUSED/);
  });

  test('classifyError maps unknown SDK errors to a permanent EndpointRequestError', () => {
    const denied = Object.assign(new Error('not authorized'), { name: 'AccessDeniedException', $metadata: { httpStatusCode: 403 } });
    const classified = classifyError(denied, { endpointName: 'ep' });
    expect(classified).toBeInstanceOf(EndpointRequestError);
    expect(classified).toMatchObject({ retryable: false, code: 'AccessDeniedException', httpStatusCode: 403 });
    expect(classifyError(classified)).toBe(classified);
    const bad502 = Object.assign(new Error('bad gateway'), { name: 'Unknown', $metadata: { httpStatusCode: 502 } });
    expect(classifyError(bad502)).toBeInstanceOf(TransientEndpointError);
  });

  test('classifyError: stream errors and transport failures', () => {
    const broken = Object.assign(new Error('tcp reset'), { name: 'ModelStreamError', ErrorCode: 'StreamBroken' });
    expect(classifyError(broken)).toMatchObject({ name: 'TransientEndpointError', code: 'StreamBroken', retryable: true });
    const timedOut = Object.assign(new Error('too slow'), { name: 'ModelStreamError', ErrorCode: 'ModelInvocationTimeExceeded' });
    expect(classifyError(timedOut)).toMatchObject({ name: 'ModelInvocationError', streamErrorCode: 'ModelInvocationTimeExceeded', retryable: false });
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    expect(classifyError(refused)).toMatchObject({ name: 'TransientEndpointError', code: 'ECONNREFUSED' });
    // What the SDK throws when node's error fails its instanceof check (another realm): only the message is left.
    const wrapped = new Error('AWS SDK error wrapper for TimeoutError: socket hang up');
    expect(classifyError(wrapped)).toBeInstanceOf(TransientEndpointError);
    expect(classifyError(new Error('boom'))).toBeInstanceOf(EndpointRequestError);
    expect(toToolError(refused)).toEqual({ errorName: 'TransientEndpointError', message: expect.stringContaining('ECONNREFUSED'), retryable: true });
  });

  test('a raw SDK client sees the same server answers (sanity for the bench baseline)', async () => {
    const raw = new SageMakerRuntimeClient(sm.clientConfig({ maxAttempts: 1 }));
    const out = await raw.send(new InvokeEndpointCommand({ EndpointName: 'echo', Body: Buffer.from('z'), ContentType: 'text/plain' }));
    expect(Buffer.from(out.Body!).toString()).toBe('z');
    raw.destroy();
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 3_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
}
