/**
 * The synth twins as scripts a fresh `node` process runs: each bundled alone by esbuild (aws-cdk-lib, constructs and the
 * alpha external), so that a child loads only its own twin, synthesizes `n` endpoints (its first argument) and prints
 * its own CPU and peak RSS as one JSON line. Read by bench/realtime.bench.ts and bench/synth-instructions.bench.ts.
 */
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'fs';
import { join } from 'path';
import { build as esbuild, Plugin } from 'esbuild';
import { capabilityFolders } from '../../scripts/lazy-index';

const ROOT = join(__dirname, '..', '..');

/** Each twin: the file it lives in and the call a child process makes (`n` endpoints). */
export const TWINS = {
  ours: { file: 'ours', call: 'synthOurs(n)' },
  oursBucket: { file: 'ours', call: "synthOurs(n, 'bucket')" },
  raw: { file: 'raw', call: 'synthRaw(n)' },
  rawRole: { file: 'raw', call: "synthRaw(n, 'l2')" },
  alpha: { file: 'alpha', call: 'synthAlpha(n)' },
  // Measured for its heap only (bench/realtime.bench.ts), not in the process rounds.
  oursEager: { file: 'ours', call: 'synthOurs(n)' },
} as const;
export type Twin = keyof typeof TWINS;

/**
 * Our twin imports src/core and src/realtime (so that it type-checks and its test runs on a fresh clone); its child
 * process requires the compiled package entry instead (lib/index.js, which `npx projen bench` compiles first), as a
 * user's app does with `import ... from 'cdk-sagemaker-mcp'`: from a copy under a node_modules folder, where an
 * installed package lives. That matters to what synth keeps: aws-cdk-lib records each resource's creation stack "just
 * my code", folding the frames of any file under node_modules/<package>/ into one line (core/lib/private/stack-trace.ts),
 * as it already does for the alpha's; from the repo's own lib/ every frame of ours would be kept as the user's.
 */
const INSTALLED_PACKAGE = join(ROOT, '.bench-out', 'node_modules', 'cdk-sagemaker-mcp');
export const INSTALLED_ENTRY = join(INSTALLED_PACKAGE, 'lib', 'index.js');
/** jsii's entry as emitted (every folder required at once): the installed copy only, beside the lazy one. */
export const EAGER_ENTRY = join(INSTALLED_PACKAGE, 'lib', 'index-eager.js');
const packageEntry = (entry: string): Plugin => ({
  name: 'package-entry',
  setup(build) {
    build.onResolve({ filter: /\/src\/(core|realtime)$/ }, () => ({ path: entry, external: true }));
  },
});

let installed = false;
/** Copies the compiled package (lib/, package.json) to where an install puts it, once a run; aws-cdk-lib resolves from the repo's. */
export function installPackageCopy(): void {
  if (installed) return;
  installed = true;
  rmSync(INSTALLED_PACKAGE, { recursive: true, force: true });
  mkdirSync(INSTALLED_PACKAGE, { recursive: true });
  cpSync(join(ROOT, 'lib'), join(INSTALLED_PACKAGE, 'lib'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(INSTALLED_PACKAGE, 'package.json'));
  // What jsii emits for src/index.ts's `export *` lines: every folder required before the first export is read.
  writeFileSync(EAGER_ENTRY, `${capabilityFolders().map((f) => `require('./${f}');`).join('\n')}\nmodule.exports = require('./index.js');\n`);
}

/** Bundles one twin into its own script and returns its path (installs the package copy first). */
async function bundleTwin(twin: Twin): Promise<string> {
  installPackageCopy();
  const outfile = join(ROOT, '.bench-out', 'twins', `${twin}.js`);
  const { file, call } = TWINS[twin];
  await esbuild({
    stdin: {
      contents: `import { ${call.slice(0, call.indexOf('('))} } from './bench/twins/${file}';
const n = Number(process.argv[2]);
${call};
const u = process.resourceUsage();
console.log(JSON.stringify({ cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, maxRssMiB: u.maxRSS / 1024 }));
`,
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile,
    logLevel: 'error',
    external: ['aws-cdk-lib', 'aws-cdk-lib/*', 'constructs', '@aws-cdk/aws-sagemaker-alpha'],
    plugins: [packageEntry(twin === 'oursEager' ? EAGER_ENTRY : INSTALLED_ENTRY)],
  });
  return outfile;
}

/** Every twin bundled, by name. */
export async function bundleTwins(): Promise<Record<Twin, string>> {
  const twins = Object.keys(TWINS) as Twin[];
  return Object.fromEntries(await Promise.all(twins.map(async (t) => [t, await bundleTwin(t)]))) as Record<Twin, string>;
}

/**
 * The environment a twin's process runs in. `CDK_VALIDATION=false` turns off aws-cdk-lib's CloudFormation template
 * validation (core/lib/private/synthesis-validation.js, `defaultValidationEnabled`): with it on, a WebAssembly schema
 * check of the written template is most of a 50-endpoint synth's cost, the same for every twin whose template is the
 * same size; with it off, what is left is what the constructs themselves cost.
 */
export function twinEnv(templateValidation: boolean): NodeJS.ProcessEnv {
  return templateValidation ? process.env : { ...process.env, CDK_VALIDATION: 'false' };
}
