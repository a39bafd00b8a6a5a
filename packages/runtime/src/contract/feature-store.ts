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

/** The Feature Store feature types (`FeatureDefinition.FeatureType`). */
export const FEATURE_VALUE_TYPES: readonly string[] = ['String', 'Integral', 'Fractional'];
/** `FeatureGroupSchema.onlineStorageType`: the online `StorageType` values, or `None` for a group without online store. */
export const ONLINE_STORAGE_TYPES: readonly string[] = ['Standard', 'Standard_V2', 'InMemory', 'None'];

/** One declared feature: its name and Feature Store type. */
export const FeatureSchemaEntrySchema = z.object({
  name: z.string().min(1).describe('The feature name, as declared in FeatureDefinitions.'),
  type: z.string().refine((t) => FEATURE_VALUE_TYPES.includes(t), { error: (issue) => `expected one of ${FEATURE_VALUE_TYPES.join(', ')}, got ${JSON.stringify(issue.input)}` })
    .describe('`String`, `Integral` or `Fractional`.'),
}).meta({ id: 'FeatureSchemaEntry', description: 'One declared feature: its name and Feature Store type.' });
export type FeatureSchemaEntry = z.infer<typeof FeatureSchemaEntrySchema>;

/**
 * The feature schema of a feature group, exactly as the construct declared it, so the runtime can cast every
 * `ValueAsString` to its declared type and refuse values of the wrong type before a write.
 */
export const FeatureGroupSchemaSchema = z.object({
  featureGroupName: z.string().min(1).describe('The feature group name (the runtime also accepts an ARN wherever a group is named).'),
  recordIdentifier: z.string().describe('Name of the record identifier feature.'),
  eventTime: z.string().describe('Name of the event time feature.'),
  features: z.array(FeatureSchemaEntrySchema).min(1).describe('Every declared feature, including the record identifier and the event time.'),
  onlineStorageType: z.string()
    .refine((t) => ONLINE_STORAGE_TYPES.includes(t), { error: (issue) => `expected one of ${ONLINE_STORAGE_TYPES.join(', ')}, got ${JSON.stringify(issue.input)}` })
    .optional().describe([
      'The online store\'s `StorageType` (`Standard`, `Standard_V2` or `InMemory`), or `None` when the group has no online',
      'store. It decides how a write of some features keeps the others: UpdateRecord on `Standard_V2` and `InMemory`,',
      'GetRecord + merge + PutRecord on `Standard`, and a partial record is refused with `None` (see https://github.com/cdk-sagemaker-mcp/cdk-sagemaker-mcp/blob/main/docs/feature-store.md).',
      'Set `Standard_V2` here for a group migrated with UpdateFeatureGroup (CloudFormation cannot create one).',
      '',
      '@default - unknown: treated as `Standard` (GetRecord + merge + PutRecord, which works on every online store)',
    ].join('\n')),
}).check(z.superRefine((schema, ctx) => {
  // Rules across fields, checked even when a field above is wrong (`when`), so every problem is reported at once.
  const features = Array.isArray(schema.features) ? schema.features : [];
  const declared = features.map((f) => f?.name).filter((n): n is string => typeof n === 'string');
  features.forEach((f, i) => {
    if (typeof f?.name === 'string' && declared.indexOf(f.name) !== i) {
      ctx.addIssue({ code: 'custom', path: ['features', i, 'name'], message: `${JSON.stringify(f.name)} is declared twice` });
    }
  });
  const expected = `expected one of the declared features (${declared.join(', ') || 'none'})`;
  for (const field of ['recordIdentifier', 'eventTime'] as const) {
    const name = schema[field];
    if (typeof name === 'string' && !declared.includes(name)) ctx.addIssue({ code: 'custom', path: [field], message: `${expected}, got ${JSON.stringify(name)}` });
  }
  const eventTimeType = features.find((f) => f?.name === schema.eventTime)?.type;
  if (eventTimeType === 'Integral') {
    ctx.addIssue({ code: 'custom', path: ['eventTime'], message: `expected a String or Fractional feature, got ${JSON.stringify(schema.eventTime)}, an Integral` });
  }
}, { when: (payload) => typeof payload.value === 'object' && payload.value !== null })).meta({
  id: 'FeatureGroupSchema',
  description: [
    'The feature schema of a feature group, exactly as the construct declared it, so the runtime can cast every',
    '`ValueAsString` to its declared type and refuse values of the wrong type before a write.',
  ].join('\n'),
});
export type FeatureGroupSchema = z.infer<typeof FeatureGroupSchemaSchema>;
