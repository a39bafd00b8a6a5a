/**
 * Shared benchmark plumbing. Every claim is a ratio of two things measured side by side in the same run,
 * on the same machine, interleaved so that noise hits both sides alike.
 */
export interface BenchRow {
  /** What is compared, e.g. "synth 10 autoscaled endpoints". */
  readonly name: string;
  /** Our side, measured. */
  readonly ours: number;
  /** The baseline side, measured in the same run. */
  readonly baseline: number;
  /** Unit of `ours` and `baseline` (ms, bytes, calls, ...). */
  readonly unit: string;
  /** What the baseline is, e.g. "raw L1 resources". */
  readonly baselineLabel: string;
  readonly note?: string;
}

export interface Bench {
  readonly title: string;
  run(): Promise<BenchRow[]>;
}

/** Median wall time in ms of `fn` over `iterations` runs, after `warmup` runs. */
export async function medianMs(fn: () => unknown | Promise<unknown>, iterations = 5, warmup = 1): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(times);
}

/**
 * Runs `a` and `b` alternately `iterations` times (after one warm-up each) and returns both medians in ms,
 * so that a slow moment of the machine lands on both sides.
 */
export async function interleavedMs(
  a: () => unknown | Promise<unknown>,
  b: () => unknown | Promise<unknown>,
  iterations = 5,
): Promise<{ a: number; b: number }> {
  await a();
  await b();
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < iterations; i++) {
    for (const [fn, into] of [[a, ta], [b, tb]] as const) {
      const start = process.hrtime.bigint();
      await fn();
      into.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  return { a: median(ta), b: median(tb) };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
