import {
  InternalDependencyException,
  InternalFailure,
  InvokeEndpointAsyncCommand,
  InvokeEndpointCommand,
  InvokeEndpointWithResponseStreamCommand,
  ModelError,
  ModelNotReadyException,
  SageMakerRuntimeClient,
  ServiceUnavailable,
  ValidationError,
} from '@aws-sdk/client-sagemaker-runtime';
import {
  accepted,
  fail,
  internalStreamFailure,
  modelStreamError,
  ok,
  part,
  reset,
  SageMakerRuntimeServer,
  start,
  stream,
} from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';

describe('local SageMaker runtime server (real SDK client)', () => {
  let sm: SageMakerRuntimeServer;
  let client: SageMakerRuntimeClient;
  beforeAll(async () => {
    sm = await start();
    client = new SageMakerRuntimeClient(sm.clientConfig({ maxAttempts: 1 }));
  });
  afterAll(async () => {
    client.destroy();
    await sm.stop();
  });
  beforeEach(() => sm.clear());

  test('InvokeEndpoint: body, content type, variant, custom attributes and request id reach the SDK', async () => {
    // GIVEN
    sm.script('ep', ok([{ label: 'greet', score: 0.9 }], { invokedProductionVariant: 'Blue', customAttributes: 'trace=1' }));
    // WHEN
    const out = await client.send(new InvokeEndpointCommand({
      EndpointName: 'ep',
      Body: Buffer.from('{"inputs":"hi"}'),
      ContentType: 'application/json',
      Accept: 'application/json',
      TargetVariant: 'Blue',
      InferenceComponentName: 'ic-1',
    }));
    // THEN
    expect(JSON.parse(Buffer.from(out.Body!).toString())).toEqual([{ label: 'greet', score: 0.9 }]);
    expect(out.ContentType).toBe('application/json');
    expect(out.InvokedProductionVariant).toBe('Blue');
    expect(out.CustomAttributes).toBe('trace=1');
    expect(out.$metadata.requestId).toMatch(/^[0-9a-f-]{36}$/);
    const [request] = sm.requestsFor('ep', 'invoke');
    expect(request.bodyText).toBe('{"inputs":"hi"}');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-amzn-sagemaker-target-variant']).toBe('Blue');
    expect(request.headers['x-amzn-sagemaker-inference-component']).toBe('ic-1');
    expect(request.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 .*\/sagemaker\/aws4_request/);
  });

  test('an unscripted endpoint echoes the body', async () => {
    const out = await client.send(new InvokeEndpointCommand({ EndpointName: 'echo', Body: Buffer.from('1,2,3'), ContentType: 'text/csv' }));
    expect(Buffer.from(out.Body!).toString()).toBe('1,2,3');
    expect(out.ContentType).toBe('text/csv');
  });

  test.each([
    ['ValidationError', 400, ValidationError],
    ['ModelNotReadyException', 429, ModelNotReadyException],
    ['InternalFailure', 500, InternalFailure],
    ['ServiceUnavailable', 503, ServiceUnavailable],
    ['InternalDependencyException', 530, InternalDependencyException],
  ] as const)('%s (status %d) deserializes to the SDK class', async (name, status, cls) => {
    sm.script('err', fail(name, { message: `boom ${name}` }));
    const error = await client.send(new InvokeEndpointCommand({ EndpointName: 'err', Body: Buffer.from('{}') })).catch((e) => e);
    expect(error).toBeInstanceOf(cls);
    expect(error.name).toBe(name);
    expect(error.message).toBe(`boom ${name}`);
    expect(error.$metadata.httpStatusCode).toBe(status);
    expect(error.$metadata.requestId).toBeDefined();
  });

  test('ModelError carries OriginalStatusCode, OriginalMessage and LogStreamArn', async () => {
    sm.script('err', fail('ModelError', { originalStatusCode: 415, originalMessage: 'unsupported content type', logStreamArn: 'arn:aws:logs:x' }));
    const error = await client.send(new InvokeEndpointCommand({ EndpointName: 'err', Body: Buffer.from('{}') })).catch((e) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error.$metadata.httpStatusCode).toBe(424);
    expect(error).toMatchObject({ OriginalStatusCode: 415, OriginalMessage: 'unsupported content type', LogStreamArn: 'arn:aws:logs:x' });
  });

  test('ThrottlingException is a 400 with its own code', async () => {
    sm.script('err', fail('ThrottlingException'));
    const error = await client.send(new InvokeEndpointCommand({ EndpointName: 'err', Body: Buffer.from('{}') })).catch((e) => e);
    expect(error.name).toBe('ThrottlingException');
    expect(error.$metadata.httpStatusCode).toBe(400);
  });

  test('reset destroys the connection without an answer', async () => {
    sm.script('err', reset());
    const error = await client.send(new InvokeEndpointCommand({ EndpointName: 'err', Body: Buffer.from('{}') })).catch((e) => e);
    // Under jest the SDK re-wraps node's cross-realm error, so the code may survive only in the message.
    expect(`${error.code} ${error.message}`).toMatch(/ECONNRESET|socket hang up/);
    expect(sm.inFlight()).toBe(0);
  });

  test('delayMs holds the status line back', async () => {
    sm.script('slow', ok('late', { delayMs: 150 }));
    const started = Date.now();
    await client.send(new InvokeEndpointCommand({ EndpointName: 'slow', Body: Buffer.from('x') }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  test('response streaming uses event-stream framing the SDK decodes, including modeled in-stream errors', async () => {
    // GIVEN
    sm.script('gen', stream([part('Hel'), part('lo'), modelStreamError('too slow', 'ModelInvocationTimeExceeded')], { contentType: 'text/event-stream' }));
    sm.script('gen', stream([part('x'), internalStreamFailure('oops')]));
    // WHEN
    const out = await client.send(new InvokeEndpointWithResponseStreamCommand({ EndpointName: 'gen', Body: Buffer.from('{}'), ContentType: 'application/json' }));
    const parts: string[] = [];
    const error = await (async () => {
      for await (const event of out.Body!) parts.push(Buffer.from(event.PayloadPart!.Bytes!).toString());
    })().catch((e) => e);
    // THEN
    expect(out.ContentType).toBe('text/event-stream');
    expect(out.InvokedProductionVariant).toBe('AllTraffic');
    expect(parts).toEqual(['Hel', 'lo']);
    expect(error).toMatchObject({ name: 'ModelStreamError', ErrorCode: 'ModelInvocationTimeExceeded' });
    const second = await client.send(new InvokeEndpointWithResponseStreamCommand({ EndpointName: 'gen', Body: Buffer.from('{}') }));
    const error2 = await (async () => {
      for await (const _ of second.Body!) void _;
    })().catch((e) => e);
    expect(error2).toMatchObject({ name: 'InternalStreamFailure', message: 'oops' });
    expect(sm.requestsFor('gen', 'stream')).toHaveLength(2);
  });

  test('InvokeEndpointAsync: 202, InferenceId in the body, locations in headers, request headers recorded', async () => {
    // GIVEN
    sm.script('async-ep', accepted({ outputLocation: 's3://out/x.out' }));
    // WHEN
    const out = await client.send(new InvokeEndpointAsyncCommand({
      EndpointName: 'async-ep',
      InputLocation: 's3://in/x.json',
      ContentType: 'application/json',
      InferenceId: 'job-1',
      RequestTTLSeconds: 3600,
      InvocationTimeoutSeconds: 900,
    }));
    // THEN
    expect(out).toMatchObject({ InferenceId: 'job-1', OutputLocation: 's3://out/x.out', FailureLocation: 's3://local-async-output/failures/job-1-error.out' });
    expect(out.$metadata.httpStatusCode).toBe(202);
    const [request] = sm.requestsFor('async-ep', 'async');
    expect(request.headers).toMatchObject({
      'x-amzn-sagemaker-inputlocation': 's3://in/x.json',
      'x-amzn-sagemaker-inference-id': 'job-1',
      'x-amzn-sagemaker-requestttlseconds': '3600',
      'x-amzn-sagemaker-invocationtimeoutseconds': '900',
      'x-amzn-sagemaker-content-type': 'application/json',
    });
  });

  test('scripts may be functions of the request and defaults apply after the queue', async () => {
    sm.setDefault('fn', (request) => ok({ length: request.body.length }));
    sm.script('fn', fail('ValidationError'));
    await expect(client.send(new InvokeEndpointCommand({ EndpointName: 'fn', Body: Buffer.from('abc') }))).rejects.toBeInstanceOf(ValidationError);
    const out = await client.send(new InvokeEndpointCommand({ EndpointName: 'fn', Body: Buffer.from('abcd') }));
    expect(JSON.parse(Buffer.from(out.Body!).toString())).toEqual({ length: 4 });
  });

  test('openSockets drops to 0 once the client is destroyed', async () => {
    const own = new SageMakerRuntimeClient(sm.clientConfig({ maxAttempts: 1 }));
    await Promise.all([1, 2, 3].map(() => own.send(new InvokeEndpointCommand({ EndpointName: 'echo', Body: Buffer.from('x') }))));
    expect(sm.openSockets()).toBeGreaterThan(0);
    own.destroy();
    client.destroy();
    await waitFor(() => sm.openSockets() === 0);
    expect(sm.openSockets()).toBe(0);
    client = new SageMakerRuntimeClient(sm.clientConfig({ maxAttempts: 1 }));
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
}
