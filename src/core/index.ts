export * from './instance-type';
export * from './model-source';
