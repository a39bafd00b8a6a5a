/**
 * The one deadline primitive (packages/runtime/src/core/deadline.ts): which of the deadline and a caller's signal ended
 * the work, nesting, an unarmed deadline, and the race that ends work ignoring the abort (with and without grace).
 */
import { abortable, DeadlineExceededError, startDeadline, withDeadline } from 'cdk-sagemaker-mcp-runtime/core';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('startDeadline', () => {
  test('the deadline aborts with DeadlineExceededError and says it expired', () => {
    const d = startDeadline('work', 100);
    jest.advanceTimersByTime(99);
    expect(d.signal.aborted).toBe(false);
    jest.advanceTimersByTime(1);
    expect(d.signal.reason).toBeInstanceOf(DeadlineExceededError);
    expect(d.signal.reason).toMatchObject({ what: 'work', deadlineMs: 100 });
    expect(d.expired()).toBe(true);
    d.dispose();
  });

  test('a given signal aborts it with its own reason, and the deadline did not expire', () => {
    const caller = new AbortController();
    const d = startDeadline('work', 100, { signals: [undefined, caller.signal] });
    const reason = new Error('stop');
    caller.abort(reason);
    expect(d.signal.reason).toBe(reason);
    expect(d.expired()).toBe(false);
    d.dispose();
  });

  test('notAfter keeps an earlier expiry', () => {
    const d = startDeadline('inner', 10_000, { notAfter: Date.now() + 50 });
    jest.advanceTimersByTime(50);
    expect(d.expired()).toBe(true);
    d.dispose();
  });

  test('an infinite deadline arms no timer: it only forwards its signals', () => {
    const caller = new AbortController();
    const d = startDeadline('forward only', Infinity, { signals: [caller.signal] });
    jest.advanceTimersByTime(3_000_000_000);
    expect(d.signal.aborted).toBe(false);
    caller.abort('bye');
    expect(d.signal.reason).toBe('bye');
    d.dispose();
  });

  test('dispose stops the timer', () => {
    const d = startDeadline('work', 100);
    d.dispose();
    jest.advanceTimersByTime(1_000);
    expect(d.signal.aborted).toBe(false);
  });
});

describe('abortable', () => {
  test('ends work that ignores the abort with the signal\'s reason', async () => {
    const d = startDeadline('ignored', 100);
    const outcome = abortable(new Promise(() => undefined), d.signal).catch((e) => e);
    await jest.advanceTimersByTimeAsync(100);
    // The grace turn (setImmediate) after the abort.
    await jest.runAllTimersAsync();
    expect(await outcome).toBeInstanceOf(DeadlineExceededError);
    d.dispose();
  });

  test('with grace, an error the work raises in the abort\'s turn wins; without, the reason does', async () => {
    const run = async (grace: boolean) => {
      const controller = new AbortController();
      const work = new Promise((_, reject) => controller.signal.addEventListener('abort', () => reject(new Error('AbortError of the SDK'))));
      const outcome = abortable(work, controller.signal, { grace }).catch((e: Error) => e.message);
      controller.abort(new Error('the deadline'));
      await jest.runAllTimersAsync();
      return outcome;
    };
    expect(await run(true)).toBe('AbortError of the SDK');
    expect(await run(false)).toBe('the deadline');
  });
});

describe('withDeadline', () => {
  test('answers DeadlineExceededError at the deadline even when the work raises its own abort error', async () => {
    const outcome = withDeadline('tool', 100, (signal) => new Promise((_, reject) => {
      signal.addEventListener('abort', () => reject(new Error('AbortError')));
    })).catch((e) => e);
    await jest.advanceTimersByTimeAsync(100);
    expect(await outcome).toBeInstanceOf(DeadlineExceededError);
  });
});
