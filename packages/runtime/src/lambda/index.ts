/**
 * The Lambda handlers the construct library bundles (`cdk-sagemaker-mcp-runtime/internal/lambda`): each `src/**\/*.lambda.ts`
 * of the constructs re-exports one of them, and esbuild bundles it with what it uses. One logger (Powertools Logger,
 * ./logger) and one metrics writer (Powertools Metrics, ./metrics) for all of them. Not loaded by the package root.
 */
export { handler as mcpServerHandler, streamingHandler as mcpServerStreamingHandler, readHandleKey, readServerSpec, HANDLE_KEY_READ_BOUNDS } from './mcp-server';
export { handler as asyncResultRecorderHandler, notificationOf, recordBatch, recorderOptionsFromEnv } from './result-recorder';
export type { RecorderOptions } from './result-recorder';
export { handler as pipelineRouterHandler } from './pipeline-router';
export { handler as approvedDeploymentHandler } from './approved-deployment';
export * from './agentcore-event';
export * from './api-gateway-event';
export * from './function-url';
export * from './function-url-stream';
// The handlers' logic, driven by their tests with stand-in clients: the approved-model deployment, the async result
// recorder and the pipeline router.
export * from '../lifecycle/approved-deployment';
export * from '../async/recorder';
export * from '../pipelines/events';
// How the MCP server function reads its configuration: its environment, and the spec from its secret.
export { mcpServerFunctionConfigFromEnv, mcpServerSpecFromSecretText } from '../mcp/config';
export type { McpServerFunctionConfig } from '../mcp/config';
export * from '../lifecycle/deployment-report';
