/**
 * `npx projen package`'s last step. It names the library's tarball as npm names a package's (jsii-pacmak writes
 * `cdk-sagemaker-mcp@<version>.jsii.tgz`, which npm would read as a package spec, not a file, without a `./`), then
 * checks that both tarballs carry what a user's app loads. The library's must hold the compiled
 * lib/ and .jsii and every Lambda handler's bundle (assets/<folder>/<name>.lambda/index.js for each
 * src/<folder>/<name>.lambda.ts): without one, an app fails at synth with "Cannot find asset". The runtime's must hold
 * its lib/ and the CLI's bin/.
 */
import { execFileSync } from 'child_process';
import { existsSync, readdirSync, renameSync } from 'fs';
import { join, relative, resolve } from 'path';

const ROOT = resolve(__dirname, '..');

/** The bundle each handler source must have in the library's tarball (paths inside the package, `/`-separated). */
export function handlerBundles(srcDir = join(ROOT, 'src')): string[] {
  const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.lambda.ts') ? [join(dir, e.name)] : []);
  return walk(srcDir).map((f) => `assets/${relative(srcDir, f).split('\\').join('/').replace(/\.ts$/, '')}/index.js`).sort();
}

/** What a package's file list lacks (`files`: paths inside the package, as `npm pack --dry-run --json` lists them). */
export function missingFiles(files: string[], required: string[]): string[] {
  const have = new Set(files);
  return required.filter((f) => !have.has(f));
}

/** The files of a packed tarball, relative to its `package/` folder. */
function tarballFiles(tgz: string): string[] {
  return execFileSync('tar', ['tzf', tgz], { encoding: 'utf8' }).split('\n').filter(Boolean).map((f) => f.replace(/^package\//, ''));
}

/** npm's name for a tarball jsii-pacmak wrote (`name@1.2.3.jsii.tgz` -> `name-1.2.3.tgz`); other names unchanged. */
export function npmTarballName(file: string): string {
  const m = /^(.+)@([^@/]+)\.jsii\.tgz$/.exec(file);
  return m ? `${m[1].replace(/^@/, '').replace('/', '-')}-${m[2]}.tgz` : file;
}

function onlyTarball(dir: string): string {
  const found = existsSync(join(ROOT, dir)) ? readdirSync(join(ROOT, dir)).filter((f) => f.endsWith('.tgz')) : [];
  if (found.length !== 1) throw new Error(`expected one tarball in ${dir}, found ${found.join(', ') || 'none'}`);
  return join(ROOT, dir, found[0]);
}

if (require.main === module) {
  const jsDist = join(ROOT, 'dist', 'js');
  for (const f of existsSync(jsDist) ? readdirSync(jsDist) : []) {
    if (npmTarballName(f) !== f) renameSync(join(jsDist, f), join(jsDist, npmTarballName(f)));
  }
  const checks: Array<[string, string[]]> = [
    [onlyTarball('dist/js'), ['.jsii', 'lib/index.js', 'lib/index.d.ts', ...handlerBundles()]],
    [onlyTarball('dist/runtime'), ['lib/index.js', 'lib/cli.js', 'bin/cdk-sagemaker-mcp.js']],
  ];
  let failed = false;
  for (const [tgz, required] of checks) {
    const missing = missingFiles(tarballFiles(tgz), required);
    if (missing.length > 0) {
      failed = true;
      console.error(`${relative(ROOT, tgz)} lacks ${missing.join(', ')}: run 'npx projen package' again (it bundles and compiles first)`);
    } else {
      console.log(`${relative(ROOT, tgz)}: ${required.length} required files present`);
    }
  }
  if (failed) process.exit(1);
}
