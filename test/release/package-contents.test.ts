/**
 * What `npx projen package` packs: the library's tarball carries every Lambda handler's bundle (without one, a user's
 * app fails at synth with "Cannot find asset"), and the package task builds what it packs before packing it.
 */
import { execFileSync } from 'child_process';
import { existsSync, readFileSync } from 'fs';
import { join, resolve } from 'path';
import { handlerBundles, missingFiles, npmTarballName } from '../../scripts/check-package';

const ROOT = resolve(__dirname, '..', '..');

test('every handler source has its bundle path, one per src/**/*.lambda.ts', () => {
  const bundles = handlerBundles();
  expect(bundles).toEqual(expect.arrayContaining(['assets/mcp/server.lambda/index.js', 'assets/async/result-recorder.lambda/index.js']));
  for (const bundle of bundles) expect(existsSync(join(ROOT, 'src', bundle.replace(/^assets\//, '').replace(/\/index\.js$/, '.ts')))).toBe(true);
});

test('a file list without a handler bundle is reported, naming the missing bundle', () => {
  const bundles = handlerBundles();
  const packedWithoutAssets = ['package.json', '.jsii', 'lib/index.js', 'lib/index.d.ts'];
  expect(missingFiles(packedWithoutAssets, ['.jsii', ...bundles])).toEqual(bundles);
  expect(missingFiles([...packedWithoutAssets, ...bundles.slice(1)], bundles)).toEqual([bundles[0]]);
});

test('npm would pack every handler bundle (after `npx projen bundle`, which `npx projen test` runs first)', () => {
  const bundles = handlerBundles();
  const missingOnDisk = bundles.filter((b) => !existsSync(join(ROOT, b)));
  if (missingOnDisk.length > 0) throw new Error(`not bundled: ${missingOnDisk.join(', ')}: run 'npx projen bundle' (npx projen test does)`);
  const [report] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' })) as Array<{ files: Array<{ path: string }> }>;
  expect(missingFiles(report.files.map((f) => f.path), bundles)).toEqual([]);
});

test('the library\'s tarball is named as npm names one: no `@`, which npm would read as a package spec', () => {
  expect(npmTarballName('cdk-sagemaker-mcp@0.0.0.jsii.tgz')).toBe('cdk-sagemaker-mcp-0.0.0.tgz');
  expect(npmTarballName('cdk-sagemaker-mcp@1.2.3-pre.1.jsii.tgz')).toBe('cdk-sagemaker-mcp-1.2.3-pre.1.tgz');
  expect(npmTarballName('cdk-sagemaker-mcp-runtime-0.0.0.tgz')).toBe('cdk-sagemaker-mcp-runtime-0.0.0.tgz');
});

test('`npx projen package` bundles, compiles when lib/ is missing, packs both packages, then checks both tarballs', () => {
  const tasks = JSON.parse(readFileSync(join(ROOT, '.projen', 'tasks.json'), 'utf8')).tasks;
  const steps: Array<{ spawn?: string; exec?: string }> = tasks.package.steps;
  const at = (pred: (s: { spawn?: string; exec?: string }) => boolean) => steps.findIndex(pred);
  const bundle = at((s) => s.spawn === 'bundle');
  const compile = at((s) => s.spawn === 'compile:if-missing');
  const packJs = at((s) => s.spawn === 'package:js');
  const packRuntime = at((s) => s.spawn === 'package:runtime');
  const check = at((s) => s.exec?.includes('scripts/check-package.ts') ?? false);
  expect([bundle, compile, packJs, packRuntime, check].every((i) => i >= 0)).toBe(true);
  expect(bundle).toBeLessThan(packJs);
  expect(compile).toBeLessThan(packJs);
  expect(check).toBe(steps.length - 1);
  expect(tasks['compile:if-missing']).toMatchObject({ steps: [{ spawn: 'compile' }], condition: expect.stringContaining('lib/index.js') });
});
