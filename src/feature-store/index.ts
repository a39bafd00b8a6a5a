export { FEATURE_GROUP_SCHEMAS_ENV } from '../private/contract.generated';
export type { FeatureGroupSchema, FeatureSchemaEntry } from '../private/contract.generated';
export * from './feature';
export * from './feature-group-props';
export * from './feature-group';
