/**
 * The MCP tool server (`cdk-sagemaker-mcp-runtime/mcp`), and the pieces of its tools an embedder or a test reaches for:
 * the handle codec and its clock-skew allowance, the cap on an answer's size, the caller seen by a tool, the wait loop,
 * and the Tasks extension (./tasks) to serve on tools of one's own.
 */
export * from './server';
export { HANDLE_CLOCK_SKEW_MS } from './tools/handles';
export { invokeResultBytes, MAX_INVOKE_RESULT_BYTES } from './tools/invoke-tools';
export { processCallerIdentity } from './tools/caller';
export { waitUntilDone } from './tools/waiting';
export * from './tasks';
