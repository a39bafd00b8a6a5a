export * from './check-level';
export * from './sagemaker-mcp-checks';
