/**
 * One version for both packages (scripts/release-version.ts, run by projen's bump and unbump): the bump's version goes
 * into the runtime's package.json and the root's devDependency on it, and the reset restores the files byte for byte
 * (the release task ends with `git diff --exit-code`).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join, resolve } from 'path';
import { RUNTIME_NAME, setRuntimeVersion } from '../../scripts/release-version';

const ROOT = resolve(__dirname, '..', '..');
const FILES = ['package.json', join('packages', 'runtime', 'package.json'), join('.projen', 'deps.json')];
let dir: string;
/** The files as copied (the repository's, at whatever version it is: a release build runs this after its bump). */
let original: Record<string, string>;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'release-version-'));
  mkdirSync(join(dir, 'packages', 'runtime'), { recursive: true });
  mkdirSync(join(dir, '.projen'));
  for (const f of FILES) copyFileSync(join(ROOT, f), join(dir, f));
  original = Object.fromEntries(FILES.map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const read = (f: string) => readFileSync(join(dir, f), 'utf8');

test('the bumped version reaches the runtime and the root devDependency (and projen\'s record of it); nothing else changes', () => {
  setRuntimeVersion(dir, '0.4.2');
  const runtime = JSON.parse(read(FILES[1]));
  const root = JSON.parse(read('package.json'));
  expect(runtime.version).toBe('0.4.2');
  expect(root.devDependencies[RUNTIME_NAME]).toBe('0.4.2');
  const deps: { name: string; version?: string }[] = JSON.parse(read(FILES[2])).dependencies;
  expect(deps.filter((d) => d.version === '0.4.2')).toEqual([{ name: RUNTIME_NAME, version: '0.4.2', type: 'build' }]);
  // only those values moved
  const before = JSON.parse(original[FILES[1]]);
  expect({ ...runtime, version: before.version }).toEqual(before);
  const rootBefore = JSON.parse(original['package.json']);
  expect({ ...root, devDependencies: { ...root.devDependencies, [RUNTIME_NAME]: rootBefore.devDependencies[RUNTIME_NAME] } }).toEqual(rootBefore);
});

test('the reset restores the files byte for byte', () => {
  const version = JSON.parse(original[FILES[1]]).version;
  setRuntimeVersion(dir, '1.0.0-rc.1');
  setRuntimeVersion(dir, version);
  for (const f of FILES) expect(read(f)).toBe(original[f]);
});

test('a version that is not semver is refused', () => {
  expect(() => setRuntimeVersion(dir, 'v1.2')).toThrow('version "v1.2" is not a semver version');
});
