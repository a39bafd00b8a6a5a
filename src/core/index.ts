export * from './instance-type';
export * from './model-family.generated';
// Named where a file also holds internal helpers (lib/index.js exports exactly the jsii API: test/architecture/package-exports.test.ts).
export { AcceleratorKind, InstanceSpecs } from './instance-specs';
export type { InstanceSpec } from './instance-specs';
export { ContainerImage, ModelData, ModelSource } from './model-source';
export type { ContainerImageConfig, ContainerModelOptions, ModelDataConfig, ModelPackageSourceOptions, ModelSourceBindOptions, ModelSourceConfig } from './model-source';
export { SageMakerEndpointBase } from './endpoint-base';
export type { EndpointMetricOptions, IOpenAiCompatible, ISageMakerEndpoint, SageMakerEndpointAttributes } from './endpoint-base';
export * from './production-variant';
export * from './endpoint-metrics-config';
export * from './scaling';
export * from './endpoint-network';
export * from './multi-model-source';
export * from './function-network';
