/**
 * Async job results: one DynamoDB GetItem on the table the bundled result recorder fills (`getAsyncJob`), the output
 * and failure objects fetched and decoded (`fetchObject`), and a fallback poller over those objects for deployments
 * without a job table (`waitForAsyncJob`).
 */
import { AsyncJobRequestError, AsyncJobsDeps, ddbClient, parseS3Location, resolveConfig, s3Client } from './config';
import { ASYNC_ENV, JOB_ATTRIBUTES as A } from '../contract/async';
import { dynamoDbSdk, s3Sdk } from '../core/aws-sdk';

/** Raised by `waitForAsyncJob` when neither the output nor the failure object appeared before the deadline. */
export class AsyncJobTimeoutError extends Error {
  constructor(public readonly jobId: string | undefined, public readonly outputLocation: string, public readonly waitedMs: number) {
    super(`No result for async job ${jobId ?? outputLocation} after ${waitedMs} ms (output ${outputLocation})`);
    this.name = 'AsyncJobTimeoutError';
  }
}

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
  const { Item: item } = await ddbClient(deps).send(new (dynamoDbSdk().GetItemCommand)({
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
    response = await s3Client(deps).send(new (s3Sdk().GetObjectCommand)({ Bucket: bucket, Key: key, Range: `bytes=0-${maxBytes - 1}` }));
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
    if (isMissingObject(e)) return undefined;
    if ((e as { name?: string }).name === 'AccessDenied' || (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 403) {
      throw new AsyncResultAccessDeniedError(location, e);
    }
    throw e;
  }
}

/** Whether `e` is S3's answer for an object that does not exist (404 NoSuchKey, or NotFound from a HEAD). */
export function isMissingObject(e: unknown): boolean {
  const name = (e as { name?: string }).name;
  return e instanceof s3Sdk().NoSuchKey || name === 'NoSuchKey' || name === 'NotFound';
}
