/**
 * Writes to the Feature Store that keep every feature they were not told to change.
 *
 * PutRecord's `Record` "will be a full over-write"
 * (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_feature_store_PutRecord.html): a PutRecord of a few
 * features erases every other feature of the online record. So a write of some features of a record is made:
 * - `Standard_V2` and `InMemory` online stores: with UpdateRecord, where "Features that you do not include in the request
 *   remain unchanged" (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_feature_store_UpdateRecord.html);
 * - `Standard` online stores (and an unknown store type): GetRecord, merge, PutRecord of the whole record. Another
 *   writer of the same record between the read and the write can lose its features (PutRecord has no condition);
 * - no online store (or a write that targets only the offline store): a partial record is refused, since nothing is
 *   there to merge with and the offline row would lack the other features.
 * A record that does not exist yet is created with PutRecord, and a complete record is always one PutRecord.
 *
 * Event times: the online store keeps the record with the greatest event time, so a write dated far in the future
 * would make every later write historic (offline only). An event time more than `maxEventTimeSkewSeconds` past this
 * machine's clock is refused before any call; so is one older than the stored record's (it would not change the
 * online record).
 */
import type { FeatureValue as SdkFeatureValue } from '@aws-sdk/client-sagemaker-featurestore-runtime';
import { sdkError } from './errors';
import {
  FeatureGroupSchema,
  FeatureScalar,
  featureStoreClient,
  FeatureStoreClientOptions,
  FeatureValueError,
  FeatureValueType,
  formatEventTime,
  serializeFeatureValue,
  TargetStore,
} from './features';
import { featureStoreRuntimeSdk } from '../core/aws-sdk';
import { ErrorDetails, SageMakerMcpError } from '../core/errors';

/** The two String event-time formats Feature Store accepts. */
const STRING_EVENT_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

/** How far past the clock an event time may be, by default: 5 minutes. */
export const DEFAULT_MAX_EVENT_TIME_SKEW_SECONDS = 300;
/** UpdateRecord: "You can update up to 100 features per call." */
export const UPDATE_RECORD_MAX_FEATURES = 100;

/** How a write kept the features it was not given. */
export type FeatureWriteMode = 'put' | 'updated' | 'merged';

/**
 * The write was refused for its event time: too far past this machine's clock (it would freeze the online record), or
 * older than the stored record's (it would not change the online record). Not retryable as is.
 */
export class FeatureEventTimeError extends SageMakerMcpError {
  public readonly name = 'FeatureEventTimeError';
  public readonly retryable = false;
  public constructor(message: string, details: ErrorDetails = {}) {
    super(message, { code: 'FeatureEventTimeError', ...details });
  }
}

export interface PutFeaturesOptions extends FeatureStoreClientOptions {
  readonly schema: FeatureGroupSchema;
  /** @default both stores the group has */
  readonly targetStores?: TargetStore[];
  /**
   * The event time, when the record does not carry the event-time feature itself: a Date or an ISO-8601 string; a
   * number means epoch seconds and is accepted only when the schema's event time is Fractional (see formatEventTime).
   * @default now
   */
  readonly eventTime?: Date | number | string;
  /**
   * Seconds an event time may lie past this machine's clock. The online store keeps the greatest event time, so one
   * write dated far ahead would turn every later write into a historic (offline-only) one.
   * @default 300
   */
  readonly maxEventTimeSkewSeconds?: number;
  /** The clock the skew bound is measured against, in epoch milliseconds. @default Date.now */
  readonly now?: () => number;
}

export interface PutFeaturesResult {
  /**
   * `put`: one PutRecord of the record as given (it was complete, or no record existed). `updated`: UpdateRecord, the
   * service kept the other features. `merged`: GetRecord, then PutRecord of the stored record with the given features
   * over it.
   */
  readonly mode: FeatureWriteMode;
  /** The event time written, as sent. */
  readonly eventTime: string;
  /** The features sent, record identifier and event time included. */
  readonly writtenFeatures: string[];
  /**
   * Features of the record that this write kept: for `merged`, those copied from the stored record; for `updated`, the
   * declared features not in the request (the service keeps whatever values they have). Empty for `put`.
   */
  readonly preservedFeatures: string[];
  /** For `merged`: the event time of the stored record the merge read. */
  readonly mergedFromEventTime?: string;
}

function featureType(schema: FeatureGroupSchema, name: string): FeatureValueType | undefined {
  return schema.features.find((f) => f.name === name)?.type as FeatureValueType | undefined;
}

/** Epoch milliseconds of an event time as written (`ValueAsString`). */
function eventTimeMs(value: string, type: FeatureValueType): number {
  return type === 'Fractional' ? Number(value) * 1000 : Date.parse(value);
}

/** `ms` as ISO-8601 when a Date can hold it, else the value as written. */
function isoOrAsWritten(ms: number, value: string): string {
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : value;
}

/**
 * Refuses an event time more than `maxSkewSeconds` past `nowMs`. Exported for the other writers of event times.
 * @param value the event time as written (`yyyy-MM-ddTHH:mm:ss[.SSS]Z` or epoch seconds)
 */
export function checkEventTimeSkew(value: string, type: FeatureValueType, maxSkewSeconds: number, nowMs: number): void {
  if (!Number.isFinite(maxSkewSeconds) || maxSkewSeconds < 0) {
    throw new FeatureValueError(`maxEventTimeSkewSeconds: got ${maxSkewSeconds}, expected a number of seconds >= 0`);
  }
  const ms = eventTimeMs(value, type);
  const bound = nowMs + maxSkewSeconds * 1000;
  if (ms > bound) {
    // Times only, as ISO-8601: a bare count of seconds could be 12 digits, which redaction takes for an account id.
    throw new FeatureEventTimeError(`event time ${isoOrAsWritten(ms, value)} is later than ${new Date(bound).toISOString()}, the latest accepted: `
      + `the server clock (${new Date(nowMs).toISOString()}) plus at most ${maxSkewSeconds} s (maxEventTimeSkewSeconds). `
      + 'The online store keeps the greatest event time, so a record dated '
      + 'in the future would make every later write historic (offline only).');
  }
}

/**
 * The PutRecord `Record` for `record`: validated and serialized per the schema, the event time checked against the
 * clock.
 */
function buildPutRecord(record: Record<string, FeatureScalar | Date>,
  options: Pick<PutFeaturesOptions, 'schema' | 'eventTime' | 'maxEventTimeSkewSeconds' | 'now'>): SdkFeatureValue[] {
  const { schema } = options;
  const problems: string[] = [];
  const out: SdkFeatureValue[] = [];
  if (record[schema.recordIdentifier] === undefined) problems.push(`the record identifier '${schema.recordIdentifier}' is required`);
  const etType = featureType(schema, schema.eventTime)!;
  for (const [name, value] of Object.entries(record)) {
    if (value === undefined) continue;
    const type = featureType(schema, name);
    if (!type) {
      problems.push(`'${name}' is not a feature of '${schema.featureGroupName}'`);
      continue;
    }
    try {
      if (name === schema.eventTime) {
        out.push({ FeatureName: name, ValueAsString: eventTimeValue(value, etType) });
      } else {
        out.push({ FeatureName: name, ValueAsString: serializeFeatureValue(type, value, name) });
      }
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  if (record[schema.eventTime] === undefined) {
    try {
      out.push({ FeatureName: schema.eventTime, ValueAsString: formatEventTime(options.eventTime ?? new Date(), etType) });
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  if (problems.length) throw new FeatureValueError(`Refused to write to '${schema.featureGroupName}': ${problems.join('; ')}`);
  const eventTime = out.find((f) => f.FeatureName === schema.eventTime)!.ValueAsString!;
  checkEventTimeSkew(eventTime, etType, options.maxEventTimeSkewSeconds ?? DEFAULT_MAX_EVENT_TIME_SKEW_SECONDS, (options.now ?? Date.now)());
  return out;
}

/**
 * An event-time value given in a record: a Date is formatted; for a String event time a string must already be in a
 * valid format (a number is refused); for a Fractional one a number is epoch seconds (same rule as formatEventTime).
 */
function eventTimeValue(value: unknown, type: FeatureValueType): string {
  if (value instanceof Date) return formatEventTime(value, type);
  if (type === 'String') {
    if (typeof value !== 'string' || !STRING_EVENT_TIME.test(value)) {
      throw new FeatureValueError(`event time: got ${describe(value)}, expected a Date or a string yyyy-MM-ddTHH:mm:ss[.SSS]Z (UTC)`);
    }
    return value;
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new FeatureValueError(`event time: got ${describe(value)}, expected a Date or epoch seconds (Fractional)`);
  }
  return formatEventTime(value, type);
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `'${value}' (string)`;
  if (typeof value === 'bigint') return `${value}n (bigint)`;
  return `${JSON.stringify(value)} (${value === null ? 'null' : typeof value})`;
}

/** How this group's online store lets a write keep the features it was not given. */
function partialWriteStrategy(schema: FeatureGroupSchema, targetStores: TargetStore[] | undefined): 'update' | 'merge' | 'refuse' {
  if (targetStores && !targetStores.includes('OnlineStore')) return 'refuse';
  switch (schema.onlineStorageType) {
    case 'Standard_V2':
    case 'InMemory':
      return 'update';
    case 'None':
      return 'refuse';
    default:
      return 'merge';
  }
}

/** One write in progress: the group, the serialized record and what the helpers below share. */
interface WriteContext {
  readonly group: string;
  readonly schema: FeatureGroupSchema;
  readonly targetStores?: TargetStore[];
  readonly client: ReturnType<typeof featureStoreClient>;
  readonly values: SdkFeatureValue[];
  readonly written: string[];
  readonly recordId: string;
  readonly eventTime: string;
}

/** PutRecord of `record` (a full over-write of the online record). */
async function putRecord(w: WriteContext, record: SdkFeatureValue[]): Promise<void> {
  try {
    await w.client.send(new (featureStoreRuntimeSdk().PutRecordCommand)({ FeatureGroupName: w.group, Record: record, TargetStores: w.targetStores }));
  } catch (err) {
    throw sdkError(err, w.group, 'PutRecord');
  }
}

function created(w: WriteContext): PutFeaturesResult {
  return { mode: 'put', eventTime: w.eventTime, writtenFeatures: w.written, preservedFeatures: [] };
}

/** UpdateRecord of the given features; a record that does not exist yet is created with PutRecord. */
async function updateRecord(w: WriteContext, notWritten: string[]): Promise<PutFeaturesResult> {
  try {
    await w.client.send(new (featureStoreRuntimeSdk().UpdateRecordCommand)({
      FeatureGroupName: w.group,
      RecordIdentifierValueAsString: w.recordId,
      Features: w.values.filter((v) => v.FeatureName !== w.schema.recordIdentifier),
      TargetStores: w.targetStores,
    }));
    return { mode: 'updated', eventTime: w.eventTime, writtenFeatures: w.written, preservedFeatures: notWritten };
  } catch (err) {
    const name = (err as { name?: string })?.name;
    if (name === 'ConflictException') {
      throw new FeatureEventTimeError(`Refused by '${w.schema.featureGroupName}': the stored record '${w.recordId}' has a newer event `
        + `time than ${w.eventTime} (UpdateRecord ConflictException); write with an event time equal to or after the stored one`, { code: name, cause: err });
    }
    // "The record must already exist. [...] To create a record, use PutRecord." A missing group fails PutRecord too.
    if (name !== 'ResourceNotFound') throw sdkError(err, w.group, 'UpdateRecord');
    await putRecord(w, w.values);
    return created(w);
  }
}

/** GetRecord, then PutRecord of the stored record with the given features over it (stored values copied verbatim). */
async function mergeRecord(w: WriteContext): Promise<PutFeaturesResult> {
  let stored: SdkFeatureValue[] | undefined;
  try {
    const { GetRecordCommand } = featureStoreRuntimeSdk();
    stored = (await w.client.send(new GetRecordCommand({ FeatureGroupName: w.group, RecordIdentifierValueAsString: w.recordId }))).Record;
  } catch (err) {
    throw sdkError(err, w.group, 'GetRecord');
  }
  if (!stored || stored.length === 0) {
    await putRecord(w, w.values);
    return created(w);
  }
  const { schema } = w;
  const storedEventTime = stored.find((v) => v.FeatureName === schema.eventTime)?.ValueAsString;
  const etType = featureType(schema, schema.eventTime)!;
  if (storedEventTime !== undefined && eventTimeMs(w.eventTime, etType) < eventTimeMs(storedEventTime, etType)) {
    throw new FeatureEventTimeError(`Refused to write to '${schema.featureGroupName}': the stored record '${w.recordId}' is dated `
      + `${storedEventTime}, after this write's ${w.eventTime}; the online store keeps the newer record, so this write would reach the `
      + 'offline store only. Write with an event time equal to or after the stored one (or omit it: it defaults to now).');
  }
  const preserved = stored.filter((v) => !w.written.includes(v.FeatureName!));
  await putRecord(w, [...w.values, ...preserved]);
  return {
    mode: 'merged',
    eventTime: w.eventTime,
    writtenFeatures: w.written,
    preservedFeatures: preserved.map((v) => v.FeatureName!),
    mergedFromEventTime: storedEventTime,
  };
}

/**
 * Writes the given features of one record, keeping every other feature of the stored record (see the module comment
 * for how, per online store type). Values must have their declared types and the event time must not lie more than
 * `maxEventTimeSkewSeconds` ahead: both are checked before any call.
 */
export async function putFeatures(group: string, record: Record<string, FeatureScalar | Date>,
  options: PutFeaturesOptions): Promise<PutFeaturesResult> {
  const { schema, targetStores } = options;
  const values = buildPutRecord(record, options);
  const w: WriteContext = {
    group,
    schema,
    targetStores,
    client: featureStoreClient(options),
    values,
    written: values.map((v) => v.FeatureName!),
    recordId: values.find((v) => v.FeatureName === schema.recordIdentifier)!.ValueAsString!,
    eventTime: values.find((v) => v.FeatureName === schema.eventTime)!.ValueAsString!,
  };
  const notWritten = schema.features.map((f) => f.name).filter((n) => !w.written.includes(n));
  if (notWritten.length === 0) {
    await putRecord(w, values);
    return created(w);
  }
  const strategy = partialWriteStrategy(schema, targetStores);
  if (strategy === 'refuse') {
    throw new FeatureValueError(`Refused to write to '${schema.featureGroupName}': a partial record (missing ${notWritten.join(', ')}) `
      + `${targetStores && !targetStores.includes('OnlineStore') ? 'targets only the offline store' : 'goes to a group without an online store'}, `
      + 'where PutRecord is a full over-write with nothing to merge from: send every feature of the record');
  }
  // UpdateRecord takes at most 100 features (the record identifier travels apart); a larger write merges instead.
  if (strategy === 'update' && values.length - 1 <= UPDATE_RECORD_MAX_FEATURES) return updateRecord(w, notWritten);
  return mergeRecord(w);
}
