import { AthenaClient } from '@aws-sdk/client-athena';
import { decodeAthenaLiteral, LocalAthena, openFixture, runInDuckDb, startLocalAthena } from '@cdk-sagemaker-mcp/test-stand-ins/athena-duckdb';
import { DuckDBConnection } from '@duckdb/node-api';
import { MCP_USER_FEATURES_WITH_CATEGORY } from '../support/feature-schemas';
import { FeatureValueError, buildOfflineQuery, OfflineQueryError, runOfflineQuery } from 'cdk-sagemaker-mcp-runtime/features';
import { FeatureGroupSchema } from 'cdk-sagemaker-mcp-runtime/internal/contract';

const schema = MCP_USER_FEATURES_WITH_CATEGORY;
const table = { schema, database: 'sagemaker_featurestore', table: 'mcp_user_features' };

let db: { connection: DuckDBConnection; close(): void };
beforeAll(async () => {
  db = await openFixture();
});
afterAll(() => db.close());

/** Runs the generated SQL in DuckDB, binding the very execution parameters Athena would get; returns id → calls. */
async function asOf(time: string, extra: Partial<Parameters<typeof buildOfflineQuery>[0]> = {}): Promise<Record<string, string | null>> {
  const q = buildOfflineQuery({ ...table, featureNames: ['tool_calls_last_7d'], asOf: time, ...extra });
  const { rows } = await runInDuckDb(db.connection, q.sql, q.executionParameters);
  return Object.fromEntries(rows.map((r) => [r[0]!, r[2]]));
}

describe('buildOfflineQuery', () => {
  test('puts every value in execution parameters and none in the SQL text', () => {
    const q = buildOfflineQuery({ ...table, recordIds: ["x' OR '1'='1", 'u1'], asOf: '2024-02-10T00:00:00Z' });
    expect(q.sql).not.toContain("x'");
    expect(q.sql).not.toContain('2024');
    expect(q.sql.match(/\?/g)).toHaveLength(3);
    expect(q.executionParameters).toEqual(["'2024-02-10T00:00:00.000Z'", "'x'' OR ''1''=''1'", "'u1'"]);
    expect(q.parameters).toEqual(['2024-02-10T00:00:00.000Z', "x' OR '1'='1", 'u1']);
  });

  test('placeholders sit only in WHERE clauses (Athena accepts them nowhere else)', () => {
    const q = buildOfflineQuery({ ...table, recordIds: ['u1'], eventTimeFrom: new Date(0), eventTimeTo: new Date(Date.UTC(2025, 0, 1)), limit: 10 });
    for (const line of q.sql.split('\n').filter((l) => l.includes('?'))) expect(line.trim()).toMatch(/^WHERE /);
    const et = 'CASE WHEN length("event_time") = 20 THEN substr("event_time", 1, 19) || \'.000Z\' ELSE "event_time" END';
    expect(q.sql).toContain(`WHERE NOT "is_deleted" AND "user_id" IN (?) AND ${et} >= ? AND ${et} <= ?`);
    expect(q.sql).toMatch(/\nLIMIT 10$/);
  });

  test('fails if a feature, the database or the table is not a safe identifier', () => {
    expect(() => buildOfflineQuery({ ...table, featureNames: ['x" FROM secrets --'] })).toThrow(FeatureValueError);
    expect(() => buildOfflineQuery({ ...table, table: 'users"; DROP TABLE x' })).toThrow(/table: got 'users"; DROP TABLE x', expected 1-255 letters, digits or underscores/);
    expect(() => buildOfflineQuery({ ...table, database: 'a.b' })).toThrow(/database: got 'a.b'/);
  });

  test('fails if limit is not an integer in range, or asOf is combined with a range', () => {
    expect(() => buildOfflineQuery({ ...table, limit: 0 })).toThrow(/limit: got 0, expected an integer between 1 and 1000000/);
    expect(() => buildOfflineQuery({ ...table, asOf: 0, eventTimeFrom: 0 })).toThrow(/asOf cannot be combined/);
  });

  test('fails if a time is a bare number and the event time is String (seconds or milliseconds?)', () => {
    for (const bad of [{ asOf: 1704067200 }, { eventTimeFrom: 0 }, { eventTimeTo: Date.UTC(2025, 0, 1) }]) {
      expect(() => buildOfflineQuery({ ...table, ...bad })).toThrow(/eventTime: got \d+ \(number\), expected a Date or an ISO-8601 string \(a bare number is read as epoch seconds, and only for a Fractional event time\)/);
    }
  });

  test('with a Fractional event time a number is epoch seconds, like a Date or an ISO string for the same instant', () => {
    const fractional: FeatureGroupSchema = { ...schema, features: schema.features.map((f) => (f.name === 'event_time' ? { ...f, type: 'Fractional' } : f)) };
    const params = (time: Date | number | string) => buildOfflineQuery({ ...table, schema: fractional, asOf: time }).parameters;
    expect(params(1704067200.25)).toEqual([1704067200.25]);
    expect(params(new Date(Date.UTC(2024, 0, 1, 0, 0, 0, 250)))).toEqual([1704067200.25]);
    expect(params('2024-01-01T00:00:00.250Z')).toEqual([1704067200.25]);
    // Fractional compares numerically: no text normalisation
    expect(buildOfflineQuery({ ...table, schema: fractional, asOf: 1 }).sql).toContain('"event_time" <= ?');
  });

  test('fails if an Integral record id is not an integer', () => {
    const intSchema: FeatureGroupSchema = { ...schema, features: [{ name: 'user_id', type: 'Integral' }, { name: 'event_time', type: 'String' }] };
    expect(() => buildOfflineQuery({ ...table, schema: intSchema, recordIds: ['1 OR 1=1'] })).toThrow(/recordIds: got '1 OR 1=1', expected an Integral user_id/);
    expect(buildOfflineQuery({ ...table, schema: intSchema, recordIds: ['42'] }).executionParameters).toEqual(['42']);
  });

  test('each Athena execution parameter is its typed parameter as a literal, quotes included', () => {
    const fractional: FeatureGroupSchema = { ...schema, features: schema.features.map((f) => (f.name === 'event_time' ? { ...f, type: 'Fractional' } : f)) };
    const integral: FeatureGroupSchema = { ...schema, features: [{ name: 'user_id', type: 'Integral' }, { name: 'event_time', type: 'String' }] };
    const strings = buildOfflineQuery({ ...table, recordIds: ["o'brien", "''", 'plain', '\\'] });
    const numbers = buildOfflineQuery({ ...table, schema: fractional, asOf: -1.5 });
    const integers = buildOfflineQuery({ ...table, schema: integral, recordIds: ['42', '9007199254740993'] });
    expect(strings.parameters).toEqual(expect.arrayContaining(["o'brien", "''", 'plain', '\\']));
    expect([numbers.parameters, integers.parameters]).toEqual([[-1.5], [42, 9007199254740993n]]);
    for (const q of [strings, numbers, integers]) {
      expect(q.executionParameters.map(decodeAthenaLiteral)).toEqual(q.parameters);
    }
  });
});

describe('the generated SQL in DuckDB (common subset with Trino)', () => {
  test('as of a time: the latest version per record, with event_time <= asOf inclusive', async () => {
    expect(await asOf('2024-02-10T00:00:00.000Z')).toEqual({ "o'brien": '7', 'u1': '2', 'u2': '10', 'u3': '6', 'u4': '2' });
  });

  test('a tie on event time is broken by the later write_time', async () => {
    expect((await asOf('2024-01-10T00:00:00.000Z')).u3).toBe('6');
  });

  test('a record soft-deleted before asOf is absent, not its previous version', async () => {
    const after = await asOf('2024-02-20T00:00:00.000Z');
    expect(after).not.toHaveProperty('u2');
    expect(after.u1).toBe('2');
    const between = await asOf('2024-01-25T00:00:00.000Z');
    expect(between).not.toHaveProperty('u4');
    expect(between.u2).toBe('10');
  });

  test('before any event, nothing', async () => {
    expect(await asOf('2023-12-31T00:00:00.000Z')).toEqual({});
  });

  test('history excludes is_deleted rows and keeps every live version', async () => {
    const q = buildOfflineQuery({ ...table, recordIds: ['u1', 'u2', 'u4'], featureNames: ['tool_calls_last_7d'] });
    const { rows } = await runInDuckDb(db.connection, q.sql, q.executionParameters);
    expect(rows.map((r) => `${r[0]}:${r[2]}`)).toEqual(['u1:1', 'u1:2', 'u1:3', 'u2:10', 'u4:1', 'u4:2']);
  });

  test('both String formats compare as instants: the as-of boundary is inclusive for a row without milliseconds', async () => {
    // the row at 00:00:00Z is exactly at asOf (sent as 00:00:00.000Z): included
    expect((await asOf('2024-04-01T00:00:00.000Z')).u5).toBe('50');
    // 250 ms later: still that row, the .500Z one is in the future
    expect((await asOf('2024-04-01T00:00:00.250Z')).u5).toBe('50');
    // one millisecond before: nothing yet
    expect(await asOf('2024-03-31T23:59:59.999Z')).not.toHaveProperty('u5');
  });

  test('both String formats order as instants: the latest is the .500Z row, and history lists them in time order', async () => {
    expect((await asOf('2024-04-02T00:00:00.000Z')).u5).toBe('51');
    const q = buildOfflineQuery({ ...table, recordIds: ['u5'], featureNames: ['tool_calls_last_7d'] });
    const { rows } = await runInDuckDb(db.connection, q.sql, q.executionParameters);
    expect(rows.map((r) => `${r[1]}:${r[2]}`)).toEqual(['2024-04-01T00:00:00Z:50', '2024-04-01T00:00:00.500Z:51']);
    // a range ending at the short-form instant includes it
    const range = buildOfflineQuery({ ...table, recordIds: ['u5'], eventTimeFrom: '2024-04-01T00:00:00Z', eventTimeTo: '2024-04-01T00:00:00Z', featureNames: [] });
    expect((await runInDuckDb(db.connection, range.sql, range.executionParameters)).rows.map((r) => r[1])).toEqual(['2024-04-01T00:00:00Z']);
  });

  test('history within an event time range', async () => {
    const q = buildOfflineQuery({ ...table, recordIds: ['u1'], eventTimeFrom: '2024-01-15T00:00:00Z', eventTimeTo: '2024-02-01T00:00:00Z', featureNames: [] });
    const { rows } = await runInDuckDb(db.connection, q.sql, q.executionParameters);
    expect(rows.map((r) => r[1])).toEqual(['2024-02-01T00:00:00.000Z']);
  });

  test('an injection attempt in a record id stays data', async () => {
    expect(await asOf('2024-12-31T00:00:00.000Z', { recordIds: ["x' OR '1'='1"] })).toEqual({});
    expect(await asOf('2024-12-31T00:00:00.000Z', { recordIds: ["u1' --"] })).toEqual({});
    expect(await asOf('2024-12-31T00:00:00.000Z', { recordIds: ["o'brien"] })).toEqual({ "o'brien": '7' });
  });

  test('the same attempt against SQL with the id interpolated into the string returns every record (what the parameters prevent)', async () => {
    const userId = "x' OR '1'='1";
    const interpolatedSql = `SELECT user_id FROM "sagemaker_featurestore"."mcp_user_features" WHERE user_id = '${userId}' AND NOT is_deleted`;
    const { rows } = await runInDuckDb(db.connection, interpolatedSql, []);
    expect(new Set(rows.map((r) => r[0])).size).toBe(6);
  });
});

describe('runOfflineQuery against a local Athena backed by DuckDB', () => {
  let athena: LocalAthena;
  let client: AthenaClient;
  beforeAll(async () => {
    athena = await startLocalAthena(db.connection);
    client = new AthenaClient(athena.clientConfig());
  });
  afterAll(async () => {
    client.destroy();
    await athena.stop();
  });

  test('starts with ExecutionParameters, waits with backoff, pages and casts', async () => {
    const q = buildOfflineQuery({ ...table, asOf: '2024-02-10T00:00:00.000Z' });
    const r = await runOfflineQuery(q, { athena: client, pollMs: 5, pageSize: 2, workGroup: 'features', outputLocation: 's3://results/x/' });
    const started = athena.started[athena.started.length - 1];
    expect(started.ExecutionParameters).toEqual(["'2024-02-10T00:00:00.000Z'"]);
    expect(started.QueryString).toBe(q.sql);
    expect(r.pages).toBe(3);
    expect(r.rows).toHaveLength(5);
    expect(r.rows.find((x) => x.user_id === 'u3')).toEqual({
      user_id: 'u3',
      event_time: '2024-01-10T00:00:00.000Z',
      tool_calls_last_7d: 6,
      error_rate_last_24h: 0.06,
      preferred_tool_category: 'cat-6',
      write_time: expect.stringMatching(/^2024-01-10.00:09:00/),
    });
  });

  test('maxRows cuts the result short and says so', async () => {
    const r = await runOfflineQuery(buildOfflineQuery(table), { athena: client, pollMs: 1, maxRows: 3, pageSize: 2 });
    expect(r.rows).toHaveLength(3);
    expect(r.truncated).toBe(true);
  });

  test('maxPages caps the pages read and says the result is truncated', async () => {
    const r = await runOfflineQuery(buildOfflineQuery(table), { athena: client, pollMs: 1, pageSize: 2, maxPages: 2 });
    expect(r.pages).toBe(2);
    expect(r.rows).toHaveLength(3); // the first page's first row is the header
    expect(r.truncated).toBe(true);
  });

  test('a failed query raises OfflineQueryError with the reason', async () => {
    const bad = { ...buildOfflineQuery(table), sql: 'SELECT * FROM "sagemaker_featurestore"."missing_table" WHERE 1 = ?', executionParameters: ['1'] };
    const err = await runOfflineQuery(bad, { athena: client, pollMs: 1 }).catch((e) => e);
    expect(err).toBeInstanceOf(OfflineQueryError);
    expect(err.message).toMatch(/FAILED: .*missing_table/);
    expect(err.retryable).toBe(false);
  });

  test('a query that does not finish in time is stopped', async () => {
    const slow = await startLocalAthena(db.connection, { pollsBeforeDone: 1000 });
    const c = new AthenaClient(slow.clientConfig());
    try {
      const err = await runOfflineQuery(buildOfflineQuery(table), { athena: c, pollMs: 5, timeoutMs: 50 }).catch((e) => e);
      expect(err).toBeInstanceOf(OfflineQueryError);
      expect(err.message).toMatch(/did not finish within 50 ms/);
      expect(slow.calls.StopQueryExecution).toBe(1);
    } finally {
      c.destroy();
      await slow.stop();
    }
  });
});
