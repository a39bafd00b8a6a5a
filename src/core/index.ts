export * from './instance-type';
export * from './instance-specs';
export * from './model-source';
export * from './endpoint-base';
export * from './production-variant';
export * from './scaling';
export * from './endpoint-network';
export * from './multi-model-source';
