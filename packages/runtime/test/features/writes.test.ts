import { SageMakerFeatureStoreRuntimeClient } from '@aws-sdk/client-sagemaker-featurestore-runtime';
import { FeatureStoreRuntimeServer, FeatureStoreSession, startFeatureStoreSession } from '@cdk-sagemaker-mcp/test-stand-ins/featurestore-runtime-server';
import { userKeyedSchema } from '../support/feature-schemas';
import { FeatureGroupNotFoundError, FeatureGroupSchema, FeatureValueError, parseFeatureGroupSchema, FeatureEventTimeError, putFeatures, PutFeaturesOptions } from 'cdk-sagemaker-mcp-runtime/features';

// Writes of some features of a record keep the others, per online store type; event times are bounded. Every test runs
// the real SDK against the Feature Store stand-in, whose PutRecord is a full over-write as the service's is.
const ABC = [{ name: 'a', type: 'Integral' }, { name: 'b', type: 'Integral' }, { name: 'c', type: 'String' }];
const schemaFor = (name: string, onlineStorageType?: string): FeatureGroupSchema => ({ ...userKeyedSchema(name, ...ABC), onlineStorageType });
const standard = schemaFor('standard', 'Standard');
const unknown = schemaFor('unknown');
const v2 = schemaFor('v2', 'Standard_V2');
const inMemory = schemaFor('mem', 'InMemory');
const offlineOnly = schemaFor('offline', 'None');
const T0 = '2024-05-01T10:00:00.000Z';
const STORED = { user_id: 'u1', event_time: T0, a: '1', b: '2', c: 'three' };

let fs: FeatureStoreRuntimeServer;
let client: SageMakerFeatureStoreRuntimeClient;

let session: FeatureStoreSession;

beforeAll(async () => {
  session = await startFeatureStoreSession();
  ({ server: fs, client } = session);
});
afterAll(() => session.stop());
beforeEach(() => {
  fs.createGroup({ name: 'standard', recordIdentifier: 'user_id', eventTime: 'event_time', onlineStorageType: 'Standard' });
  fs.createGroup({ name: 'unknown', recordIdentifier: 'user_id', eventTime: 'event_time' });
  fs.createGroup({ name: 'v2', recordIdentifier: 'user_id', eventTime: 'event_time', onlineStorageType: 'Standard_V2' });
  fs.createGroup({ name: 'mem', recordIdentifier: 'user_id', eventTime: 'event_time', onlineStorageType: 'InMemory' });
  fs.createGroup({ name: 'offline', recordIdentifier: 'user_id', eventTime: 'event_time' });
  for (const g of ['standard', 'unknown', 'v2', 'mem']) fs.putRecord(g, STORED);
  fs.resetCounters();
});

describe('a write of some features keeps the others', () => {
  test.each([standard, unknown])('%#: Standard (or unknown) online store: GetRecord, merge, PutRecord of the whole record', async (schema) => {
    // WHEN
    const result = await putFeatures(schema.featureGroupName, { user_id: 'u1', b: 20 }, { schema, client });
    // THEN
    expect(fs.getStored(schema.featureGroupName, 'u1')).toEqual({ ...STORED, b: '20', event_time: result.eventTime });
    expect(result).toMatchObject({ mode: 'merged', preservedFeatures: ['a', 'c'], mergedFromEventTime: T0 });
    expect(fs.requests.map((r) => r.operation)).toEqual(['GetRecord', 'PutRecord']);
    // The offline store gets a complete row too, not one with a and c missing.
    expect(fs.offlineRows(schema.featureGroupName)).toEqual([{ operation: 'PutRecord', values: { ...STORED, b: '20', event_time: result.eventTime } }]);
  });

  test.each([v2, inMemory])('%#: Standard_V2 / InMemory online store: UpdateRecord of the given features only', async (schema) => {
    // WHEN
    const result = await putFeatures(schema.featureGroupName, { user_id: 'u1', b: 20 }, { schema, client });
    // THEN
    expect(fs.getStored(schema.featureGroupName, 'u1')).toEqual({ ...STORED, b: '20', event_time: result.eventTime });
    expect(result).toMatchObject({ mode: 'updated', preservedFeatures: ['a', 'c'] });
    expect(fs.requests.map((r) => r.operation)).toEqual(['UpdateRecord']);
    expect(fs.requests[0].body).toEqual({ RecordIdentifierValueAsString: 'u1', Features: [{ FeatureName: 'b', ValueAsString: '20' }, { FeatureName: 'event_time', ValueAsString: result.eventTime }] });
  });

  test.each([standard, v2])('%#: a record that does not exist is created with the features given', async (schema) => {
    const result = await putFeatures(schema.featureGroupName, { user_id: 'new', b: 5 }, { schema, client });
    expect(result).toMatchObject({ mode: 'put', preservedFeatures: [] });
    expect(fs.getStored(schema.featureGroupName, 'new')).toEqual({ user_id: 'new', b: '5', event_time: result.eventTime });
  });

  test('a complete record is one PutRecord, whatever the store', async () => {
    const result = await putFeatures('standard', { user_id: 'u1', a: 7, b: 8, c: 'nine' }, { schema: standard, client });
    expect(result.mode).toBe('put');
    expect(fs.requests.map((r) => r.operation)).toEqual(['PutRecord']);
  });

  test('more than 100 features for UpdateRecord: the write merges instead', async () => {
    // GIVEN a Standard_V2 group with 102 features, 101 of them written (event time included)
    const many = Array.from({ length: 100 }, (_, i) => ({ name: `f${i}`, type: 'Integral' }));
    const wide: FeatureGroupSchema = { ...userKeyedSchema('v2', ...many, { name: 'kept', type: 'String' }), onlineStorageType: 'Standard_V2' };
    fs.putRecord('v2', { user_id: 'wide', event_time: T0, kept: 'yes' });
    fs.resetCounters();
    // WHEN
    const result = await putFeatures('v2', { user_id: 'wide', ...Object.fromEntries(many.map((f, i) => [f.name, i])) }, { schema: wide, client });
    // THEN
    expect(result).toMatchObject({ mode: 'merged', preservedFeatures: ['kept'] });
    expect(fs.requests.map((r) => r.operation)).toEqual(['GetRecord', 'PutRecord']);
    expect(fs.getStored('v2', 'wide')).toMatchObject({ kept: 'yes', f0: '0', f99: '99' });
  });

  test('a missing feature group is FeatureGroupNotFoundError on every path', async () => {
    await expect(putFeatures('nope', { user_id: 'u1', b: 1 }, { schema: { ...standard, featureGroupName: 'nope' }, client })).rejects.toBeInstanceOf(FeatureGroupNotFoundError);
    await expect(putFeatures('nope', { user_id: 'u1', b: 1 }, { schema: { ...v2, featureGroupName: 'nope' }, client })).rejects.toBeInstanceOf(FeatureGroupNotFoundError);
  });

  test('fails if a partial record goes to a group without online store, or only to the offline store', async () => {
    const none = await putFeatures('offline', { user_id: 'u1', b: 1 }, { schema: offlineOnly, client }).catch((e) => e);
    expect(none).toBeInstanceOf(FeatureValueError);
    expect(none.message).toMatch(/partial record \(missing a, c\) goes to a group without an online store.*send every feature/);
    const offlineTarget = await putFeatures('standard', { user_id: 'u1', b: 1 }, { schema: standard, client, targetStores: ['OfflineStore'] }).catch((e) => e);
    expect(offlineTarget.message).toMatch(/targets only the offline store/);
    expect(fs.requests).toEqual([]);
    await putFeatures('offline', { user_id: 'u1', a: 1, b: 2, c: 'x' }, { schema: offlineOnly, client });
    expect(fs.offlineRows('offline')).toHaveLength(1);
  });
});

describe('event times', () => {
  const NOW = Date.parse('2026-12-01T12:00:00.000Z');
  const now = () => NOW;

  test('fails if the event time is more than the skew (default 300 s) past the clock, naming the value and the bound', async () => {
    const err = await putFeatures('v2', { user_id: 'u1', b: 1, event_time: '9999-12-31T23:59:59.999Z' }, { schema: v2, client, now }).catch((e) => e);
    expect(err).toBeInstanceOf(FeatureEventTimeError);
    expect(err.retryable).toBe(false);
    expect(err.message).toMatch(/event time 9999-12-31T23:59:59.999Z is later than 2026-12-01T12:05:00.000Z, the latest accepted: the server clock \(2026-12-01T12:00:00.000Z\) plus at most 300 s \(maxEventTimeSkewSeconds\)/);
    expect(fs.requests).toEqual([]);
    expect(fs.getStored('v2', 'u1')).toEqual(STORED);
  });

  test('the bound is inclusive and configurable, for String and Fractional event times', async () => {
    fs.createGroup({ name: 'fractional', recordIdentifier: 'user_id', eventTime: 'event_time', eventTimeType: 'Fractional', onlineStorageType: 'Standard' });
    const fractional: FeatureGroupSchema = { ...schemaFor('fractional', 'Standard'), features: standard.features.map((f) => (f.name === 'event_time' ? { ...f, type: 'Fractional' } : f)) };
    const put = (schema: FeatureGroupSchema, options: Partial<PutFeaturesOptions>) =>
      putFeatures(schema.featureGroupName, { user_id: 'u' }, { schema, client, now, ...options });
    await expect(put(standard, { eventTime: new Date(NOW + 300_000) })).resolves.toBeDefined();
    await expect(put(standard, { eventTime: new Date(NOW + 301_000) })).rejects.toThrow(FeatureEventTimeError);
    await expect(put(fractional, { eventTime: NOW / 1000 + 301 })).rejects.toThrow(/plus at most 300 s \(maxEventTimeSkewSeconds\)/);
    await expect(put(standard, { eventTime: new Date(NOW + 3_600_000), maxEventTimeSkewSeconds: 7200 })).resolves.toBeDefined();
    await expect(put(standard, { maxEventTimeSkewSeconds: 0, eventTime: new Date(NOW + 3_600_001) })).rejects.toThrow(/plus at most 0 s \(maxEventTimeSkewSeconds\)/);
    await expect(put(standard, { maxEventTimeSkewSeconds: -1 })).rejects.toThrow(/maxEventTimeSkewSeconds: got -1/);
    expect(fs.getStored('standard', 'u')?.event_time).toBe(new Date(NOW + 3_600_000).toISOString());
  });

  test.each([standard, v2])('%#: fails if the event time is older than the stored record\'s (the write would not change the online record)', async (schema) => {
    const err = await putFeatures(schema.featureGroupName, { user_id: 'u1', b: 1, event_time: '2024-01-01T00:00:00.000Z' }, { schema, client }).catch((e) => e);
    expect(err).toBeInstanceOf(FeatureEventTimeError);
    expect(err.message).toMatch(/stored record 'u1'.*newer|stored record 'u1' is dated 2024-05-01T10:00:00.000Z/);
    expect(fs.getStored(schema.featureGroupName, 'u1')).toEqual(STORED);
    expect(fs.offlineRows(schema.featureGroupName)).toEqual([]);
  });
});

test('the schema\'s onlineStorageType is checked', () => {
  expect(parseFeatureGroupSchema({ ...v2 }).onlineStorageType).toBe('Standard_V2');
  expect(() => parseFeatureGroupSchema({ ...v2, onlineStorageType: 'StandardV2' })).toThrow(/onlineStorageType: expected one of Standard, Standard_V2, InMemory, None, got "StandardV2"/);
});
