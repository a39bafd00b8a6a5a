/**
 * The Lambda handlers (src/**\/*.lambda.ts), auto-discovered by projen and bundled with esbuild into assets/ (git-ignored,
 * packed into the npm tarball).
 */
import { awscdk } from 'projen';

// What every handler bundle leaves to the Lambda runtime: its AWS SDK v3, as aws-cdk-lib's NodejsFunction assumes under
// its recommended flag `@aws-cdk/aws-lambda-nodejs:sdkV3ExcludeSmithyPackages` ("both '@aws-sdk/*' and '@smithy/*'
// packages will be excluded", https://github.com/aws/aws-cdk/blob/main/packages/aws-cdk-lib/cx-api/FEATURE_FLAGS.md):
// a bundled Smithy core beside the runtime's SDK clients would be a second, mismatched copy. bench/mcp.bench.ts bundles
// with these too.
export const LAMBDA_EXTERNALS = ['@aws-sdk/*', '@smithy/*'];

/** The MCP SDK's Node shim, aliased in the MCP server's bundle to the runtime's (see below). */
export const MCP_SHIMS_ALIAS = { '@modelcontextprotocol/server/_shims': './packages/runtime/src/mcp/sdk-shims.ts' };

export const bundlingOptions = {
  lambdaAutoDiscover: true,
  lambdaOptions: {
    runtime: awscdk.LambdaRuntime.NODEJS_22_X,
    bundlingOptions: { externals: LAMBDA_EXTERNALS, sourcemap: false },
  },
} satisfies Partial<awscdk.AwsCdkConstructLibraryOptions>;

// The MCP server Lambda's bundle (the one handler on an agent's request path, where cold starts show): minified, with
// readable names in stack traces (--keep-names costs ~6%), and the MCP SDK's Node shim aliased to the runtime's, which
// swaps the SDK's default JSON Schema validator (Ajv, ~150 KB, unused: the tools validate with zod) for its small
// Workers one (packages/runtime/src/mcp/sdk-shims.ts). 1.23 MB -> ~0.52 MB; `npx projen bench mcp` reports size and
// cold require. The async result recorder and the pipeline router parse their env with the runtime's zod contract:
// minified too (~190 KB each unminified), names kept for stack traces.
const MINIFY = ['--minify', '--keep-names'];
const HANDLER_BUNDLE_ARGS: Record<string, string[]> = {
  'mcp/server.lambda': [...MINIFY, ...Object.entries(MCP_SHIMS_ALIAS).map(([from, to]) => `--alias:${from}=${to}`)],
  'async/result-recorder.lambda': MINIFY,
  'pipelines/pipeline-router.lambda': MINIFY,
  'lifecycle/approved-deployment.lambda': MINIFY,
};

export function configureBundling(project: awscdk.AwsCdkConstructLibrary): void {
  // projen's auto-discovered Lambda bundles share one set of options (`lambdaOptions.bundlingOptions` has no minify or
  // extra esbuild arguments): append each bundle's own arguments to its esbuild command.
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
  // The handlers import the runtime package and SDK clients, devDependencies of the construct library (jsii refuses
  // non-jsii dependencies unless bundled): esbuild bundles what they need.
  project.eslint?.allowDevDeps('src/**/*.lambda.ts');
}
