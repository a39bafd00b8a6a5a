// The handler is the runtime's (packages/runtime/src/lambda); this file is what esbuild bundles into assets/.
export { approvedDeploymentHandler as handler } from 'cdk-sagemaker-mcp-runtime/internal/lambda';
