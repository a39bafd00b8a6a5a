export type { FeatureGroupSchema, FeatureSchemaEntry } from '../private/contract.generated';
export * from './feature';
export * from './feature-group-props';
export * from './feature-group';
