import { SageMakerRuntimeClient } from '@aws-sdk/client-sagemaker-runtime';
import {
  fail,
  internalStreamFailure,
  modelStreamError,
  part,
  reset,
  SageMakerRuntimeServer,
  start,
  stream,
  streamReset,
} from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { ModelInvocationError, TransientEndpointError } from 'cdk-sagemaker-mcp-runtime/core';
import { createRuntimeClient, invokeEndpointStream, InvokeStreamOptions } from 'cdk-sagemaker-mcp-runtime/invoke';

const NO_WAIT = { baseDelayMs: 0, maxDelayMs: 0 };
const INPUT = { endpointName: 'gen', body: '{"inputs":"hi","stream":true}', contentType: 'application/json' };

async function collect(iterable: AsyncIterable<string>): Promise<{ chunks: string[]; error?: unknown }> {
  const chunks: string[] = [];
  try {
    for await (const chunk of iterable) chunks.push(chunk);
    return { chunks };
  } catch (error) {
    return { chunks, error };
  }
}

describe('invokeEndpointStream against the local SageMaker runtime (real SDK client, event-stream framing)', () => {
  let sm: SageMakerRuntimeServer;
  let client: SageMakerRuntimeClient;
  let opts: InvokeStreamOptions;
  beforeAll(async () => {
    sm = await start();
    client = createRuntimeClient(sm.clientConfig({ maxSockets: 4, retry: NO_WAIT }));
    opts = { client, backoff: NO_WAIT };
  });
  afterAll(async () => {
    client.destroy();
    await sm.stop();
  });
  beforeEach(() => sm.clear());

  test('yields the text of each PayloadPart and sends the stream headers', async () => {
    // GIVEN
    sm.script('gen', stream([part('Hello'), part(', '), part('world')]));
    // WHEN
    const { chunks, error } = await collect(invokeEndpointStream({ ...INPUT, accept: 'application/jsonlines', inferenceComponentName: 'ic' }, opts));
    // THEN
    expect(error).toBeUndefined();
    expect(chunks.join('')).toBe('Hello, world');
    const [request] = sm.requestsFor('gen', 'stream');
    expect(request.path).toBe('/endpoints/gen/invocations-response-stream');
    expect(request.headers['x-amzn-sagemaker-accept']).toBe('application/jsonlines');
    expect(request.headers['x-amzn-sagemaker-inference-component']).toBe('ic');
  });

  test('decodes UTF-8 characters split across PayloadPart boundaries', async () => {
    // GIVEN "€ü😀" with each character's bytes split between two parts
    const bytes = Buffer.from('€ü😀', 'utf8');
    sm.script('gen', stream([part(bytes.subarray(0, 2)), part(bytes.subarray(2, 4)), part(bytes.subarray(4, 7)), part(bytes.subarray(7))]));
    // WHEN
    const { chunks } = await collect(invokeEndpointStream(INPUT, opts));
    // THEN
    expect(chunks.join('')).toBe('€ü😀');
    expect(chunks.join('')).not.toContain('\uFFFD');
  });

  test("format 'tgi' turns data: lines split across parts into token text, skipping special tokens and [DONE]", async () => {
    const lines = [
      'data:{"token":{"id":1,"text":"Hel","logprob":-0.1,"special":false},"generated_text":null,"details":null}\n\n',
      'data:{"token":{"id":2,"text":"lo","logprob":-0.1,"special":false},"generated_text":null,"details":null}\n\n',
      'data:{"token":{"id":3,"text":"</s>","logprob":-0.1,"special":true},"generated_text":"Hello","details":null}\n\n',
      'data: [DONE]\n\n',
    ].join('');
    const cut = [0, 17, 60, 130, 190, lines.length];
    sm.script('gen', stream(cut.slice(1).map((end, i) => part(lines.slice(cut[i], end))), { contentType: 'text/event-stream' }));
    const { chunks, error } = await collect(invokeEndpointStream(INPUT, { ...opts, format: 'tgi' }));
    expect(error).toBeUndefined();
    expect(chunks).toEqual(['Hel', 'lo']);
  });

  test("format 'tgi' reads TGI, Messages API and completion lines, and a last line that has no newline", async () => {
    // GIVEN lines of each server kind, keep-alives, a special token, a line that is not JSON and [DONE]
    sm.script('gen', stream([
      part('data:{"token":{"text":"a","special":false}}\n{"token":{"text":"b"}}\n'),
      part('data: {"choices":[{"delta":{"content":"c"}}]}\ndata: {"choices":[{"text":"d"}]}\n:keep-alive\n'),
      part('data:{"token":{"text":"</s>","special":true}}\ndata:{not json\ndata: [DONE]\ndata:{"token":{"te'),
      part('xt":"e"}}'),
    ], { contentType: 'text/event-stream' }));
    // WHEN
    const { chunks, error } = await collect(invokeEndpointStream(INPUT, { ...opts, format: 'tgi' }));
    // THEN only the token texts, the one split across parts joined, the unterminated last line flushed
    expect(error).toBeUndefined();
    expect(chunks).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  test('a mid-stream ModelStreamError after output is a ModelInvocationError and is not retried', async () => {
    sm.script('gen', stream([part('partial '), part('answer'), modelStreamError('model took too long', 'ModelInvocationTimeExceeded')]));
    const { chunks, error } = await collect(invokeEndpointStream(INPUT, opts));
    expect(chunks.join('')).toBe('partial answer');
    expect(error).toBeInstanceOf(ModelInvocationError);
    expect(error).toMatchObject({ retryable: false, streamErrorCode: 'ModelInvocationTimeExceeded', endpointName: 'gen' });
    expect(sm.requestsFor('gen')).toHaveLength(1);
  });

  test('a transient failure before the first chunk is retried, and the retry streams normally', async () => {
    sm.script('gen', stream([internalStreamFailure('blip')]), fail('ServiceUnavailable'), stream([part('second '), part('time')]));
    const { chunks, error } = await collect(invokeEndpointStream(INPUT, opts));
    expect(error).toBeUndefined();
    expect(chunks.join('')).toBe('second time');
    expect(sm.requestsFor('gen')).toHaveLength(3);
  });

  test('a transient failure after the first chunk is thrown, not retried', async () => {
    sm.script('gen', stream([part('half'), internalStreamFailure('lost it')]), stream([part('never')]));
    const { chunks, error } = await collect(invokeEndpointStream(INPUT, opts));
    expect(chunks).toEqual(['half']);
    expect(error).toBeInstanceOf(TransientEndpointError);
    expect(error).toMatchObject({ code: 'InternalStreamFailure', attempts: 1 });
    expect(sm.requestsFor('gen')).toHaveLength(1);
  });

  test('a connection reset mid-stream after output is thrown as TransientEndpointError', async () => {
    sm.script('gen', stream([part('some'), streamReset()]));
    const { chunks, error } = await collect(invokeEndpointStream(INPUT, opts));
    expect(chunks).toEqual(['some']);
    expect(error).toBeInstanceOf(TransientEndpointError);
    expect(error).toMatchObject({ code: 'ECONNRESET', attempts: 1 });
    expect(sm.requestsFor('gen')).toHaveLength(1);
  });

  test('a connection reset before any output is retried', async () => {
    sm.script('gen', stream([streamReset()]), stream([part('ok')]));
    const { chunks, error } = await collect(invokeEndpointStream(INPUT, opts));
    expect(error).toBeUndefined();
    expect(chunks).toEqual(['ok']);
    expect(sm.requestsFor('gen')).toHaveLength(2);
  });

  test('persistent transient failures stop after maxAttempts', async () => {
    sm.setDefault('gen', reset());
    const { error } = await collect(invokeEndpointStream(INPUT, { ...opts, maxAttempts: 4 }));
    expect(error).toBeInstanceOf(TransientEndpointError);
    expect(error).toMatchObject({ attempts: 4 });
    expect(sm.requestsFor('gen')).toHaveLength(4);
  });

  test('ValidationError is permanent: one request', async () => {
    sm.setDefault('gen', fail('ValidationError', { message: 'Endpoint gen not found' }));
    const { error } = await collect(invokeEndpointStream(INPUT, opts));
    expect(error).toMatchObject({ name: 'EndpointValidationError', retryable: false });
    expect(sm.requestsFor('gen')).toHaveLength(1);
  });

  test('the deadline ends a stalled stream with TransientEndpointError', async () => {
    sm.script('gen', stream([part('a'), part('b'), part('c')], { eventDelayMs: 2_000 }));
    const started = Date.now();
    const { error } = await collect(invokeEndpointStream(INPUT, { ...opts, deadlineMs: 300 }));
    expect(error).toMatchObject({ name: 'TransientEndpointError', code: 'DeadlineExceeded' });
    expect(Date.now() - started).toBeLessThan(1_500);
    await waitFor(() => sm.inFlight() === 0);
    expect(sm.inFlight()).toBe(0);
  });

  test('the deadline applies only until the first PayloadPart: a generation longer than it completes', async () => {
    // GIVEN a stream of 6 parts, 150 ms apart: 900 ms in all, three times the deadline
    sm.script('gen', stream(Array.from({ length: 6 }, (_, i) => part(`t${i} `)), { eventDelayMs: 150 }));
    // WHEN
    const { chunks, error } = await collect(invokeEndpointStream(INPUT, { ...opts, deadlineMs: 300, idleTimeoutMs: 1_000 }));
    // THEN every part arrived
    expect(error).toBeUndefined();
    expect(chunks.join('')).toBe('t0 t1 t2 t3 t4 t5 ');
  });

  test('after the first part, an idle pause longer than idleTimeoutMs ends the stream with StreamIdleTimeout', async () => {
    // GIVEN parts 400 ms apart: the first arrives within the deadline, the second after the idle limit
    sm.script('gen', stream([part('a'), part('b'), part('c')], { eventDelayMs: 400 }));
    const started = Date.now();
    // WHEN
    const { chunks, error } = await collect(invokeEndpointStream(INPUT, { ...opts, deadlineMs: 1_000, idleTimeoutMs: 150 }));
    // THEN the caller kept what arrived, and the error names the idle limit
    expect(chunks).toEqual(['a']);
    expect(error).toMatchObject({ name: 'TransientEndpointError', code: 'StreamIdleTimeout', endpointName: 'gen' });
    expect((error as Error).message).toMatch(/sent no PayloadPart for 150 ms/);
    expect(Date.now() - started).toBeLessThan(900);
    await waitFor(() => sm.inFlight() === 0);
    expect(sm.inFlight()).toBe(0);
  });

  test('fails if idleTimeoutMs is not positive', async () => {
    const { error } = await collect(invokeEndpointStream(INPUT, { ...opts, idleTimeoutMs: 0 }));
    expect(error).toBeInstanceOf(RangeError);
    expect((error as Error).message).toMatch(/idleTimeoutMs: got 0, expected a positive number/);
    expect(sm.requestsFor('gen')).toHaveLength(0);
  });

  test('breaking out early closes the response on the server side', async () => {
    sm.script('gen', stream(Array.from({ length: 50 }, (_, i) => part(`t${i} `)), { eventDelayMs: 20 }));
    const seen: string[] = [];
    for await (const chunk of invokeEndpointStream(INPUT, opts)) {
      seen.push(chunk);
      if (seen.length === 2) break;
    }
    expect(seen).toEqual(['t0 ', 't1 ']);
    await waitFor(() => sm.inFlight() === 0);
    expect(sm.inFlight()).toBe(0);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 3_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
}
