/**
 * Batch reads (BatchGetRecord) over many records and groups: split into legal calls, `UnprocessedIdentifiers` retried
 * with backoff, and every record that was not returned reported with its reason (none is dropped silently).
 */
import type { BatchGetRecordIdentifier } from '@aws-sdk/client-sagemaker-featurestore-runtime';
import { sdkError } from './errors';
import { checkFeatureNames, coldStart, featureStoreClient, FeatureStoreClientOptions, toFeatures } from './read';
import type { FeatureValues } from './values';
import type { FeatureGroupSchema } from '../contract/feature-store';
import { featureStoreRuntimeSdk } from '../core/aws-sdk';
import { backoffDelayMs, RetryOptions } from '../core/retry';

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

/**
 * Records and feature groups per BatchGetRecord call. "BatchGetRecord API: Can contain as many as 100 records and can
 * query up to 100 feature groups" (https://docs.aws.amazon.com/sagemaker/latest/dg/feature-store-quotas.html); this
 * library packs at most 10 groups into one call, a conservative bound below the documented one.
 */
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
function planBatchGetCalls<T extends { key: string }>(pairs: Array<{ request: T; recordId: string }>): Array<Map<T, string[]>> {
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
        response = await client.send(new (featureStoreRuntimeSdk().BatchGetRecordCommand)({ Identifiers: identifiers }));
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
