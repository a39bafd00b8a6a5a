export * from './contract';
export * from './feature';
export * from './feature-group';
