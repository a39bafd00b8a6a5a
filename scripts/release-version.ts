/**
 * One version for both packages (run by projen's `bump` and `unbump` tasks, see .projenrc.ts).
 *
 * After `bump` (projen's release/apply-version-bump writes the release version into the root package.json and into
 * `$BUMPFILE`, dist/version.txt), writes that version into packages/runtime/package.json (the version the MCP server
 * reports: packages/runtime/src/mcp/server.ts) and into the root package.json's devDependency on the runtime (and
 * projen's record of it, .projen/deps.json).
 * With `--reset` (after `unbump`, which puts the root back at 0.0.0), puts 0.0.0 back in both.
 *
 * The files are edited in place, one value each, so that `unbump` restores them byte for byte (the `release` task ends
 * with `git diff --exit-code`): the runtime's package.json is hand-formatted and a JSON round trip would reflow it.
 */
import { readFileSync, writeFileSync } from 'fs';
import { join } from 'path';

const ROOT = join(__dirname, '..');
export const RUNTIME_NAME = 'cdk-sagemaker-mcp-runtime';
const RUNTIME_MANIFEST = join('packages', 'runtime', 'package.json');
const PROJEN_DEPS = join('.projen', 'deps.json');

/** Replaces the one match of `pattern` (whose groups 1 and 2 surround the version) with `version`; throws unless one. */
function replaceOne(file: string, text: string, pattern: RegExp, version: string): string {
  const matches = text.match(new RegExp(pattern.source, `${pattern.flags}g`)) ?? [];
  if (matches.length !== 1) throw new Error(`${file}: expected one match of ${pattern}, found ${matches.length}`);
  return text.replace(pattern, (_m, before: string, after: string) => `${before}${version}${after}`);
}

/** Writes `version` into the runtime's package.json and the root's devDependency on it. */
export function setRuntimeVersion(root: string, version: string): void {
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) throw new Error(`version "${version}" is not a semver version`);
  const runtimeFile = join(root, RUNTIME_MANIFEST);
  const runtime = readFileSync(runtimeFile, 'utf8');
  // The top-level "version" (two-space indent), not a dependency's.
  writeFileSync(runtimeFile, replaceOne(RUNTIME_MANIFEST, runtime, /^(  "version": ")[^"]*(",?)$/m, version));
  const rootFile = join(root, 'package.json');
  const manifest = readFileSync(rootFile, 'utf8');
  writeFileSync(rootFile, replaceOne('package.json', manifest, new RegExp(`^(\\s+"${RUNTIME_NAME}": ")[^"]*(",?)$`, 'm'), version));
  // projen's record of the devDependency (written by the synth that `build` runs, from .projenrc.ts, which declares the
  // runtime's current version): the same value, so that unbump restores it too.
  const depsFile = join(root, PROJEN_DEPS);
  const deps = readFileSync(depsFile, 'utf8');
  writeFileSync(depsFile, replaceOne(PROJEN_DEPS, deps, new RegExp(`("name": "${RUNTIME_NAME}",\\s+"version": ")[^"]*(")`), version));
}

if (require.main === module) {
  const reset = process.argv.includes('--reset');
  const bumpFile = process.env.BUMPFILE ?? 'dist/version.txt';
  const version = reset ? '0.0.0' : readFileSync(join(ROOT, bumpFile), 'utf8').trim();
  setRuntimeVersion(ROOT, version);
  console.log(`${RUNTIME_NAME} and the root's devDependency on it: ${version}`);
}
