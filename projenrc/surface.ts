import { awscdk } from 'projen';

/**
 * The runtime package's API report (packages/runtime/api/*.api.md, one per public entry point of its package.json
 * `exports`), written by API Extractor from the built .d.ts files: `runtime:api` regenerates it, `runtime:api:check`
 * (in the CI gate) fails when the committed report differs from what the sources export.
 */
export function configureSurface(project: awscdk.AwsCdkConstructLibrary): void {
  project.addDevDeps('@microsoft/api-extractor@^7.60.2');
  const script = 'ts-node --project scripts/tsconfig.json --transpile-only scripts/runtime-api.ts';
  project.addTask('runtime:api', {
    description: 'Regenerate the runtime package\'s API report (packages/runtime/api/*.api.md) from its built .d.ts files',
    steps: [{ spawn: 'runtime:build' }, { exec: script }],
  });
  project.addTask('runtime:api:check', {
    description: 'Fail when packages/runtime/api/*.api.md is not what the runtime package exports (run `npx projen runtime:api`)',
    steps: [{ spawn: 'runtime:build' }, { exec: `${script} --check` }],
  });
}
