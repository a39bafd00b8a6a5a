/**
 * What `npm publish -w packages/runtime` would ship: the README (npm's package page), every subpath export, the CLI, and
 * README links to the repository's docs that exist.
 */
import { execFileSync } from 'child_process';
import { existsSync, readdirSync, readFileSync } from 'fs';
import { join } from 'path';

// The repository root (this file is in packages/runtime/test/).
const ROOT = join(__dirname, '..', '..', '..');
const PKG = join(ROOT, 'packages', 'runtime');

test('the runtime tarball carries the README, every subpath export (code and types) and the CLI', () => {
  // lib/ is built by `projen bundle` (runtime:build), which `projen test` runs first.
  const packed = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', '-w', 'packages/runtime'], { cwd: ROOT, encoding: 'utf8' }));
  const files = (packed[0].files as Array<{ path: string }>).map((f) => f.path);
  const pkg = JSON.parse(readFileSync(join(PKG, 'package.json'), 'utf8'));
  const conditions = Object.entries(pkg.exports as Record<string, string | { types: string; default: string }>)
    .filter(([subpath]) => subpath !== './package.json');
  // The root, one subpath per capability folder of src/ (its index.ts), and the CLI module; the construct library's
  // own folders (the contract, the bundled handlers) under ./internal/.
  const folders = readdirSync(join(PKG, 'src'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  const internal = ['contract', 'lambda'];
  expect(conditions.map(([subpath]) => subpath).sort()).toEqual([
    '.', './cli',
    ...folders.map((f) => (internal.includes(f) ? `./internal/${f}` : `./${f}`)),
  ].sort());
  const entryPoints = [
    ...conditions.flatMap(([, c]) => (typeof c === 'string' ? [c] : [c.default, c.types])),
    ...Object.values(pkg.bin),
  ].map((p) => String(p).replace(/^\.\//, ''));
  expect(entryPoints).toEqual(expect.arrayContaining(['lib/index.js', 'lib/mcp/index.js', 'bin/cdk-sagemaker-mcp.js']));
  expect(files.filter((f) => f.startsWith('test/') || f.startsWith('src/'))).toEqual([]);
  expect(entryPoints.filter((p) => !files.includes(p))).toEqual([]);
  expect(files).toContain('README.md');
});

test('the README names both entry points and the CLI, and its links to the repository\'s docs resolve', () => {
  const readme = readFileSync(join(PKG, 'README.md'), 'utf8');
  expect(readme).toContain("from 'cdk-sagemaker-mcp-runtime'");
  expect(readme).toContain("from 'cdk-sagemaker-mcp-runtime/mcp'");
  expect(readme).toContain('npx cdk-sagemaker-mcp mcp --config');
  const docs = [...readme.matchAll(/https:\/\/github\.com\/cdk-sagemaker-mcp\/cdk-sagemaker-mcp\/blob\/main\/([^)\s]+)/g)].map((m) => m[1]);
  expect(docs.length).toBeGreaterThan(0);
  expect(docs.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
});

test('the README lists every public entry point, and names the internal ones only as internal', () => {
  const readme = readFileSync(join(PKG, 'README.md'), 'utf8');
  const pkg = JSON.parse(readFileSync(join(PKG, 'package.json'), 'utf8'));
  const subpaths = Object.keys(pkg.exports).filter((s) => s !== './package.json');
  const listed = (s: string) => readme.includes(`| \`cdk-sagemaker-mcp-runtime${s.slice(1)}\` |`);
  expect(subpaths.filter((s) => !s.startsWith('./internal/') && !listed(s))).toEqual([]);
  expect(subpaths.filter((s) => s.startsWith('./internal/') && (listed(s) || !readme.includes(`\`/${s.slice(2)}\``)))).toEqual([]);
});
