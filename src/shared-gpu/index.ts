export * from './routing';
export * from './instance-scaling';
export * from './shared-gpu-endpoint';
export * from './inference-component';
