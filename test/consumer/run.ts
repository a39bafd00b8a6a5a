/**
 * Consumer-app test (`npx projen test:consumer`): do the README and the docs work for someone who installs the package?
 *
 * 1. Packs both packages as they are published: the construct library (`projen bundle`, `compile`, `package:js`: the
 *    tarball in dist/js) and the runtime (`projen runtime:build`, `npm pack` of packages/runtime into dist/runtime).
 * 2. For aws-cdk-lib at the peer floor (CDK_FLOOR in .projenrc.ts) and at the tested version (CDK_TESTED), creates a
 *    new app in a temp folder outside the repository with only public npm packages (aws-cdk-lib, constructs, the
 *    aws-cdk CLI, TypeScript, cdk-nag, the MCP SDK clients, the MCP Inspector CLI) plus the two tarballs (the runtime's
 *    own dependencies come from npm, as its package.json declares them). Its cdk.json and tsconfig are the ones
 *    `cdk init app --language typescript` writes (the installed CLI run with `--generate-only`): the feature flags a
 *    new app has, `@aws-cdk/core:validateAgainstDefaultRules` (CloudFormation findings fail synth) among them.
 * 3. Writes every ```ts block of README.md and docs/*.md, extracted mechanically and unedited, to its own file, and
 *    type-checks them all (`tsc`, strict, each file its own module). A block that is a whole app (`new App(`) is
 *    `cdk synth`ed on its own, or run with node, as its marker says (test/consumer/readme-blocks.ts). A docs block that
 *    is not (a fragment) goes where rosetta compiles it, inside a stack's constructor: test/consumer/fragment.ts-fixture
 *    builds the values it names for real, and every fragment is one stack of a single app, checked by cdk-nag's
 *    AwsSolutionsChecks and SageMakerMcpChecks, synthesized once. The sample files the README links to
 *    (examples/*.json) are copied into the app folder, as the README tells the reader to do.
 * 4. Runs the ```bash blocks marked `run` (the runtime package's CLI and the MCP Inspector examples) in the app folder.
 *
 * Prints a pass/fail matrix (block x aws-cdk-lib version) and the time taken; exits 1 if anything failed.
 * Options: --tarball <file> --runtime-tarball <file> (skip packing), --versions 2.276.0,2.258.0, --keep (keep the temp apps),
 * --files README.md,docs/async.md (other Markdown files, e.g. an older README, to see what they get).
 */
import { spawnSync, SpawnSyncOptions } from 'child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { basename, join, relative, resolve } from 'path';
import { blockFileName, CodeBlock, extractBlocks, fragmentModule, isApp, isTypeScript, withChecks } from './readme-blocks';

const ROOT = resolve(__dirname, '..', '..');
const started = Date.now();
const elapsed = (since = started) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
/** Seconds per phase, printed at the end (the machine's load shows in them). */
const phases: string[] = [];
const phase = (name: string, since: number) => phases.push(`${name} ${elapsed(since)}`);
const log = (msg: string) => process.stdout.write(`[consumer ${elapsed()}] ${msg}\n`);

interface Run { status: number | null; out: string }
function sh(cmd: string, args: string[], opts: SpawnSyncOptions & { timeoutMs?: number } = {}): Run {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: opts.timeoutMs ?? 600_000, ...opts });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? `\n${r.error.message}` : ''}`;
  return { status: r.status, out };
}
function must(cmd: string, args: string[], opts: SpawnSyncOptions & { timeoutMs?: number } = {}): string {
  const r = sh(cmd, args, opts);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status}):\n${r.out.slice(-4000)}`);
  return r.out;
}

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** CDK_FLOOR and CDK_TESTED, read from .projenrc.ts so the test follows the declared range. */
function cdkVersions(): string[] {
  const given = argValue('--versions');
  if (given) return given.split(',');
  // .projenrc.ts, and the modules it imports from projenrc/ (where the constants may live).
  const modules = existsSync(join(ROOT, 'projenrc'))
    ? readdirSync(join(ROOT, 'projenrc')).filter((f) => f.endsWith('.ts')).map((f) => join(ROOT, 'projenrc', f)) : [];
  const projenrc = [join(ROOT, '.projenrc.ts'), ...modules].map((f) => readFileSync(f, 'utf8')).join('\n');
  const read = (name: string) => {
    const m = new RegExp(`const ${name} = '([^']+)'`).exec(projenrc);
    if (!m) throw new Error(`.projenrc.ts: no "const ${name} = '<version>'"`);
    return m[1];
  };
  return [read('CDK_FLOOR'), read('CDK_TESTED')];
}

/** The version the repository's lockfile resolved, so the consumer app uses what the repo is tested with. */
function repoVersion(pkg: string): string {
  return JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')).version;
}

interface Tarballs { readonly library: string; readonly runtime: string }

function packTarballs(): Tarballs {
  const library = argValue('--tarball');
  const runtime = argValue('--runtime-tarball');
  if (library && runtime) return { library: resolve(library), runtime: resolve(runtime) };
  const t = Date.now();
  const dist = join(ROOT, 'dist', 'js');
  rmSync(dist, { recursive: true, force: true });
  for (const task of ['bundle', 'compile', 'package:js']) must('npx', ['projen', task], { cwd: ROOT });
  const tgz = readdirSync(dist).filter((f) => f.endsWith('.tgz'));
  if (tgz.length !== 1) throw new Error(`expected one tarball in dist/js, found ${tgz.join(', ') || 'none'}`);
  // `bundle` built packages/runtime/lib (runtime:build); pack it as `npm publish -w packages/runtime` would, into its own
  // folder as `projen package:runtime` does (each publish job extracts the one tarball of its folder).
  const runtimeDist = join(ROOT, 'dist', 'runtime');
  rmSync(runtimeDist, { recursive: true, force: true });
  mkdirSync(runtimeDist, { recursive: true });
  const packed = JSON.parse(must('npm', ['pack', '--json', '--pack-destination', runtimeDist, '-w', 'packages/runtime'], { cwd: ROOT }));
  const runtimeTgz = join(runtimeDist, packed[0].filename);
  for (const f of [join(dist, tgz[0]), runtimeTgz]) log(`packed ${basename(f)} (${(statSync(f).size / 1024).toFixed(0)} KB)`);
  log(`packed both in ${elapsed(t)}`);
  phase('pack', t);
  return { library: join(dist, tgz[0]), runtime: runtimeTgz };
}

/**
 * The cdk.json `cdk init app --language typescript` writes, from the app's own CLI (`--generate-only`: no install, no
 * git) in an empty folder: its `context` holds the CLI's recommended feature flags, as in every app a user starts. The
 * blocks are synthesized with `--app`, which takes the place of its `app` command; its context applies as it is.
 */
function cdkInitJson(dir: string): string {
  const initDir = join(dir, '.cdk-init', 'consumer-app');
  mkdirSync(initDir, { recursive: true });
  must('npx', ['cdk', 'init', 'app', '--language', 'typescript', '--generate-only'], { cwd: initDir });
  const text = readFileSync(join(initDir, 'cdk.json'), 'utf8');
  const context = JSON.parse(text).context ?? {};
  if (context['@aws-cdk/core:validateAgainstDefaultRules'] !== true) {
    throw new Error('cdk init wrote no @aws-cdk/core:validateAgainstDefaultRules: true; the app would not be made the way users\' are');
  }
  rmSync(join(dir, '.cdk-init'), { recursive: true, force: true });
  return text;
}

/**
 * The tsconfig `cdk init app --language typescript` writes (read from the installed aws-cdk CLI), made to emit JavaScript
 * for `cdk synth --app 'node ...'`, with each block its own module (no block can see or clash with another's names).
 */
function consumerTsconfig(dir: string): object {
  const template = join(dir, 'node_modules', 'aws-cdk', 'lib', 'init-templates', 'app', 'typescript', 'tsconfig.json');
  const base = JSON.parse(readFileSync(template, 'utf8'));
  return {
    compilerOptions: {
      ...base.compilerOptions,
      noEmit: false,
      noEmitOnError: false,
      declaration: false,
      outDir: 'out',
      rootDir: 'blocks',
      moduleDetection: 'force',
      types: ['node'], // the template also lists jest, which a new app has but these blocks do not use
    },
    include: ['blocks/*.ts'],
  };
}

type Result = 'pass' | 'skip' | `FAIL: ${string}`;

/** A block with the Markdown file it is in, and its file name in the app (unique across files). */
interface Tested extends CodeBlock {
  readonly file: string;
  readonly name: string;
}

/** The ```ts and marked blocks of the Markdown files, README.md's named as before, a docs page's prefixed with the page. */
function testedBlocks(files: string[]): Tested[] {
  return files.flatMap((file) => extractBlocks(readFileSync(resolve(ROOT, file), 'utf8'))
    .filter((b) => isTypeScript(b) || b.mode !== 'none')
    .map((b) => {
      const page = basename(file, '.md');
      return { ...b, file, name: page === 'README' ? blockFileName(b) : `${page}-${blockFileName(b)}` };
    }));
}

const fragment = (b: Tested) => isTypeScript(b) && b.mode === 'synth' && !isApp(b);
const FRAGMENTS_APP = 'all-fragments';

/**
 * The app of every fragment: one stack per fragment, checked with cdk-nag's AwsSolutionsChecks and SageMakerMcpChecks
 * (as docs/checks.md sets them up). A fragment that throws is reported by name, and the others still synthesize.
 */
function fragmentsApp(names: string[]): string {
  return [
    "import { App, Validations } from 'aws-cdk-lib';",
    "import { AwsSolutionsChecks } from 'cdk-nag';",
    "import { SageMakerMcpChecks } from 'cdk-sagemaker-mcp';",
    ...names.map((n, i) => `import { Fragment as Fragment${i} } from './${n}';`),
    '',
    'const app = new App();',
    'Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new SageMakerMcpChecks());',
    `const fragments = { ${names.map((n, i) => `'${n}': Fragment${i}`).join(', ')} };`,
    'for (const [id, Fragment] of Object.entries(fragments)) {',
    '  try {',
    '    new Fragment(app, id);',
    '  } catch (err) {',
    '    console.error(`fragment ${id} threw: ${(err as Error).message}`);',
    '  }',
    '}',
    '',
  ].join('\n');
}

/** The part of a failed command's output worth printing: error lines first (not stack frames or minified source). */
function failureText(out: string): string {
  const lines = out.trim().split('\n').filter((l) => l.trim() !== '' && !/^\s+at /.test(l) && l.length < 600);
  const errors = lines.filter((l) => /error|«|Error|FAIL|failed/.test(l));
  return (errors.length ? errors : lines).slice(-15).join('\n      ');
}

function consumerApp(version: string, tarballs: Tarballs, blocks: Tested[], keep: boolean): Map<Tested, Result> {
  const results = new Map<Tested, Result>();
  const dir = mkdtempSync(join(tmpdir(), `cdk-sagemaker-mcp-consumer-${version}-`));
  if (!relative(ROOT, dir).startsWith('..')) throw new Error(`the consumer app must be outside the repository, got ${dir}`);
  log(`aws-cdk-lib ${version}: new app in ${dir}`);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer-app', version: '0.0.0', private: true }, null, 2));
  // The files the README tells the reader to copy from examples/ (the package does not ship examples/).
  for (const f of readdirSync(join(ROOT, 'examples')).filter((n) => n.endsWith('.json') && n !== 'tsconfig.json')) {
    copyFileSync(join(ROOT, 'examples', f), join(dir, f));
  }
  // The definition the docs' pipeline examples read: the reader's own, here the README's sample.
  mkdirSync(join(dir, 'pipelines', 'churn'), { recursive: true });
  copyFileSync(join(ROOT, 'examples', 'pipeline-definition.json'), join(dir, 'pipelines', 'churn', 'definition.json'));
  mkdirSync(join(dir, 'blocks'));
  const fixture = readFileSync(join(__dirname, 'fragment.ts-fixture'), 'utf8');
  const fixtureErrors = new Map<Tested, string>();
  for (const b of blocks.filter((x) => isTypeScript(x) && x.mode !== 'skip')) {
    try {
      // A whole app gets the checks registered on it; a fragment gets them from the fragments' app.
      writeFileSync(join(dir, 'blocks', b.name), fragment(b) ? fragmentModule(fixture, b.code) : withChecks(b.code));
    } catch (err) {
      fixtureErrors.set(b, (err as Error).message);
    }
  }
  const fragments = blocks.filter((b) => fragment(b) && !fixtureErrors.has(b));
  if (fragments.length) writeFileSync(join(dir, 'blocks', `${FRAGMENTS_APP}.ts`), fragmentsApp(fragments.map((b) => b.name.replace(/\.ts$/, ''))));

  const deps = [
    `aws-cdk-lib@${version}`,
    `constructs@${repoVersion('constructs')}`,
    `aws-cdk@${repoVersion('aws-cdk')}`,
    `typescript@${repoVersion('typescript')}`,
    `cdk-nag@${repoVersion('cdk-nag')}`,
    `@types/node@${repoVersion('@types/node')}`,
    `@modelcontextprotocol/client@${repoVersion('@modelcontextprotocol/client')}`,
    `@modelcontextprotocol/sdk@${repoVersion('@modelcontextprotocol/sdk')}`,
    '@modelcontextprotocol/inspector@0.22.0',
    // The README's install lines: the library, and `npm i cdk-sagemaker-mcp-runtime` (nothing else for the runtime).
    tarballs.library,
    tarballs.runtime,
  ];
  const t = Date.now();
  must('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--save-exact', ...deps], { cwd: dir, timeoutMs: 900_000 });
  const installed = JSON.parse(readFileSync(join(dir, 'node_modules', 'aws-cdk-lib', 'package.json'), 'utf8')).version;
  if (installed !== version) throw new Error(`installed aws-cdk-lib ${installed}, expected ${version}`);
  log(`aws-cdk-lib ${version}: npm install in ${elapsed(t)}`);
  phase(`${version} install`, t);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(consumerTsconfig(dir), null, 2));
  writeFileSync(join(dir, 'cdk.json'), cdkInitJson(dir));
  log(`aws-cdk-lib ${version}: cdk.json from cdk init (${Object.keys(JSON.parse(readFileSync(join(dir, 'cdk.json'), 'utf8')).context).length} feature flags)`);
  // Every subpath the installed runtime exports loads from the app (the Lambda handlers of /internal/lambda among them): a
  // subpath whose lib/ file the tarball lacks fails here, before any block.
  log(must('node', ['-e', [
    "const pkg = require('cdk-sagemaker-mcp-runtime/package.json');",
    "const subpaths = Object.keys(pkg.exports).filter((k) => k !== './package.json');",
    "for (const s of subpaths) require(s === '.' ? pkg.name : pkg.name + s.slice(1));",
    "const l = require('cdk-sagemaker-mcp-runtime/internal/lambda');",
    "for (const h of ['mcpServerHandler', 'asyncResultRecorderHandler', 'pipelineRouterHandler', 'approvedDeploymentHandler']) if (typeof l[h] !== 'function') throw new Error(h + ' is not exported by cdk-sagemaker-mcp-runtime/internal/lambda');",
    "console.log(subpaths.length + ' runtime subpaths load');",
  ].join('\n')], { cwd: dir }).trim());

  // One tsc run; errors are attributed to the block file they are in. An error elsewhere fails every block.
  const tTsc = Date.now();
  const tsc = sh('npx', ['tsc', '-p', '.'], { cwd: dir });
  phase(`${version} tsc`, tTsc);
  const tBlocks = Date.now();
  const errors = new Map<string, string[]>();
  for (const line of tsc.out.split('\n').filter((l) => /error TS\d+/.test(l))) {
    const file = /^blocks\/([^(]+)\(/.exec(line)?.[1] ?? '*';
    errors.set(file, [...(errors.get(file) ?? []), line]);
  }
  if (tsc.status !== 0 && errors.size === 0) errors.set('*', [tsc.out.slice(-2000)]);

  const env = {
    ...process.env,
    CDK_DISABLE_VERSION_CHECK: '1',
    CDK_DISABLE_CLI_TELEMETRY: 'true',
    AWS_EC2_METADATA_DISABLED: 'true',
    JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION: '20',
  };
  const synth = (app: string) => {
    const outDir = `cdk.out/${app}`;
    const r = sh('npx', ['cdk', 'synth', '--app', `node out/${app}.js`, '--output', outDir, '--quiet', '--no-notices'], { cwd: dir, env });
    const templates = existsSync(join(dir, outDir)) ? readdirSync(join(dir, outDir)).filter((f) => f.endsWith('.template.json')) : [];
    return { ...r, templates };
  };
  // Every fragment in one app, one `cdk synth`: a failure is the fragment's whose stack an error names (a throw, or an
  // error finding: the report's paragraph starting `ERROR`, its construct paths below; warnings fail nothing), or every
  // fragment's when no error names one.
  const fragmentResults = new Map<string, Result>();
  if (fragments.length && !errors.has(`${FRAGMENTS_APP}.ts`)) {
    const t0 = Date.now();
    const r = synth(FRAGMENTS_APP);
    const ids = fragments.map((b) => b.name.replace(/\.ts$/, ''));
    const errorText = [
      ...r.out.split(/\n\s*\n/).filter((p) => /^ERROR /m.test(p)),
      ...r.out.split('\n').filter((l) => / threw: /.test(l)),
    ];
    const named = ids.filter((id) => errorText.some((e) => e.includes(`${id}/`) || e.includes(`fragment ${id} threw`)));
    for (const id of ids) {
      const own = errorText.filter((e) => e.includes(`${id}/`) || e.includes(`fragment ${id} threw`)).join('\n');
      if (named.includes(id)) fragmentResults.set(id, `FAIL: cdk synth (${FRAGMENTS_APP})\n      ${failureText(own)}`);
      else if (r.status !== 0) fragmentResults.set(id, `FAIL: cdk synth (${FRAGMENTS_APP}, exit ${r.status})\n      ${failureText(r.out)}`);
      else if (!r.templates.includes(`${id}.template.json`)) fragmentResults.set(id, 'FAIL: cdk synth produced no template for its stack');
      else fragmentResults.set(id, 'pass');
    }
    log(`aws-cdk-lib ${version}: ${ids.length} fragments in one cdk synth (${elapsed(t0)})`);
  }
  for (const b of blocks) {
    if (b.mode === 'none') continue;
    if (b.mode === 'skip') {
      results.set(b, 'skip');
      continue;
    }
    const name = b.name;
    const t0 = Date.now();
    let result: Result = 'pass';
    if (isTypeScript(b)) {
      const errs = [...(errors.get(name) ?? []), ...(errors.get('*') ?? [])];
      if (fixtureErrors.has(b)) {
        result = `FAIL: fixture: ${fixtureErrors.get(b)}`;
      } else if (errs.length) {
        result = `FAIL: tsc\n      ${errs.join('\n      ')}`;
      } else if (fragment(b)) {
        result = fragmentResults.get(name.replace(/\.ts$/, '')) ?? `FAIL: tsc (${FRAGMENTS_APP}.ts)\n      ${(errors.get(`${FRAGMENTS_APP}.ts`) ?? []).join('\n      ')}`;
      } else if (b.mode === 'synth') {
        const r = synth(name.replace(/\.ts$/, ''));
        if (r.status !== 0) result = `FAIL: cdk synth (exit ${r.status})\n      ${failureText(r.out)}`;
        else if (r.templates.length === 0) result = 'FAIL: cdk synth produced no template (a synth block must be a complete CDK app)';
      } else if (b.mode === 'run') {
        const r = sh('node', [`out/${name.replace(/\.ts$/, '.js')}`], { cwd: dir, env, timeoutMs: 120_000 });
        if (r.status !== 0) result = `FAIL: node (exit ${r.status})\n      ${failureText(r.out)}`;
      }
    } else if (b.mode === 'run') {
      writeFileSync(join(dir, name), b.code);
      const r = sh('bash', ['-euo', 'pipefail', name], { cwd: dir, env, timeoutMs: 300_000 });
      if (r.status !== 0) result = `FAIL: bash (exit ${r.status})\n      ${failureText(r.out)}`;
      else process.stdout.write(`      ${r.out.trim().split('\n').slice(0, 12).join('\n      ')}\n      ...\n`);
    }
    results.set(b, result);
    log(`aws-cdk-lib ${version}: ${name} [${b.mode}] ${result === 'pass' ? 'pass' : result} (${elapsed(t0)})`);
  }
  const failed = [...results.values()].some((r) => r.startsWith('FAIL'));
  if (keep || failed) log(`aws-cdk-lib ${version}: app kept in ${dir}`);
  phase(`${version} blocks`, tBlocks);
  if (keep || failed) return results;
  const tClean = Date.now();
  rmSync(dir, { recursive: true, force: true });
  phase(`${version} cleanup`, tClean);
  return results;
}

function main(): number {
  const files = argValue('--files')?.split(',')
    ?? ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
  const blocks = testedBlocks(files);
  const versions = cdkVersions();
  log(`${files.length} Markdown files: ${blocks.length} tested blocks (${blocks.filter(fragment).length} fragments); aws-cdk-lib ${versions.join(' and ')}`);
  for (const b of blocks.filter((x) => x.mode === 'skip')) log(`SKIP ${b.name} (${b.file}:${b.line}): ${b.reason}`);
  const tarballs = packTarballs();
  const matrix = new Map<string, Map<Tested, Result>>();
  for (const v of versions) {
    try {
      matrix.set(v, consumerApp(v, tarballs, blocks, process.argv.includes('--keep')));
    } catch (err) {
      log(`aws-cdk-lib ${v}: ${(err as Error).message}`);
      matrix.set(v, new Map(blocks.map((b) => [b, `FAIL: app setup: ${(err as Error).message.split('\n')[0]}` as Result])));
    }
  }

  process.stdout.write(`\nblock (file:line) [mode] ${versions.map((v) => `| aws-cdk-lib ${v}`).join(' ')}\n`);
  let failures = 0;
  for (const b of blocks) {
    const cells = versions.map((v) => {
      const r = matrix.get(v)!.get(b) ?? 'FAIL: not run';
      if (r.startsWith('FAIL')) failures++;
      return r === 'pass' || r === 'skip' ? r : 'FAIL';
    });
    process.stdout.write(`${b.name} (${b.file}:${b.line}) [${fragment(b) ? 'synth fragment' : b.mode}] ${cells.map((c) => `| ${c}`).join(' ')}\n`);
  }
  process.stdout.write(`\ntime per phase: ${phases.join(', ')}\n`);
  process.stdout.write(`consumer-app test: ${failures === 0 ? 'PASSED' : `FAILED (${failures} block runs failed)`} in ${elapsed()} (${basename(tarballs.library)}, ${basename(tarballs.runtime)})\n`);
  return failures === 0 ? 0 : 1;
}

try {
  process.exitCode = main();
} catch (err) {
  process.stderr.write(`consumer-app test: ${(err as Error).stack}\n`);
  process.stdout.write(`consumer-app test: FAILED in ${elapsed()}\n`);
  process.exitCode = 1;
}
