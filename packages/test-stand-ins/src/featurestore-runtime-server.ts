/**
 * A local, protocol-faithful stand-in for the SageMaker Feature Store runtime (rest-json, as the Feature Store runtime API reference
 * describes it: https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_Operations_Amazon_SageMaker_Feature_Store_Runtime.html) that the REAL
 * `@aws-sdk/client-sagemaker-featurestore-runtime` talks to over HTTP on 127.0.0.1 (random port).
 *
 * ```ts
 * const fs = await startFeatureStoreRuntimeServer();
 * fs.createGroup({ name: 'users', recordIdentifier: 'user_id', eventTime: 'event_time', eventTimeType: 'String' });
 * fs.putRecord('users', { user_id: 'u1', event_time: '2024-01-01T00:00:00.000Z', calls: '3' });
 * const client = new SageMakerFeatureStoreRuntimeClient(fs.clientConfig());
 * ... call the SDK ...
 * fs.calls.BatchGetRecord; fs.requests; await fs.stop();
 * ```
 *
 * Routes:
 * - `GET /FeatureGroup/{name}?RecordIdentifierValueAsString=&FeatureName=*&ExpirationTimeResponse=`  GetRecord
 *   (200; `{}` for a missing record, `{"Record":[...]}` otherwise)
 * - `PUT /FeatureGroup/{name}` body `{Record, TargetStores, TtlDuration}`  PutRecord (200; a full over-write of the
 *   online record, unless the stored record has a greater event time, in which case only the offline log gets the row)
 * - `POST /FeatureGroup/{name}/Record` body `{RecordIdentifierValueAsString, Features, TargetStores, TtlDuration}`
 *   UpdateRecord (200; only on `Standard_V2` and `InMemory` online stores; the record must exist)
 * - `DELETE /FeatureGroup/{name}?RecordIdentifierValueAsString=&EventTime=&TargetStores=*&DeletionMode=`  DeleteRecord
 * - `POST /BatchGetRecord` body `{Identifiers:[{FeatureGroupName, RecordIdentifiersValueAsString, FeatureNames}]}`
 *   (200; `Records`, `Errors`, `UnprocessedIdentifiers`, all always present)
 * A group name may be an ARN (`arn:...:feature-group/<name>`). Errors: status + `x-amzn-errortype` header + JSON body
 * `{"message": ...}`: ValidationError 400, ResourceNotFound 404 (missing group), and any scripted one.
 *
 * Fault injection: `unprocessedNext(n)` marks the first n identifiers of the next BatchGetRecord calls as unprocessed
 * (decrementing), `errorFor(group, id, code, message)` reports that record in `Errors`, `failNext(op, errorName)`
 * answers the next call of `op` with that error, `missingRecordsAs` chooses how BatchGetRecord reports a record that does
 * not exist ('absent': left out; 'error': an `Errors` entry with `ResourceNotFound`), `latencyMs` delays every answer.
 */
import { randomUUID } from 'crypto';
import { createServer, IncomingMessage, ServerResponse } from 'http';
import { AddressInfo, Socket } from 'net';
import { SageMakerFeatureStoreRuntimeClient } from '@aws-sdk/client-sagemaker-featurestore-runtime';

export const FS_REGION = 'us-east-1';
export const FS_CREDENTIALS = { accessKeyId: 'AKIDLOCAL', secretAccessKey: 'local-secret' };

export const FS_ERRORS = {
  ValidationError: 400,
  AccessForbidden: 403,
  ResourceNotFound: 404,
  ConflictException: 409,
  InternalFailure: 500,
  ServiceUnavailable: 503,
} as const;
export type FsErrorName = keyof typeof FS_ERRORS;
export type FsOperation = 'GetRecord' | 'PutRecord' | 'UpdateRecord' | 'DeleteRecord' | 'BatchGetRecord';

export interface LocalGroup {
  readonly name: string;
  readonly recordIdentifier: string;
  readonly eventTime: string;
  readonly eventTimeType?: 'String' | 'Fractional';
  /** The online store's `StorageType`. @default 'Standard' */
  readonly onlineStorageType?: 'Standard' | 'Standard_V2' | 'InMemory';
}

/** One row the offline store would receive (every accepted PutRecord / UpdateRecord that targets it). */
export interface OfflineRow {
  readonly operation: 'PutRecord' | 'UpdateRecord';
  readonly values: Record<string, string>;
}

export interface FsRecordedRequest {
  readonly operation: FsOperation;
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly body: any;
}

export interface FeatureStoreServerOptions {
  /** Delay before every answer (a network round trip). @default 0 */
  readonly latencyMs?: number;
  /** How BatchGetRecord reports a record that does not exist. @default 'absent' */
  readonly missingRecordsAs?: 'absent' | 'error';
}

export interface FeatureStoreRuntimeServer {
  readonly endpoint: string;
  /** Calls received per operation. */
  readonly calls: Record<FsOperation, number>;
  readonly requests: FsRecordedRequest[];
  clientConfig(extra?: Record<string, unknown>): { endpoint: string; region: string; credentials: typeof FS_CREDENTIALS };
  createGroup(group: LocalGroup): void;
  putRecord(group: string, values: Record<string, string>): void;
  getStored(group: string, recordId: string): Record<string, string> | undefined;
  /** Rows written to the offline store of a group, oldest first. */
  offlineRows(group: string): OfflineRow[];
  unprocessedNext(count: number): void;
  errorFor(group: string, recordId: string, code: string, message: string): void;
  failNext(operation: FsOperation, error: FsErrorName, message?: string): void;
  resetCounters(): void;
  stop(): Promise<void>;
}

interface Identifier {
  readonly FeatureGroupName: string;
  readonly RecordIdentifiersValueAsString: string[];
  readonly FeatureNames?: string[];
}

const STRING_EVENT_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;
const FRACTIONAL_EVENT_TIME = /^\d+(\.\d{1,3})?$/;

function nameOf(nameOrArn: string): string {
  const i = nameOrArn.indexOf(':feature-group/');
  return i >= 0 ? nameOrArn.slice(i + ':feature-group/'.length) : nameOrArn;
}

class HttpError extends Error {
  constructor(public readonly type: FsErrorName, message: string) {
    super(message);
  }
}

export async function startFeatureStoreRuntimeServer(options: FeatureStoreServerOptions = {}): Promise<FeatureStoreRuntimeServer> {
  const groups = new Map<string, LocalGroup>();
  const stores = new Map<string, Map<string, Record<string, string>>>();
  const offline = new Map<string, OfflineRow[]>();
  const recordErrors = new Map<string, { code: string; message: string }>();
  const failures: Array<{ op: FsOperation; error: FsErrorName; message: string }> = [];
  const calls: Record<FsOperation, number> = { GetRecord: 0, PutRecord: 0, UpdateRecord: 0, DeleteRecord: 0, BatchGetRecord: 0 };
  const requests: FsRecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let unprocessed = 0;

  const group = (nameOrArn: string): LocalGroup => {
    const g = groups.get(nameOf(nameOrArn));
    if (!g) throw new HttpError('ResourceNotFound', `Resource Not Found: Amazon SageMaker can't find a FeatureGroup with name ${nameOrArn}`);
    return g;
  };
  const store = (g: LocalGroup) => stores.get(g.name)!;
  const project = (values: Record<string, string>, names: string[]) =>
    Object.entries(values)
      .filter(([k]) => names.length === 0 || names.includes(k))
      .map(([FeatureName, ValueAsString]) => ({ FeatureName, ValueAsString }));

  const checkEventTime = (g: LocalGroup, value: string | null | undefined) => {
    if (value === undefined || value === null) throw new HttpError('ValidationError', `EventTime is required (feature ${g.eventTime})`);
    const ok = (g.eventTimeType ?? 'String') === 'String' ? STRING_EVENT_TIME.test(value) : FRACTIONAL_EVENT_TIME.test(value);
    if (!ok) throw new HttpError('ValidationError', `Invalid EventTime ${value} for feature ${g.eventTime}: expected yyyy-MM-dd'T'HH:mm:ss[.SSS]Z or epoch seconds`);
  };

  /** Milliseconds since the epoch of a (checked) event time, to compare two of them. */
  const eventMs = (g: LocalGroup, value: string) =>
    ((g.eventTimeType ?? 'String') === 'String' ? Date.parse(value) : Math.round(Number(value) * 1000));
  const targets = (body: any): string[] => body?.TargetStores ?? ['OnlineStore', 'OfflineStore'];
  const toOffline = (g: LocalGroup, body: any, operation: OfflineRow['operation'], values: Record<string, string>) => {
    if (targets(body).includes('OfflineStore')) offline.get(g.name)!.push({ operation, values: { ...values } });
  };
  const groupPath = (url: URL) => decodeURIComponent(url.pathname.slice('/FeatureGroup/'.length).replace(/\/Record$/, ''));

  const handle = (op: FsOperation, url: URL, body: any): { status: number; json: unknown } => {
    const failure = failures.findIndex((f) => f.op === op);
    if (failure >= 0) {
      const [f] = failures.splice(failure, 1);
      throw new HttpError(f.error, f.message);
    }
    const q = url.searchParams;
    switch (op) {
      case 'GetRecord': {
        const g = group(groupPath(url));
        const id = q.get('RecordIdentifierValueAsString');
        if (id === null) throw new HttpError('ValidationError', 'RecordIdentifierValueAsString is required');
        const values = store(g).get(id);
        return { status: 200, json: values ? { Record: project(values, q.getAll('FeatureName')) } : {} };
      }
      case 'PutRecord': {
        const g = group(groupPath(url));
        const record: Array<{ FeatureName: string; ValueAsString?: string }> = body?.Record ?? [];
        const values = Object.fromEntries(record.map((f) => [f.FeatureName, f.ValueAsString ?? '']));
        const id = values[g.recordIdentifier];
        if (id === undefined) throw new HttpError('ValidationError', `Record must contain the record identifier ${g.recordIdentifier}`);
        checkEventTime(g, values[g.eventTime]);
        toOffline(g, body, 'PutRecord', values);
        const stored = store(g).get(id);
        // https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_feature_store_PutRecord.html (PutRecord):
        // "If a new record's EventTime is greater, the new record is written to both the OnlineStore and OfflineStore.
        // Otherwise, the record is a historic record and it is written only to the OfflineStore." (An equal event time
        // is taken as the latest write here; the reference does not say which wins a tie.)
        if (stored && eventMs(g, values[g.eventTime]) < eventMs(g, stored[g.eventTime])) return { status: 200, json: {} };
        // Same page, `Record`: "List of FeatureValues to be inserted. This will be a full over-write." Features left
        // out are gone from the online record: nothing of the stored record is kept.
        if (targets(body).includes('OnlineStore')) store(g).set(id, values);
        return { status: 200, json: {} };
      }
      case 'UpdateRecord': {
        // Every rule below quotes https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_feature_store_UpdateRecord.html
        const g = group(groupPath(url));
        // "This operation is available only for feature groups that use the Standard_V2 or InMemory online store type."
        // The reference names no error code for other stores; ValidationError ("There was an error validating your
        // request") is the stand-in's assumption.
        const type = g.onlineStorageType ?? 'Standard';
        if (type !== 'Standard_V2' && type !== 'InMemory') {
          throw new HttpError('ValidationError', `UpdateRecord is available only for feature groups with a Standard_V2 or InMemory online store; ${g.name} uses ${type}`);
        }
        const id: unknown = body?.RecordIdentifierValueAsString;
        if (typeof id !== 'string') throw new HttpError('ValidationError', 'RecordIdentifierValueAsString is required');
        const features: Array<{ FeatureName: string; ValueAsString?: string }> = body?.Features ?? [];
        // "You can update up to 100 features per call."
        if (features.length < 1 || features.length > 100) throw new HttpError('ValidationError', `Features must have 1-100 members, got ${features.length}`);
        const values = Object.fromEntries(features.map((f) => [f.FeatureName, f.ValueAsString ?? '']));
        const eventTime = values[g.eventTime];
        // "If you specify a TtlDuration, you must also provide an EventTime in the request. Otherwise, the operation
        // returns a ValidationError."
        if (body?.TtlDuration && eventTime === undefined) throw new HttpError('ValidationError', 'A TtlDuration needs an EventTime in the request');
        if (eventTime !== undefined) checkEventTime(g, eventTime);
        const stored = store(g).get(id);
        // "The record must already exist. If the record does not exist or has been soft-deleted, the operation returns
        // a ResourceNotFound error. To create a record, use PutRecord."
        if (!stored) throw new HttpError('ResourceNotFound', `Record ${id} not found in feature group ${g.name}`);
        // "If you provide an EventTime that is older than the record's current EventTime, the service rejects the
        // update with a ConflictException. If the EventTime is equal to or newer than the current value, the service
        // applies the update."
        if (eventTime !== undefined && eventMs(g, eventTime) < eventMs(g, stored[g.eventTime])) {
          throw new HttpError('ConflictException', `EventTime ${eventTime} is older than the record's current EventTime ${stored[g.eventTime]}`);
        }
        // "Features that you do not include in the request remain unchanged." and "If you omit EventTime, the service
        // keeps the record's existing EventTime and applies the update."
        const merged = { ...stored, ...values, [g.recordIdentifier]: id };
        toOffline(g, body, 'UpdateRecord', merged);
        if (targets(body).includes('OnlineStore')) store(g).set(id, merged);
        return { status: 200, json: {} };
      }
      case 'DeleteRecord': {
        const g = group(groupPath(url));
        const id = q.get('RecordIdentifierValueAsString');
        if (id === null) throw new HttpError('ValidationError', 'RecordIdentifierValueAsString is required');
        checkEventTime(g, q.get('EventTime'));
        const mode = q.get('DeletionMode') ?? 'SoftDelete';
        if (mode !== 'SoftDelete' && mode !== 'HardDelete') throw new HttpError('ValidationError', `Invalid DeletionMode ${mode}`);
        store(g).delete(id);
        return { status: 200, json: {} };
      }
      case 'BatchGetRecord': {
        const identifiers: Identifier[] = body?.Identifiers ?? [];
        if (identifiers.length < 1 || identifiers.length > 100) throw new HttpError('ValidationError', `Identifiers must have 1-100 members, got ${identifiers.length}`);
        const total = identifiers.reduce((n, i) => n + (i.RecordIdentifiersValueAsString?.length ?? 0), 0);
        const distinct = new Set(identifiers.map((i) => nameOf(i.FeatureGroupName))).size;
        if (total > 100 || distinct > 10) throw new HttpError('ValidationError', `BatchGetRecord takes at most 100 records across 10 feature groups, got ${total} across ${distinct}`);
        const Records: unknown[] = [];
        const Errors: unknown[] = [];
        const Unprocessed: Identifier[] = [];
        for (const ident of identifiers) {
          const ids = ident.RecordIdentifiersValueAsString ?? [];
          if (ids.length < 1 || ids.length > 100) throw new HttpError('ValidationError', 'RecordIdentifiersValueAsString must have 1-100 members');
          const g = group(ident.FeatureGroupName);
          const left: string[] = [];
          for (const id of ids) {
            if (unprocessed > 0) {
              unprocessed--;
              left.push(id);
              continue;
            }
            const scripted = recordErrors.get(`${g.name}\u0000${id}`);
            const values = store(g).get(id);
            if (scripted) {
              Errors.push({ FeatureGroupName: g.name, RecordIdentifierValueAsString: id, ErrorCode: scripted.code, ErrorMessage: scripted.message });
            } else if (values) {
              Records.push({ FeatureGroupName: g.name, RecordIdentifierValueAsString: id, Record: project(values, ident.FeatureNames ?? []) });
            } else if (options.missingRecordsAs === 'error') {
              Errors.push({ FeatureGroupName: g.name, RecordIdentifierValueAsString: id, ErrorCode: 'ResourceNotFound', ErrorMessage: `Record ${id} not found` });
            }
          }
          if (left.length) Unprocessed.push({ ...ident, RecordIdentifiersValueAsString: left });
        }
        return { status: 200, json: { Records, Errors, UnprocessedIdentifiers: Unprocessed } };
      }
    }
  };

  const route = (method: string, pathname: string): FsOperation | undefined => {
    if (pathname === '/BatchGetRecord' && method === 'POST') return 'BatchGetRecord';
    if (/^\/FeatureGroup\/[^/]+\/Record$/.test(pathname) && method === 'POST') return 'UpdateRecord';
    if (/^\/FeatureGroup\/[^/]+$/.test(pathname)) {
      return ({ GET: 'GetRecord', PUT: 'PutRecord', DELETE: 'DeleteRecord' } as Record<string, FsOperation>)[method];
    }
    return undefined;
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const op = route(req.method ?? '', url.pathname);
      const text = Buffer.concat(chunks).toString('utf8');
      const answer = (status: number, json: unknown, errorType?: string) => {
        const headers: Record<string, string> = { 'content-type': 'application/json', 'x-amzn-requestid': randomUUID() };
        if (errorType) headers['x-amzn-errortype'] = errorType;
        res.writeHead(status, headers);
        res.end(JSON.stringify(json));
      };
      const respond = () => {
        if (!op) return answer(404, { message: `No route for ${req.method} ${url.pathname}` }, 'UnknownOperationException');
        calls[op]++;
        let body: any;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          return answer(400, { message: 'Request body is not JSON' }, 'SerializationException');
        }
        requests.push({ operation: op, method: req.method ?? '', path: url.pathname, query: url.searchParams, body });
        try {
          const { status, json } = handle(op, url, body);
          return answer(status, json);
        } catch (err) {
          if (err instanceof HttpError) return answer(FS_ERRORS[err.type], { message: err.message }, err.type);
          return answer(500, { message: String(err) }, 'InternalFailure');
        }
      };
      if (options.latencyMs) setTimeout(respond, options.latencyMs);
      else respond();
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    endpoint,
    clientConfig: (extra = {}) => ({ endpoint, region: FS_REGION, credentials: FS_CREDENTIALS, ...extra }),
    createGroup: (g) => {
      groups.set(g.name, g);
      stores.set(g.name, new Map());
      offline.set(g.name, []);
    },
    putRecord: (g, values) => {
      const grp = group(g);
      store(grp).set(values[grp.recordIdentifier], { ...values });
    },
    getStored: (g, id) => store(group(g)).get(id),
    offlineRows: (g) => [...offline.get(group(g).name)!],
    unprocessedNext: (count) => {
      unprocessed = count;
    },
    errorFor: (g, id, code, message) => {
      recordErrors.set(`${nameOf(g)}\u0000${id}`, { code, message });
    },
    failNext: (op, error, message = `${error} (scripted)`) => {
      failures.push({ op, error, message });
    },
    calls,
    requests,
    resetCounters: () => {
      for (const k of Object.keys(calls) as FsOperation[]) calls[k] = 0;
      requests.length = 0;
    },
    stop: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}

/** The stand-in and a real Feature Store runtime client pointed at it (no SDK retries), started together for a test file. */
export interface FeatureStoreSession {
  readonly server: FeatureStoreRuntimeServer;
  readonly client: SageMakerFeatureStoreRuntimeClient;
  stop(): Promise<void>;
}

export async function startFeatureStoreSession(options?: FeatureStoreServerOptions): Promise<FeatureStoreSession> {
  const server = await startFeatureStoreRuntimeServer(options);
  const client = new SageMakerFeatureStoreRuntimeClient(server.clientConfig({ maxAttempts: 1 }));
  return {
    server,
    client,
    stop: async () => {
      client.destroy();
      await server.stop();
    },
  };
}
