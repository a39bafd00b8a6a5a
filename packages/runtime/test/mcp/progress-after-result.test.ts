/**
 * When the tool deadline cuts a wait short, the call answers at the deadline
 * (packages/runtime/src/core/bounded.ts withDeadline) while a check that ignored the abort signal may still be running; when
 * it returns, no progress notification may follow the result
 * (https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/progress: notifications belong to a request
 * that is still in progress).
 */
import { withDeadline } from 'cdk-sagemaker-mcp-runtime/core';
import { waitUntilDone } from 'cdk-sagemaker-mcp-runtime/mcp';

test('no progress notification after the deadline answered the call', async () => {
  // GIVEN a wait whose second check ignores the signal and returns 400 ms after a 300 ms tool deadline
  const notified: number[] = [];
  let checks = 0;
  let secondCheckReturned: () => void = () => undefined;
  const secondCheckDone = new Promise<void>((resolve) => { secondCheckReturned = resolve; });
  const request = {
    mcpReq: {
      _meta: { progressToken: 'tok' },
      notify: async () => { notified.push(Date.now()); },
    },
  };
  let answeredAt = 0;
  // WHEN the tool runs under its deadline
  const answer = withDeadline('Tool wait_for_async_inference', 300, () => waitUntilDone(request, {
    pollIntervalMs: 50,
    check: async () => {
      checks++;
      if (checks === 2) {
        await new Promise((resolve) => setTimeout(resolve, 400));
        secondCheckReturned();
      }
      return { done: false, value: checks, message: `check ${checks}` };
    },
  })).catch((err: Error) => err).finally(() => { answeredAt = Date.now(); });
  // THEN the call answers DeadlineExceeded at the deadline...
  expect(await answer).toMatchObject({ name: 'DeadlineExceeded' });
  await secondCheckDone;
  await new Promise((resolve) => setImmediate(resolve));
  // ...and every notification went out before that answer
  expect(notified.length).toBeGreaterThanOrEqual(1);
  for (const at of notified) expect(at).toBeLessThanOrEqual(answeredAt);
});
