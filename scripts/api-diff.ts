/**
 * The public API guard (jsii-diff against a committed baseline assembly).
 *
 * `npx projen api:diff` (after `npx projen compile`): compares the compiled assembly (.jsii) with api-baseline/baseline.jsii and
 * fails on any breaking change that allowed-breaking-changes.txt does not declare. The library is experimental until
 * 1.0 and jsii-diff reports breaks in experimental APIs as warnings unless told otherwise, so it runs with
 * `--error-on all`: every break fails until declared.
 * `npx projen api:baseline` (compiles first, then runs this with --baseline): takes the current API as the new baseline
 * (api-baseline/baseline.jsii and a package.json through which jsii-diff finds aws-cdk-lib and constructs) and empties
 * allowed-breaking-changes.txt's list (what it declared is no longer a change against the new baseline).
 * Options: --updated <dir> (compare another package folder than the repository, e.g. in test/release/api-diff.test.ts).
 */
import { spawnSync } from 'child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { join, resolve } from 'path';

const ROOT = resolve(__dirname, '..');
export const BASELINE_DIR = 'api-baseline';
/**
 * The committed baseline assembly. Not named `.jsii`: jsii-docgen discovers every `**\/.jsii` under the repository and
 * keys them by name@version, so a baseline named `.jsii` (same name, same unreleased version) silently replaced the
 * fresh assembly and API.md was generated from the old API. jsii-diff reads it from a package folder made for the run.
 */
export const BASELINE_FILE = 'baseline.jsii';
/** The package folder jsii-diff loads the baseline from, made for one run and removed after it (git-ignored). */
const RUN_DIR = '.api-baseline';
export const ALLOWED_FILE = 'allowed-breaking-changes.txt';

export const HOW_TO_DECLARE = [
  `A breaking change to the public API (above) that ${ALLOWED_FILE} does not declare.`,
  'If it is not meant: keep the old API (add beside it, deprecate, then remove in a later release).',
  `If it is meant: add each key printed above in brackets (e.g. "removed:cdk-sagemaker-mcp.Foo"), one per line, to ${ALLOWED_FILE}`,
  'and say why in the commit message; `npx projen api:baseline` takes a new baseline (and empties the file) at a release.',
].join('\n');

/** Writes the baseline package folder from the compiled assembly in `root`. */
export function takeBaseline(root: string): void {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const dir = join(root, BASELINE_DIR);
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(root, '.jsii'), join(dir, BASELINE_FILE));
  // jsii-reflect loads a package folder: package.json with a "jsii" section, .jsii, and its jsii dependencies, found
  // from the folder up (the repository's node_modules). Another name than the library's, so no tool takes it for one.
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({
    name: `${manifest.name}-api-baseline`,
    private: true,
    description: `The public API of ${manifest.name} that api:diff compares with (npx projen api:baseline).`,
    version: manifest.version,
    jsii: { outdir: 'dist' },
    peerDependencies: manifest.peerDependencies,
  }, undefined, 2)}\n`);
  writeFileSync(join(root, ALLOWED_FILE), ALLOWED_HEADER);
}

/** What allowed-breaking-changes.txt says when it declares nothing (jsii-diff skips lines starting with #). */
export const ALLOWED_HEADER = [
  '# Breaking changes to the public API against api-baseline/baseline.jsii that are meant (npx projen api:diff reads this file).',
  '# One jsii-diff key per line, as api:diff prints them in brackets, e.g. removed:cdk-sagemaker-mcp.AsyncEndpoint.grantInvoke',
  '# `npx projen api:baseline` takes a new baseline and empties this list.',
  '',
].join('\n');

/**
 * Runs jsii-diff of the baseline against the package folder `updated`, with the declared breaks of `allowed`; `ok` is
 * its verdict and `report` its output (plus how to declare a break when not ok).
 */
export function apiDiff(root: string, updated: string, allowed = join(root, ALLOWED_FILE)): { ok: boolean; report: string } {
  // In the repository (jsii-reflect finds aws-cdk-lib and constructs from the folder up), never left behind.
  const runDir = join(root, RUN_DIR);
  rmSync(runDir, { recursive: true, force: true });
  mkdirSync(runDir);
  copyFileSync(join(root, BASELINE_DIR, 'package.json'), join(runDir, 'package.json'));
  copyFileSync(join(root, BASELINE_DIR, BASELINE_FILE), join(runDir, '.jsii'));
  let r;
  try {
    r = spawnSync(join(root, 'node_modules', '.bin', 'jsii-diff'), [
      '--error-on', 'all', '--keys', '--ignore-file', allowed, runDir, updated,
    ], { cwd: root, encoding: 'utf8', env: { ...process.env, JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION: '20' } });
  } finally {
    rmSync(runDir, { recursive: true, force: true });
  }
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`.split('\n').filter((l) => !l.startsWith('!!')).join('\n').trim();
  if (r.status === 0) return { ok: true, report: `${out ? `${out}\n` : ''}api:diff: no undeclared breaking change against ${BASELINE_DIR}/${BASELINE_FILE}` };
  return { ok: false, report: `${out}\n\napi:diff FAILED (jsii-diff exit ${r.status}).\n${HOW_TO_DECLARE}` };
}

if (require.main === module) {
  if (process.argv.includes('--baseline')) {
    takeBaseline(ROOT);
    console.log(`${BASELINE_DIR}/ now holds the current API; ${ALLOWED_FILE} declares nothing. Commit both.`);
  } else {
    const i = process.argv.indexOf('--updated');
    const updated = i >= 0 ? resolve(process.argv[i + 1]) : ROOT;
    if (!existsSync(join(updated, '.jsii'))) {
      console.error(`no .jsii in ${updated}: run \`npx projen compile\` first`);
      process.exit(1);
    }
    const { ok, report } = apiDiff(ROOT, updated);
    (ok ? console.log : console.error)(report);
    if (!ok) process.exit(1);
  }
}
