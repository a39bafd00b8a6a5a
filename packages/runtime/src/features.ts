/**
 * Typed reads and writes of the Feature Store online store, driven by the schema the FeatureGroup construct declared
 * (`src/feature-store/contract.ts`). Fixes of the seed's Pattern 2:
 * - a missing record (GetRecord answers 200 with no Record) yields the cold-start defaults, while a missing feature
 *   group (ResourceNotFound 404) is an error: the two are never conflated;
 * - every `ValueAsString` is cast to its declared type, and a value that does not parse is an error, not a NaN;
 * - BatchGetRecord is split into legal calls, `UnprocessedIdentifiers` are retried and `Errors` are reported;
 * - event times are written as `yyyy-MM-ddTHH:mm:ss.SSSZ` (milliseconds, not Python's microseconds) or epoch seconds.
 */
import {
  BatchGetRecordCommand,
  BatchGetRecordIdentifier,
  DeleteRecordCommand,
  FeatureValue as SdkFeatureValue,
  GetRecordCommand,
  SageMakerFeatureStoreRuntimeClient,
  SageMakerFeatureStoreRuntimeClientConfig,
} from '@aws-sdk/client-sagemaker-featurestore-runtime';
import { boundedClient } from './bounded';
import { FEATURE_GROUP_SCHEMAS_ENV, FeatureGroupSchema } from './contract/feature-store';
import { ErrorDetails, isTransient, SageMakerMcpError } from './errors';
import { backoffDelayMs, RetryOptions } from './retry';

export { FEATURE_GROUP_SCHEMAS_ENV } from './contract/feature-store';
export type { FeatureGroupSchema, FeatureSchemaEntry } from './contract/feature-store';

export type FeatureValueType = 'String' | 'Integral' | 'Fractional';
/** A scalar feature value: `Integral` values beyond 2^53 come back as `bigint`. */
export type FeatureScalar = string | number | bigint;
/** A feature value as read: a scalar, a list (collection types), or null when absent and without default. */
export type FeatureValue = FeatureScalar | FeatureScalar[] | null;
export type FeatureValues = Record<string, FeatureValue>;

const VALUE_TYPES: readonly FeatureValueType[] = ['String', 'Integral', 'Fractional'];
/** `FeatureGroupSchema.onlineStorageType`: the online `StorageType` values, or `None` for a group without online store. */
const ONLINE_STORAGE_TYPES: readonly string[] = ['Standard', 'Standard_V2', 'InMemory', 'None'];
const INTEGRAL = /^[-+]?\d+$/;
const FRACTIONAL = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

// ---------------------------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------------------------

/** The feature group does not exist (ResourceNotFound): a configuration problem, not a cold start. */
export class FeatureGroupNotFoundError extends SageMakerMcpError {
  public readonly name = 'FeatureGroupNotFoundError';
  public readonly retryable = false;
  public constructor(public readonly featureGroupName: string, details: ErrorDetails = {}) {
    super(`Feature group '${featureGroupName}' does not exist (ResourceNotFound). This is not a missing record (that returns ` +
      'defaults): check the group name or ARN, the region and that the group was created.', { code: 'ResourceNotFound', ...details });
  }
}

/** A value does not match its declared type, or a record or schema is malformed. Raised before any call. */
export class FeatureValueError extends SageMakerMcpError {
  public readonly name = 'FeatureValueError';
  public readonly retryable = false;
  public constructor(message: string) {
    super(message, { code: 'FeatureValueError' });
  }
}

/** Any other failed Feature Store runtime call; `retryable` says whether the same call may succeed later. */
export class FeatureStoreRequestError extends SageMakerMcpError {
  public readonly name = 'FeatureStoreRequestError';
  public readonly retryable: boolean;
  public constructor(message: string, retryable: boolean, details: ErrorDetails = {}) {
    super(message, details);
    this.retryable = retryable;
  }
}

/** A failed Feature Store runtime call as a library error (FeatureGroupNotFoundError for ResourceNotFound on a group). */
export function sdkError(err: unknown, group: string | undefined, operation: string): SageMakerMcpError {
  if (err instanceof SageMakerMcpError) return err;
  const e = (err ?? {}) as { name?: string; message?: string; $metadata?: { httpStatusCode?: number; requestId?: string; attempts?: number } };
  const details: ErrorDetails = {
    code: e.name,
    httpStatusCode: e.$metadata?.httpStatusCode,
    requestId: e.$metadata?.requestId,
    attempts: e.$metadata?.attempts,
    cause: err,
  };
  if (e.name === 'ResourceNotFound' && group) return new FeatureGroupNotFoundError(group, details);
  const where = group ? ` on feature group '${group}'` : '';
  return new FeatureStoreRequestError(`${operation}${where} failed: ${e.name ?? 'Error'}: ${e.message ?? String(err)}`, isTransient(err), details);
}

// ---------------------------------------------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------------------------------------------

/** Checks a schema (e.g. parsed from JSON) and returns it typed; throws FeatureValueError naming what is wrong. */
export function parseFeatureGroupSchema(input: unknown): FeatureGroupSchema {
  const s = (typeof input === 'string' ? JSON.parse(input) : input) as Partial<FeatureGroupSchema> | undefined;
  const problems: string[] = [];
  if (!s || typeof s !== 'object') throw new FeatureValueError(`feature group schema: got ${JSON.stringify(input)}, expected an object`);
  if (typeof s.featureGroupName !== 'string' || !s.featureGroupName) problems.push('featureGroupName must be a non-empty string');
  if (!Array.isArray(s.features) || s.features.length === 0) problems.push('features must be a non-empty array');
  const names = new Set<string>();
  for (const f of s.features ?? []) {
    if (!f || typeof f.name !== 'string') problems.push(`feature ${JSON.stringify(f)} has no name`);
    else names.add(f.name);
    if (!VALUE_TYPES.includes(f?.type as FeatureValueType)) problems.push(`feature '${f?.name}' has type ${JSON.stringify(f?.type)}, expected one of ${VALUE_TYPES.join(', ')}`);
  }
  if (typeof s.recordIdentifier !== 'string' || !names.has(s.recordIdentifier)) problems.push(`recordIdentifier ${JSON.stringify(s.recordIdentifier)} is not a declared feature`);
  if (typeof s.eventTime !== 'string' || !names.has(s.eventTime)) problems.push(`eventTime ${JSON.stringify(s.eventTime)} is not a declared feature`);
  const etType = s.features?.find((f) => f?.name === s.eventTime)?.type;
  if (etType === 'Integral') problems.push(`eventTime '${s.eventTime}' is Integral, expected String or Fractional`);
  if (s.onlineStorageType !== undefined && !ONLINE_STORAGE_TYPES.includes(s.onlineStorageType)) {
    problems.push(`onlineStorageType ${JSON.stringify(s.onlineStorageType)} is not one of ${ONLINE_STORAGE_TYPES.join(', ')}`);
  }
  if (problems.length) throw new FeatureValueError(`Invalid feature group schema '${s.featureGroupName}': ${problems.join('; ')}`);
  return s as FeatureGroupSchema;
}

/**
 * The schemas a construct passed in `FEATURE_GROUP_SCHEMAS_ENV` (a JSON array, or one object), keyed by group name.
 * Empty when the variable is unset.
 */
export function featureGroupSchemasFromEnv(env: Record<string, string | undefined> = process.env): Map<string, FeatureGroupSchema> {
  const raw = env[FEATURE_GROUP_SCHEMAS_ENV];
  const result = new Map<string, FeatureGroupSchema>();
  if (!raw) return result;
  const parsed = JSON.parse(raw) as unknown;
  for (const item of Array.isArray(parsed) ? parsed : [parsed]) {
    const schema = parseFeatureGroupSchema(item);
    result.set(schema.featureGroupName, schema);
  }
  return result;
}

function featureType(schema: FeatureGroupSchema, name: string): FeatureValueType | undefined {
  return schema.features.find((f) => f.name === name)?.type as FeatureValueType | undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Casting and serialization
// ---------------------------------------------------------------------------------------------------------------

/** Casts one `ValueAsString` to its declared type; throws FeatureValueError when it does not parse. */
export function castFeatureValue(type: FeatureValueType, raw: string, featureName = 'feature'): FeatureScalar {
  switch (type) {
    case 'String':
      return raw;
    case 'Integral': {
      if (!INTEGRAL.test(raw)) throw new FeatureValueError(`${featureName}: got ${JSON.stringify(raw)}, expected an Integral (signed 64-bit integer)`);
      const n = Number(raw);
      return Number.isSafeInteger(n) ? n : BigInt(raw);
    }
    case 'Fractional': {
      const n = Number(raw);
      if (!FRACTIONAL.test(raw.trim()) || !Number.isFinite(n)) throw new FeatureValueError(`${featureName}: got ${JSON.stringify(raw)}, expected a Fractional (finite number)`);
      return n;
    }
  }
}

/**
 * The values with every bigint (an Integral beyond 2^53) turned into its decimal string, so `JSON.stringify` (an MCP
 * tool result) neither throws nor loses precision.
 */
export function jsonSafeFeatures(values: FeatureValues): Record<string, string | number | null | Array<string | number>> {
  const safe = (v: FeatureScalar) => (typeof v === 'bigint' ? v.toString() : v);
  const out: Record<string, string | number | null | Array<string | number>> = {};
  for (const [name, value] of Object.entries(values)) out[name] = value === null ? null : Array.isArray(value) ? value.map(safe) : safe(value);
  return out;
}

/** Serializes a value of a declared type to `ValueAsString`, refusing a value of the wrong type. */
export function serializeFeatureValue(type: FeatureValueType, value: unknown, featureName = 'feature'): string {
  const refuse = (expected: string) =>
    new FeatureValueError(`${featureName}: got ${describe(value)}, expected ${expected} (declared ${type})`);
  switch (type) {
    case 'String':
      if (typeof value !== 'string') throw refuse('a string');
      return value;
    case 'Integral':
      if (typeof value === 'bigint') {
        if (value < -(2n ** 63n) || value >= 2n ** 63n) throw refuse('a signed 64-bit integer');
        return value.toString();
      }
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw refuse('an integer (number within 2^53, or bigint)');
      return String(value);
    case 'Fractional':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw refuse('a finite number');
      return String(value);
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `'${value}' (string)`;
  if (typeof value === 'bigint') return `${value}n (bigint)`;
  if (value instanceof Date) return `${value.toISOString()} (Date)`;
  return `${JSON.stringify(value)} (${value === null ? 'null' : typeof value})`;
}

/**
 * An event time as Feature Store wants it: String → exactly `yyyy-MM-ddTHH:mm:ss.SSSZ` in UTC; Fractional → seconds
 * since the epoch with millisecond precision.
 *
 * Accepts a Date or an ISO-8601 string for either type. A bare number is accepted only for a Fractional event time,
 * where it means epoch SECONDS (the wire format); for a String event time it is refused, since it could be seconds
 * or milliseconds. The same rule holds for an event time inside a record (`putFeatures`), `PutFeaturesOptions.eventTime`,
 * `DeleteFeaturesOptions.eventTime` and the offline query's `asOf` / `eventTimeFrom` / `eventTimeTo`.
 */
export function formatEventTime(time: Date | number | string, type: FeatureValueType = 'String'): string {
  if (type !== 'String' && type !== 'Fractional') throw new FeatureValueError(`eventTime: an event time must be String or Fractional, not ${type}`);
  if (typeof time === 'number' && type !== 'Fractional') {
    throw new FeatureValueError(`eventTime: got ${describe(time)}, expected a Date or an ISO-8601 string `
      + '(a bare number is read as epoch seconds, and only for a Fractional event time)');
  }
  const date = time instanceof Date ? time : typeof time === 'number' ? new Date(time * 1000) : new Date(time);
  const ms = date.getTime();
  if (!Number.isFinite(ms)) throw new FeatureValueError(`eventTime: got ${describe(time)}, expected a valid date`);
  if (ms < -62167219200000) throw new FeatureValueError(`eventTime: ${date.toISOString()} is before 0000-01-01`);
  if (ms > 253402300799999) throw new FeatureValueError(`eventTime: ${date.toISOString()} is after 9999-12-31T23:59:59.999Z`);
  // A number is already seconds: format it as given rather than through ms (x1000/1000 can drift in the last digit).
  if (type === 'Fractional') return typeof time === 'number' ? time.toFixed(3) : (ms / 1000).toFixed(3);
  // toISOString is yyyy-MM-ddTHH:mm:ss.SSSZ for years 0000-9999, which the checks above guarantee.
  return date.toISOString();
}

// ---------------------------------------------------------------------------------------------------------------
// Client
// ---------------------------------------------------------------------------------------------------------------

/** How the runtime gets its Feature Store client: pass one, or the config to build one (endpoint, region, credentials). */
export interface FeatureStoreClientOptions {
  readonly client?: SageMakerFeatureStoreRuntimeClient;
  readonly clientConfig?: SageMakerFeatureStoreRuntimeClientConfig;
}

let defaultClient: SageMakerFeatureStoreRuntimeClient | undefined;

/** The client for `options`: the one given, one built from `clientConfig`, or a shared default (region from the environment). */
export function featureStoreClient(options: FeatureStoreClientOptions = {}): SageMakerFeatureStoreRuntimeClient {
  if (options.client) return options.client;
  if (options.clientConfig) return boundedClient(SageMakerFeatureStoreRuntimeClient, options.clientConfig);
  defaultClient ??= boundedClient(SageMakerFeatureStoreRuntimeClient, {});
  return defaultClient;
}

// ---------------------------------------------------------------------------------------------------------------
// Reads
// ---------------------------------------------------------------------------------------------------------------

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

function checkFeatureNames(schema: FeatureGroupSchema, names: string[] | undefined): void {
  for (const name of names ?? []) {
    if (!featureType(schema, name)) {
      throw new FeatureValueError(`featureNames: '${name}' is not a feature of '${schema.featureGroupName}' (declared: ${schema.features.map((f) => f.name).join(', ')})`);
    }
  }
}

function toFeatures(schema: FeatureGroupSchema, record: SdkFeatureValue[] | undefined, wanted: string[] | undefined,
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

function coldStart(schema: FeatureGroupSchema, recordId: string, wanted: string[] | undefined, defaults: FeatureValues = {}): FeatureRecord {
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
    response = await featureStoreClient(options).send(new GetRecordCommand({
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

export interface BatchFeatureRequest {
  /** The group name or ARN. @default schema.featureGroupName */
  readonly featureGroupName?: string;
  readonly schema: FeatureGroupSchema;
  readonly recordIds: string[];
  /** @default every feature */
  readonly featureNames?: string[];
  /** Cold-start values for records that are missing or failed. */
  readonly defaults?: FeatureValues;
}

export interface MissingRecord {
  readonly featureGroupName: string;
  readonly recordId: string;
  /** NotFound: no such record. Error: BatchGetRecord reported an error for it. Unprocessed: still unprocessed after every retry. */
  readonly reason: 'NotFound' | 'Error' | 'Unprocessed';
  readonly errorCode?: string;
  readonly errorMessage?: string;
}

export interface BatchGetFeaturesOptions extends FeatureStoreClientOptions {
  /** Attempts for identifiers the service returns as unprocessed, including the first. @default 5 */
  readonly maxAttempts?: number;
  /** Backoff between those attempts. @default base 50 ms, cap 2 s */
  readonly backoff?: RetryOptions;
  /** BatchGetRecord calls in flight at once. @default 4 */
  readonly concurrency?: number;
}

export interface BatchGetFeaturesResult {
  /** group name (as requested) → record id → features (found, or defaults for every entry of `missing`). */
  readonly features: Record<string, Record<string, FeatureValues>>;
  /** Every requested record that was not returned, with the reason: none is dropped silently. */
  readonly missing: MissingRecord[];
  /** BatchGetRecord calls made, retries included. */
  readonly calls: number;
}

/** BatchGetRecord takes at most 100 record identifiers across at most 10 feature groups [FACTS 4]. */
export const BATCH_GET_MAX_RECORDS = 100;
export const BATCH_GET_MAX_GROUPS = 10;

interface GroupRequest {
  readonly key: string;
  readonly group: string;
  readonly schema: FeatureGroupSchema;
  readonly featureNames?: string[];
  readonly defaults?: FeatureValues;
}

/** The feature group name inside an ARN, or the name itself. */
function groupNameOf(nameOrArn: string): string {
  const i = nameOrArn.indexOf(':feature-group/');
  return i >= 0 ? nameOrArn.slice(i + ':feature-group/'.length) : nameOrArn;
}

/**
 * Packs (group, id) pairs into as few calls as the limits allow (at most 100 ids over at most 10 groups per call).
 * Ids are grouped by feature group first, so interleaved input packs as tightly as grouped input; groups keep the order
 * of their first id, and ids their order within a group. A group may span two consecutive calls.
 */
export function planBatchGetCalls<T extends { key: string }>(pairs: Array<{ request: T; recordId: string }>): Array<Map<T, string[]>> {
  const byGroup = new Map<T, string[]>();
  for (const { request, recordId } of pairs) {
    const ids = byGroup.get(request) ?? [];
    ids.push(recordId);
    byGroup.set(request, ids);
  }
  const calls: Array<Map<T, string[]>> = [];
  let current = new Map<T, string[]>();
  let count = 0;
  for (const [request, ids] of byGroup) {
    for (let start = 0; start < ids.length;) {
      if (count === BATCH_GET_MAX_RECORDS || current.size === BATCH_GET_MAX_GROUPS) {
        calls.push(current);
        current = new Map();
        count = 0;
      }
      const take = Math.min(ids.length - start, BATCH_GET_MAX_RECORDS - count);
      current.set(request, ids.slice(start, start + take));
      count += take;
      start += take;
    }
  }
  if (count > 0) calls.push(current);
  return calls;
}

/**
 * Reads many records over many groups with as few BatchGetRecord calls as the limits allow. Identifiers the service
 * leaves unprocessed are retried with backoff; records it reports in `Errors`, records it does not return, and
 * identifiers still unprocessed after the last attempt all get their defaults and an entry in `missing`.
 */
export async function batchGetFeatures(requests: BatchFeatureRequest[], options: BatchGetFeaturesOptions = {}): Promise<BatchGetFeaturesResult> {
  const client = featureStoreClient(options);
  const maxAttempts = options.maxAttempts ?? 5;
  const backoff: RetryOptions = { baseDelayMs: 50, maxDelayMs: 2_000, ...options.backoff };

  // One entry per group: the same group requested twice is read once, with the union of the feature names.
  const groups = new Map<string, GroupRequest>();
  const pairs: Array<{ request: GroupRequest; recordId: string }> = [];
  const seen = new Set<string>();
  const features: Record<string, Record<string, FeatureValues>> = {};
  for (const req of requests) {
    const group = req.featureGroupName ?? req.schema.featureGroupName;
    checkFeatureNames(req.schema, req.featureNames);
    const key = groupNameOf(group);
    const prior = groups.get(key);
    let featureNames: string[] | undefined;
    if (!prior) featureNames = req.featureNames;
    else if (prior.featureNames && req.featureNames) featureNames = [...new Set([...prior.featureNames, ...req.featureNames])];
    const defaults = { ...prior?.defaults, ...req.defaults };
    const merged: GroupRequest = { key, group: prior?.group ?? group, schema: req.schema, featureNames, defaults };
    groups.set(key, merged);
    features[merged.group] ??= {};
    for (const recordId of req.recordIds) {
      if (seen.has(`${key}\u0000${recordId}`)) continue;
      seen.add(`${key}\u0000${recordId}`);
      pairs.push({ request: merged, recordId });
    }
  }
  // Re-point pairs at the final merged request of their group.
  const finalPairs = pairs.map((p) => ({ request: groups.get(p.request.key)!, recordId: p.recordId }));
  const missing: MissingRecord[] = [];
  let calls = 0;

  const record = (req: GroupRequest, recordId: string, values: FeatureValues) => {
    features[req.group][recordId] = values;
  };
  const fail = (req: GroupRequest, recordId: string, m: Omit<MissingRecord, 'featureGroupName' | 'recordId'>) => {
    record(req, recordId, coldStart(req.schema, recordId, req.featureNames, req.defaults).features);
    missing.push({ featureGroupName: req.group, recordId, ...m });
  };

  const runCall = async (plan: Map<GroupRequest, string[]>): Promise<void> => {
    let pending = plan;
    for (let attempt = 1; ; attempt++) {
      const byKey = new Map<string, GroupRequest>([...pending.keys()].map((r) => [r.key, r]));
      const identifiers: BatchGetRecordIdentifier[] = [...pending].map(([req, ids]) => ({
        FeatureGroupName: req.group,
        RecordIdentifiersValueAsString: ids,
        FeatureNames: req.featureNames,
      }));
      calls++;
      let response;
      try {
        response = await client.send(new BatchGetRecordCommand({ Identifiers: identifiers }));
      } catch (err) {
        const groupsInCall = [...pending.keys()].map((r) => r.group);
        const e = err as { name?: string };
        // ResourceNotFound names no group: report every group of the call.
        if (e?.name === 'ResourceNotFound') throw sdkError(err, groupsInCall.join("', '"), 'BatchGetRecord');
        throw sdkError(err, undefined, `BatchGetRecord (groups ${groupsInCall.join(', ')})`);
      }
      const answered = new Set<string>();
      for (const r of response.Records ?? []) {
        const req = byKey.get(groupNameOf(r.FeatureGroupName ?? ''));
        if (!req || r.RecordIdentifierValueAsString === undefined) continue;
        answered.add(`${req.key}\u0000${r.RecordIdentifierValueAsString}`);
        record(req, r.RecordIdentifierValueAsString, toFeatures(req.schema, r.Record, req.featureNames, req.defaults).features);
      }
      for (const e of response.Errors ?? []) {
        const req = byKey.get(groupNameOf(e.FeatureGroupName ?? ''));
        if (!req || e.RecordIdentifierValueAsString === undefined) continue;
        answered.add(`${req.key}\u0000${e.RecordIdentifierValueAsString}`);
        fail(req, e.RecordIdentifierValueAsString, { reason: 'Error', errorCode: e.ErrorCode, errorMessage: e.ErrorMessage });
      }
      const next = new Map<GroupRequest, string[]>();
      for (const u of response.UnprocessedIdentifiers ?? []) {
        const req = byKey.get(groupNameOf(u.FeatureGroupName ?? ''));
        if (!req) continue;
        for (const id of u.RecordIdentifiersValueAsString ?? []) {
          const k = `${req.key}\u0000${id}`;
          if (answered.has(k)) continue;
          answered.add(k);
          next.set(req, [...(next.get(req) ?? []), id]);
        }
      }
      // Asked for but neither returned, failed nor unprocessed: the record does not exist.
      for (const [req, ids] of pending) {
        for (const id of ids) {
          if (!answered.has(`${req.key}\u0000${id}`)) fail(req, id, { reason: 'NotFound' });
        }
      }
      if (next.size === 0) return;
      if (attempt >= maxAttempts) {
        for (const [req, ids] of next) for (const id of ids) fail(req, id, { reason: 'Unprocessed', errorMessage: `still unprocessed after ${attempt} attempts` });
        return;
      }
      await sleep(backoffDelayMs(attempt - 1, backoff));
      pending = next;
    }
  };

  const plans = planBatchGetCalls(finalPairs);
  const concurrency = Math.max(1, options.concurrency ?? 4);
  let index = 0;
  await Promise.all(Array.from({ length: Math.min(concurrency, plans.length) }, async () => {
    while (index < plans.length) await runCall(plans[index++]);
  }));
  return { features, missing, calls };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// ---------------------------------------------------------------------------------------------------------------
// Writes (putFeatures and buildPutRecord are in ./features-write)
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
    await featureStoreClient(options).send(new DeleteRecordCommand({
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
