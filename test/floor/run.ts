/**
 * `npx projen test:floor [test files...]`: runs construct tests against aws-cdk-lib at the peer floor (CDK_FLOOR in
 * projenrc/versions.ts) instead of the tested version the repository installs.
 *
 * What differs between the two is the L1s: an aws-cdk-lib L1 drops, without a word, a property its CloudFormation spec
 * does not have yet, so a construct that writes a newer property through the L1 synthesizes a template without it at
 * the floor (the library then writes it as an override). This installs aws-cdk-lib@<floor> (and the constructs version
 * the repository uses) once into node_modules/.cache/cdk-floor/<version>, then runs jest with the repository's own
 * configuration, `aws-cdk-lib` and `constructs` mapped to that install (jest `moduleNameMapper`), so the test files and
 * the library's sources are the same as in `npx projen test`. Default test files: those that assert a template the
 * same at every version of the peer range. Needs the npm registry (the first time).
 */
import { spawnSync } from 'child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'fs';
import { join, resolve } from 'path';
import { CDK_FLOOR } from '../../projenrc/versions';

const ROOT = resolve(__dirname, '..', '..');
const DEFAULT_TESTS = ['test/core/instance-pools-peer-range.test.ts', 'test/shared-gpu/inference-component-pools-peer-range.test.ts'];

function run(cmd: string, args: string[], cwd: string): void {
  const r = spawnSync(cmd, args, { cwd, stdio: 'inherit' });
  if (r.status !== 0) {
    process.stderr.write(`test:floor: ${cmd} ${args.join(' ')} failed (exit ${r.status})\n`);
    process.exit(r.status ?? 1);
  }
}

const constructsVersion = JSON.parse(readFileSync(require.resolve('constructs/package.json', { paths: [ROOT] }), 'utf8')).version;
const dir = join(ROOT, 'node_modules', '.cache', 'cdk-floor', CDK_FLOOR);
const lib = join(dir, 'node_modules', 'aws-cdk-lib');
if (!existsSync(join(lib, 'package.json'))) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'cdk-floor', version: '1.0.0', private: true }));
  run('npm', ['install', '--no-audit', '--no-fund', `aws-cdk-lib@${CDK_FLOOR}`, `constructs@${constructsVersion}`], dir);
}
const installed = JSON.parse(readFileSync(join(lib, 'package.json'), 'utf8')).version;
if (installed !== CDK_FLOOR) throw new Error(`test:floor: ${lib} is aws-cdk-lib ${installed}, expected ${CDK_FLOOR}`);

const jest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).jest;
const config = {
  ...jest,
  rootDir: ROOT,
  reporters: ['default'],
  moduleNameMapper: {
    ...jest.moduleNameMapper,
    '^aws-cdk-lib$': lib,
    '^aws-cdk-lib/(.*)$': `${lib}/$1`,
    '^constructs$': join(dir, 'node_modules', 'constructs'),
  },
};
const configFile = join(dir, 'jest.config.json');
writeFileSync(configFile, JSON.stringify(config, undefined, 2));
const tests = process.argv.slice(2);
process.stdout.write(`test:floor: aws-cdk-lib ${installed}\n`);
run('npx', ['jest', '--config', configFile, '--maxWorkers=1', ...(tests.length > 0 ? tests : DEFAULT_TESTS)], ROOT);
