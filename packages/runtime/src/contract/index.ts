/** The contract between the constructs and the runtime: the env vars and specs the constructs write, as zod schemas, and the parser that reads them. */
export * from './async';
export * from './describe';
export * from './feature-store';
export * from './lifecycle';
export * from './mcp';
export * from './pipelines';
export * from './parse';
export * from './metrics';
