/**
 * invokeEndpoint under load against the local SageMaker runtime (real SDK client): thousands of calls through a small
 * socket pool all settle and leave no socket open. Slow (minutes on a loaded 2-core machine): `npx projen test:slow`.
 */
import { fail, ok, reset, SageMakerRuntimeServer, start } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { SageMakerMcpError } from 'cdk-sagemaker-mcp-runtime/core';
import { createRuntimeClient, invokeEndpoint } from 'cdk-sagemaker-mcp-runtime/invoke';

const NO_WAIT = { baseDelayMs: 0, maxDelayMs: 0 };

describe('invokeEndpoint under load (real SDK client)', () => {
  let sm: SageMakerRuntimeServer;
  beforeAll(async () => {
    sm = await start();
  });
  afterAll(async () => {
    await sm.stop();
  });

  // Its own timeout: jest's 60 s default abandoned the 3,000 calls mid-flight on a loaded 2-core machine, and the worker
  // still busy with them could not exit when jest asked ("A worker process has failed to exit gracefully").
  test('no leaks: 3,000 calls with mixed errors through 4 sockets all settle, and 0 sockets stay open after destroy', async () => {
    // GIVEN a small pool (and no other client holding sockets) and an endpoint cycling through success, permanent,
    // transient errors and resets
    const small = createRuntimeClient(sm.clientConfig({ maxSockets: 4, retry: { maxAttempts: 2, ...NO_WAIT } }));
    const cycle = [
      ok({ ok: true }),
      fail('ModelError', { originalStatusCode: 400 }),
      fail('ValidationError'),
      fail('ServiceUnavailable'),
      ok('x'.repeat(10_000), { contentType: 'text/plain' }),
      reset(),
      fail('ThrottlingException'),
    ];
    let n = 0;
    sm.setDefault('mixed', () => cycle[n++ % cycle.length]);
    // WHEN
    const outcomes = await Promise.allSettled(Array.from({ length: 3_000 }, (_, i) =>
      invokeEndpoint({ endpointName: 'mixed', body: `{"i":${i}}`, contentType: 'application/json' }, { client: small })))
      .finally(() => small.destroy());
    // THEN every call settled with a result or a library error
    expect(outcomes).toHaveLength(3_000);
    const fulfilled = outcomes.filter((o) => o.status === 'fulfilled').length;
    const rejected = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(fulfilled).toBeGreaterThan(0);
    expect(rejected.length).toBeGreaterThan(0);
    for (const r of rejected) expect(r.reason).toBeInstanceOf(SageMakerMcpError);
    expect(sm.inFlight()).toBe(0);
    expect(sm.peakOpenSockets()).toBeLessThanOrEqual(4);
    small.destroy();
    await waitFor(() => sm.openSockets() === 0);
    expect(sm.openSockets()).toBe(0);
  }, 300_000);
});

async function waitFor(condition: () => boolean, timeoutMs = 3_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
}
