export * from './capacity';
export * from './rollout-options';
export * from './rollout';
export * from './endpoint-update';
