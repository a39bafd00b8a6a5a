export * from './scalable-capacity';
export * from './scalable-instance-count';
export * from './scalable-copy-count';
export * from './scalable-provisioned-concurrency';
