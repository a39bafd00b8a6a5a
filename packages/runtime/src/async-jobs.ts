/**
 * Async inference jobs: submit (S3 upload + InvokeEndpointAsync), look up (one DynamoDB GetItem on the table the
 * bundled result recorder fills), and a fallback poller over the output and failure objects for deployments without
 * a job table. Also the recorder's own logic (parse SageMaker's notification, write the job item once).
 *
 * Config comes from explicit options or the env vars of `src/async/contract.ts` (set by `AsyncEndpoint`).
 */
import { randomUUID } from 'crypto';
import { ConditionalCheckFailedException, DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { InvokeEndpointAsyncCommand, SageMakerRuntimeClient } from '@aws-sdk/client-sagemaker-runtime';
import { boundedClient } from './bounded';
import {
  ASYNC_ENV, AsyncJobRecord, DEFAULT_INVOCATION_TIMEOUT_SECONDS, DEFAULT_REQUEST_TTL_SECONDS, JOB_ATTRIBUTES as A, ttlProblems,
} from './contract/async';
import { classifyError } from './errors';

export type { AsyncJobRecord, AsyncJobFinalStatus } from './contract/async';

/** Raised before any AWS call when a request is invalid (TTL/timeout rules, missing config). Not retryable. */
export class AsyncJobRequestError extends Error {
  public readonly retryable = false;
  constructor(message: string) {
    super(message);
    this.name = 'AsyncJobRequestError';
  }
}

/** Raised by `waitForAsyncJob` when neither the output nor the failure object appeared before the deadline. */
export class AsyncJobTimeoutError extends Error {
  constructor(public readonly jobId: string | undefined, public readonly outputLocation: string, public readonly waitedMs: number) {
    super(`No result for async job ${jobId ?? outputLocation} after ${waitedMs} ms (output ${outputLocation})`);
    this.name = 'AsyncJobTimeoutError';
  }
}

/** Where jobs go and how they are tracked; every field may also come from the contract env vars. */
export interface AsyncJobsConfig {
  readonly endpointName?: string;
  readonly inputBucket?: string;
  /** Key prefix for uploaded inputs; `inputs/` when unset. */
  readonly inputPrefix?: string;
  /** The recorder's table; without it `getAsyncJob` cannot answer (use `waitForAsyncJob`). */
  readonly jobTableName?: string;
  readonly invocationTimeoutSeconds?: number;
  readonly requestTtlSeconds?: number;
}

/** Injectable SDK clients and config (tests point the clients at local servers). */
export interface AsyncJobsDeps {
  readonly sagemakerRuntime?: SageMakerRuntimeClient;
  readonly s3?: S3Client;
  readonly dynamodb?: DynamoDBClient;
  /** Explicit config; wins over the environment. */
  readonly config?: AsyncJobsConfig;
  /** Environment to read the contract vars from. @default process.env */
  readonly env?: Record<string, string | undefined>;
}

/** Reads the contract env vars (`AsyncEndpoint.runtimeEnvironment`). */
export function asyncJobsConfigFromEnv(env: Record<string, string | undefined> = process.env): AsyncJobsConfig {
  const int = (name: string) => (env[name] !== undefined && env[name] !== '' ? Number(env[name]) : undefined);
  return {
    endpointName: env[ASYNC_ENV.ENDPOINT_NAME] || undefined,
    inputBucket: env[ASYNC_ENV.INPUT_BUCKET] || undefined,
    inputPrefix: env[ASYNC_ENV.INPUT_PREFIX] || undefined,
    jobTableName: env[ASYNC_ENV.JOB_TABLE_NAME] || undefined,
    invocationTimeoutSeconds: int(ASYNC_ENV.INVOCATION_TIMEOUT_SECONDS),
    requestTtlSeconds: int(ASYNC_ENV.REQUEST_TTL_SECONDS),
  };
}

function resolveConfig(deps: AsyncJobsDeps): AsyncJobsConfig {
  const fromEnv = asyncJobsConfigFromEnv(deps.env ?? process.env);
  const explicit = Object.fromEntries(Object.entries(deps.config ?? {}).filter(([, v]) => v !== undefined));
  return { ...fromEnv, ...explicit };
}

// Clients are created lazily and reused when not injected, so a Lambda container keeps its connections warm.
let defaultClients: { sagemakerRuntime?: SageMakerRuntimeClient; s3?: S3Client; dynamodb?: DynamoDBClient } = {};
// Built with connection and request timeouts (./bounded), so the recorder handler never waits on a silent service.
const smClient = (deps: AsyncJobsDeps) => deps.sagemakerRuntime ?? (defaultClients.sagemakerRuntime ??= boundedClient(SageMakerRuntimeClient, {}));
const s3Client = (deps: AsyncJobsDeps) => deps.s3 ?? (defaultClients.s3 ??= boundedClient(S3Client, {}));
const ddbClient = (deps: AsyncJobsDeps) => deps.dynamodb ?? (defaultClients.dynamodb ??= boundedClient(DynamoDBClient, {}));
/** Forgets the lazily created default clients (tests that change the environment). */
export function resetDefaultAsyncClients(): void {
  defaultClients = {};
}

/** Splits `s3://bucket/key` (or `https://bucket.s3...amazonaws.com/key`, path- or virtual-hosted style). */
export function parseS3Location(location: string): { bucket: string; key: string } {
  const s3 = /^s3:\/\/([^/]+)\/(.+)$/.exec(location);
  if (s3) return { bucket: s3[1], key: s3[2] };
  const virtual = /^https:\/\/([^./]+)\.s3[.-][^/]*amazonaws\.com[^/]*\/(.+)$/.exec(location);
  if (virtual) return { bucket: virtual[1], key: decodeURIComponent(virtual[2]) };
  const path = /^https:\/\/s3[.-][^/]*amazonaws\.com[^/]*\/([^/]+)\/(.+)$/.exec(location);
  if (path) return { bucket: path[1], key: decodeURIComponent(path[2]) };
  throw new AsyncJobRequestError(`not an S3 object location: '${location}' (expected s3://bucket/key)`);
}

// ---------------------------------------------------------------------------------------------------------------------
// submit

export interface SubmitAsyncJobRequest {
  /** @default - the configured endpoint (env `SAGEMAKER_ASYNC_ENDPOINT_NAME`) */
  readonly endpointName?: string;
  /** The input, uploaded to the input bucket/prefix. Exactly one of `payload` and `inputLocation`. */
  readonly payload?: string | Uint8Array | object;
  /** An input already in S3 (`s3://bucket/key`). */
  readonly inputLocation?: string;
  /** @default 'application/json' */
  readonly contentType?: string;
  readonly accept?: string;
  readonly customAttributes?: string;
  /** @default - the configured value, else 900 */
  readonly invocationTimeoutSeconds?: number;
  /** @default - the configured value, else 3600 */
  readonly requestTtlSeconds?: number;
  /**
   * Becomes the job id (SageMaker's InferenceId); 1-64 printable characters. Should be unique per job: the job table
   * and the output object are keyed by it, so a reused id makes two jobs indistinguishable. (The uploaded input key
   * carries a random suffix, so a reused id can no longer overwrite the input of a job still in the queue.)
   * @default - a random UUID
   */
  readonly inferenceId?: string;
}

export interface SubmittedAsyncJob {
  /** SageMaker's InferenceId. */
  readonly jobId: string;
  readonly inputLocation: string;
  readonly outputLocation: string;
  readonly failureLocation?: string;
  /** ISO-8601. */
  readonly submittedAt: string;
  readonly invocationTimeoutSeconds: number;
  readonly requestTtlSeconds: number;
}

const INFERENCE_ID = /^\S[\x20-\x7E]{0,63}$/;

/**
 * Uploads the input (unless `inputLocation` is given) and calls InvokeEndpointAsync; returns at once with the job id
 * and the locations SageMaker will write to. Invalid timeouts/TTLs are refused before any call.
 */
export async function submitAsyncJob(request: SubmitAsyncJobRequest, deps: AsyncJobsDeps = {}): Promise<SubmittedAsyncJob> {
  const config = resolveConfig(deps);
  const endpointName = request.endpointName ?? config.endpointName;
  const timeout = request.invocationTimeoutSeconds ?? config.invocationTimeoutSeconds ?? DEFAULT_INVOCATION_TIMEOUT_SECONDS;
  const ttl = request.requestTtlSeconds ?? config.requestTtlSeconds ?? DEFAULT_REQUEST_TTL_SECONDS;
  const jobId = request.inferenceId ?? randomUUID();
  const contentType = request.contentType ?? 'application/json';

  const problems = ttlProblems(timeout, ttl);
  if (!endpointName) problems.push(`endpointName: got nothing, expected an endpoint name (or env ${ASYNC_ENV.ENDPOINT_NAME})`);
  if (!INFERENCE_ID.test(jobId)) problems.push(`inferenceId: got '${jobId}', expected 1-64 printable characters not starting with a space`);
  if ((request.payload === undefined) === (request.inputLocation === undefined)) {
    problems.push('payload/inputLocation: expected exactly one of them');
  }
  if (request.payload !== undefined && !config.inputBucket) {
    problems.push(`inputBucket: got nothing, expected the input bucket (or env ${ASYNC_ENV.INPUT_BUCKET}) to upload the payload to`);
  }
  if (request.inputLocation !== undefined) {
    try {
      parseS3Location(request.inputLocation);
    } catch (e) {
      problems.push(`inputLocation: ${(e as Error).message}`);
    }
  }
  if (problems.length > 0) throw new AsyncJobRequestError(`submitAsyncJob refused:\n  - ${problems.join('\n  - ')}`);

  let inputLocation = request.inputLocation;
  if (inputLocation === undefined) {
    // The random suffix keeps a reused inferenceId from overwriting the input of a job SageMaker has not read yet.
    const key = `${normalizePrefix(config.inputPrefix ?? 'inputs/')}${jobId}-${randomUUID()}`;
    await s3Client(deps).send(new PutObjectCommand({
      Bucket: config.inputBucket,
      Key: key,
      Body: encodePayload(request.payload!),
      ContentType: contentType,
    }));
    inputLocation = `s3://${config.inputBucket}/${key}`;
  }

  let response;
  try {
    response = await smClient(deps).send(new InvokeEndpointAsyncCommand({
      EndpointName: endpointName,
      InputLocation: inputLocation,
      ContentType: contentType,
      Accept: request.accept,
      CustomAttributes: request.customAttributes,
      InferenceId: jobId,
      InvocationTimeoutSeconds: timeout,
      RequestTTLSeconds: ttl,
    }));
  } catch (e) {
    // Same classes as InvokeEndpoint: ValidationError is permanent, InternalFailure/ServiceUnavailable are retryable.
    throw classifyError(e, { endpointName, contentType });
  }
  if (!response.OutputLocation) throw new Error(`InvokeEndpointAsync on ${endpointName} returned no OutputLocation`);
  return {
    jobId: response.InferenceId ?? jobId,
    inputLocation,
    outputLocation: response.OutputLocation,
    failureLocation: response.FailureLocation,
    submittedAt: new Date().toISOString(),
    invocationTimeoutSeconds: timeout,
    requestTtlSeconds: ttl,
  };
}

function normalizePrefix(prefix: string): string {
  if (prefix === '') return '';
  return prefix.endsWith('/') ? prefix : `${prefix}/`;
}

function encodePayload(payload: string | Uint8Array | object): string | Uint8Array {
  if (typeof payload === 'string' || payload instanceof Uint8Array) return payload;
  return JSON.stringify(payload);
}

// ---------------------------------------------------------------------------------------------------------------------
// results

/** An object SageMaker wrote, fetched (at most `maxBytes` of it) and decoded. */
export interface AsyncJobOutput {
  readonly contentType?: string;
  /** The bytes read: the whole object, or its first `maxBytes` when `truncated`. */
  readonly bytes: Uint8Array;
  readonly text: string;
  /** Parsed when the content type is JSON (or the text parses as JSON), and only when the whole object was read. */
  readonly json?: unknown;
  /** True when the object is larger than `maxBytes` and only its beginning was read. */
  readonly truncated: boolean;
  /** The object's full size, when S3 reported it (Content-Range, else Content-Length). */
  readonly sizeBytes?: number;
  /** Where the object is (`s3://bucket/key`), to fetch the rest directly. */
  readonly location: string;
}

/** Default cap on the bytes read from an output or failure object. */
export const DEFAULT_ASYNC_OUTPUT_MAX_BYTES = 1024 * 1024;

export interface FetchObjectOptions {
  /** Read at most this many bytes (an S3 ranged GET); a larger object comes back `truncated`. @default 1 MiB */
  readonly maxBytes?: number;
}

/**
 * An output or failure object could not be read with 403 AccessDenied. Without s3:ListBucket on the bucket, S3 answers
 * GetObject on a key that does not exist yet (a pending job) with 403 instead of 404, so a missing ListBucket grant
 * looks exactly like this. Not retryable: the permissions must change.
 */
export class AsyncResultAccessDeniedError extends Error {
  public readonly retryable = false;
  constructor(public readonly location: string, cause: unknown) {
    super(`AccessDenied reading ${location}: the caller likely lacks s3:ListBucket on the bucket for this prefix `
      + '(without it S3 answers 403 instead of 404 for a result that does not exist yet; AsyncEndpoint.grantReadResults grants it), '
      + 'or lacks s3:GetObject / kms:Decrypt on the object', { cause });
    this.name = 'AsyncResultAccessDeniedError';
  }
}

export type AsyncJobState =
  | { readonly status: 'pending'; readonly jobId: string }
  | {
    readonly status: 'completed';
    readonly jobId: string;
    readonly outputLocation: string;
    readonly completedAt?: string;
    readonly endpointName?: string;
    readonly output?: AsyncJobOutput;
  }
  | {
    readonly status: 'failed';
    readonly jobId: string;
    readonly failureReason: string;
    readonly failureLocation?: string;
    readonly completedAt?: string;
    readonly endpointName?: string;
    readonly failure?: AsyncJobOutput;
  };

export interface GetAsyncJobOptions extends FetchObjectOptions {
  /** Fetch and decode the output (completed) or failure object (failed, when its location is known). @default false */
  readonly fetchOutput?: boolean;
  /**
   * The locations InvokeEndpointAsync returned when the job was submitted. When given, they are what is read and
   * reported, and the table item only says whether the job finished: a location in the table came from a notification,
   * and a caller holding a submitted job must not be pointed at another object by it.
   * @default - the locations in the table item
   */
  readonly submitted?: { readonly outputLocation: string; readonly failureLocation?: string };
}

/**
 * The job's state from the results table: one GetItem (plus one GetObject when `fetchOutput`). An absent item means
 * the job is still pending: the recorder writes only final results.
 */
export async function getAsyncJob(jobId: string, options: GetAsyncJobOptions = {}, deps: AsyncJobsDeps = {}): Promise<AsyncJobState> {
  const config = resolveConfig(deps);
  if (!config.jobTableName) {
    throw new AsyncJobRequestError(`jobTableName: got nothing, expected the job table (env ${ASYNC_ENV.JOB_TABLE_NAME}); `
      + 'without one use waitForAsyncJob with the submitted locations');
  }
  const { Item: item } = await ddbClient(deps).send(new GetItemCommand({
    TableName: config.jobTableName,
    Key: { [A.INFERENCE_ID]: { S: jobId } },
    ConsistentRead: true,
  }));
  if (!item) return { status: 'pending', jobId };
  const str = (name: string) => item[name]?.S;
  const status = str(A.STATUS);
  const common = { jobId, completedAt: str(A.COMPLETED_AT), endpointName: str(A.ENDPOINT_NAME) };
  if (status === 'Completed') {
    const outputLocation = options.submitted?.outputLocation ?? str(A.OUTPUT_LOCATION)!;
    const output = options.fetchOutput ? await fetchObject(outputLocation, deps, options) : undefined;
    return { status: 'completed', ...common, outputLocation, output };
  }
  const failureLocation = options.submitted ? options.submitted.failureLocation : str(A.FAILURE_LOCATION);
  const failure = options.fetchOutput && failureLocation ? await fetchObject(failureLocation, deps, options).catch(() => undefined) : undefined;
  return { status: 'failed', ...common, failureReason: str(A.FAILURE_REASON) ?? 'unknown (the notification carried no reason)', failureLocation, failure };
}

/**
 * Fetches and decodes at most `maxBytes` (default 1 MiB) of one object with a ranged GET; throws `NoSuchKey` when it
 * is absent. A larger object comes back `truncated` with its full `sizeBytes`, and its JSON is not parsed (a prefix of
 * a JSON document is not JSON).
 */
export async function fetchObject(location: string, deps: AsyncJobsDeps = {}, options: FetchObjectOptions = {}): Promise<AsyncJobOutput> {
  const maxBytes = options.maxBytes ?? DEFAULT_ASYNC_OUTPUT_MAX_BYTES;
  if (!Number.isInteger(maxBytes) || maxBytes < 1) throw new AsyncJobRequestError(`maxBytes: got ${maxBytes}, expected a positive integer`);
  const { bucket, key } = parseS3Location(location);
  let response;
  try {
    response = await s3Client(deps).send(new GetObjectCommand({ Bucket: bucket, Key: key, Range: `bytes=0-${maxBytes - 1}` }));
  } catch (e) {
    // S3 answers any range on an empty object with 416 InvalidRange.
    const status = (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if ((e as { name?: string }).name === 'InvalidRange' || status === 416) {
      return { bytes: new Uint8Array(0), text: '', truncated: false, sizeBytes: 0, location };
    }
    throw e;
  }
  const read = await response.Body!.transformToByteArray();
  // A server that ignores Range sends the whole object: cut it here so the cap holds either way.
  const bytes = read.length > maxBytes ? read.subarray(0, maxBytes) : read;
  // 206 carries `Content-Range: bytes 0-<end>/<size>`; a 200 (object smaller than the range, or Range ignored) does not.
  const total = /\/(\d+)$/.exec(response.ContentRange ?? '')?.[1];
  const sizeBytes = total !== undefined ? Number(total) : response.ContentRange ? undefined : response.ContentLength ?? read.length;
  const truncated = (sizeBytes ?? read.length) > bytes.length;
  // A cut may split a multi-byte character: drop the incomplete tail rather than show a replacement character.
  const text = truncated ? new TextDecoder('utf-8').decode(bytes, { stream: true }) : Buffer.from(bytes).toString('utf8');
  return {
    contentType: response.ContentType,
    bytes,
    text,
    json: truncated ? undefined : tryJson(text, response.ContentType),
    truncated,
    sizeBytes,
    location,
  };
}

function tryJson(text: string, contentType?: string): unknown {
  const looksJson = contentType?.includes('json') || /^\s*[[{]/.test(text);
  if (!looksJson) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export interface WaitForAsyncJobRequest {
  readonly jobId?: string;
  readonly outputLocation: string;
  /** SageMaker's FailureLocation (from submit). Without it only the output is watched. */
  readonly failureLocation?: string;
  /** @default 300_000 */
  readonly timeoutMs?: number;
  /** @default 2_000 */
  readonly initialDelayMs?: number;
  /** @default 1.2 */
  readonly backoffFactor?: number;
  /** @default 10_000 */
  readonly maxDelayMs?: number;
  /** Read at most this many bytes of the output or failure object. @default 1 MiB */
  readonly maxBytes?: number;
}

/**
 * For deployments without a job table: checks the output AND the failure object every iteration (capped backoff:
 * 2 s, x1.2, at most 10 s by default) until one exists or the deadline passes (`AsyncJobTimeoutError`).
 * Prefer `getAsyncJob` from a follow-up tool call for jobs longer than a minute.
 */
export async function waitForAsyncJob(request: WaitForAsyncJobRequest, deps: AsyncJobsDeps = {},
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms))): Promise<AsyncJobState & { readonly polls: number }> {
  const timeoutMs = request.timeoutMs ?? 300_000;
  const factor = request.backoffFactor ?? 1.2;
  const maxDelay = request.maxDelayMs ?? 10_000;
  const jobId = request.jobId ?? request.outputLocation;
  const start = Date.now();
  let delay = request.initialDelayMs ?? 2_000;
  let polls = 0;
  for (;;) {
    polls++;
    const [output, failure] = await Promise.all([
      fetchIfExists(request.outputLocation, deps, request),
      request.failureLocation ? fetchIfExists(request.failureLocation, deps, request) : Promise.resolve(undefined),
    ]);
    if (output) return { status: 'completed', jobId, outputLocation: request.outputLocation, output, polls };
    if (failure) {
      return { status: 'failed', jobId, failureLocation: request.failureLocation, failureReason: failure.text || 'unknown', failure, polls };
    }
    const remaining = timeoutMs - (Date.now() - start);
    if (remaining <= 0) throw new AsyncJobTimeoutError(request.jobId, request.outputLocation, Date.now() - start);
    await sleep(Math.min(delay, remaining));
    delay = Math.min(delay * factor, maxDelay);
  }
}

/**
 * The object, or undefined while it does not exist (404 NoSuchKey). A 403 stays an error: it is what S3 answers for a
 * missing key when the caller lacks s3:ListBucket, and treating it as "not yet" would poll a permission error forever.
 */
async function fetchIfExists(location: string, deps: AsyncJobsDeps, options: FetchObjectOptions): Promise<AsyncJobOutput | undefined> {
  try {
    return await fetchObject(location, deps, options);
  } catch (e) {
    const name = (e as { name?: string }).name;
    if (e instanceof NoSuchKey || name === 'NoSuchKey' || name === 'NotFound') return undefined;
    if (name === 'AccessDenied' || (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 403) {
      throw new AsyncResultAccessDeniedError(location, e);
    }
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// recording (used by the bundled result recorder)

export { MalformedAsyncNotificationError, parseAsyncNotification, parseSageMakerEventTime } from './async-notification';
export type { ParseAsyncNotificationOptions } from './async-notification';

/**
 * Writes the record unless the table already holds one for the same inference with an equal or newer event time:
 * a duplicate delivery changes nothing, and an older event never overwrites a newer final status.
 * Returns whether the item was written.
 */
export async function recordAsyncResult(record: AsyncJobRecord, tableName: string, deps: AsyncJobsDeps = {}): Promise<boolean> {
  const item: Record<string, { S: string } | { N: string }> = {};
  for (const [name, value] of Object.entries(record)) {
    if (value === undefined) continue;
    item[name] = typeof value === 'number' ? { N: String(value) } : { S: String(value) };
  }
  try {
    await ddbClient(deps).send(new PutItemCommand({
      TableName: tableName,
      Item: item,
      ConditionExpression: 'attribute_not_exists(#id) OR #t < :t',
      ExpressionAttributeNames: { '#id': A.INFERENCE_ID, '#t': A.EVENT_TIME_MS },
      ExpressionAttributeValues: { ':t': { N: String(record.eventTimeMs) } },
    }));
    return true;
  } catch (e) {
    if (e instanceof ConditionalCheckFailedException || (e as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw e;
  }
}
