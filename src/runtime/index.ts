/**
 * `cdk-sagemaker-mcp/runtime`: what an MCP tool does at call time. TypeScript only (not part of the jsii API), no
 * aws-cdk-lib. Uses AWS SDK v3 clients, which the Lambda Node.js runtime provides; elsewhere install the clients you call.
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
