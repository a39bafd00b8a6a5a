/**
 * The split between `npx projen test` and `npx projen test:slow` (projenrc/tests.ts): each test file runs in exactly one
 * of them, or in `test:clients` (Node 22), as jest selects them with the tasks' own arguments.
 */
import { execFileSync } from 'child_process';
import { readdirSync, readFileSync } from 'fs';
import { join, relative, resolve } from 'path';
import { SLOW_SUITES } from '../../projenrc/tests';

const ROOT = resolve(__dirname, '..', '..');
const JEST = join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');

/** The test files jest selects given these arguments (paths relative to the repository, sorted). */
function listTests(args: string[]): string[] {
  const out = execFileSync(process.execPath, [JEST, '--listTests', ...args], { cwd: ROOT, encoding: 'utf8' });
  return out.split('\n').filter(Boolean).map((f) => relative(ROOT, f)).sort();
}

/** The jest arguments of a task's jest step, as .projen/tasks.json runs it. */
function jestArgs(task: string): string[] {
  const steps: Array<{ exec?: string }> = JSON.parse(readFileSync(join(ROOT, '.projen', 'tasks.json'), 'utf8')).tasks[task].steps;
  // `jest ...` or `node <flags> node_modules/jest/bin/jest.js ...`: the arguments after jest's own command.
  const args = steps.map((s) => /(?:^jest|\/jest\/bin\/jest\.js) (.*)$/.exec(s.exec ?? '')?.[1]).find((a) => a !== undefined);
  if (args === undefined) throw new Error(`task ${task} has no jest step`);
  return args.split(' ');
}

const testFiles = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
  e.name === 'node_modules' ? [] : e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [relative(ROOT, join(dir, e.name))] : []);

test('test:slow runs exactly the slow suites, and the default test none of them', () => {
  const slow = listTests(jestArgs('test:slow'));
  expect(slow).toEqual([...SLOW_SUITES].sort());
  const fast = listTests([]);
  expect(fast.filter((f) => slow.includes(f))).toEqual([]);
  // Every test file runs somewhere: the default test, test:slow, or test:clients (test/clients/, on Node 22).
  const all = [...testFiles(join(ROOT, 'test')), ...testFiles(join(ROOT, 'packages', 'runtime', 'test'))];
  expect(all.filter((f) => !fast.includes(f) && !slow.includes(f) && !f.startsWith('test/clients/'))).toEqual([]);
}, 60_000);
