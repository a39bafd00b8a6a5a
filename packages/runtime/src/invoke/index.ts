/** Inference calls: InvokeEndpoint with codecs and payload builders, response streaming, multi-model pre-warming. */
// resolveClient (the client a call's options resolve to) is for the other modules of this folder only.
export { createRuntimeClient, DEFAULT_DEADLINE_MS, DEFAULT_MAX_SOCKETS, failureOf, invokeEndpoint } from './invoke';
export type { CallSignal, InvokeEndpointInput, InvokeOptions, InvokeResult, RuntimeClientOptions } from './invoke';
export * from './codecs';
export * from './payloads';
export * from './stream';
export * from './prewarm';
