/**
 * Test helpers for the offline store: a DuckDB fixture shaped like a Feature Store offline table (feature columns +
 * `write_time`, `api_invocation_time`, `is_deleted`), and a local Athena (JSON 1.1) server that runs the SQL it receives
 * in that DuckDB, binding the decoded ExecutionParameters, for the real `@aws-sdk/client-athena`.
 */
import { randomUUID } from 'crypto';
import { createServer, IncomingMessage, ServerResponse } from 'http';
import { AddressInfo } from 'net';
import { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';

export interface FixtureRow {
  readonly user_id: string;
  readonly event_time: string;
  readonly tool_calls_last_7d: number | null;
  readonly error_rate_last_24h: number | null;
  readonly preferred_tool_category: string | null;
  readonly write_time: string;
  readonly api_invocation_time: string;
  readonly is_deleted: boolean;
}

const row = (user_id: string, event_time: string, calls: number | null, write_time: string, is_deleted = false): FixtureRow => ({
  user_id,
  event_time,
  tool_calls_last_7d: calls,
  error_rate_last_24h: calls === null ? null : calls / 100,
  preferred_tool_category: calls === null ? null : `cat-${calls}`,
  write_time,
  api_invocation_time: write_time,
  is_deleted,
});

/**
 * Several versions per record, soft deletes, a tie on event time broken by write_time, a record deleted and written
 * again, an id with a quote in it, and a record with event times in both String formats.
 */
export const FIXTURE: FixtureRow[] = [
  row('u1', '2024-01-01T00:00:00.000Z', 1, '2024-01-01 00:05:00'),
  row('u1', '2024-02-01T00:00:00.000Z', 2, '2024-02-01 00:05:00'),
  row('u1', '2024-03-01T00:00:00.000Z', 3, '2024-03-01 00:05:00'),
  row('u2', '2024-01-15T00:00:00.000Z', 10, '2024-01-15 00:05:00'),
  row('u2', '2024-02-15T00:00:00.000Z', null, '2024-02-15 00:05:00', true),
  row('u3', '2024-01-10T00:00:00.000Z', 5, '2024-01-10 00:05:00'),
  row('u3', '2024-01-10T00:00:00.000Z', 6, '2024-01-10 00:09:00'),
  row('u4', '2024-01-01T00:00:00.000Z', 1, '2024-01-01 00:05:00'),
  row('u4', '2024-01-20T00:00:00.000Z', null, '2024-01-20 00:05:00', true),
  row('u4', '2024-02-10T00:00:00.000Z', 2, '2024-02-10 00:05:00'),
  row("o'brien", '2024-01-05T00:00:00.000Z', 7, '2024-01-05 00:05:00'),
  // Both String event-time formats Feature Store accepts (yyyy-MM-dd'T'HH:mm:ssZ and yyyy-MM-dd'T'HH:mm:ss.SSSZ,
  // https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_CreateFeatureGroup.html): as text, '…:00Z' sorts AFTER '…:00.500Z'. The short-form row
  // is the earlier event but was written later, so only a chronological comparison picks 51 as the latest.
  row('u5', '2024-04-01T00:00:00Z', 50, '2024-04-01 00:10:00'),
  row('u5', '2024-04-01T00:00:00.500Z', 51, '2024-04-01 00:05:00'),
];

export async function openFixture(database = 'sagemaker_featurestore', table = 'mcp_user_features'): Promise<{ connection: DuckDBConnection; close(): void }> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.run(`CREATE SCHEMA "${database}"`);
  await connection.run(`CREATE TABLE "${database}"."${table}" (user_id VARCHAR, event_time VARCHAR, tool_calls_last_7d BIGINT,
    error_rate_last_24h DOUBLE, preferred_tool_category VARCHAR, write_time TIMESTAMP, api_invocation_time TIMESTAMP, is_deleted BOOLEAN)`);
  for (const r of FIXTURE) {
    await connection.run(`INSERT INTO "${database}"."${table}" VALUES (?, ?, ?, ?, ?, CAST(? AS TIMESTAMP), CAST(? AS TIMESTAMP), ?)`,
      [r.user_id, r.event_time, r.tool_calls_last_7d, r.error_rate_last_24h, r.preferred_tool_category,
        r.write_time, r.api_invocation_time, r.is_deleted]);
  }
  return {
    connection,
    close: () => {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

/**
 * Decodes one Athena execution parameter as Athena substitutes it: a single-quoted string literal (quotes doubled
 * inside) or a numeric literal. Anything else is refused, as a malformed literal would be.
 */
export function decodeAthenaLiteral(literal: string): string | number | bigint {
  if (literal.startsWith("'")) {
    if (!/^'([^']|'')*'$/.test(literal)) throw new Error(`malformed string literal: ${literal}`);
    return literal.slice(1, -1).replace(/''/g, "'");
  }
  if (/^[-+]?\d+$/.test(literal)) {
    const n = Number(literal);
    return Number.isSafeInteger(n) ? n : BigInt(literal);
  }
  if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(literal)) return Number(literal);
  throw new Error(`not a literal: ${literal}`);
}

export async function runInDuckDb(connection: DuckDBConnection, sql: string, executionParameters: string[]):
Promise<{ columns: string[]; rows: Array<Array<string | null>> }> {
  const reader = await connection.runAndReadAll(sql, executionParameters.map(decodeAthenaLiteral) as any);
  const rows = reader.getRowsJson().map((r) => r.map((v) => (v === null ? null : String(v))));
  return { columns: reader.columnNames(), rows };
}

export interface LocalAthena {
  readonly endpoint: string;
  readonly calls: Record<string, number>;
  readonly started: Array<{ QueryString: string; ExecutionParameters?: string[] }>;
  clientConfig(): { endpoint: string; region: string; credentials: { accessKeyId: string; secretAccessKey: string }; maxAttempts: number };
  stop(): Promise<void>;
}

/** A local Athena: queries go QUEUED → RUNNING → SUCCEEDED (or FAILED with DuckDB's error) over successive polls. */
export async function startLocalAthena(connection: DuckDBConnection, opts: { pollsBeforeDone?: number } = {}): Promise<LocalAthena> {
  const calls: Record<string, number> = {};
  const started: LocalAthena['started'] = [];
  const executions = new Map<string, { polls: number; error?: string; columns: string[]; rows: Array<Array<string | null>> }>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const op = String(req.headers['x-amz-target'] ?? '').replace('AmazonAthena.', '');
      calls[op] = (calls[op] ?? 0) + 1;
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      const send = (status: number, json: unknown, errorType?: string) => {
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-requestid': randomUUID(), ...(errorType ? { 'x-amzn-errortype': errorType } : {}) });
        res.end(JSON.stringify(errorType ? { __type: errorType, Message: (json as any).message, ...(json as object) } : json));
      };
      const execution = body.QueryExecutionId ? executions.get(body.QueryExecutionId) : undefined;
      if (body.QueryExecutionId && !execution) return send(400, { message: `QueryExecution ${body.QueryExecutionId} was not found` }, 'InvalidRequestException');
      switch (op) {
        case 'StartQueryExecution': {
          started.push(body);
          const id = randomUUID();
          try {
            const result = await runInDuckDb(connection, body.QueryString, body.ExecutionParameters ?? []);
            executions.set(id, { polls: 0, ...result });
          } catch (err) {
            executions.set(id, { polls: 0, error: (err as Error).message, columns: [], rows: [] });
          }
          return send(200, { QueryExecutionId: id });
        }
        case 'GetQueryExecution': {
          const e = execution!;
          e.polls++;
          const done = e.polls > (opts.pollsBeforeDone ?? 2);
          const State = !done ? (e.polls === 1 ? 'QUEUED' : 'RUNNING') : e.error ? 'FAILED' : 'SUCCEEDED';
          const failure = done && e.error ? { StateChangeReason: e.error, AthenaError: { ErrorCategory: 2 } } : {};
          return send(200, { QueryExecution: { QueryExecutionId: body.QueryExecutionId, Status: { State, ...failure } } });
        }
        case 'GetQueryResults': {
          const e = execution!;
          const all = [e.columns, ...e.rows];
          const from = Number(body.NextToken ?? 0);
          const size = body.MaxResults ?? 1000;
          const slice = all.slice(from, from + size);
          const next = from + size < all.length ? String(from + size) : undefined;
          return send(200, {
            ResultSet: {
              ResultSetMetadata: { ColumnInfo: e.columns.map((Name) => ({ Name, Label: Name, Type: 'varchar' })) },
              Rows: slice.map((r) => ({ Data: r.map((v) => (v === null ? {} : { VarCharValue: v })) })),
            },
            ...(next ? { NextToken: next } : {}),
          });
        }
        case 'StopQueryExecution':
          return send(200, {});
        default:
          return send(400, { message: `unknown operation ${op}` }, 'InvalidRequestException');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    calls,
    started,
    clientConfig: () => ({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'AKIDLOCAL', secretAccessKey: 'local' }, maxAttempts: 1 }),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
