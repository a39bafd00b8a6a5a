/**
 * The MCP tool server (`cdk-sagemaker-mcp-runtime/mcp`), and the pieces of its tools an embedder reaches for: the
 * handle codec and its clock-skew allowance, the wait loop, and the Tasks extension (./tasks) to serve on tools of one's
 * own.
 */
export * from './server';
export { HANDLE_CLOCK_SKEW_MS } from './tools/handles';
export { waitUntilDone } from './tools/waiting';
export * from './tasks';
