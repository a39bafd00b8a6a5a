import { PutRecordCommand, SageMakerFeatureStoreRuntimeClient } from '@aws-sdk/client-sagemaker-featurestore-runtime';
import { FeatureStoreRuntimeServer, FeatureStoreSession, startFeatureStoreRuntimeServer, startFeatureStoreSession } from '@cdk-sagemaker-mcp/test-stand-ins/featurestore-runtime-server';
import { MCP_USER_FEATURES_WITH_CATEGORY } from '../support/feature-schemas';
import {
  batchGetFeatures,
  castFeatureValue,
  deleteFeatures,
  FEATURE_GROUP_SCHEMAS_ENV,
  FeatureGroupNotFoundError,
  FeatureGroupSchema,
  FeatureScalar,
  featureGroupSchemasFromEnv,
  FeatureValueError,
  formatEventTime,
  getFeatures,
  jsonSafeFeatures,
  parseFeatureGroupSchema,
  putFeatures,
} from 'cdk-sagemaker-mcp-runtime/features';

const users = MCP_USER_FEATURES_WITH_CATEGORY;
const tools: FeatureGroupSchema = {
  featureGroupName: 'mcp-tool-features',
  recordIdentifier: 'tool_id',
  eventTime: 'event_time',
  features: [
    { name: 'tool_id', type: 'String' },
    { name: 'event_time', type: 'Fractional' },
    { name: 'invocations_last_7d', type: 'Integral' },
  ],
};
const DEFAULTS = { tool_calls_last_7d: 0, error_rate_last_24h: 0, preferred_tool_category: 'none' };

let fs: FeatureStoreRuntimeServer;
let client: SageMakerFeatureStoreRuntimeClient;

let session: FeatureStoreSession;

beforeAll(async () => {
  session = await startFeatureStoreSession();
  ({ server: fs, client } = session);
});
afterAll(() => session.stop());
beforeEach(() => {
  fs.createGroup({ name: users.featureGroupName, recordIdentifier: 'user_id', eventTime: 'event_time', eventTimeType: 'String' });
  fs.createGroup({ name: tools.featureGroupName, recordIdentifier: 'tool_id', eventTime: 'event_time', eventTimeType: 'Fractional' });
  fs.resetCounters();
});

describe('getFeatures', () => {
  test('casts every ValueAsString to its declared type', async () => {
    // GIVEN
    fs.putRecord(users.featureGroupName, { user_id: 'u1', event_time: '2024-05-01T10:00:00.000Z', tool_calls_last_7d: '42', error_rate_last_24h: '0.125', preferred_tool_category: 'search' });
    // WHEN
    const r = await getFeatures(users.featureGroupName, 'u1', { schema: users, client });
    // THEN
    expect(r.found).toBe(true);
    expect(r.features).toEqual({ user_id: 'u1', event_time: '2024-05-01T10:00:00.000Z', tool_calls_last_7d: 42, error_rate_last_24h: 0.125, preferred_tool_category: 'search' });
    expect(fs.requests[0].query.get('RecordIdentifierValueAsString')).toBe('u1');
  });

  test('asks only for featureNames, as repeated FeatureName query parameters', async () => {
    fs.putRecord(users.featureGroupName, { user_id: 'u1', event_time: '2024-05-01T10:00:00.000Z', tool_calls_last_7d: '7' });
    const r = await getFeatures(users.featureGroupName, 'u1', { schema: users, client, featureNames: ['tool_calls_last_7d', 'error_rate_last_24h'], defaults: DEFAULTS });
    expect(fs.requests[0].query.getAll('FeatureName')).toEqual(['tool_calls_last_7d', 'error_rate_last_24h']);
    expect(r.features).toEqual({ tool_calls_last_7d: 7, error_rate_last_24h: 0 });
    expect(r.missingFeatures).toEqual(['error_rate_last_24h']);
  });

  test('a group named by ARN reaches the same group (the ARN travels URL-encoded in the path)', async () => {
    fs.putRecord(users.featureGroupName, { user_id: 'u1', event_time: '2024-05-01T10:00:00.000Z', tool_calls_last_7d: '5' });
    const arn = `arn:aws:sagemaker:us-east-1:123456789012:feature-group/${users.featureGroupName}`;
    const r = await getFeatures(arn, 'u1', { schema: users, client });
    expect(r.features.tool_calls_last_7d).toBe(5);
  });

  test('a record that does not exist returns the cold-start defaults', async () => {
    const r = await getFeatures(users.featureGroupName, 'new-user', { schema: users, client, defaults: DEFAULTS });
    expect(r.found).toBe(false);
    expect(r.features).toEqual({ user_id: 'new-user', event_time: null, ...DEFAULTS });
  });

  test('a feature group that does not exist is an error, not a cold start', async () => {
    const err = await getFeatures('no-such-group', 'u1', { schema: users, client, defaults: DEFAULTS }).catch((e) => e);
    expect(err).toBeInstanceOf(FeatureGroupNotFoundError);
    expect(err.message).toMatch(/'no-such-group' does not exist \(ResourceNotFound\)/);
    expect(err.httpStatusCode).toBe(404);
    expect(err.retryable).toBe(false);
  });

  test('a value that does not parse as its declared type is an error', async () => {
    fs.putRecord(users.featureGroupName, { user_id: 'u1', event_time: '2024-05-01T10:00:00.000Z', tool_calls_last_7d: 'lots' });
    await expect(getFeatures(users.featureGroupName, 'u1', { schema: users, client })).rejects.toThrow(/tool_calls_last_7d: got "lots", expected an Integral/);
  });

  test('fails if a feature name is not in the schema, before any call', async () => {
    await expect(getFeatures(users.featureGroupName, 'u1', { schema: users, client, featureNames: ['nope'] })).rejects.toThrow(/'nope' is not a feature of 'mcp-user-features'/);
    expect(fs.calls.GetRecord).toBe(0);
  });

  test('server errors are classified as retryable', async () => {
    fs.failNext('GetRecord', 'ServiceUnavailable');
    const err = await getFeatures(users.featureGroupName, 'u1', { schema: users, client }).catch((e) => e);
    expect(err.name).toBe('FeatureStoreRequestError');
    expect(err.retryable).toBe(true);
    expect(err.message).toMatch(/GetRecord on feature group 'mcp-user-features' failed: ServiceUnavailable/);
  });

  test('Integral values beyond 2^53 come back exact, as bigint', () => {
    expect(castFeatureValue('Integral', '9223372036854775807')).toBe(9223372036854775807n);
    expect(castFeatureValue('Integral', '-12')).toBe(-12);
    expect(JSON.stringify(jsonSafeFeatures({ big: 9223372036854775807n, n: 1, s: 'x', none: null }))).toBe('{"big":"9223372036854775807","n":1,"s":"x","none":null}');
    expect(() => castFeatureValue('Fractional', 'NaN', 'x')).toThrow(/x: got "NaN", expected a Fractional/);
  });
});

describe('batchGetFeatures', () => {
  const seed = (n: number) => {
    for (let i = 0; i < n; i++) fs.putRecord(users.featureGroupName, { user_id: `u${i}`, event_time: '2024-05-01T10:00:00.000Z', tool_calls_last_7d: String(i) });
    for (let i = 0; i < n; i++) fs.putRecord(tools.featureGroupName, { tool_id: `t${i}`, event_time: '1714557600.000', invocations_last_7d: String(i * 2) });
  };

  test('splits 250 + 250 identifiers into calls of at most 100 records', async () => {
    seed(250);
    const ids = (p: string) => Array.from({ length: 250 }, (_, i) => `${p}${i}`);
    const r = await batchGetFeatures([
      { schema: users, recordIds: ids('u'), featureNames: ['tool_calls_last_7d'] },
      { schema: tools, recordIds: ids('t') },
    ], { client });
    expect(r.calls).toBe(5);
    expect(fs.calls.BatchGetRecord).toBe(5);
    for (const req of fs.requests) {
      const total = req.body.Identifiers.reduce((n: number, i: any) => n + i.RecordIdentifiersValueAsString.length, 0);
      expect(total).toBeLessThanOrEqual(100);
    }
    expect(r.missing).toEqual([]);
    expect(r.features[users.featureGroupName].u249).toEqual({ tool_calls_last_7d: 249 });
    expect(r.features[tools.featureGroupName].t10).toEqual({ tool_id: 't10', event_time: 1714557600, invocations_last_7d: 20 });
  });

  /** `n` groups shaped like `users` (g0, g1, ...), created in the stand-in. */
  const groups = (n: number): FeatureGroupSchema[] => Array.from({ length: n }, (_, i) => {
    fs.createGroup({ name: `g${i}`, recordIdentifier: 'user_id', eventTime: 'event_time', eventTimeType: 'String' });
    return { ...users, featureGroupName: `g${i}` };
  });
  /** The ids each BatchGetRecord call asked for, per group, in call order. */
  const callsAsked = () => fs.requests.map((req) => new Map<string, string[]>(
    req.body.Identifiers.map((i: any) => [i.FeatureGroupName, i.RecordIdentifiersValueAsString])));

  test('never puts more than 10 groups in one call', async () => {
    const r = await batchGetFeatures(groups(12).map((schema) => ({ schema, recordIds: ['x'] })), { client });
    expect(r.calls).toBe(2);
    expect(callsAsked().map((m) => m.size)).toEqual([10, 2]);
  });

  test('interleaved input is grouped by feature group first: 250 ids over 12 groups take 3 calls, not 25', async () => {
    // GIVEN ids arriving round-robin over 12 groups
    const schemas = groups(12);
    const ids = Array.from({ length: 250 }, (_, i) => ({ group: i % 12, id: `id${i}` }));
    // WHEN
    const idsOf = (g: number) => ids.filter((x) => x.group === g).map((x) => x.id);
    const r = await batchGetFeatures(schemas.map((schema, g) => ({ schema, recordIds: idsOf(g) })), { client });
    // THEN the limits hold (the stand-in refuses more, as BatchGetRecord does), every id is asked once, in its group's order
    expect(r.calls).toBe(3);
    const asked = new Map<string, string[]>();
    for (const call of callsAsked()) for (const [g, groupIds] of call) asked.set(g, [...(asked.get(g) ?? []), ...groupIds]);
    schemas.forEach((schema, g) => expect(asked.get(schema.featureGroupName)).toEqual(idsOf(g)));
  });

  test('retries UnprocessedIdentifiers with backoff until they are processed', async () => {
    seed(30);
    fs.unprocessedNext(25);
    const r = await batchGetFeatures([{ schema: users, recordIds: Array.from({ length: 30 }, (_, i) => `u${i}`) }], { client, backoff: { baseDelayMs: 1 } });
    expect(fs.calls.BatchGetRecord).toBe(2);
    expect(fs.requests[1].body.Identifiers[0].RecordIdentifiersValueAsString).toHaveLength(25);
    expect(r.missing).toEqual([]);
    expect(Object.keys(r.features[users.featureGroupName])).toHaveLength(30);
  });

  test('identifiers still unprocessed after the last attempt get defaults and a missing entry', async () => {
    seed(3);
    fs.unprocessedNext(1000);
    const r = await batchGetFeatures([{ schema: users, recordIds: ['u0', 'u1'], defaults: DEFAULTS }], { client, maxAttempts: 3, backoff: { baseDelayMs: 1 } });
    expect(r.calls).toBe(3);
    expect(r.missing.map((m) => [m.recordId, m.reason])).toEqual([['u0', 'Unprocessed'], ['u1', 'Unprocessed']]);
    expect(r.features[users.featureGroupName].u0.tool_calls_last_7d).toBe(0);
    fs.unprocessedNext(0);
  });

  test('Errors and records that do not exist get defaults and are listed in missing', async () => {
    seed(2);
    fs.errorFor(users.featureGroupName, 'u1', 'InternalFailure', 'partition unavailable');
    const r = await batchGetFeatures([{ schema: users, recordIds: ['u0', 'u1', 'ghost'], defaults: DEFAULTS }], { client });
    expect(r.missing).toEqual([
      { featureGroupName: users.featureGroupName, recordId: 'u1', reason: 'Error', errorCode: 'InternalFailure', errorMessage: 'partition unavailable' },
      { featureGroupName: users.featureGroupName, recordId: 'ghost', reason: 'NotFound' },
    ]);
    expect(r.features[users.featureGroupName].ghost).toEqual({ user_id: 'ghost', event_time: null, ...DEFAULTS });
    expect(r.features[users.featureGroupName].u0.tool_calls_last_7d).toBe(0);
  });

  test('a missing record reported in Errors (ResourceNotFound) is handled the same way', async () => {
    const strict = await startFeatureStoreRuntimeServer({ missingRecordsAs: 'error' });
    const c = new SageMakerFeatureStoreRuntimeClient(strict.clientConfig());
    try {
      strict.createGroup({ name: users.featureGroupName, recordIdentifier: 'user_id', eventTime: 'event_time' });
      const r = await batchGetFeatures([{ schema: users, recordIds: ['ghost'], defaults: DEFAULTS }], { client: c });
      expect(r.missing).toEqual([expect.objectContaining({ recordId: 'ghost', reason: 'Error', errorCode: 'ResourceNotFound' })]);
      expect(r.features[users.featureGroupName].ghost.preferred_tool_category).toBe('none');
    } finally {
      c.destroy();
      await strict.stop();
    }
  });

  test('a group named by ARN maps back to its request', async () => {
    seed(1);
    const arn = `arn:aws:sagemaker:us-east-1:123456789012:feature-group/${users.featureGroupName}`;
    const r = await batchGetFeatures([{ featureGroupName: arn, schema: users, recordIds: ['u0'] }], { client });
    expect(r.features[arn].u0.tool_calls_last_7d).toBe(0);
    expect(r.missing).toEqual([]);
  });

  test('a feature group that does not exist is an error', async () => {
    await expect(batchGetFeatures([{ featureGroupName: 'nope', schema: users, recordIds: ['u0'] }], { client })).rejects.toBeInstanceOf(FeatureGroupNotFoundError);
  });
});

describe('putFeatures', () => {
  test('writes typed values and an event time of exactly yyyy-MM-ddTHH:mm:ss.SSSZ', async () => {
    await putFeatures(users.featureGroupName, { user_id: 'u1', tool_calls_last_7d: 3, error_rate_last_24h: 0.5 }, {
      schema: users, client, eventTime: new Date(Date.UTC(2024, 4, 1, 10, 0, 0, 7)), targetStores: ['OnlineStore'],
    });
    const body = fs.requests.find((r) => r.operation === 'PutRecord')!.body;
    expect(body.TargetStores).toEqual(['OnlineStore']);
    expect(body.Record).toEqual(expect.arrayContaining([
      { FeatureName: 'event_time', ValueAsString: '2024-05-01T10:00:00.007Z' },
      { FeatureName: 'tool_calls_last_7d', ValueAsString: '3' },
      { FeatureName: 'error_rate_last_24h', ValueAsString: '0.5' },
    ]));
  });

  test('a partial update keeps the stored features (PutRecord itself is a full over-write)', async () => {
    fs.putRecord(users.featureGroupName, { user_id: 'u1', event_time: '2024-05-01T10:00:00.000Z', tool_calls_last_7d: '3', preferred_tool_category: 'search' });
    await putFeatures(users.featureGroupName, { user_id: 'u1', preferred_tool_category: 'code' }, { schema: users, client });
    const r = await getFeatures(users.featureGroupName, 'u1', { schema: users, client });
    expect(r.features.preferred_tool_category).toBe('code');
    expect(r.features.tool_calls_last_7d).toBe(3);
  });

  test('a Fractional event time is written as epoch seconds with milliseconds', async () => {
    await putFeatures(tools.featureGroupName, { tool_id: 't1', invocations_last_7d: 9 }, { schema: tools, client, eventTime: new Date(Date.UTC(2024, 0, 1, 0, 0, 0, 250)) });
    expect(fs.requests[0].body.Record).toContainEqual({ FeatureName: 'event_time', ValueAsString: '1704067200.250' });
  });

  test('a number means epoch seconds for a Fractional event time, in the record and in options.eventTime alike', async () => {
    await putFeatures(tools.featureGroupName, { tool_id: 't1', event_time: 1704067200.25, invocations_last_7d: 1 }, { schema: tools, client });
    await putFeatures(tools.featureGroupName, { tool_id: 't2', invocations_last_7d: 1 }, { schema: tools, client, eventTime: 1704067200.25 });
    const written = fs.requests.filter((r) => r.body?.Record).map((r) => r.body.Record.find((f: any) => f.FeatureName === 'event_time'));
    expect(written).toEqual([{ FeatureName: 'event_time', ValueAsString: '1704067200.250' }, { FeatureName: 'event_time', ValueAsString: '1704067200.250' }]);
    expect(formatEventTime(1704067200.25, 'Fractional')).toBe('1704067200.250');
    // epoch milliseconds are not silently taken as seconds in the year 55970
    await expect(putFeatures(tools.featureGroupName, { tool_id: 't1' }, { schema: tools, client, eventTime: Date.UTC(2024, 0, 1) })).rejects.toThrow(/after 9999-12-31/);
  });

  test('fails if a String event time is given as a bare number, in the record or in options.eventTime', async () => {
    await expect(putFeatures(users.featureGroupName, { user_id: 'u', event_time: 1704067200 }, { schema: users, client }))
      .rejects.toThrow(/event time: got 1704067200 \(number\), expected a Date or a string/);
    await expect(putFeatures(users.featureGroupName, { user_id: 'u' }, { schema: users, client, eventTime: 1704067200000 }))
      .rejects.toThrow(/eventTime: got 1704067200000 \(number\), expected a Date or an ISO-8601 string \(a bare number is read as epoch seconds, and only for a Fractional event time\)/);
    expect(() => formatEventTime(0)).toThrow(/expected a Date or an ISO-8601 string/);
    expect(fs.requests).toEqual([]);
  });

  test('fails if a value has the wrong type, before any call', async () => {
    const err = await putFeatures(users.featureGroupName, { user_id: 'u1', tool_calls_last_7d: '3' as any, error_rate_last_24h: 1.5, bogus: 1 } as any, { schema: users, client }).catch((e) => e);
    expect(err).toBeInstanceOf(FeatureValueError);
    expect(err.message).toMatch(/tool_calls_last_7d: got '3' \(string\), expected an integer/);
    expect(err.message).toMatch(/'bogus' is not a feature/);
    expect(fs.calls.PutRecord).toBe(0);
  });

  test('fails if the record identifier is missing or an event time string has the wrong format, before any call', async () => {
    const put = (record: Record<string, FeatureScalar>) => putFeatures(users.featureGroupName, record, { schema: users, client });
    await expect(put({ tool_calls_last_7d: 1 })).rejects.toThrow(/record identifier 'user_id' is required/);
    await expect(put({ user_id: 'u', event_time: '2024-05-01T10:00:00.123456Z' })).rejects.toThrow(/event time: got '2024-05-01T10:00:00.123456Z'/);
    await expect(put({ user_id: 'u', tool_calls_last_7d: 1.5 })).rejects.toThrow(/expected an integer/);
    expect(fs.requests).toEqual([]);
  });

  test('a microsecond event time (Python\'s %f) is rejected by the service, ours is accepted', async () => {
    const microsecondTime = '2024-05-01T10:00:00.123456Z';
    await expect(client.send(new PutRecordCommand({
      FeatureGroupName: users.featureGroupName, Record: [{ FeatureName: 'user_id', ValueAsString: 'u' }, { FeatureName: 'event_time', ValueAsString: microsecondTime }],
    }))).rejects.toMatchObject({ name: 'ValidationError' });
    expect(formatEventTime(new Date(microsecondTime))).toBe('2024-05-01T10:00:00.123Z');
  });
});

describe('deleteFeatures', () => {
  test('sends a SoftDelete with the event time by default', async () => {
    fs.putRecord(users.featureGroupName, { user_id: 'u1', event_time: '2024-05-01T10:00:00.000Z' });
    await deleteFeatures(users.featureGroupName, 'u1', { schema: users, client, eventTime: new Date(Date.UTC(2024, 5, 1)) });
    const q = fs.requests[0].query;
    expect(q.get('DeletionMode')).toBe('SoftDelete');
    expect(q.get('EventTime')).toBe('2024-06-01T00:00:00.000Z');
    const r = await getFeatures(users.featureGroupName, 'u1', { schema: users, client, defaults: DEFAULTS });
    expect(r.found).toBe(false);
  });

  test('HardDelete and target stores travel as query parameters', async () => {
    fs.putRecord(tools.featureGroupName, { tool_id: 't1', event_time: '1.000' });
    await deleteFeatures(tools.featureGroupName, 't1', { schema: tools, client, deletionMode: 'HardDelete', targetStores: ['OnlineStore'], eventTime: 2 });
    expect(fs.requests[0].query.get('DeletionMode')).toBe('HardDelete');
    expect(fs.requests[0].query.getAll('TargetStores')).toEqual(['OnlineStore']);
    // a Fractional event time: the number is epoch seconds
    expect(fs.requests[0].query.get('EventTime')).toBe('2.000');
  });

  test('fails if the deletion time is a bare number and the event time is String (or no schema is given), before any call', async () => {
    await expect(deleteFeatures(users.featureGroupName, 'u1', { schema: users, client, eventTime: 1717200000 })).rejects.toThrow(/eventTime: got 1717200000 \(number\), expected a Date or an ISO-8601 string/);
    await expect(deleteFeatures(users.featureGroupName, 'u1', { client, eventTime: 1717200000000 })).rejects.toThrow(/eventTime: got 1717200000000 \(number\)/);
    expect(fs.calls.DeleteRecord ?? 0).toBe(0);
  });
});

describe('schema', () => {
  test('reads schemas from the environment variable the construct sets', () => {
    const schemas = featureGroupSchemasFromEnv({ [FEATURE_GROUP_SCHEMAS_ENV]: JSON.stringify([users, tools]) });
    expect([...schemas.keys()]).toEqual([users.featureGroupName, tools.featureGroupName]);
  });

  test('fails if a schema declares an unknown type or an event time that is not declared', () => {
    expect(() => parseFeatureGroupSchema({ ...users, features: [{ name: 'user_id', type: 'Text' }], eventTime: 'ts' }))
      .toThrow(/features\[0\]\.type: expected one of String, Integral, Fractional, got "Text"; eventTime: expected one of the declared features \(user_id\), got "ts"/);
  });
});
