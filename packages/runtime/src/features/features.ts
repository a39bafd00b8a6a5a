/**
 * Typed reads and writes of the Feature Store online store, driven by the schema the FeatureGroup construct declared
 * (the contract's `FeatureGroupSchema`, packages/runtime/src/contract/feature-store.ts):
 * - a missing record (GetRecord answers 200 with no Record) yields the cold-start defaults, while a missing feature
 *   group (ResourceNotFound 404) is an error: the two are never conflated (./features-read);
 * - every `ValueAsString` is cast to its declared type, and a value that does not parse is an error, not a NaN
 *   (./features-values);
 * - BatchGetRecord is split into legal calls, `UnprocessedIdentifiers` are retried and `Errors` are reported
 *   (./features-batch);
 * - event times are written as `yyyy-MM-ddTHH:mm:ss.SSSZ` (milliseconds, not Python's microseconds) or epoch seconds.
 * This module is the entry point: it re-exports those and holds the deletes (writes are in ./features-write).
 */
import { sdkError } from './errors';
import { featureStoreClient, FeatureStoreClientOptions } from './read';
import { featureType, formatEventTime } from './values';
import type { FeatureGroupSchema } from '../contract/feature-store';
import { featureStoreRuntimeSdk } from '../core/aws-sdk';

export { FEATURE_GROUP_SCHEMAS_ENV } from '../contract/feature-store';
export type { FeatureGroupSchema, FeatureSchemaEntry } from '../contract/feature-store';
export { FeatureGroupNotFoundError, FeatureStoreRequestError, FeatureValueError } from './errors';
export {
  castFeatureValue, featureGroupSchemasFromEnv, formatEventTime, jsonSafeFeatures, parseFeatureGroupSchema, serializeFeatureValue,
} from './values';
export type { FeatureScalar, FeatureValue, FeatureValues, FeatureValueType } from './values';
export { featureStoreClient, getFeatures } from './read';
export type { FeatureRecord, FeatureStoreClientOptions, GetFeaturesOptions } from './read';
export { BATCH_GET_MAX_GROUPS, BATCH_GET_MAX_RECORDS, batchGetFeatures } from './batch';
export type { BatchFeatureRequest, BatchGetFeaturesOptions, BatchGetFeaturesResult, MissingRecord } from './batch';

// ---------------------------------------------------------------------------------------------------------------
// Writes (putFeatures) are in ./write
// ---------------------------------------------------------------------------------------------------------------

export type TargetStore = 'OnlineStore' | 'OfflineStore';

export interface DeleteFeaturesOptions extends FeatureStoreClientOptions {
  /** Used to format the event time (String or Fractional). @default a String event time */
  readonly schema?: FeatureGroupSchema;
  /**
   * Event time of the deletion: a Date or an ISO-8601 string; a number means epoch seconds and is accepted only with a
   * `schema` whose event time is Fractional (see formatEventTime). @default now
   */
  readonly eventTime?: Date | number | string;
  /** @default both stores */
  readonly targetStores?: TargetStore[];
  /** @default 'SoftDelete' */
  readonly deletionMode?: 'SoftDelete' | 'HardDelete';
}

/** Deletes a record (DeleteRecord): a soft delete by default, which the offline store records as an `is_deleted` row. */
export async function deleteFeatures(group: string, recordId: string, options: DeleteFeaturesOptions = {}): Promise<void> {
  const etType = options.schema ? featureType(options.schema, options.schema.eventTime) ?? 'String' : 'String';
  const eventTime = formatEventTime(options.eventTime ?? new Date(), etType);
  try {
    await featureStoreClient(options).send(new (featureStoreRuntimeSdk().DeleteRecordCommand)({
      FeatureGroupName: group,
      RecordIdentifierValueAsString: recordId,
      EventTime: eventTime,
      TargetStores: options.targetStores,
      DeletionMode: options.deletionMode ?? 'SoftDelete',
    }));
  } catch (err) {
    throw sdkError(err, group, 'DeleteRecord');
  }
}
