/**
 * The runtime package (packages/runtime, `cdk-sagemaker-mcp-runtime`: the AWS SDK calls, the MCP server, the CLI),
 * plain TypeScript with real dependencies, in an npm workspace so the root `npm ci` installs and links it. The construct
 * library ships no runtime code of its own: its bundled Lambda handlers (src/**\/*.lambda.ts) import the workspace
 * package and esbuild bundles it into assets/, so it is built before anything bundles. The second workspace package,
 * packages/test-stand-ins, holds the tests' local AWS stand-ins and is never published (configureStandIns below).
 */
import { readFileSync } from 'fs';
import { awscdk } from 'projen';

/** The local AWS stand-ins' package (its tests and tsconfig.dev.json's include name it too: projenrc/tests.ts). */
export const STAND_INS_DIR = 'packages/test-stand-ins';

export function configureWorkspace(project: awscdk.AwsCdkConstructLibrary): void {
  project.package.addField('workspaces', ['packages/*']);

  // The root's devDependency on the runtime is declared at the runtime's current version (0.0.0 between releases; the
  // release bump writes both, projenrc/release.ts), so a synth installs nothing new.
  const runtimeVersion: string = JSON.parse(readFileSync('packages/runtime/package.json', 'utf8')).version;
  project.addDevDeps(
    `cdk-sagemaker-mcp-runtime@${runtimeVersion}`,
    // The SDK clients and libraries the runtime's tests and the bundled handlers import. Dev-only here: the handlers are
    // bundled, so jsii sees no runtime dependency.
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
  );

  // Every task's PATH leads with node_modules/.bin, as projen's default does, but through `node` (~0.1 s) rather than
  // `npx -c` (~1.5 s): projen evaluates it again for each task a task spawns, six times in `npx projen test`.
  project.tasks.addEnvironment('PATH', '$(node -p "[require(\'path\').resolve(\'node_modules/.bin\'), process.env.PATH].join(require(\'path\').delimiter)")');

  const runtimeBuild = project.addTask('runtime:build', {
    description: 'Build the runtime package (packages/runtime: tsc to packages/runtime/lib)',
    // Build mode: when lib/ is up to date with the sources (after `npx projen demo`, say) it checks timestamps only.
    exec: 'tsc -b packages/runtime/tsconfig.json',
  });
  project.bundler.bundleTask.prependSpawn(runtimeBuild);
  // The runtime's own tests, alone (`npm test -w packages/runtime` runs this too); `npx projen test` runs them with the rest.
  project.addTask('runtime:test', {
    description: 'Run the runtime package\'s own tests (packages/runtime/test)',
    exec: 'jest --passWithNoTests=false packages/runtime/test',
  });

  // jest and the type check (with esbuild, which bundles the handlers with tsconfig.dev.json, projen's tsconfigDev) see
  // the runtime from its sources, one mapping per subpath of packages/runtime/package.json's `exports` and no other: a
  // test or handler that imports what the package does not export fails here as it would for a user. From the sources,
  // one module instance serves the tests and the handlers, esbuild sees ES modules and keeps only what each handler uses
  // (from the CommonJS lib/ it would keep all), and the tests type-check without a build.
  const moduleNameMapper: Record<string, string> = {};
  const paths: Record<string, string[]> = {};
  for (const [subpath, source] of Object.entries(runtimeSubpaths())) {
    const name = `cdk-sagemaker-mcp-runtime${subpath.slice(1)}`;
    moduleNameMapper[`^${name.replace(/[/.]/g, '\\$&')}$`] = `<rootDir>/${source}`;
    paths[name] = [`./${source}`];
  }
  project.jest?.addModuleNameMappers(moduleNameMapper);
  project.tsconfigDev.file.addOverride('compilerOptions.paths', paths);

  project.eslint?.addLintPattern('packages/runtime/src');
  project.eslint?.addLintPattern('packages/runtime/test');
  // The runtime's own tests may use the repository's dev tooling (the MCP client, esbuild, dynalite...): the rule would
  // otherwise read only packages/runtime/package.json, the nearest one, which lists what the package ships with.
  project.eslint?.addOverride({
    files: ['packages/runtime/test/**/*.ts'],
    rules: {
      'import/no-extraneous-dependencies': ['error', { devDependencies: true, optionalDependencies: false, peerDependencies: true, packageDir: ['.', 'packages/runtime'] }],
    },
  });

  configureStandIns(project);
}

/**
 * The local AWS stand-ins (packages/test-stand-ins, `@cdk-sagemaker-mcp/test-stand-ins`): a private workspace package
 * that both test trees import by name (`@cdk-sagemaker-mcp/test-stand-ins/<module>`, one module per service), so the
 * runtime's tests never reach into test/. Its package.json lists what the stand-ins run on (dynalite, s3rver, DuckDB...);
 * it is `"private": true` (npm refuses to publish it) and no package task packs it: it exists only to be imported by
 * tests. It is never built: its `exports` point at the TypeScript sources, which jest and the type check read through
 * the mappings below, and ts-node (the benchmarks) through the workspace link.
 */
function configureStandIns(project: awscdk.AwsCdkConstructLibrary): void {
  const { name, version } = JSON.parse(readFileSync(`${STAND_INS_DIR}/package.json`, 'utf8'));
  // At its own version (it has no other: nothing bumps it), so npm links the workspace package in place of a registry one.
  project.addDevDeps(`${name}@${version}`);
  project.jest?.addModuleNameMappers({ [`^${name.replace(/[/.]/g, '\\$&')}/(.+)$`]: `<rootDir>/${STAND_INS_DIR}/src/$1` });
  project.tsconfigDev.file.addOverride(`compilerOptions.paths.${name}/*`, [`./${STAND_INS_DIR}/src/*`]);

  project.eslint?.addLintPattern(`${STAND_INS_DIR}/src`);
  project.eslint?.addLintPattern(`${STAND_INS_DIR}/test`);
  // The stand-ins' own tests import the package by name (a devDependency of the root) and the AWS SDK clients they
  // check the stand-ins with (its own devDependencies).
  project.eslint?.addOverride({
    files: [`${STAND_INS_DIR}/test/**/*.ts`],
    rules: {
      'import/no-extraneous-dependencies': ['error', { devDependencies: true, optionalDependencies: false, peerDependencies: true, packageDir: ['.', STAND_INS_DIR] }],
    },
  });
}

/**
 * Each subpath the runtime package exports (`.`, `./mcp`, `./internal/contract`...), to the TypeScript source its
 * `default` condition is built from (`./lib/mcp/index.js` from packages/runtime/src/mcp/index.ts).
 */
export function runtimeSubpaths(): Record<string, string> {
  const pkg = JSON.parse(readFileSync('packages/runtime/package.json', 'utf8'));
  const out: Record<string, string> = {};
  for (const [subpath, target] of Object.entries<string | { default: string }>(pkg.exports)) {
    if (typeof target === 'string') continue; // ./package.json
    out[subpath] = target.default.replace(/^\.\/lib\//, 'packages/runtime/src/').replace(/\.js$/, '.ts');
  }
  return out;
}
