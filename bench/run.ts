/* eslint-disable no-console */
import { readdirSync } from 'fs';
import { join } from 'path';
import { Bench, BenchRow } from './harness';

/** Runs every bench/*.bench.ts (or those named on the command line) and prints one table of ratios. */
async function main() {
  const only = process.argv.slice(2);
  const files = readdirSync(__dirname)
    .filter((f) => f.endsWith('.bench.ts'))
    .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
    .sort();
  const all: Array<BenchRow & { bench: string }> = [];
  for (const file of files) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const bench: Bench = require(join(__dirname, file)).bench;
    console.log(`\n== ${bench.title} (${file})`);
    const rows = await bench.run();
    for (const row of rows) {
      all.push({ ...row, bench: bench.title });
      console.log(formatRow(row));
    }
  }
  console.log(`\n${all.length} measurements from ${files.length} benchmark files.`);
}

function formatRow(r: BenchRow): string {
  const ratio = r.baseline === 0 ? 'n/a' : `${(r.ours / r.baseline).toFixed(3)}x`;
  const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));
  return `- ${r.name}: ours ${fmt(r.ours)} ${r.unit} vs ${r.baselineLabel} ${fmt(r.baseline)} ${r.unit} -> ratio ${ratio}${r.note ? ` (${r.note})` : ''}`;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
