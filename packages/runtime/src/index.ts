/**
 * `cdk-sagemaker-mcp-runtime`: what an MCP tool does at call time. TypeScript only (not part of the jsii API), no
 * aws-cdk-lib. Uses AWS SDK v3 clients (this package's dependencies; bundled Lambda handlers may leave them external:
 * the Lambda Node.js runtime provides them).
 */
export * from './errors';
export * from './retry';
export * from './bounded';
export * from './invoke';
export * from './codecs';
export * from './payloads';
export * from './stream';
export * from './features';
export * from './features-write';
export * from './offline-query';
export * from './async-jobs';
export * from './pipelines';
export * from './pipeline-events';
export * from './lineage';
export * from './lifecycle';
export { ContractConfigError, contractProblems, parseContract } from './contract-parse';
export type { ContractParseOptions } from './contract-parse';
export * from './prewarm';
export * from './prices';
