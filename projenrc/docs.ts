import { awscdk } from 'projen';

/**
 * Docs that compile and stay true: `rosetta:check` compiles every TypeScript example (README.md, docs/*.md, `@example`)
 * with jsii-rosetta in strict mode, translates it to Python, Java, C# and Go, and fails when docs/python.md is stale
 * (`npx projen rosetta:check --write` regenerates it). It reads the compiled assembly: run it after `compile`.
 */
export function configureDocs(project: awscdk.AwsCdkConstructLibrary): void {
  project.addTask('rosetta:check', {
    description: 'Compile and translate every README, docs/ and @example snippet with jsii-rosetta --strict; check docs/python.md (after compile; --write regenerates it)',
    exec: 'ts-node --project scripts/tsconfig.json --transpile-only test/docs/rosetta.ts',
    receiveArgs: true,
    env: { JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION: '1', JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION: '1' },
  });
}
