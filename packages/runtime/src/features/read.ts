/**
 * Reads of the Feature Store online store (GetRecord): a missing record (200 with no Record) yields the cold-start
 * defaults, while a missing feature group (ResourceNotFound) is an error; the two are never conflated. Also the client
 * every Feature Store call uses, and the record-to-values mapping the batch reads share.
 */
import type {
  FeatureValue as SdkFeatureValue,
  SageMakerFeatureStoreRuntimeClient,
  SageMakerFeatureStoreRuntimeClientConfig,
} from '@aws-sdk/client-sagemaker-featurestore-runtime';
import { FeatureValueError, sdkError } from './errors';
import { castFeatureValue, featureType, FeatureValues } from './values';
import type { FeatureGroupSchema } from '../contract/feature-store';
import { featureStoreRuntimeSdk } from '../core/aws-sdk';
import { boundedClient } from '../core/bounded';

/** How the runtime gets its Feature Store client: pass one, or the config to build one (endpoint, region, credentials). */
export interface FeatureStoreClientOptions {
  readonly client?: SageMakerFeatureStoreRuntimeClient;
  readonly clientConfig?: SageMakerFeatureStoreRuntimeClientConfig;
}

let defaultClient: SageMakerFeatureStoreRuntimeClient | undefined;

/** The client for `options`: the one given, one built from `clientConfig`, or a shared default (region from the environment). */
export function featureStoreClient(options: FeatureStoreClientOptions = {}): SageMakerFeatureStoreRuntimeClient {
  if (options.client) return options.client;
  if (options.clientConfig) return boundedClient(featureStoreRuntimeSdk().SageMakerFeatureStoreRuntimeClient, options.clientConfig);
  defaultClient ??= boundedClient(featureStoreRuntimeSdk().SageMakerFeatureStoreRuntimeClient, {});
  return defaultClient;
}

export interface GetFeaturesOptions extends FeatureStoreClientOptions {
  /** The declared schema: every value is cast to its declared type. */
  readonly schema: FeatureGroupSchema;
  /** Only these features. @default every feature */
  readonly featureNames?: string[];
  /** Cold-start values, used for a record that does not exist and for features the record lacks. @default none (null) */
  readonly defaults?: FeatureValues;
}

export interface FeatureRecord {
  readonly recordId: string;
  /** False when the record does not exist: `features` then holds the defaults. */
  readonly found: boolean;
  readonly features: FeatureValues;
  /** Requested features the record lacks (filled from defaults or null). */
  readonly missingFeatures: string[];
  /** When the record expires from the online store (TTL), if the group has a TTL. */
  readonly expiresAt?: string;
}

export function checkFeatureNames(schema: FeatureGroupSchema, names: string[] | undefined): void {
  for (const name of names ?? []) {
    if (!featureType(schema, name)) {
      throw new FeatureValueError(`featureNames: '${name}' is not a feature of '${schema.featureGroupName}' (declared: ${schema.features.map((f) => f.name).join(', ')})`);
    }
  }
}

export function toFeatures(schema: FeatureGroupSchema, record: SdkFeatureValue[] | undefined, wanted: string[] | undefined,
  defaults: FeatureValues = {}): { features: FeatureValues; missing: string[] } {
  const features: FeatureValues = {};
  for (const fv of record ?? []) {
    const name = fv.FeatureName!;
    const type = featureType(schema, name);
    if (!type) throw new FeatureValueError(`feature '${name}' returned by '${schema.featureGroupName}' is not in the declared schema: redeploy the schema`);
    features[name] = fv.ValueAsStringList
      ? fv.ValueAsStringList.map((v) => castFeatureValue(type, v, name))
      : castFeatureValue(type, fv.ValueAsString ?? '', name);
  }
  const missing: string[] = [];
  for (const name of wanted ?? schema.features.map((f) => f.name)) {
    if (!(name in features)) {
      missing.push(name);
      features[name] = defaults[name] ?? null;
    }
  }
  return { features, missing };
}

export function coldStart(schema: FeatureGroupSchema, recordId: string, wanted: string[] | undefined, defaults: FeatureValues = {}): FeatureRecord {
  const features: FeatureValues = {};
  const names = wanted ?? schema.features.map((f) => f.name);
  for (const name of names) features[name] = defaults[name] ?? null;
  // The identifier of a record that does not exist is still known.
  const id = schema.recordIdentifier;
  if (names.includes(id)) features[id] = castFeatureValue(featureType(schema, id)!, recordId, id);
  return { recordId, found: false, features, missingFeatures: names.filter((n) => n !== schema.recordIdentifier) };
}

/**
 * Reads one record. A record that does not exist returns `found: false` with the defaults; a feature group that does
 * not exist throws FeatureGroupNotFoundError.
 */
export async function getFeatures(group: string, recordId: string, options: GetFeaturesOptions): Promise<FeatureRecord> {
  const { schema, featureNames, defaults } = options;
  checkFeatureNames(schema, featureNames);
  let response;
  try {
    response = await featureStoreClient(options).send(new (featureStoreRuntimeSdk().GetRecordCommand)({
      FeatureGroupName: group,
      RecordIdentifierValueAsString: recordId,
      FeatureNames: featureNames,
    }));
  } catch (err) {
    throw sdkError(err, group, 'GetRecord');
  }
  if (!response.Record || response.Record.length === 0) return coldStart(schema, recordId, featureNames, defaults);
  const { features, missing } = toFeatures(schema, response.Record, featureNames, defaults);
  return { recordId, found: true, features, missingFeatures: missing, expiresAt: response.ExpiresAt };
}
