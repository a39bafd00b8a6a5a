/**
 * RealtimeEndpoint against what it saves you from writing, side by side:
 * - cold import: the compiled package entry (lib/index.js, from an installed copy) and the five exports a realtime endpoint needs, as an app
 *   imports them, against requiring exactly the aws-cdk-lib modules that src/core + src/realtime import (listed by an
 *   esbuild bundle of them), and nothing else; each in fresh child processes, alternated, timed inside the child (node
 *   start-up excluded);
 * - synth: 1, 10 and 50 autoscaled endpoints with RealtimeEndpoint against the same stacks written with raw L1s
 *   (role + policy, CfnModel, CfnEndpointConfig, CfnEndpoint, CfnScalableTarget, CfnScalingPolicy), interleaved in one
 *   process, each run a fresh App through `app.synth()` (twins in bench/twins/);
 * - whole process: 50 autoscaled endpoints with RealtimeEndpoint (through the compiled package entry, the artifacts by
 *   URI and through an imported bucket), with raw L1s, with raw L1s but the model role an L2 `iam.Role` (the one L2 ours
 *   and the alpha both build on), and with `@aws-cdk/aws-sagemaker-alpha` (the nearest peer), each
 *   twin bundled alone and run in fresh child processes, interleaved; each child reports its own CPU (user + system) and
 *   peak RSS, so the ratios are what a user's `cdk synth` pays, start-up and module load included; and each run again
 *   with aws-cdk-lib's template validation off, so that what the constructs themselves cost shows beside it;
 * - heap at validation: the objects and bytes alive as aws-cdk-lib's template validation starts, one heap snapshot per
 *   twin (what the process CPU follows, without the machine's noise);
 * - the lazy package entry (scripts/lazy-index.ts) against jsii's eager one, which requires every capability folder at
 *   once: cold import and heap at validation, so that the mechanism shows what it earns on every run.
 */
import { execFileSync, spawnSync } from 'child_process';
import { existsSync, mkdirSync, writeFileSync } from 'fs';
import { dirname, join } from 'path';
import { buildSync } from 'esbuild';
import { Bench, BenchRow, interleavedMs, median } from './harness';
import { synthOurs } from './twins/ours';
import { bundleTwins, EAGER_ENTRY, INSTALLED_ENTRY, installPackageCopy, Twin, twinEnv } from './twins/processes';
import { synthRaw } from './twins/raw';

const ROOT = join(__dirname, '..');
const OURS_MODULE = join(ROOT, '.bench-out', 'realtime', 'index.js');
const COLD_RUNS = 7;
const SYNTH_RUNS = 5;
// Odd, and enough that one run's +-10% CPU spread (docs/benchmarks.md) cancels; BENCH_ROUNDS=5 gives a first look.
const PROCESS_RUNS = Number(process.env.BENCH_ROUNDS ?? 11);
const PROCESS_ENDPOINTS = 50;
const PHASE_RUNS = 7;

/** Bundles our module and returns the aws-cdk-lib/constructs module paths it imports. */
function bundleOurs(): string[] {
  mkdirSync(dirname(OURS_MODULE), { recursive: true });
  // What a user of the realtime capability loads: the endpoint and the core model sources it takes.
  const result = buildSync({
    stdin: { contents: "export * from './src/core';\nexport * from './src/realtime';\n", resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile: OURS_MODULE,
    logLevel: 'error',
    metafile: true,
    external: ['aws-cdk-lib', 'aws-cdk-lib/*', 'constructs'],
  });
  // The metafile also lists erased type-only imports as external; keep the packages only.
  const imports = Object.values(result.metafile!.inputs)
    .flatMap((i) => i.imports.filter((x) => x.external && /^(aws-cdk-lib|constructs)(\/|$)/.test(x.path)).map((x) => x.path));
  return [...new Set(imports)].sort();
}

/** What an app that builds realtime endpoints takes from the package (bench/twins/ours.ts). */
const REALTIME_EXPORTS = ['RealtimeEndpoint', 'ModelSource', 'ContainerImage', 'ModelData', 'InstanceType'];

function childImportMs(modules: string[], touch: string[] = []): number {
  const script = `const t0 = process.hrtime.bigint();
${modules.map((m) => `${touch.length ? 'const lib = ' : ''}require(${JSON.stringify(m)});`).join('\n')}
${touch.map((name) => `void lib.${name};`).join('\n')}
console.log(Number(process.hrtime.bigint() - t0) / 1e6);`;
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', cwd: ROOT }).trim());
}

/** What one child process measures of itself after synthesizing: whole-process CPU (user + system) and peak RSS. */
interface ProcessCost { readonly cpuMs: number; readonly maxRssMiB: number }

const PROCESS_TWINS: Twin[] = ['ours', 'oursBucket', 'raw', 'rawRole', 'alpha'];

/** Runs a twin's script in a fresh process (template validation on or off: `twinEnv`) and returns what it measured. */
function childCost(script: string, n: number, templateValidation = true): ProcessCost {
  const out = execFileSync(process.execPath, [script, String(n)], { encoding: 'utf8', cwd: ROOT, env: twinEnv(templateValidation) });
  return JSON.parse(out.trim().split('\n').pop()!);
}

export const bench: Bench = {
  title: 'RealtimeEndpoint: import and synth cost against raw aws-cdk-lib',
  async run(): Promise<BenchRow[]> {
    const rows: BenchRow[] = [];
    const cdkModules = bundleOurs();
    installPackageCopy();
    const ours: number[] = [];
    const raw: number[] = [];
    const eager: number[] = [];
    for (let i = 0; i < COLD_RUNS; i++) {
      ours.push(childImportMs([INSTALLED_ENTRY], REALTIME_EXPORTS));
      raw.push(childImportMs(cdkModules));
      eager.push(childImportMs([EAGER_ENTRY], REALTIME_EXPORTS));
    }
    rows.push({
      name: `cold import of the package and ${REALTIME_EXPORTS.join(', ')}: the lazy entry against jsii's eager one`,
      ours: median(ours),
      baseline: median(eager),
      unit: 'ms',
      baselineLabel: 'every capability folder required at once',
      note: `median of ${COLD_RUNS} fresh processes each (scripts/lazy-index.ts)`,
    });
    rows.push({
      name: `cold import of the package and ${REALTIME_EXPORTS.join(', ')}`,
      ours: median(ours),
      baseline: median(raw),
      unit: 'ms',
      baselineLabel: `requiring only the ${cdkModules.length} aws-cdk-lib/constructs modules it uses`,
      note: `median of ${COLD_RUNS} fresh processes each; ${cdkModules.join(', ')}`,
    });
    for (const n of [1, 10, 50]) {
      const { a, b } = await interleavedMs(() => synthOurs(n), () => synthRaw(n), SYNTH_RUNS);
      rows.push({
        name: `synth ${n} autoscaled endpoint${n === 1 ? '' : 's'}`,
        ours: a,
        baseline: b,
        unit: 'ms',
        baselineLabel: 'raw L1 resources',
        note: `median of ${SYNTH_RUNS} interleaved runs`,
      });
    }
    rows.push(...await processRows());
    return rows;
  },
};

/**
 * Whole process, as a user's `cdk synth` pays it: each twin bundled alone, run in fresh child processes, all
 * interleaved (the order rotates each round so that a slow moment of the shared machine lands on every side).
 */
export async function processRows(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const scripts = await bundleTwins();
  const costs = Object.fromEntries(PROCESS_TWINS.map((t) => [t, [] as ProcessCost[]])) as Record<Twin, ProcessCost[]>;
  const constructsOnly = Object.fromEntries(PROCESS_TWINS.map((t) => [t, [] as ProcessCost[]])) as Record<Twin, ProcessCost[]>;
  for (const twin of PROCESS_TWINS) childCost(scripts[twin], PROCESS_ENDPOINTS); // warm the file cache
  for (let i = 0; i < PROCESS_RUNS; i++) {
    for (let k = 0; k < PROCESS_TWINS.length; k++) {
      const twin = PROCESS_TWINS[(i + k) % PROCESS_TWINS.length];
      costs[twin].push(childCost(scripts[twin], PROCESS_ENDPOINTS));
      constructsOnly[twin].push(childCost(scripts[twin], PROCESS_ENDPOINTS, false));
    }
  }
  const cpu = (t: Twin) => median(costs[t].map((c) => c.cpuMs));
  // Each round's ratio to the baseline's run in the same round: the machine's slow spells, longer than a round, cancel.
  const pairedRatio = (t: Twin, base: Twin = 'raw') => median(costs[t].map((c, i) => c.cpuMs / costs[base][i].cpuMs));
  const withPaired = (t: Twin, base: Twin = 'raw') => `${note}; median of the rounds' own ratios ${pairedRatio(t, base).toFixed(3)}x`;
  const constructsCpu = (t: Twin) => median(constructsOnly[t].map((c) => c.cpuMs));
  const rss = (t: Twin) => median(costs[t].map((c) => c.maxRssMiB));
  const note = `whole process (node start-up, module load, synth), median of ${PROCESS_RUNS} interleaved fresh processes`;
  const labels: Array<[Twin, string]> = [
    ['ours', 'RealtimeEndpoint (artifacts by URI)'],
    ['oursBucket', 'RealtimeEndpoint (artifacts through an imported bucket)'],
    ['alpha', '@aws-cdk/aws-sagemaker-alpha (artifacts through an imported bucket)'],
    ['rawRole', 'raw L1 resources with the model role as an L2 iam.Role (what that one L2, which ours and the alpha both create, costs)'],
  ];
  for (const [twin, label] of labels) {
    rows.push({
      name: `${label}, ${PROCESS_ENDPOINTS} autoscaled endpoints: process CPU`,
      ours: cpu(twin),
      baseline: cpu('raw'),
      unit: 'ms',
      baselineLabel: 'raw L1 resources',
      note: withPaired(twin),
    });
    rows.push({
      name: `${label}, ${PROCESS_ENDPOINTS} autoscaled endpoints: peak RSS`,
      ours: rss(twin),
      baseline: rss('raw'),
      unit: 'MiB',
      baselineLabel: 'raw L1 resources',
      note: `${note}; ${(rss(twin) - rss('raw')).toFixed(1)} MiB over raw`,
    });
  }
  rows.push({
    name: `RealtimeEndpoint against @aws-cdk/aws-sagemaker-alpha, both through an imported bucket, ${PROCESS_ENDPOINTS} autoscaled endpoints: process CPU`,
    ours: cpu('oursBucket'),
    baseline: cpu('alpha'),
    unit: 'ms',
    baselineLabel: '@aws-cdk/aws-sagemaker-alpha',
    note: withPaired('oursBucket', 'alpha'),
  });
  rows.push({
    name: `RealtimeEndpoint (artifacts by URI) against raw L1s with the model role as an L2 iam.Role, ${PROCESS_ENDPOINTS} autoscaled endpoints: process CPU`,
    ours: cpu('ours'),
    baseline: cpu('rawRole'),
    unit: 'ms',
    baselineLabel: 'raw L1 resources and an L2 iam.Role',
    note: `${withPaired('ours', 'rawRole')}: what is ours once the L2 role is paid`,
  });
  const constructsNote = 'as above with aws-cdk-lib\'s template validation off (CDK_VALIDATION=false), each run beside its validated one: what the constructs cost';
  for (const [twin, label] of labels) {
    rows.push({
      name: `${label}, ${PROCESS_ENDPOINTS} autoscaled endpoints: process CPU without template validation`,
      ours: constructsCpu(twin),
      baseline: constructsCpu('raw'),
      unit: 'ms',
      baselineLabel: 'raw L1 resources',
      note: constructsNote,
    });
  }
  rows.push(...heapRows(scripts, [...labels, ['oursEager', "RealtimeEndpoint (artifacts by URI) through jsii's eager package entry"]]));
  rows.push(...phaseRows(scripts));
  return rows;
}

/**
 * What the process CPU follows and machine load does not move: the heap alive when aws-cdk-lib's CloudFormation
 * template validation starts (its garbage collections mark all of it, again and again: docs/benchmarks.md). A hook
 * required before the twin wraps the plugin's `validate` and writes one heap snapshot on the first call.
 */
const VALIDATE_PLUGIN = join(ROOT, 'node_modules', 'aws-cdk-lib', 'core', 'lib', 'validation', 'cloudformation-validate-plugin.js');
const HEAP_HOOK = `const v8 = require('v8'); const fs = require('fs');
const { CloudFormationValidatePlugin } = require(${JSON.stringify(VALIDATE_PLUGIN)});
const validate = CloudFormationValidatePlugin.prototype.validate; let done = false;
CloudFormationValidatePlugin.prototype.validate = function (...args) {
  if (!done) {
    done = true;
    const file = v8.writeHeapSnapshot();
    const snap = JSON.parse(fs.readFileSync(file, 'utf8')); fs.unlinkSync(file);
    const fields = snap.snapshot.meta.node_fields; const size = fields.indexOf('self_size'); let bytes = 0;
    for (let i = 0; i < snap.nodes.length; i += fields.length) bytes += snap.nodes[i + size];
    process.stderr.write('HEAP ' + JSON.stringify({ objects: snap.nodes.length / fields.length, bytes }) + '\\n');
  }
  return validate.apply(this, args);
};
`;

/**
 * Runs a twin in a fresh process with `hook` required first, and returns the JSON the hook writes to stderr on the
 * line that starts with `tag`.
 */
function withHook<T>(name: string, hook: string, tag: string, scripts: Record<Twin, string>): (twin: Twin) => T {
  const file = join(ROOT, '.bench-out', `${name}-hook.js`);
  writeFileSync(file, hook);
  return (twin) => {
    const child = spawnSync(process.execPath, ['-r', file, scripts[twin], String(PROCESS_ENDPOINTS)], { encoding: 'utf8', cwd: ROOT });
    const line = child.stderr.split('\n').find((l) => l.startsWith(`${tag} `));
    if (child.status !== 0 || !line) throw new Error(`the ${name} hook's run of the ${twin} twin failed: ${child.stderr}`);
    return JSON.parse(line.slice(tag.length + 1));
  };
}

function heapRows(scripts: Record<Twin, string>, labels: Array<[Twin, string]>): BenchRow[] {
  if (!existsSync(VALIDATE_PLUGIN)) return []; // an aws-cdk-lib before template validation
  const heap = withHook<{ objects: number; bytes: number }>('heap', HEAP_HOOK, 'HEAP', scripts);
  const raw = heap('raw');
  const note = 'one heap snapshot as template validation starts (deterministic: no median needed)';
  return labels.flatMap(([twin, label]) => {
    const at = heap(twin);
    return [
      { name: `${label}, ${PROCESS_ENDPOINTS} autoscaled endpoints: heap objects at validation`, ours: at.objects, baseline: raw.objects, unit: 'objects', baselineLabel: 'raw L1 resources', note: `${note}; ${at.objects - raw.objects} over raw` },
      { name: `${label}, ${PROCESS_ENDPOINTS} autoscaled endpoints: heap at validation`, ours: at.bytes / 1048576, baseline: raw.bytes / 1048576, unit: 'MiB', baselineLabel: 'raw L1 resources', note: `${note}; ${((at.bytes - raw.bytes) / 1048576).toFixed(2)} MiB over raw` },
    ];
  });
}

/**
 * Ours against the alpha (both through an imported bucket), the process CPU split where aws-cdk-lib's template
 * validation starts: what the constructs, module load and synth cost before it, and what validating each template
 * costs. A hook required before the twin wraps the plugin's `validate` and reports both.
 */
const PHASE_HOOK = `const { CloudFormationValidatePlugin } = require(${JSON.stringify(VALIDATE_PLUGIN)});
const validate = CloudFormationValidatePlugin.prototype.validate;
const ms = (u) => (u.user + u.system) / 1000;
CloudFormationValidatePlugin.prototype.validate = function (...args) {
  const before = process.cpuUsage(); const report = validate.apply(this, args);
  process.stderr.write('PHASE ' + JSON.stringify({ before: ms(before), validation: ms(process.cpuUsage(before)) }) + '\\n');
  return report;
};
`;

function phaseRows(scripts: Record<Twin, string>): BenchRow[] {
  if (!existsSync(VALIDATE_PLUGIN)) return [];
  const split = withHook<{ before: number; validation: number }>('phase', PHASE_HOOK, 'PHASE', scripts);
  const ours: Array<{ before: number; validation: number }> = [];
  const alpha: Array<{ before: number; validation: number }> = [];
  for (let i = 0; i < PHASE_RUNS; i++) {
    ours.push(split('oursBucket'));
    alpha.push(split('alpha'));
  }
  const note = `median of ${PHASE_RUNS} interleaved fresh processes, each split where template validation starts`;
  const row = (phase: 'before' | 'validation', name: string): BenchRow => ({
    name: `RealtimeEndpoint against @aws-cdk/aws-sagemaker-alpha, both through an imported bucket, ${PROCESS_ENDPOINTS} autoscaled endpoints: ${name}`,
    ours: median(ours.map((x) => x[phase])),
    baseline: median(alpha.map((x) => x[phase])),
    unit: 'ms',
    baselineLabel: '@aws-cdk/aws-sagemaker-alpha',
    note,
  });
  return [row('before', 'process CPU up to template validation'), row('validation', 'process CPU of template validation')];
}
