export * from './routing';
export * from './copy-scaling-target';
export * from './instance-scaling';
export * from './shared-gpu-endpoint-interface';
export * from './shared-gpu-endpoint';
export * from './inference-component-interface';
export * from './inference-component';
