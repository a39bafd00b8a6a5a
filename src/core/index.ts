// Every file here is public API (test/architecture/core-public.test.ts); the internals they use live in src/private/.
export * from './instance-type';
export * from './model-family.generated';
export * from './instance-hardware';
export * from './instance-specs';
export * from './container-image';
export * from './model-data';
export * from './model-source-config';
export * from './model-source';
export * from './endpoint-base';
export * from './production-variant';
export * from './endpoint-metrics-config';
export * from './scaling';
export * from './endpoint-network';
export * from './multi-model-source';
export * from './function-network';
