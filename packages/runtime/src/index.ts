/**
 * `cdk-sagemaker-mcp-runtime`: what an MCP tool does at call time. TypeScript only (not part of the jsii API), no
 * aws-cdk-lib. Uses AWS SDK v3 clients (this package's dependencies; bundled Lambda handlers may leave them external:
 * the Lambda Node.js runtime provides them). One folder per capability, each also a subpath export
 * (`cdk-sagemaker-mcp-runtime/invoke`, `/async`, `/features`, `/pipelines`, `/lineage`, `/lifecycle`, `/prices`,
 * `/core`; the MCP server is `/mcp` and SageMaker's OpenAI-compatible route `/openai`, which this root does not load).
 * The construct library's own subpaths, `/internal/contract` and `/internal/lambda`, carry no compatibility promise.
 */
export * from './core';
export * from './invoke';
export * from './features';
export * from './async';
export * from './pipelines';
export * from './lineage';
export * from './lifecycle';
// The error the `*FromEnv` readers throw; the contract itself is the construct library's (`/internal/contract`).
export { ContractConfigError } from './contract/parse';
export * from './prices';
