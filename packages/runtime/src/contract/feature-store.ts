/**
 * The contract between the FeatureGroup construct and the runtime (`cdk-sagemaker-mcp-runtime`), defined once here as
 * zod schemas. The construct library gets a generated mirror (src/private/contract.generated.ts, `npx projen
 * contract:generate`): the constants below as they are, and a plain interface per schema.
 */
import * as z from 'zod';

/**
 * Name of the environment variable through which a construct (for example the MCP tool server) hands feature-group
 * schemas to its Lambda function: a JSON array of `FeatureGroupSchema` objects (a single object is accepted too).
 */
export const FEATURE_GROUP_SCHEMAS_ENV = 'FEATURE_GROUP_SCHEMAS';

/** One declared feature: its name and Feature Store type. */
export const FeatureSchemaEntrySchema = z.object({
  name: z.string().min(1).describe('The feature name, as declared in FeatureDefinitions.'),
  type: z.string().describe('`String`, `Integral` or `Fractional`.'),
}).meta({ id: 'FeatureSchemaEntry', description: 'One declared feature: its name and Feature Store type.' });
export type FeatureSchemaEntry = z.infer<typeof FeatureSchemaEntrySchema>;

/**
 * The feature schema of a feature group, exactly as the construct declared it, so the runtime can cast every
 * `ValueAsString` to its declared type and refuse values of the wrong type before a write.
 */
export const FeatureGroupSchemaSchema = z.object({
  featureGroupName: z.string().describe('The feature group name (the runtime also accepts an ARN wherever a group is named).'),
  recordIdentifier: z.string().describe('Name of the record identifier feature.'),
  eventTime: z.string().describe('Name of the event time feature.'),
  features: z.array(FeatureSchemaEntrySchema).describe('Every declared feature, including the record identifier and the event time.'),
  onlineStorageType: z.string().optional().describe([
    'The online store\'s `StorageType` (`Standard`, `Standard_V2` or `InMemory`), or `None` when the group has no online',
    'store. It decides how a write of some features keeps the others: UpdateRecord on `Standard_V2` and `InMemory`,',
    'GetRecord + merge + PutRecord on `Standard`, and a partial record is refused with `None` (see docs/feature-store.md).',
    'Set `Standard_V2` here for a group migrated with UpdateFeatureGroup (CloudFormation cannot create one).',
    '',
    '@default - unknown: treated as `Standard` (GetRecord + merge + PutRecord, which works on every online store)',
  ].join('\n')),
}).meta({
  id: 'FeatureGroupSchema',
  description: [
    'The feature schema of a feature group, exactly as the construct declared it, so the runtime can cast every',
    '`ValueAsString` to its declared type and refuse values of the wrong type before a write.',
  ].join('\n'),
});
export type FeatureGroupSchema = z.infer<typeof FeatureGroupSchemaSchema>;
