// The handler is the runtime's (packages/runtime/src/lambda); this file is what esbuild bundles into assets/.
export { mcpServerHandler as handler, mcpServerStreamingHandler as streamingHandler, readHandleKey, HANDLE_KEY_READ_BOUNDS } from 'cdk-sagemaker-mcp-runtime/internal/lambda';
