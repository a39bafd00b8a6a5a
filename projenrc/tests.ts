/**
 * The tests: jest's configuration, the fast default (`npx projen test`, the README's command), the slow suites
 * (`test:slow`), the checks over the compiled lib/ (`test:lib`), the Node 22 suites, the consumer app and the type check.
 */
import { awscdk, javascript } from 'projen';
import { CDK_FLOOR, CDK_TESTED, NODE22_FROM_NPM } from './versions';
import { STAND_INS_DIR } from './workspace';

/**
 * Suites that take minutes or synthesize whole apps: `npx projen test:slow` runs them (CI runs it after `test`), and the
 * default `npx projen test` leaves them out to stay within 2 minutes on 2 cores.
 */
export const SLOW_SUITES = [
  // Control Tower's cfn-guard rules over the demo and every integ app, and the integ snapshots compared with fresh synths
  'test/security/control-tower.test.ts',
  // replays of a thousand SQS deliveries through the bundled handlers against dynalite
  'test/reliability/router-replay.test.ts',
  'test/reliability/recorder-replay.test.ts',
  // the README's quick-start demo, run as `npx projen demo` runs it
  'test/examples/demo.test.ts',
  // 3,000 invocations through a small socket pool
  'packages/runtime/test/invoke/load.test.ts',
  // one server exposing 100 endpoints, 20 feature groups, 10 pipelines and 10 async endpoints, synthesized and checked
  'test/mcp/mcp-tool-server-scale.test.ts',
  // a ~30 MB price list file read by the CLI under a 48 MB heap
  'packages/runtime/test/prices/bulk-memory.test.ts',
  // three accounts' stacks through the CloudFormation schema checks and cdk-nag (~40 s)
  'test/lifecycle/model-promotion.test.ts',
  // jsii-diff run twice over the whole assembly (~10 s); CI also runs `npx projen api:diff` itself
  'test/release/api-diff.test.ts',
  // a bundled handler waiting out its real 10 s request timeout
  'test/runtime/bundled-handler-timeouts.test.ts',
  // the CLI as a command: stdio servers spawned for the SDK client and the MCP Inspector CLI, its exit codes and its
  // handle key across restarts
  'packages/runtime/test/cli/cli.test.ts',
  'packages/runtime/test/cli/lifecycle.test.ts',
  'packages/runtime/test/cli/handle-key.test.ts',
  // progress notifications over streamable HTTP and over stdio (the bundled CLI, spawned)
  'packages/runtime/test/mcp/wait-progress.test.ts',
  // every construct kind and the demo synthesized twice (aws-cdk-lib's defaults and `cdk init`'s flags) with cdk-nag,
  // the library's checks and CloudFormation validation
  'test/flags/recommended-flags.test.ts',
  // megabyte answers through the bundled MCP handler, up to Lambda's 6 MB response limit
  'test/hostile/invoke-result-size.test.ts',
  // the bundled CLI over stdio, esbuild-bundled and spawned once per protocol revision
  'test/mcp/protocol-revisions-stdio.test.ts',
  // cfn-guard (a spawned binary) with the Control Tower controls over an AgentCore Gateway MCP server target
  'test/mcp/mcp-target-control-tower.test.ts',
];

/** The checks that read the compiled lib/ and .jsii (a todo in a tree without them). */
export const LIB_SUITES = ['test/architecture/package-exports.test.ts', 'test/architecture/import-convention.test.ts'];

export const testOptions = {
  jestOptions: {
    // Snapshots are checked, never rewritten, by `test` (use `npx projen test:update` to accept a change on purpose).
    updateSnapshot: javascript.UpdateSnapshot.NEVER,
    passWithNoTests: false,
    jestConfig: {
      testTimeout: 60_000,
      // One worker more than the 2 cores we target: several suites mostly wait (tools held to their deadlines, a handler's
      // 10 s request timeout, the cfn-guard binary in a child process) and the third worker keeps both cores busy
      // meanwhile. (A percentage such as '150%' is read as 150 workers from package.json.)
      maxWorkers: 3,
      // No one reads the coverage reports (nothing uploads them) and instrumenting every worker costs test time:
      // `npx jest --coverage` when you want them.
      collectCoverage: false,
      // A worker that ran a synth-heavy file can need more than jest's default 500 ms to exit once told to (V8 tears
      // down its heap; longer on a busy machine), and jest then kills it with "A worker process has failed to exit
      // gracefully". Nothing is left running (with time to exit, none is killed), so give it that time.
      workerGracefulExitTimeout: 5_000,
      // Node's environment plus the template-check engines kept warm per worker, and no synth-time validation.
      testEnvironment: '<rootDir>/test/support/jest-environment.ts',
      // Passing tests print nothing but jest's summary: no console output (`npx jest --silent=false <file>` to see it),
      // and the handlers' JSON log and metric lines off stdout unless a test captures them (test/support/quiet-records.ts).
      additionalOptions: { silent: true },
      setupFiles: ['<rootDir>/test/support/quiet-records.ts'],
      // test/clients/ needs Node 22 (`npx projen test:clients`); the slow suites run in `npx projen test:slow`.
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/clients/', ...SLOW_SUITES.map((s) => `<rootDir>/${s}`)],
      // api:diff's baseline package (committed, and copied into .api-baseline/ while api:diff runs) is no module of ours:
      // left in the module map, the two package.json files of one name collide while a test runs api:diff.
      modulePathIgnorePatterns: ['<rootDir>/api-baseline/', '<rootDir>/.api-baseline/'],
      // The construct library's tests (test/), the runtime package's own (packages/runtime/test, importing the package
      // by name: projenrc/workspace.ts maps it to its sources) and the stand-ins' own (packages/test-stand-ins/test).
      testMatch: ['<rootDir>/test/**/*.test.ts', '<rootDir>/packages/runtime/test/**/*.test.ts', `<rootDir>/${STAND_INS_DIR}/test/**/*.test.ts`],
    },
  },
} satisfies Partial<awscdk.AwsCdkConstructLibraryOptions>;

/**
 * jest, with V8's garbage collector on each worker's own thread: jest-worker starts its workers with the parent's node
 * flags. Three workers on two cores leave V8's parallel GC helpers nothing to run on; in paired runs of the default
 * suite, jest took 5% less time and CPU with them off (docs/development.md). `npx jest` still works as usual.
 */
const JEST = 'node --single-threaded-gc node_modules/jest/bin/jest.js';

export function configureTests(project: awscdk.AwsCdkConstructLibrary): void {
  project.addDevDeps(
    // jest transforms TypeScript with SWC (Rust): transpile-only like ts-jest with isolatedModules, a fraction of the time
    '@swc/jest@^0.2.39',
    '@swc/core@^1.16.0',
    // test/support/jest-environment.ts extends Node's environment (same release line as jest)
    'jest-environment-node@^30.5.0',
    '@jest/environment@^30.5.0',
    // SQL engine that executes the generated offline-store (Athena/Trino) SQL (the Athena stand-in runs it too, and
    // packages/runtime/test/features/offline-query.test.ts opens its fixture directly)
    '@duckdb/node-api',
    // a second MCP client that no one here wrote: the MCP Inspector's CLI package (1.0.3 declares no engines and runs on
    // Node 20, packages/runtime/test/cli/cli.test.ts; the full Inspector 2.x, @modelcontextprotocol/inspector, needs Node >= 22.19)
    '@modelcontextprotocol/inspector-cli@1.0.3',
    // the current MCP Inspector (2.x: Node >= 22.19), its CLI mode run by test/clients/inspector.test.ts on Node 22
    '@modelcontextprotocol/inspector@2.12.0',
    // real clients and the official conformance suite (Node 22, test:clients)
    '@strands-agents/sdk@1.19.0',
  );

  // ts-jest (which projen configures) transpiled each test file in ~0.5 s on a cold cache; SWC does it in a few ms.
  // Types are not checked by either (the typecheck task checks them once), so behaviour is the same.
  project.tryFindObjectFile('package.json')!.addOverride('jest.transform', {
    '^.+\\.[t]sx?$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  });

  // ts-jest and ts-node run transpile-only; the types of tests, examples, benchmarks, scripts and projenrc are checked
  // here, once, in one program (tsconfig.dev.json), which eslint uses too. Its projen default, `**/*.ts` from the top,
  // would also check lib/ and assets/.
  project.tsconfigDev.file.addOverride('include', ['src/**/*.ts', 'test/**/*.ts', 'examples/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts', 'packages/runtime/src/**/*.ts', 'packages/runtime/test/**/*.ts', `${STAND_INS_DIR}/**/*.ts`, 'projenrc/**/*.ts', '.projenrc.ts']);
  project.addTask('typecheck', {
    description: 'Type-check tests, examples, benchmarks, scripts and projenrc (src is checked by jsii)',
    exec: `tsc --noEmit -p ${project.tsconfigDev.fileName}`,
  });

  // `npx projen test`: bundle the handlers (handler tests load assets/**/index.js, so it works on a fresh clone), then
  // jest; arguments go to jest (`npx projen test test/mcp`). eslint and the type check are tasks of their own, both in
  // the CI gate (projenrc/ci.ts): beside jest they cost the 2 cores ~30 s of a 2-minute budget. The integ snapshots are
  // compared by the Control Tower suite (test:slow), which synthesizes every integ app once; `npx projen
  // integ:<name>:assert` still checks one app on its own.
  const isIntegAssert = (name?: string) => name !== undefined && /^integ:.*:assert$/.test(name);
  const isJest = (step: { exec?: string; execArgs?: string[] }) => (step.execArgs?.[0] ?? step.exec?.split(' ')[0]) === 'jest';
  const testSteps = project.testTask.steps.filter((s) => s.spawn !== 'eslint' && !isIntegAssert(s.spawn) && !isJest(s as any));
  project.testTask.reset();
  for (const step of testSteps) project.testTask.addSteps(step);
  project.testTask.prependSpawn(project.bundler.bundleTask);
  project.testTask.exec(`${JEST} --ci`, { receiveArgs: true });

  const slow = project.addTask('test:slow', {
    description: 'Run the slow suites the default test leaves out: Control Tower controls and integ snapshots, replays, the demo, the load test',
  });
  slow.spawn(project.bundler.bundleTask);
  // (--testPathIgnorePatterns takes every argument up to the next option: it goes before the paths.)
  slow.exec(`${JEST} --testPathIgnorePatterns=/node_modules/ --ci ${SLOW_SUITES.join(' ')}`, { receiveArgs: true });

  // With lib/ and .jsii present these suites also run in `npx projen test`; this task fails when they are missing, and
  // prints each test's name, so a CI log shows that they ran.
  project.addTask('test:lib', {
    description: 'Run the checks over the compiled lib/ and .jsii (after compile): lib/index.js exports, from* return types',
    steps: [
      { exec: 'test -f lib/index.js && test -f .jsii || (echo "test:lib needs lib/ and .jsii: run \'npx projen compile\' first" >&2 && exit 1)' },
      { exec: `${JEST} --ci --verbose ${LIB_SUITES.join(' ')}` },
    ],
  });

  // The handlers run on Lambda's nodejs22.x and the MCP conformance suite, the Strands Agents SDK and MCP Inspector 2.x
  // need Node 22: scripts/on-node22.sh runs a command on the running Node when it is 22 or later (GitHub's matrix leg),
  // and elsewhere on Node 22 fetched from the npm registry into the git-ignored .node22/.
  const node22 = project.addTask('test:node22', {
    description: `Run the runtime, handler and MCP test suites on Node 22 (the running node, or ${NODE22_FROM_NPM} from npm into .node22/)`,
  });
  node22.spawn(project.bundler.bundleTask);
  node22.exec([
    // the replays and the load test too (test:slow's), which the default test's ignore patterns would leave out
    'scripts/on-node22.sh node node_modules/jest/bin/jest.js --testPathIgnorePatterns=/node_modules/ --ci --coverage=false',
    'packages/runtime/test/ test/runtime/ test/mcp/ test/reliability/ test/async/result-recorder.lambda',
    'test/pipelines/pipeline-router.lambda',
  ].join(' '));
  const clients = project.addTask('test:clients', {
    description: 'Run the MCP conformance suite (@modelcontextprotocol/conformance) and the real-client tests (Strands Agents SDK, MCP Inspector 2.x) on Node 22',
  });
  clients.spawn(project.bundler.bundleTask);
  // bounded to 4 minutes
  clients.exec('scripts/on-node22.sh timeout 240 node node_modules/jest/bin/jest.js test/clients/ --ci --coverage=false --testPathIgnorePatterns=/node_modules/');
  project.gitignore.addPatterns('/.node22/');
  project.npmignore?.exclude('/.node22/');

  // The README and docs as a new user meets them: pack the library as published, install it in a new app outside the
  // repo with aws-cdk-lib at the floor and at the tested version, and synthesize every TypeScript block unedited.
  project.addTask('test:consumer', {
    description: `Pack the library and cdk-synth every README and docs TypeScript block in a new app (aws-cdk-lib ${CDK_FLOOR} and ${CDK_TESTED})`,
    exec: 'ts-node --project tsconfig.dev.json --transpile-only test/consumer/run.ts',
    receiveArgs: true,
  });

  // Integ snapshots (test/*.integ.ts): compare with asset hashes masked, so that a change to a bundled handler (tested on
  // its own) does not fail the stacks' snapshots, and synth transpile-only (the typecheck task checks the types once).
  for (const task of project.tasks.all) {
    if (!/^integ:.*:(assert|snapshot)$/.test(task.name)) continue;
    task.env('TS_NODE_TRANSPILE_ONLY', 'true');
    if (!task.name.endsWith(':assert')) continue;
    const steps = task.steps;
    task.reset();
    for (const step of steps) {
      const args = (step as { execArgs?: string[] }).execArgs;
      if (args?.[0] === 'diff') {
        const [snapshot, fresh] = args.slice(-2);
        task.exec(`node scripts/integ-diff.js ${snapshot} ${fresh}`);
      } else {
        task.addSteps(step);
      }
    }
  }
}
