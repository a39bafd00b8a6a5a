/**
 * The synth budget counted in instructions, which the machine's load does not move. The realtime bench's process CPU
 * of one twin varies by about +-15% from run to run on the shared 2-core machine, more than the budget's margin
 * (docs/benchmarks.md); valgrind's callgrind counts every instruction a process executes instead, which does not
 * depend on what else the machine is doing.
 *
 * The same scripts as bench/realtime.bench.ts's whole-process rows (bench/twins/processes.ts: 50 autoscaled
 * endpoints, through the compiled package entry, template validation on as in a user's `cdk synth`), each run once in
 * a fresh process under `valgrind --tool=callgrind`, three ways:
 * - with `node --single-threaded` (V8 compiles and collects on the main thread, nothing in the background): the work
 *   of the synth itself, which repeats to within about 1% (docs/benchmarks.md): the budget's measure;
 * - the same with aws-cdk-lib's template validation off: what the constructs cost before the template is checked;
 * - with node's default flags, every thread counted, as a user's process runs: V8's background compilers and garbage
 *   collector add about a quarter to every twin, but how much they do depends on timing, so this count moves by up to
 *   12% and cannot judge a 10% budget.
 * Then the template validation alone, once per template (bench/twins/validation-alone.ts): ours, the alpha's, and
 * ours without, or with one shared copy of, the model roles' logs and metrics statements, which price the difference.
 * Under valgrind a process runs about 40 times slower, so the processes run side by side, one per core.
 */
import { execFile, spawnSync } from 'child_process';
import { availableParallelism } from 'os';
import { join } from 'path';
import { promisify } from 'util';
import { Bench, BenchRow } from './harness';
import { bundleTwins, Twin, twinEnv } from './twins/processes';
import { VALIDATED_TEMPLATES, ValidatedTemplate, writeValidationAlone } from './twins/validation-alone';

const ROOT = join(__dirname, '..');
const ENDPOINTS = 50;
const TWINS: Twin[] = ['raw', 'ours', 'oursBucket', 'alpha'];
const MODES = {
  'node --single-threaded': { flags: ['--single-threaded'], validation: true },
  'node --single-threaded, template validation off': { flags: ['--single-threaded'], validation: false },
  'all threads': { flags: [], validation: true },
} as const;
type Mode = keyof typeof MODES;

/** Instructions a fresh `node <flags> <args>` process executes (callgrind's "Collected" total). */
async function instructions(flags: readonly string[], args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { stderr } = await promisify(execFile)('valgrind', [
    '--tool=callgrind', '--callgrind-out-file=/dev/null', process.execPath, ...flags, ...args,
  ], { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 });
  const collected = /Collected : (\d+)/.exec(stderr);
  if (!collected) throw new Error(`callgrind reported no instruction count for ${args.join(' ')}: ${stderr.slice(-2000)}`);
  return Number(collected[1]);
}

/** Runs `jobs` with at most `width` at a time, and returns their results in order. */
async function inParallel<T>(jobs: Array<() => Promise<T>>, width: number): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const lane = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, jobs.length) }, lane));
  return results;
}

export const bench: Bench = {
  title: 'RealtimeEndpoint: synth cost in instructions against raw aws-cdk-lib and the alpha',
  async run(): Promise<BenchRow[]> {
    if (spawnSync('valgrind', ['--version']).status !== 0) {
      // eslint-disable-next-line no-console
      console.log('skipped: valgrind is not installed (Debian: apt-get install valgrind)');
      return [];
    }
    const scripts = await bundleTwins();
    const alone = writeValidationAlone(ENDPOINTS);
    const plan = (Object.keys(MODES) as Mode[]).flatMap((mode) => TWINS.map((twin) => ({ mode, twin })));
    const jobs = [
      ...plan.map(({ mode, twin }) => () =>
        instructions(MODES[mode].flags, [scripts[twin], String(ENDPOINTS)], twinEnv(MODES[mode].validation))),
      ...VALIDATED_TEMPLATES.map((t) => () => instructions(['--single-threaded'], [alone.script, alone.templates[t]], process.env)),
    ];
    const counts = await inParallel(jobs, availableParallelism());
    const count = (mode: Mode, twin: Twin) => counts[plan.findIndex((p) => p.mode === mode && p.twin === twin)] / 1e6;
    const validationCount = (t: ValidatedTemplate) => counts[plan.length + VALIDATED_TEMPLATES.indexOf(t)] / 1e6;
    const rows: BenchRow[] = [];
    for (const mode of Object.keys(MODES) as Mode[]) {
      const note = `instructions executed by one fresh process (valgrind --tool=callgrind), ${mode}`;
      const row = (twin: Twin, label: string, base: Twin, baseLabel: string): BenchRow => ({
        name: `${label}, ${ENDPOINTS} autoscaled endpoints: instructions (${mode})`,
        ours: count(mode, twin),
        baseline: count(mode, base),
        unit: 'M instructions',
        baselineLabel: baseLabel,
        note,
      });
      rows.push(
        row('ours', 'RealtimeEndpoint (artifacts by URI)', 'raw', 'raw L1 resources'),
        row('oursBucket', 'RealtimeEndpoint (artifacts through an imported bucket)', 'raw', 'raw L1 resources'),
        row('alpha', '@aws-cdk/aws-sagemaker-alpha (artifacts through an imported bucket)', 'raw', 'raw L1 resources'),
        row('oursBucket', 'RealtimeEndpoint against @aws-cdk/aws-sagemaker-alpha, both through an imported bucket', 'alpha', '@aws-cdk/aws-sagemaker-alpha'),
      );
    }
    const validationNote = 'instructions executed by one fresh process (valgrind --tool=callgrind, node --single-threaded) '
      + 'validating one 50-endpoint template with aws-cdk-lib\'s CloudFormationValidatePlugin, nothing else';
    const validationRow = (t: ValidatedTemplate, label: string): BenchRow => ({
      name: `template validation alone: ${label}`,
      ours: validationCount(t),
      baseline: validationCount('alpha'),
      unit: 'M instructions',
      baselineLabel: 'the alpha\'s template',
      note: validationNote,
    });
    rows.push(
      validationRow('ours', 'our template (artifacts through an imported bucket)'),
      validationRow('oursWithoutBasics', 'ours without the model roles\' logs and metrics statements'),
      validationRow('oursBasicsInOneManagedPolicy', 'ours with those statements in one managed policy every role attaches'),
    );
    return rows;
  },
};
