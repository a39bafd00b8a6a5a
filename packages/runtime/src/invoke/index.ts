/** Inference calls: InvokeEndpoint with codecs and payload builders, response streaming, multi-model pre-warming. */
export * from './invoke';
export * from './codecs';
export * from './payloads';
export * from './stream';
export * from './prewarm';
