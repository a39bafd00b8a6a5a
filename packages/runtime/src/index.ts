/**
 * `cdk-sagemaker-mcp-runtime`: what an MCP tool does at call time. TypeScript only (not part of the jsii API), no
 * aws-cdk-lib. Uses AWS SDK v3 clients (this package's dependencies; bundled Lambda handlers may leave them external:
 * the Lambda Node.js runtime provides them). One folder per capability, each also a subpath export
 * (`cdk-sagemaker-mcp-runtime/invoke`, `/async`, `/features`, `/pipelines`, `/lineage`, `/lifecycle`, `/prices`,
 * `/contract`, `/core`; the MCP server is `/mcp`, SageMaker's OpenAI-compatible route `/openai` and the Lambda handlers
 * `/lambda`, which this root does not load).
 */
export * from './core';
export * from './invoke';
export * from './features';
export * from './async';
export * from './pipelines';
export * from './lineage';
export * from './lifecycle';
export { ContractConfigError, contractProblems, parseContract } from './contract/parse';
export type { ContractParseOptions } from './contract/parse';
export * from './prices';
