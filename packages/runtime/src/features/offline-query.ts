/**
 * Athena SQL over a Feature Store offline store, and a runner for it.
 *
 * Every query excludes soft-deleted rows, and every user value travels as an Athena execution parameter (`?` in the
 * SQL, the value in `ExecutionParameters`), never inside the SQL text. Identifiers (database, table, columns) cannot be
 * parameters: they are checked against the schema and Glue's name pattern, then double-quoted. The SQL stays in the
 * subset that Trino (Athena engine 3) and DuckDB share, so tests run the exact text in DuckDB.
 *
 * Athena accepts `?` only in WHERE clauses [Athena UG, parameterized queries], so LIMIT is a validated integer literal.
 */
import {
  AthenaClient,
  AthenaClientConfig,
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  GetQueryResultsCommandOutput,
  StartQueryExecutionCommand,
  StopQueryExecutionCommand,
} from '@aws-sdk/client-athena';
import { castFeatureValue, FeatureScalar, FeatureValueError, FeatureValues, FeatureValueType, formatEventTime } from './features';
import { FeatureGroupSchema } from '../contract/feature-store';
import { boundedClient, PageGuard } from '../core/bounded';
import { isTransient, SageMakerMcpError } from '../core/errors';

/** A value bound to one `?` of the query. */
export type OfflineQueryValue = string | number | bigint;

export interface OfflineQuery {
  /** The SQL text: only identifiers from the schema and `?` placeholders, never a user value. */
  readonly sql: string;
  /** The values of the `?` placeholders, in order, typed (what a prepared-statement engine such as DuckDB binds). */
  readonly parameters: OfflineQueryValue[];
  /**
   * The same values as Athena `ExecutionParameters`: each a SQL literal (strings single-quoted with `'` doubled,
   * numbers as numeric literals), which Athena substitutes as literals, so a value can never become SQL.
   */
  readonly executionParameters: string[];
  /** The columns the query returns, in order, with their declared types (`write_time` is a timestamp). */
  readonly columns: Array<{ name: string; type: FeatureValueType | 'Timestamp' }>;
}

export interface OfflineQueryOptions {
  readonly schema: FeatureGroupSchema;
  /** The Glue database (FeatureGroup.offlineStoreDatabaseName, or DescribeFeatureGroup `OfflineStoreConfig.DataCatalogConfig.Database`). */
  readonly database: string;
  /** The Glue table (FeatureGroup.offlineStoreTableName, or DescribeFeatureGroup `...DataCatalogConfig.TableName`). */
  readonly table: string;
  /** Columns to return besides the record identifier and event time. @default every feature */
  readonly featureNames?: string[];
  /** Only these records. @default every record */
  readonly recordIds?: string[];
  /**
   * Point-in-time extraction: for each record, the latest row with event time <= asOf (ties broken by the later
   * `write_time`, then `api_invocation_time`), unless that row is a deletion. Times here and in `eventTimeFrom` /
   * `eventTimeTo` are a Date or an ISO-8601 string; a number means epoch seconds and is accepted only when the event
   * time is Fractional (see formatEventTime). @default - history: every live row
   */
  readonly asOf?: Date | number | string;
  /** History only: rows with event time >= this (a Date, an ISO-8601 string, or epoch seconds if Fractional). */
  readonly eventTimeFrom?: Date | number | string;
  /** History only: rows with event time <= this (a Date, an ISO-8601 string, or epoch seconds if Fractional). */
  readonly eventTimeTo?: Date | number | string;
  /** Maximum rows (1-1,000,000). @default no limit */
  readonly limit?: number;
}

const GLUE_NAME = /^[A-Za-z0-9_]{1,255}$/;
const FEATURE_NAME = /^[a-zA-Z0-9]([-_]*[a-zA-Z0-9]){0,63}$/;
const INTEGRAL = /^[-+]?\d+$/;
/** Athena's limit on one execution parameter. */
const MAX_PARAMETER_LENGTH = 1024;

function quote(identifier: string): string {
  return `"${identifier}"`;
}

/**
 * A String event-time column as text that sorts and compares chronologically. Feature Store accepts both
 * `yyyy-MM-ddTHH:mm:ssZ` (20 characters) and `yyyy-MM-ddTHH:mm:ss.SSSZ` (24), and compared as text `…:00Z` sorts after
 * `…:00.500Z`. Padding the short form to `.000Z` makes every value the fixed-width form the parameters are formatted in.
 * (Trino's `from_iso8601_timestamp` would do it too, but DuckDB has no such function; this is in their common subset.)
 */
function comparableEventTime(column: string): string {
  return `CASE WHEN length(${column}) = 20 THEN substr(${column}, 1, 19) || '.000Z' ELSE ${column} END`;
}

/** A SQL literal for Athena ExecutionParameters. */
function athenaLiteral(value: OfflineQueryValue): string {
  if (typeof value === 'string') return `'${value.replace(/'/g, "''")}'`;
  if (typeof value === 'bigint') return value.toString();
  if (!Number.isFinite(value)) throw new FeatureValueError(`query parameter: got ${value}, expected a finite number`);
  return String(value);
}

/** Builds the query; throws FeatureValueError for an unknown feature, a bad identifier or a value of the wrong type. */
export function buildOfflineQuery(options: OfflineQueryOptions): OfflineQuery {
  const { schema } = options;
  const problems: string[] = [];
  const typeOf = (name: string) => schema.features.find((f) => f.name === name)?.type as FeatureValueType | undefined;
  if (!GLUE_NAME.test(options.database)) problems.push(`database: got '${options.database}', expected 1-255 letters, digits or underscores`);
  if (!GLUE_NAME.test(options.table)) problems.push(`table: got '${options.table}', expected 1-255 letters, digits or underscores`);
  const wanted = options.featureNames ?? schema.features.map((f) => f.name);
  const columns = [...new Set([schema.recordIdentifier, schema.eventTime, ...wanted])];
  for (const name of columns) {
    if (!typeOf(name)) problems.push(`featureNames: '${name}' is not a feature of '${schema.featureGroupName}'`);
    else if (!FEATURE_NAME.test(name)) problems.push(`featureNames: '${name}' is not a valid feature name`);
  }
  if (options.asOf !== undefined && (options.eventTimeFrom !== undefined || options.eventTimeTo !== undefined)) {
    problems.push('asOf cannot be combined with eventTimeFrom/eventTimeTo (a point-in-time query takes the latest row before asOf)');
  }
  if (options.limit !== undefined && (!Number.isInteger(options.limit) || options.limit < 1 || options.limit > 1_000_000)) {
    problems.push(`limit: got ${options.limit}, expected an integer between 1 and 1000000`);
  }
  if (options.recordIds !== undefined && options.recordIds.length === 0) problems.push('recordIds: got an empty list, expected at least one id (or leave it out)');
  if (problems.length) throw new FeatureValueError(`Invalid offline query on '${schema.featureGroupName}': ${problems.join('; ')}`);

  const etType = typeOf(schema.eventTime)!;
  const idType = typeOf(schema.recordIdentifier)!;
  // What event times are compared and ordered by: Fractional is numeric already; String needs one width.
  const et = etType === 'String' ? comparableEventTime(quote(schema.eventTime)) : quote(schema.eventTime);
  const eventTime = (t: Date | number | string): OfflineQueryValue => {
    const formatted = formatEventTime(t, etType);
    return etType === 'Fractional' ? Number(formatted) : formatted;
  };
  // Conditions in the order they appear in the text, each with the values of its placeholders.
  const conditions: Array<{ sql: string; values: OfflineQueryValue[] }> = [];
  const idCondition = options.recordIds && {
    sql: `${quote(schema.recordIdentifier)} IN (${options.recordIds.map(() => '?').join(', ')})`,
    values: options.recordIds.map((id) => recordIdParameter(idType, id, schema.recordIdentifier)),
  };
  const table = `${quote(options.database)}.${quote(options.table)}`;
  const select = columns.map(quote).join(', ');
  let sql: string;
  if (options.asOf !== undefined) {
    conditions.push({ sql: `${et} <= ?`, values: [eventTime(options.asOf)] });
    if (idCondition) conditions.push(idCondition);
    // Deleted rows take part in the ranking, so a record deleted before asOf stays deleted instead of showing its
    // previous version; they are dropped after it.
    sql = [
      `SELECT ${select}, "write_time"`,
      'FROM (',
      `  SELECT ${select}, "write_time", "is_deleted",`,
      `    ROW_NUMBER() OVER (PARTITION BY ${quote(schema.recordIdentifier)} ORDER BY ${et} DESC, "write_time" DESC, "api_invocation_time" DESC) AS "row_rank"`,
      `  FROM ${table}`,
      `  WHERE ${conditions.map((c) => c.sql).join(' AND ')}`,
      ') AS "as_of"',
      'WHERE "row_rank" = 1 AND NOT "is_deleted"',
      `ORDER BY ${quote(schema.recordIdentifier)}`,
    ].join('\n');
  } else {
    conditions.push({ sql: 'NOT "is_deleted"', values: [] });
    if (idCondition) conditions.push(idCondition);
    if (options.eventTimeFrom !== undefined) conditions.push({ sql: `${et} >= ?`, values: [eventTime(options.eventTimeFrom)] });
    if (options.eventTimeTo !== undefined) conditions.push({ sql: `${et} <= ?`, values: [eventTime(options.eventTimeTo)] });
    sql = [
      `SELECT ${select}, "write_time"`,
      `FROM ${table}`,
      `WHERE ${conditions.map((c) => c.sql).join(' AND ')}`,
      `ORDER BY ${quote(schema.recordIdentifier)}, ${et}, "write_time"`,
    ].join('\n');
  }
  const parameters = conditions.flatMap((c) => c.values);
  if (options.limit !== undefined) sql += `\nLIMIT ${options.limit}`;
  const executionParameters = parameters.map(athenaLiteral);
  const tooLong = executionParameters.find((p) => p.length > MAX_PARAMETER_LENGTH);
  if (tooLong) throw new FeatureValueError(`query parameter ${tooLong.slice(0, 40)}...: longer than Athena's ${MAX_PARAMETER_LENGTH} characters`);
  return {
    sql,
    parameters,
    executionParameters,
    columns: [...columns.map((name) => ({ name, type: typeOf(name)! })), { name: 'write_time', type: 'Timestamp' as const }],
  };
}

function recordIdParameter(type: FeatureValueType, id: string, name: string): OfflineQueryValue {
  if (type === 'String') return id;
  if (type === 'Integral') {
    if (!INTEGRAL.test(id)) throw new FeatureValueError(`recordIds: got '${id}', expected an Integral ${name}`);
    const n = Number(id);
    return Number.isSafeInteger(n) ? n : BigInt(id);
  }
  return castFeatureValue('Fractional', id, name) as number;
}

// ---------------------------------------------------------------------------------------------------------------
// Running on Athena
// ---------------------------------------------------------------------------------------------------------------

/** The query failed, was cancelled, or did not finish in time. */
export class OfflineQueryError extends SageMakerMcpError {
  public readonly name = 'OfflineQueryError';
  public readonly retryable: boolean;
  public constructor(message: string, public readonly queryExecutionId: string | undefined, retryable: boolean, cause?: unknown) {
    super(message, { code: 'OfflineQueryError', cause });
    this.retryable = retryable;
  }
}

export interface RunOfflineQueryOptions {
  /** An Athena client, or the config to build one (endpoint, region, credentials). */
  readonly athena?: AthenaClient;
  readonly athenaConfig?: AthenaClientConfig;
  /** @default 'primary' */
  readonly workGroup?: string;
  /** S3 URI for results, unless the workgroup sets one. */
  readonly outputLocation?: string;
  /** @default 'AwsDataCatalog' */
  readonly catalog?: string;
  /** The database for unqualified names (the query qualifies its table anyway). */
  readonly database?: string;
  /** First poll delay; later ones grow 1.5x up to `maxPollMs`. @default 250 */
  readonly pollMs?: number;
  /** @default 5000 */
  readonly maxPollMs?: number;
  /** Give up (and stop the query) after this long. @default 300000 */
  readonly timeoutMs?: number;
  /** Stop reading after this many rows. @default all */
  readonly maxRows?: number;
  /** Rows per GetQueryResults page (1-1000). @default 1000 */
  readonly pageSize?: number;
  /** GetQueryResults pages read at most; the result then says `truncated`. @default 1000 */
  readonly maxPages?: number;
}

export interface OfflineQueryResult {
  readonly queryExecutionId: string;
  /** Rows with values cast to their declared types; `write_time` stays a string; NULL is null. */
  readonly rows: Array<FeatureValues & { write_time?: string | null }>;
  /** True when `maxRows` or `maxPages` cut the result short, or Athena repeated a page token. */
  readonly truncated: boolean;
  /** GetQueryResults calls made. */
  readonly pages: number;
}

/** Starts the query on Athena with its execution parameters, waits with backoff, and pages through the results. */
export async function runOfflineQuery(query: OfflineQuery, options: RunOfflineQueryOptions = {}): Promise<OfflineQueryResult> {
  const athena = options.athena ?? boundedClient(AthenaClient, options.athenaConfig ?? {});
  const start = await athena.send(new StartQueryExecutionCommand({
    QueryString: query.sql,
    ExecutionParameters: query.executionParameters.length ? query.executionParameters : undefined,
    WorkGroup: options.workGroup ?? 'primary',
    QueryExecutionContext: { Catalog: options.catalog ?? 'AwsDataCatalog', Database: options.database },
    ResultConfiguration: options.outputLocation ? { OutputLocation: options.outputLocation } : undefined,
  })).catch((err) => {
    throw new OfflineQueryError(`Athena refused the query: ${(err as Error).name}: ${(err as Error).message}`, undefined, isTransient(err), err);
  });
  const id = start.QueryExecutionId!;
  await waitForQuery(athena, id, options);

  const rows: OfflineQueryResult['rows'] = [];
  const types = new Map(query.columns.map((c) => [c.name.toLowerCase(), c]));
  const maxRows = options.maxRows ?? Infinity;
  let token: string | undefined;
  let pages = 0;
  let header: string[] | undefined;
  // A page cap, and a stop on a repeated token (which would otherwise loop for ever).
  const guard = new PageGuard('GetQueryResults', options.maxPages ?? 1000);
  do {
    const request = { QueryExecutionId: id, NextToken: token, MaxResults: options.pageSize ?? 1000 };
    const page: GetQueryResultsCommandOutput = await athena.send(new GetQueryResultsCommand(request));
    pages++;
    header ??= (page.ResultSet?.ResultSetMetadata?.ColumnInfo ?? []).map((c) => c.Name ?? c.Label ?? '');
    let data = page.ResultSet?.Rows ?? [];
    // For a SELECT, the first row of the first page repeats the column names.
    if (pages === 1 && data.length && data[0].Data?.every((d, i) => d.VarCharValue === header![i])) data = data.slice(1);
    for (const row of data) {
      if (rows.length >= maxRows) return { queryExecutionId: id, rows, truncated: true, pages };
      const out: Record<string, FeatureScalar | null> = {};
      (row.Data ?? []).forEach((d, i) => {
        const column = types.get(header![i].toLowerCase());
        const name = column?.name ?? header![i];
        if (d.VarCharValue === undefined) out[name] = null;
        else if (!column || column.type === 'Timestamp') out[name] = d.VarCharValue;
        else out[name] = castFeatureValue(column.type, d.VarCharValue, name);
      });
      rows.push(out);
    }
    token = guard.next(page.NextToken);
  } while (token);
  if (guard.truncated) return { queryExecutionId: id, rows, truncated: true, pages };
  return { queryExecutionId: id, rows, truncated: false, pages };
}

async function waitForQuery(athena: AthenaClient, id: string, options: RunOfflineQueryOptions): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 300_000);
  let delay = options.pollMs ?? 250;
  for (;;) {
    const { QueryExecution } = await athena.send(new GetQueryExecutionCommand({ QueryExecutionId: id }));
    const state = QueryExecution?.Status?.State;
    if (state === 'SUCCEEDED') return;
    if (state === 'FAILED' || state === 'CANCELLED') {
      const reason = QueryExecution?.Status?.StateChangeReason ?? 'no reason given';
      const category = QueryExecution?.Status?.AthenaError?.ErrorCategory;
      // ErrorCategory 1 = system error (retryable); 2 = user error; 3 = other.
      throw new OfflineQueryError(`Athena query ${id} ${state}: ${reason}`, id, category === 1);
    }
    if (Date.now() + delay > deadline) {
      await athena.send(new StopQueryExecutionCommand({ QueryExecutionId: id })).catch(() => undefined);
      throw new OfflineQueryError(`Athena query ${id} did not finish within ${options.timeoutMs ?? 300_000} ms (last state ${state}); it was stopped`, id, true);
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(options.maxPollMs ?? 5_000, Math.ceil(delay * 1.5));
  }
}
