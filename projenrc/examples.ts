/**
 * The README's quick start (`npx projen demo`, then `npx projen test`) and the benchmarks.
 */
import { awscdk } from 'projen';

export function configureExamples(project: awscdk.AwsCdkConstructLibrary): void {
  project.addDevDeps(
    // demo only: draws the synthesized app (Graphviz compiled to WebAssembly) and rasterizes the SVG to PNG
    '@hpcc-js/wasm-graphviz@^1.29.2',
    '@resvg/resvg-js@^2.6.2',
    // benchmarks only: the catalog we compare against
    '@cdklabs/generative-ai-cdk-constructs',
    // benchmarks only: the nearest peer for synth cost (bench/realtime.bench.ts). The registry's newest is 2.159.1-alpha.0
    // (no 2.276.0-alpha.0 is published); it peers on aws-cdk-lib ^2.159.1, which the tested 2.276.0 satisfies.
    '@aws-cdk/aws-sagemaker-alpha@2.159.1-alpha.0',
    // benchmarks only: AWS's own runner of stdio MCP servers on Lambda, measured against the bundled handler
    '@aws/run-mcp-servers-with-aws-lambda@0.5.21',
  );

  // The demo synthesizes stacks whose Lambda code is the bundled assets/ (git-ignored), so it bundles first, as `test` does.
  const demo = project.addTask('demo', {
    description: 'Synthesize the example MCP stack (no AWS account), print what it built and the cdk-nag result, and draw it (cdk.out/architecture.svg)',
  });
  demo.spawn(project.bundler.bundleTask);
  demo.exec('ts-node --project examples/tsconfig.json --transpile-only examples/demo.ts');
  // The README's picture (docs/architecture.svg) is what the demo draws: the demo refreshes it, and
  // test/examples/demo.test.ts fails when the committed one is stale.
  demo.exec('cp cdk.out/architecture.svg docs/architecture.svg');

  // Each quick-start command says how long it took (docs/development.md quotes these times for a 2-core machine).
  // projen evaluates a `$(...)` env value once when the task starts.
  for (const task of [demo, project.testTask]) {
    task.env('QUICKSTART_STARTED_MS', '$(node -p "Date.now()")');
    task.exec(`node -e "const s = Math.round((Date.now() - Number(process.env.QUICKSTART_STARTED_MS)) / 1000); console.log('npx projen ${task.name}: done in ' + Math.floor(s / 60) + ' min ' + (s % 60) + ' s')"`);
  }

  const bench = project.addTask('bench', {
    description: 'Run the benchmarks (ratios measured side by side in one run)',
    exec: 'ts-node --project bench/tsconfig.json --transpile-only bench/run.ts',
    receiveArgs: true,
  });
  // The synth bench's twin runs the compiled package entry, as a user's app does (bench/realtime.bench.ts).
  bench.prependSpawn(project.compileTask);
}
