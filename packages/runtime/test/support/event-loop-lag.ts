/**
 * Time bounds that a stall of the test process does not break. A test asserting "the call ended within its deadline +
 * a margin" measures wall time, and wall time also counts the moments the event loop could not run at all: a
 * synchronous stall of the jest worker (garbage collection, another suite's transform, a starved CPU on a 2-core CI
 * machine). During such a stall no timer fires, so the deadline itself fires late, and the call is blamed for it: a 3 s
 * stall at 700 ms made a row bounded at 2,500 ms take 3,701 ms.
 *
 * `sampleEventLoopLag` measures that time: a 10 ms interval timer notes each tick, and every gap longer than the tick
 * plus `JITTER_MS` counts as lag (the part beyond the tick). A bound then reads `elapsed - lag < deadline + margin`.
 * It still fails a call that outlives its deadline: while the call waits on a socket or a timer the loop is free, the
 * ticks come on time, and the lag stays near 0 (a self-test in packages/runtime/test/core/faults.test.ts proves both).
 */
import { performance } from 'perf_hooks';

const TICK_MS = 10;
/** A tick this much late (or less) is timer jitter, not a stall, and is not counted. */
const JITTER_MS = 20;

export interface LagSampler {
  /** Stops sampling; returns the lag (ms) seen since the sampler started, the gap up to now included. */
  stop(): number;
}

/**
 * The lag counted from tick times (ms): each gap longer than the tick plus `JITTER_MS` adds what is beyond the tick.
 * Pure, so its rule is tested on given times rather than on the machine's timers.
 */
export function lagCounter(start: number): { readonly lagMs: number; note(now: number): void } {
  let last = start;
  let lag = 0;
  return {
    get lagMs() { return lag; },
    note(now: number) {
      const late = now - last - TICK_MS;
      if (late > JITTER_MS) lag += late;
      last = now;
    },
  };
}

/** Starts measuring event-loop lag: time the loop was blocked for longer than timer jitter. */
export function sampleEventLoopLag(): LagSampler {
  const counter = lagCounter(performance.now());
  const timer = setInterval(() => counter.note(performance.now()), TICK_MS);
  return {
    stop() {
      clearInterval(timer);
      counter.note(performance.now());
      return counter.lagMs;
    },
  };
}

export interface Timed<T> {
  readonly value?: T;
  readonly error?: unknown;
  /** Wall time of the work. */
  readonly elapsedMs: number;
  /** Event-loop lag during it (see sampleEventLoopLag): the part of `elapsedMs` the work cannot be blamed for. */
  readonly lagMs: number;
  /** True when the work had not settled after `giveUpAfterMs` (it still runs; its outcome is dropped). */
  readonly hung: boolean;
}

/**
 * Runs `work`, timing it and the event-loop lag during it. With `giveUpAfterMs`, a call that never settles (what an
 * unbounded call does) ends the measurement instead of the test's own timeout, so the test fails with `hung: true`.
 */
export async function timed<T>(work: () => Promise<T>, giveUpAfterMs?: number): Promise<Timed<T>> {
  const sampler = sampleEventLoopLag();
  const started = performance.now();
  let guard: ReturnType<typeof setTimeout> | undefined;
  const HUNG = Symbol('hung');
  const gaveUp = new Promise<typeof HUNG>((resolve) => {
    if (giveUpAfterMs !== undefined) guard = setTimeout(() => resolve(HUNG), giveUpAfterMs);
  });
  const running = work();
  running.catch(() => undefined);
  let value: T | undefined;
  let error: unknown;
  let hung = false;
  try {
    const first = await Promise.race([running, gaveUp]);
    if (first === HUNG) hung = true;
    else value = first;
  } catch (e) {
    error = e;
  } finally {
    clearTimeout(guard);
  }
  const elapsedMs = performance.now() - started;
  return { value, error, elapsedMs, lagMs: sampler.stop(), hung };
}

/** `elapsed - lag`: the time the work itself took, to compare with its deadline + margin. */
export function blamedMs(outcome: { readonly elapsedMs: number; readonly lagMs: number }): number {
  return outcome.elapsedMs - outcome.lagMs;
}
