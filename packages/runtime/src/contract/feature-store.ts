/**
 * The contract between the FeatureGroup construct and the runtime (`cdk-sagemaker-mcp-runtime`):
 * plain types and constants only, no aws-cdk-lib and no SDK, so both sides can import it.
 */

/**
 * Name of the environment variable through which a construct (for example the MCP tool server) hands feature-group
 * schemas to its Lambda function: a JSON array of `FeatureGroupSchema` objects (a single object is accepted too).
 */
export const FEATURE_GROUP_SCHEMAS_ENV = 'FEATURE_GROUP_SCHEMAS';

/** One declared feature: its name and Feature Store type. */
export interface FeatureSchemaEntry {
  /** The feature name, as declared in FeatureDefinitions. */
  readonly name: string;
  /** `String`, `Integral` or `Fractional`. */
  readonly type: string;
}

/**
 * The feature schema of a feature group, exactly as the construct declared it, so the runtime can cast every
 * `ValueAsString` to its declared type and refuse values of the wrong type before a write.
 */
export interface FeatureGroupSchema {
  /** The feature group name (the runtime also accepts an ARN wherever a group is named). */
  readonly featureGroupName: string;
  /** Name of the record identifier feature. */
  readonly recordIdentifier: string;
  /** Name of the event time feature. */
  readonly eventTime: string;
  /** Every declared feature, including the record identifier and the event time. */
  readonly features: FeatureSchemaEntry[];
  /**
   * The online store's `StorageType` (`Standard`, `Standard_V2` or `InMemory`), or `None` when the group has no online
   * store. It decides how a write of some features keeps the others: UpdateRecord on `Standard_V2` and `InMemory`,
   * GetRecord + merge + PutRecord on `Standard`, and a partial record is refused with `None` (see docs/feature-store.md).
   * Set `Standard_V2` here for a group migrated with UpdateFeatureGroup (CloudFormation cannot create one).
   *
   * @default - unknown: treated as `Standard` (GetRecord + merge + PutRecord, which works on every online store)
   */
  readonly onlineStorageType?: string;
}
