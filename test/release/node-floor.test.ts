/**
 * The Node.js floor both packages declare is one the code runs on and CI tests on: no API in the library's or the
 * runtime's sources arrived in a later Node.js, the toolchain CI runs accepts it, and GitHub's build workflow runs the
 * gate on it and on Node.js 22.
 */
import { readdirSync, readFileSync } from 'fs';
import { join, resolve } from 'path';
import { parse } from 'yaml';
import { NODE_CURRENT, NODE_FLOOR } from '../../projenrc/versions';

const ROOT = resolve(__dirname, '..', '..');

/**
 * APIs newer than Node.js 20.0 and the release that added each ("Added in" on https://nodejs.org/api/globals.html,
 * https://nodejs.org/api/fs.html, and the V8 features listed in each release's notes, https://nodejs.org/en/blog/release).
 */
const NEWER_APIS: Array<[RegExp, string, string]> = [
  [/\bAbortSignal\.any\(/, 'AbortSignal.any', '20.3.0'],
  [/\bObject\.groupBy\(|\bMap\.groupBy\(/, 'Object.groupBy / Map.groupBy', '21.0.0'],
  [/\bArray\.fromAsync\(/, 'Array.fromAsync', '22.0.0'],
  [/\bPromise\.withResolvers\(/, 'Promise.withResolvers', '22.0.0'],
  [/\bglobSync\(/, 'fs.globSync', '22.0.0'],
];

const byNumber = (a: string, b: string) => {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
};
const sources = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
  e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []);

test('no API in src/ or packages/runtime/src/ is newer than the floor', () => {
  const files = [...sources(join(ROOT, 'src')), ...sources(join(ROOT, 'packages', 'runtime', 'src'))];
  const tooNew = files.flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return NEWER_APIS.filter(([pattern, , since]) => pattern.test(text) && byNumber(since, NODE_FLOOR) > 0)
      .map(([, api, since]) => `${file.slice(ROOT.length + 1)}: ${api} (Node.js ${since})`);
  });
  expect(tooNew).toEqual([]);
});

test('both packages declare the floor', () => {
  for (const pkg of ['package.json', join('packages', 'runtime', 'package.json')]) {
    expect({ pkg, node: JSON.parse(readFileSync(join(ROOT, pkg), 'utf8')).engines?.node }).toEqual({ pkg, node: `>= ${NODE_FLOOR}` });
  }
});

test('the floor satisfies the toolchain CI runs on it (jsii, jsii-rosetta)', () => {
  for (const tool of ['jsii', 'jsii-rosetta']) {
    const engines: string = JSON.parse(readFileSync(join(ROOT, 'node_modules', tool, 'package.json'), 'utf8')).engines.node;
    const min = /^>=\s*(\d+\.\d+\.\d+)$/.exec(engines)?.[1];
    expect({ tool, min }).toEqual({ tool, min: expect.any(String) });
    expect(byNumber(NODE_FLOOR, min!)).toBeGreaterThanOrEqual(0);
  }
});

test('GitHub\'s build workflow runs the gate on the floor and on Node.js 22', () => {
  const workflow = parse(readFileSync(join(ROOT, '.github', 'workflows', 'build.yml'), 'utf8'));
  const [job] = Object.values<any>(workflow.jobs);
  expect(job.strategy.matrix.node.map(String)).toEqual([NODE_FLOOR, NODE_CURRENT]);
  const setup = job.steps.find((s: any) => String(s.uses).startsWith('actions/setup-node@'));
  expect(setup.with['node-version']).toBe('${{ matrix.node }}');
  // The same steps as .ci/run, after its `npm ci`.
  const ciRun = readFileSync(join(ROOT, '.ci', 'run'), 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
  const commands = ciRun.slice(ciRun.indexOf('npm ci'));
  expect(job.steps.filter((s: any) => s.run).map((s: any) => s.run)).toEqual(commands);
});
