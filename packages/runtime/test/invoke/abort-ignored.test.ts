/**
 * The deadline of `invokeEndpoint` / `invokeEndpointStream` holds even where a step of the AWS SDK ignores the abort
 * (`abortable` in packages/runtime/src/core/deadline.ts). The SDK only listens to `abortSignal` in its retry middleware
 * and its own HTTP handlers; a credential provider that never answers, or a custom `requestHandler` that ignores the
 * signal, held the call for ever before. Real SDK clients (`createRuntimeClient`) against the local runtime server;
 * what ignores the abort is a real step of the SDK's pipeline, not a mock of the SDK.
 *
 * Each call is measured with `timed` (../support/event-loop-lag.ts): the bound is elapsed - event-loop lag, and a call
 * still running `GIVE_UP_MS` after its deadline is reported `hung` instead of running into jest's timeout.
 */
import { SageMakerRuntimeClient } from '@aws-sdk/client-sagemaker-runtime';
// @smithy/node-http-handler ships with every AWS SDK v3 client (a dev dependency of the root package).
import { ok, part, pause, SageMakerRuntimeServer, start, stream } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { blamedMs, timed, Timed } from '../support/event-loop-lag';
import { SageMakerMcpError, TransientEndpointError } from 'cdk-sagemaker-mcp-runtime/core';
import { createRuntimeClient, invokeEndpoint, invokeEndpointStream, InvokeStreamOptions } from 'cdk-sagemaker-mcp-runtime/invoke';

const NO_WAIT = { baseDelayMs: 0, maxDelayMs: 0 };
const DEADLINE_MS = 300;
/** Slack over a deadline (timer and socket teardown), as in test/core/faults.test.ts. */
const MARGIN_MS = 500;
/** How long past its limit a call may run before it counts as hung (what the unbounded calls did). */
const GIVE_UP_MS = 3_000;
/** Longer than any test: an endpoint that "never" answers (`sm.stop()` ends the wait). */
const NEVER_MS = 60_000;
const INPUT = { body: '{"inputs":"x"}', contentType: 'application/json' };

type HandleArgs = Parameters<NodeHttpHandler['handle']>;

/**
 * A request handler that ignores `abortSignal`: the SDK's own NodeHttpHandler (no timeouts), handed each request
 * without the signal. Records the signal the SDK passed, to show it was there and ignored.
 */
class AbortIgnoringHandler {
  public readonly signalsSeen: Array<AbortSignal | undefined> = [];
  private readonly inner = new NodeHttpHandler();

  public handle(request: HandleArgs[0], options: HandleArgs[1] = {}) {
    this.signalsSeen.push(options.abortSignal as AbortSignal | undefined);
    const { abortSignal: _ignored, ...rest } = options;
    return this.inner.handle(request, rest);
  }

  public updateHttpClientConfig(key: never, value: never): void {
    this.inner.updateHttpClientConfig(key, value);
  }

  public httpHandlerConfigs() {
    return this.inner.httpHandlerConfigs();
  }

  public destroy(): void {
    this.inner.destroy();
  }
}

/** Credentials that never resolve: an IMDS or SSO provider that accepted the connection and never answered. */
const silentCredentials = () => new Promise<never>(() => undefined);

function expectBounded(outcome: Timed<unknown>, limitMs: number): void {
  expect(outcome.hung).toBe(false);
  expect(blamedMs(outcome)).toBeLessThan(limitMs + MARGIN_MS);
}

async function collect(options: InvokeStreamOptions, endpointName: string, giveUpAfterMs: number) {
  const chunks: string[] = [];
  const outcome = await timed(async () => {
    for await (const chunk of invokeEndpointStream({ endpointName, ...INPUT }, options)) chunks.push(chunk);
  }, giveUpAfterMs);
  return { ...outcome, chunks };
}

let sm: SageMakerRuntimeServer;
const clients: SageMakerRuntimeClient[] = [];
beforeAll(async () => {
  sm = await start();
});
afterEach(() => {
  for (const client of clients.splice(0)) client.destroy();
  sm.clear();
});
afterAll(async () => {
  await sm.stop();
});

function runtimeClient(extra: Record<string, unknown> = {}): SageMakerRuntimeClient {
  const c = createRuntimeClient(sm.clientConfig({ retry: { maxAttempts: 3, ...NO_WAIT }, ...extra }));
  clients.push(c);
  return c;
}

function abortIgnoring(): { client: SageMakerRuntimeClient; handler: AbortIgnoringHandler } {
  const handler = new AbortIgnoringHandler();
  return { client: runtimeClient({ requestHandler: handler }), handler };
}

describe('invokeEndpoint: the deadline holds where the SDK ignores the abort', () => {
  test('a credential provider that never answers ends at the deadline as DeadlineExceeded', async () => {
    // GIVEN a client whose credentials never resolve
    const silent = runtimeClient({ credentials: silentCredentials });
    // WHEN
    const outcome = await timed(() => invokeEndpoint({ endpointName: 'creds', ...INPUT }, { client: silent, deadlineMs: DEADLINE_MS }), DEADLINE_MS + GIVE_UP_MS);
    // THEN the deadline ended it, classified as every deadline is, and no request was ever signed and sent
    expectBounded(outcome, DEADLINE_MS);
    expect(outcome.error).toBeInstanceOf(TransientEndpointError);
    expect(outcome.error).toMatchObject({ code: 'DeadlineExceeded', retryable: true, endpointName: 'creds' });
    expect((outcome.error as Error).message).toContain(`${DEADLINE_MS} ms deadline`);
    expect(sm.requestsFor('creds')).toHaveLength(0);
  });

  test('a request handler that ignores abortSignal, to an endpoint that never answers, ends at the deadline', async () => {
    // GIVEN
    const { client: deaf, handler } = abortIgnoring();
    sm.setDefault('deaf', ok('late', { delayMs: NEVER_MS }));
    // WHEN
    const outcome = await timed(() => invokeEndpoint({ endpointName: 'deaf', ...INPUT }, { client: deaf, deadlineMs: DEADLINE_MS }), DEADLINE_MS + GIVE_UP_MS);
    // THEN the SDK did pass the (now aborted) signal, the handler ignored it, and the call still ended at the deadline
    expectBounded(outcome, DEADLINE_MS);
    expect(outcome.error).toBeInstanceOf(TransientEndpointError);
    expect(outcome.error).toMatchObject({ code: 'DeadlineExceeded', retryable: true });
    expect(handler.signalsSeen).toHaveLength(1);
    expect(handler.signalsSeen[0]?.aborted).toBe(true);
    // The ignored request still goes out (on a loaded machine it may reach the stand-in after the deadline ended the call).
    await waitUntil(() => sm.requestsFor('deaf', 'invoke').length > 0);
    expect(sm.requestsFor('deaf', 'invoke')).toHaveLength(1);
  });

  test("a caller abort is rethrown as is when the handler ignores it: the caller's own reason", async () => {
    // GIVEN
    const { client: deaf } = abortIgnoring();
    sm.setDefault('deaf', ok('late', { delayMs: NEVER_MS }));
    const controller = new AbortController();
    const reason = new Error('the user pressed stop');
    setTimeout(() => controller.abort(reason), 100);
    // WHEN
    const outcome = await timed(() => invokeEndpoint({ endpointName: 'deaf', ...INPUT }, { client: deaf, signal: controller.signal }), 100 + GIVE_UP_MS);
    // THEN
    expectBounded(outcome, 100);
    expect(outcome.error).toBe(reason);
  });

  test('where the SDK honours the abort, its error still comes out: deadline and caller abort as before', async () => {
    // GIVEN the default handler (it honours abortSignal) and a slow endpoint
    const honouring = runtimeClient();
    sm.setDefault('slow', ok('late', { delayMs: NEVER_MS }));
    // WHEN the deadline passes
    const expired = await timed(() => invokeEndpoint({ endpointName: 'slow', ...INPUT }, { client: honouring, deadlineMs: DEADLINE_MS }), DEADLINE_MS + GIVE_UP_MS);
    // THEN the SDK's AbortError is the cause (its attempt count kept), not the race's deadline reason
    expectBounded(expired, DEADLINE_MS);
    expect(expired.error).toBeInstanceOf(TransientEndpointError);
    expect(expired.error).toMatchObject({ code: 'DeadlineExceeded', attempts: 1 });
    const cause = (expired.error as Error).cause as Error;
    expect(cause).toMatchObject({ name: 'AbortError', message: 'Request aborted' });
    expect(cause.cause).toMatchObject({ name: 'DeadlineExceeded', deadlineMs: DEADLINE_MS });
    // WHEN the caller aborts
    const controller = new AbortController();
    const reason = new Error('the user pressed stop');
    setTimeout(() => controller.abort(reason), 100);
    const aborted = await timed(() => invokeEndpoint({ endpointName: 'slow', ...INPUT }, { client: honouring, signal: controller.signal }), 100 + GIVE_UP_MS);
    // THEN the SDK's AbortError, as is (not a library error), carrying the caller's reason
    expectBounded(aborted, 100);
    expect(aborted.error).not.toBeInstanceOf(SageMakerMcpError);
    expect(aborted.error).toMatchObject({ name: 'AbortError', message: 'Request aborted' });
    expect((aborted.error as Error).cause).toBe(reason);
  });
});

describe('invokeEndpointStream: the deadline and the idle timer hold where the SDK ignores the abort', () => {
  test('a credential provider that never answers ends at the deadline as DeadlineExceeded', async () => {
    const silent = runtimeClient({ credentials: silentCredentials });
    const outcome = await collect({ client: silent, deadlineMs: DEADLINE_MS }, 'creds', DEADLINE_MS + GIVE_UP_MS);
    expectBounded(outcome, DEADLINE_MS);
    expect(outcome.error).toBeInstanceOf(TransientEndpointError);
    expect(outcome.error).toMatchObject({ code: 'DeadlineExceeded', retryable: true });
    expect(sm.requestsFor('creds')).toHaveLength(0);
  });

  test('a request handler that ignores abortSignal, to an endpoint that never sends headers, ends at the deadline', async () => {
    const { client: deaf, handler } = abortIgnoring();
    sm.setDefault('deaf', stream([part('never')], { delayMs: NEVER_MS }));
    const outcome = await collect({ client: deaf, deadlineMs: DEADLINE_MS }, 'deaf', DEADLINE_MS + GIVE_UP_MS);
    expectBounded(outcome, DEADLINE_MS);
    expect(outcome.error).toMatchObject({ name: 'TransientEndpointError', code: 'DeadlineExceeded' });
    expect(outcome.chunks).toEqual([]);
    expect(handler.signalsSeen[0]?.aborted).toBe(true);
  });

  test('one part, then a stream that stops while its handler ignores the abort: the idle timer ends it', async () => {
    // GIVEN a stream that sends one part, then nothing, the response left open; a handler deaf to the abort
    const { client: deaf } = abortIgnoring();
    sm.setDefault('stalls', stream([part('first '), pause(NEVER_MS), part('never')]));
    const idleTimeoutMs = 200;
    // WHEN
    const outcome = await collect({ client: deaf, deadlineMs: 2_000, idleTimeoutMs }, 'stalls', idleTimeoutMs + GIVE_UP_MS);
    // THEN the caller kept what arrived, and the idle limit (not the endpoint) ended the stream
    expectBounded(outcome, idleTimeoutMs);
    expect(outcome.chunks).toEqual(['first ']);
    expect(outcome.error).toMatchObject({ name: 'TransientEndpointError', code: 'StreamIdleTimeout', retryable: true });
    expect((outcome.error as Error).message).toMatch(/sent no PayloadPart for 200 ms/);
    expect(sm.requestsFor('stalls', 'stream')).toHaveLength(1);
  });

  test('a caller abort mid-stream is rethrown as is when the handler ignores it', async () => {
    const { client: deaf } = abortIgnoring();
    const { outcome, chunks, reason } = await abortAfterFirstPart(deaf);
    expect(outcome.hung).toBe(false);
    expect(chunks).toEqual(['first ']);
    expect(outcome.error).toBe(reason);
  });

  test('where the SDK honours the abort, the errors are the ones it gave before', async () => {
    // GIVEN the default handler and the same stalling stream
    const honouring = runtimeClient();
    sm.setDefault('stalls', stream([part('first '), pause(NEVER_MS), part('never')]));
    // WHEN the idle timer fires
    const idle = await collect({ client: honouring, deadlineMs: 2_000, idleTimeoutMs: 200 }, 'stalls', 200 + GIVE_UP_MS);
    // THEN
    expectBounded(idle, 200);
    expect(idle.chunks).toEqual(['first ']);
    expect(idle.error).toMatchObject({ name: 'TransientEndpointError', code: 'StreamIdleTimeout' });
    // WHEN the caller aborts before the headers
    sm.setDefault('slow', stream([part('never')], { delayMs: NEVER_MS }));
    const controller = new AbortController();
    const reason = new Error('the user pressed stop');
    setTimeout(() => controller.abort(reason), 100);
    const aborted = await collect({ client: honouring, signal: controller.signal }, 'slow', 100 + GIVE_UP_MS);
    // THEN the SDK's AbortError, carrying the caller's reason
    expectBounded(aborted, 100);
    expect(aborted.error).not.toBeInstanceOf(SageMakerMcpError);
    expect(aborted.error).toMatchObject({ name: 'AbortError', message: 'Request aborted' });
    expect((aborted.error as Error).cause).toBe(reason);
  });

  test("a caller abort mid-stream rethrows the caller's reason, also where the SDK honours the abort", async () => {
    // GIVEN the default handler, and a stream that stops after one part. Here the SDK answers the abort a turn later
    // than the race's grace: the handler destroys the request, and the response's "aborted" error (code ECONNRESET)
    // comes with the socket's close. Before the race, that transport error was what the caller got.
    // WHEN
    const { outcome, chunks, reason } = await abortAfterFirstPart(runtimeClient());
    // THEN the caller's own reason, as InvokeOptions.signal documents, and the response is closed on the server side
    expect(outcome.hung).toBe(false);
    expect(chunks).toEqual(['first ']);
    expect(outcome.error).toBe(reason);
    await waitFor(() => sm.inFlight() === 0);
    expect(sm.inFlight()).toBe(0);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 3_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Streams one part, then a pause the server never ends; the caller aborts 100 ms after the first chunk. */
async function abortAfterFirstPart(client: NonNullable<Parameters<typeof invokeEndpointStream>[1]>['client']) {
  sm.setDefault('stalls', stream([part('first '), pause(NEVER_MS), part('never')]));
  const controller = new AbortController();
  const reason = new Error('the user pressed stop');
  const chunks: string[] = [];
  const outcome = await timed(async () => {
    for await (const chunk of invokeEndpointStream({ endpointName: 'stalls', ...INPUT }, { client, signal: controller.signal })) {
      chunks.push(chunk);
      setTimeout(() => controller.abort(reason), 100);
    }
  }, GIVE_UP_MS);
  return { outcome, chunks, reason };
}

/** Resolves once `condition` holds, checking every 10 ms up to 500 times. */
async function waitUntil(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}
