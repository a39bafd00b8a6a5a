import { AthenaClient } from '@aws-sdk/client-athena';
import { DuckDBConnection } from '@duckdb/node-api';
import { decodeAthenaLiteral, LocalAthena, openFixture, runInDuckDb, startLocalAthena } from './athena-duckdb';
import { FeatureGroupSchema } from '../../src/feature-store/contract';
import { FeatureValueError } from '../../src/runtime/features';
import { athenaLiteral, buildOfflineQuery, OfflineQueryError, runOfflineQuery } from '../../src/runtime/offline-query';

const schema: FeatureGroupSchema = {
  featureGroupName: 'mcp-user-features',
  recordIdentifier: 'user_id',
  eventTime: 'event_time',
  features: [
    { name: 'user_id', type: 'String' },
    { name: 'event_time', type: 'String' },
    { name: 'tool_calls_last_7d', type: 'Integral' },
    { name: 'error_rate_last_24h', type: 'Fractional' },
    { name: 'preferred_tool_category', type: 'String' },
  ],
};
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
    const q = buildOfflineQuery({ ...table, recordIds: ['u1'], eventTimeFrom: 0, eventTimeTo: Date.UTC(2025, 0, 1), limit: 10 });
    for (const line of q.sql.split('\n').filter((l) => l.includes('?'))) expect(line.trim()).toMatch(/^WHERE /);
    expect(q.sql).toMatch(/WHERE NOT "is_deleted" AND "user_id" IN \(\?\) AND "event_time" >= \? AND "event_time" <= \?/);
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

  test('fails if an Integral record id is not an integer', () => {
    const intSchema: FeatureGroupSchema = { ...schema, features: [{ name: 'user_id', type: 'Integral' }, { name: 'event_time', type: 'String' }] };
    expect(() => buildOfflineQuery({ ...table, schema: intSchema, recordIds: ['1 OR 1=1'] })).toThrow(/recordIds: got '1 OR 1=1', expected an Integral user_id/);
    expect(buildOfflineQuery({ ...table, schema: intSchema, recordIds: ['42'] }).executionParameters).toEqual(['42']);
  });

  test('Athena literals round-trip, quotes included', () => {
    for (const v of ["o'brien", "''", 'plain', '\\', 42, -1.5, 9007199254740993n]) expect(decodeAthenaLiteral(athenaLiteral(v))).toEqual(v);
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

  test('the same attempt against the seed\'s interpolated SQL returns every record (what the parameters prevent)', async () => {
    const userId = "x' OR '1'='1";
    const seedSql = `SELECT user_id FROM "sagemaker_featurestore"."mcp_user_features" WHERE user_id = '${userId}' AND NOT is_deleted`;
    const { rows } = await runInDuckDb(db.connection, seedSql, []);
    expect(new Set(rows.map((r) => r[0])).size).toBe(5);
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
