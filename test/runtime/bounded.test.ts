/**
 * The bounds of packages/runtime/src/core/bounded.ts: clients with a request timeout, deadlines that settle even when the work ignores
 * them, page guards (test/runtime/bundled-handler-timeouts.test.ts holds a bundled handler's own timeout).
 * Real AWS SDK clients against a server that accepts connections and never answers.
 */
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { blamedMs, timed } from '../../packages/runtime/test/support/event-loop-lag';
import { LOCAL_CREDENTIALS } from '@cdk-sagemaker-mcp/test-stand-ins/local-aws';
import { SilentServer, startSilentServer } from '@cdk-sagemaker-mcp/test-stand-ins/silent-server';
import { boundedClient, boundedRequestHandler, DeadlineExceededError, PageGuard, withDeadline, isTransient } from 'cdk-sagemaker-mcp-runtime/core';

let silent: SilentServer;
beforeAll(async () => {
  silent = await startSilentServer();
});
afterAll(async () => silent?.stop());

describe('boundedClient', () => {
  test('an attempt the service never answers fails at the request timeout, as a transient error', async () => {
    // GIVEN
    const client = boundedClient(DynamoDBClient, { endpoint: silent.endpoint, region: 'us-east-1', credentials: LOCAL_CREDENTIALS, maxAttempts: 1 }, { requestTimeoutMs: 300 });
    // WHEN
    const outcome = await timed(() => client.send(new GetItemCommand({ TableName: 't', Key: { k: { S: 'v' } } })));
    // THEN (the time the call took, less what a stall of the whole test process added: see event-loop-lag.ts)
    const err = outcome.error;
    expect(err).toMatchObject({ name: 'TimeoutError' });
    expect(isTransient(err)).toBe(true);
    expect(blamedMs(outcome)).toBeLessThan(2_000);
    client.destroy();
  });

  test('every call inside withDeadline is aborted when the deadline passes', async () => {
    // GIVEN a request timeout far beyond the deadline
    const client = boundedClient(DynamoDBClient, { endpoint: silent.endpoint, region: 'us-east-1', credentials: LOCAL_CREDENTIALS, maxAttempts: 1 }, { requestTimeoutMs: 60_000 });
    let sdkError: unknown;
    // WHEN
    const outcome = await timed(() => withDeadline('GetItem', 300, () => client.send(new GetItemCommand({ TableName: 't', Key: { k: { S: 'v' } } })).catch((e) => {
      sdkError = e;
      throw e;
    })));
    // THEN
    const err = outcome.error as Error;
    expect(err).toBeInstanceOf(DeadlineExceededError);
    expect(err.message).toContain('GetItem did not finish within its deadline of 300 ms');
    expect(blamedMs(outcome)).toBeLessThan(1_500);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sdkError).toMatchObject({ name: 'AbortError' });
    client.destroy();
  });

  test('the default handler options: connect 5 s, request 10 s, a timeout is an error', () => {
    expect(boundedRequestHandler()).toEqual({ connectionTimeout: 5_000, requestTimeout: 10_000, throwOnRequestTimeout: true });
  });
});

describe('withDeadline', () => {
  // Jest's fake clock: the deadline's timer fires when the test moves the clock, whatever the machine's load.
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** Whether `promise` has settled, once the microtasks queued so far have run. */
  const settledYet = async (promise: Promise<unknown>) => Promise.race([promise.then(() => true, () => true), Promise.resolve().then(() => false)]);

  test('settles at the deadline even when the work ignores the signal', async () => {
    const call = withDeadline('sleepy work', 100, () => new Promise(() => undefined));
    call.catch(() => undefined);
    await jest.advanceTimersByTimeAsync(99);
    expect(await settledYet(call)).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    await expect(call).rejects.toMatchObject({ name: 'DeadlineExceeded', retryable: true });
  });

  test('a nested deadline keeps the earlier one', async () => {
    const call = withDeadline('outer', 100, () => withDeadline('inner', 10_000, () => new Promise(() => undefined)));
    call.catch(() => undefined);
    await jest.advanceTimersByTimeAsync(100);
    const err = (await call.catch((e) => e)) as Error;
    expect(err).toBeInstanceOf(DeadlineExceededError);
    expect(err.message).toContain('outer');
  });

  test('work that finishes in time returns its value', async () => {
    await expect(withDeadline('quick', 1_000, async () => 42)).resolves.toBe(42);
  });
});

describe('PageGuard', () => {
  test('stops on a token it has seen', () => {
    const guard = new PageGuard('List');
    expect(guard.next('a')).toBe('a');
    expect(guard.next('b')).toBe('b');
    expect(guard.next('a')).toBeUndefined();
    expect(guard.stoppedBecause).toBe('repeated-token');
  });

  test('stops at the page cap', () => {
    const guard = new PageGuard('List', 3);
    expect([guard.next('1'), guard.next('2'), guard.next('3')]).toEqual(['1', '2', undefined]);
    expect(guard.truncated).toBe(true);
    expect(guard.stoppedBecause).toBe('page-cap');
  });

  test('a last page is not a truncation', () => {
    const guard = new PageGuard('List');
    expect(guard.next(undefined)).toBeUndefined();
    expect(guard.truncated).toBe(false);
  });
});
