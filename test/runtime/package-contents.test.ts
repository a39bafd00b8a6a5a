/**
 * What `npm publish -w packages/runtime` would ship: the README (npm's package page), both entry points, the CLI, and
 * README links to the repository's docs that exist.
 */
import { execFileSync } from 'child_process';
import { existsSync, readFileSync } from 'fs';
import { join } from 'path';

const ROOT = join(__dirname, '..', '..');
const PKG = join(ROOT, 'packages', 'runtime');

test('the runtime tarball carries the README, both entry points and the CLI', () => {
  // lib/ is built by `projen bundle` (runtime:build), which `projen test` runs first.
  const packed = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', '-w', 'packages/runtime'], { cwd: ROOT, encoding: 'utf8' }));
  const files = (packed[0].files as Array<{ path: string }>).map((f) => f.path);
  const pkg = JSON.parse(readFileSync(join(PKG, 'package.json'), 'utf8'));
  const entryPoints = [pkg.exports['.'].default, pkg.exports['./mcp'].default, ...Object.values(pkg.bin)].map((p) => String(p).replace(/^\.\//, ''));
  expect(entryPoints).toEqual(['lib/index.js', 'lib/mcp-server.js', 'bin/cdk-sagemaker-mcp.js']);
  expect(files).toEqual(expect.arrayContaining(['README.md', 'package.json', ...entryPoints]));
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
