/**
 * The construct library itself: its package metadata, toolchain, jsii compile and what the npm tarball leaves out.
 */
import { awscdk, JsonFile } from 'projen';
import { CDK_FLOOR, CDK_TESTED, NODE_FLOOR } from './versions';

export const libraryOptions = {
  name: 'cdk-sagemaker-mcp',
  description: 'AWS CDK constructs and a typed runtime for MCP tool servers on Amazon SageMaker: realtime, async, JumpStart and shared-GPU inference, Feature Store, and training pipelines.',
  author: 'cdk-sagemaker-mcp developers',
  authorAddress: 'dev@cdk-sagemaker-mcp.invalid',
  repositoryUrl: 'https://github.com/cdk-sagemaker-mcp/cdk-sagemaker-mcp.git',
  keywords: ['cdk', 'sagemaker', 'mcp', 'model-context-protocol', 'inference', 'feature-store', 'pipelines'],
  defaultReleaseBranch: 'main',
  projenrcTs: true,
  prettier: false,
  // One type-check-only config at the top for tests, examples, benchmarks and scripts (ts-jest, ts-node, eslint and the
  // typecheck task use it); projen's default would put it in a tsconfig of test/'s own.
  tsconfigDevFile: 'tsconfig.dev.json',
  // eslint's project service finds the NEAREST tsconfig.json, which for test/ would be the src-only one: lint everything
  // with the one dev program instead.
  eslintOptions: { dirs: ['src'], devdirs: ['test'], projectService: false, tsconfigPath: './tsconfig.dev.json' },

  cdkVersion: CDK_FLOOR,
  constructsVersion: '10.5.1',
  peerDependencyOptions: { pinnedDevDependency: false },
  jsiiVersion: '~6.0.16',
  typescriptVersion: '^6.0.3',
  minNodeVersion: NODE_FLOOR,
  // Experimental until 1.0: the API may still change in a minor release, and jsii-diff (`npx projen api:diff`, in CI)
  // makes each such change a declared one (allowed-breaking-changes.txt).
  stability: 'experimental',
  gitignore: ['cdk.out', '/examples/cdk.out', '.bench-out', 'test/**/*.snapshot/**/asset.*', '*.tsbuildinfo'],
} satisfies Partial<awscdk.AwsCdkConstructLibraryOptions>;

export function configureLibrary(project: awscdk.AwsCdkConstructLibrary): void {
  project.addDevDeps(
    `aws-cdk-lib@${CDK_TESTED}`,
    'aws-cdk@^2.1148.0',
    '@types/node@^20',
    '@aws-cdk/aws-service-spec',
    '@aws-cdk/service-spec-types',
  );

  // The published lib/ carries no inline source maps (each .js would carry its map and its TypeScript source: half the
  // packed size of the library); jsii accepts any value for these two (its tsconfig rule set "jsii-configured-options").
  project.tsconfig?.file.addOverride('compilerOptions.inlineSourceMap', false);
  project.tsconfig?.file.addOverride('compilerOptions.inlineSources', false);

  // jsii asks for the devDependency on aws-cdk-lib/constructs to equal the peer floor (JSII6, metadata/missing-dev-dependency)
  // so that tests run against the oldest release users may have. Here the floor is tested another way: test:consumer
  // installs the packed library with aws-cdk-lib ${CDK_FLOOR} (and ${CDK_TESTED}) and synthesizes every README example,
  // while the unit tests use ${CDK_TESTED}, whose CloudFormation schema validation the floor lacks. jsii's own option
  // silences that one diagnostic (projen has no option for it, so the flag is appended to projen's jsii command).
  for (const task of [project.compileTask, project.tasks.tryFind('watch')!]) {
    const jsii = (task.steps[0] as { exec: string }).exec;
    task.reset(`${jsii} --silence-warnings=metadata/missing-dev-dependency`);
  }
  // The one speed mechanism: lib/index.js loads each capability folder on first use (what it saves and how to turn it
  // off: scripts/lazy-index.ts).
  project.compileTask.exec('ts-node --project scripts/tsconfig.json --transpile-only scripts/lazy-index.ts');

  // API.md (~950 KB) and docs/ are read on GitHub (npm's page links the README's relative links there); the npm package
  // carries .jsii, from which Construct Hub renders its own reference.
  project.npmignore?.exclude('/API.md', '/docs/');
  project.npmignore?.exclude('/packages/', '/scripts/', '/bench/', '/.bench-out/', '/examples/', '/cdk.out/', '/.ci/', '/projenrc/');

  // examples/, bench/ and scripts/ are TypeScript run by ts-node; they type-check with the tests' settings and are linted.
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

  // Generated sources: each has a jest test that fails when the committed file is stale.
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
  // The construct library's mirror of the runtime's zod contract (src/private/contract.generated.ts).
  project.addTask('contract:generate', {
    description: 'Regenerate src/private/contract.generated.ts, src/core/model-family.generated.ts and the family table of docs/realtime.md from the runtime package\'s contract (packages/runtime/src/contract)',
    steps: [
      { exec: 'ts-node --project scripts/tsconfig.json --transpile-only scripts/generate-contract.ts' },
      { exec: 'ts-node --project scripts/tsconfig.json --transpile-only scripts/generate-model-family.ts' },
    ],
  });
  // The AgentCore Gateway tool schemas of McpToolServer.addToGateway, from the runtime's own zod input schemas.
  project.addTask('gateway:tools', {
    description: 'Regenerate src/mcp/private/gateway-tools.generated.ts from the runtime\'s MCP tool registrations (packages/runtime/src/mcp/tools)',
    exec: 'ts-node --project scripts/tsconfig.json --transpile-only scripts/generate-gateway-tools.ts',
  });
}
