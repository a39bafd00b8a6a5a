/**
 * The MCP tool server's internals its tests drive directly (`cdk-sagemaker-mcp-runtime/internal/mcp`, no compatibility
 * promise): the size of an invoke tool's answer and its cap, and the caller a tool sees in a process of its own.
 */
export { invokeResultBytes, MAX_INVOKE_RESULT_BYTES } from './tools/invoke-tools';
export { processCallerIdentity } from './tools/caller';
