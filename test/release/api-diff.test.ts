/**
 * The API guard (scripts/api-diff.ts, `npx projen api:diff`): a break against the committed baseline fails with how to
 * declare it, and passes once declared in the allowed-breaking-changes file. The "updated" assembly here is the
 * committed baseline with one public method removed (no compile needed).
 */
import { execFileSync } from 'child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join, resolve } from 'path';
import { apiDiff, BASELINE_DIR, BASELINE_FILE } from '../../scripts/api-diff';

const ROOT = resolve(__dirname, '..', '..');
let dir: string;
let removedKey: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'api-diff-'));
  // a package folder jsii-diff can load: its package.json, the assembly, and node_modules for aws-cdk-lib/constructs
  writeFileSync(join(dir, 'package.json'), readFileSync(join(ROOT, BASELINE_DIR, 'package.json')));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  const assembly = JSON.parse(readFileSync(join(ROOT, BASELINE_DIR, BASELINE_FILE), 'utf8'));
  const fqn = 'cdk-sagemaker-mcp.AsyncEndpoint';
  const methods: { name: string }[] = assembly.types[fqn].methods;
  const removed = methods.shift()!;
  removedKey = `removed:${fqn}.${removed.name}`;
  writeFileSync(join(dir, '.jsii'), JSON.stringify(assembly));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a removed public method fails, names its key and says how to declare it; declared, it passes', () => {
  const undeclared = apiDiff(ROOT, dir, join(dir, 'none.txt'));
  expect(undeclared.ok).toBe(false);
  expect(undeclared.report).toContain(removedKey);
  expect(undeclared.report).toContain('allowed-breaking-changes.txt');
  expect(undeclared.report).toMatch(/add each key printed above/);

  writeFileSync(join(dir, 'allowed.txt'), `${removedKey}\n`);
  const declared = apiDiff(ROOT, dir, join(dir, 'allowed.txt'));
  expect(declared.report).toContain('no undeclared breaking change');
  expect(declared.ok).toBe(true);
});

test('no committed file is named .jsii but the build output: jsii-docgen takes any **/.jsii of the same name@version for the library', () => {
  // A baseline at api-baseline/.jsii once made API.md come out of the old API while the compile was new.
  const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter((f) => f === '.jsii' || f.endsWith('/.jsii'));
  expect(tracked).toEqual([]);
  expect(existsSync(join(ROOT, BASELINE_DIR, BASELINE_FILE))).toBe(true);
});
