export * from './sagemaker-mcp-dashboard';
