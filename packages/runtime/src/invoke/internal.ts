/**
 * The inference calls' internals their tests drive directly (`cdk-sagemaker-mcp-runtime/internal/invoke`, no
 * compatibility promise): the client a call's options resolve to.
 */
export { resolveClient } from './invoke';
