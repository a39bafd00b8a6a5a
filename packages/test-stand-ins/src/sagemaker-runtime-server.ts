/**
 * A local, protocol-faithful stand-in for the SageMaker runtime (rest-json, as the SageMaker runtime API reference
 * describes it: https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_Operations_Amazon_SageMaker_Runtime.html) that the REAL
 * `@aws-sdk/client-sagemaker-runtime` talks to over HTTP on 127.0.0.1 (random port).
 *
 * ```ts
 * const sm = await startSageMakerRuntimeServer();
 * const client = new SageMakerRuntimeClient(sm.clientConfig());         // endpoint + region + dummy credentials
 * sm.script('my-endpoint', fail('ServiceUnavailable'), ok({ label: 'x' })); // queued, one per call, in order
 * sm.setDefault('my-endpoint', ok('fallback'));                         // used when the queue is empty
 * ... call the SDK ...
 * expect(sm.requestsFor('my-endpoint')).toHaveLength(2);               // recorded headers + bodies
 * await sm.stop();
 * ```
 *
 * Routes (the endpoint name is the path segment after `/endpoints/`):
 * - `POST /endpoints/{name}/invocations`                  InvokeEndpoint (200)
 * - `POST /endpoints/{name}/invocations-response-stream`  InvokeEndpointWithResponseStream (200, AWS event-stream framing)
 * - `POST /endpoints/{name}/async-invocations`            InvokeEndpointAsync (202, `{"InferenceId"}` + location headers)
 *
 * Responses are chosen per call: the endpoint's queue (`script`), else its default (`setDefault`), else the `'*'` default,
 * else a built-in default (invoke: echo the request body and content type; stream: the body as one PayloadPart;
 * async: 202 with a generated or the requested InferenceId). A script entry may be a function of the recorded request.
 *
 * Builders: `multiModel(targets)` (a multi-model endpoint: TargetModel routing and first-load latency), `ok(body, opts)`, `fail(errorName, opts)` (every error InvokeEndpoint documents + `ThrottlingException`), `reset()`
 * (destroys the socket without answering), `stream(events, opts)` (`part(..)`, `modelStreamError(..)`,
 * `internalStreamFailure(..)`, `streamReset()`, `pause(ms)`), `accepted(opts)` (async 202). Every one takes `delayMs`: a delay before
 * the status line, i.e. a slow endpoint. Every response carries `x-amzn-RequestId`.
 *
 * `openSockets()` counts server-side TCP connections still open, `inFlight()` requests not yet answered: after a
 * client's `destroy()` both should drop to 0 (a leak check). `peakOpenSockets()` is the high-water mark since `clear()`.
 */
import { randomUUID } from 'crypto';
import { createServer, IncomingMessage, ServerResponse } from 'http';
import { AddressInfo, Socket } from 'net';
// @smithy/core ships with every AWS SDK v3 client; its codec is the one the SDK decodes with.
// eslint-disable-next-line import/no-extraneous-dependencies
import { EventStreamCodec, MessageHeaders } from '@smithy/core/event-streams';

export const RUNTIME_REGION = 'us-east-1';
export const RUNTIME_CREDENTIALS = { accessKeyId: 'AKIDLOCAL', secretAccessKey: 'local-secret' };

/** Status and fault of every error the runtime can answer with (InvokeEndpoint API reference, Errors), plus the generic throttling error. */
export const RUNTIME_ERRORS = {
  ValidationError: 400,
  ModelError: 424,
  ModelNotReadyException: 429,
  InternalFailure: 500,
  ServiceUnavailable: 503,
  InternalDependencyException: 530,
  ThrottlingException: 400,
} as const;
export type RuntimeErrorName = keyof typeof RUNTIME_ERRORS;

export type Operation = 'invoke' | 'stream' | 'async';

export interface RecordedRequest {
  readonly operation: Operation;
  readonly endpointName: string;
  readonly method: string;
  readonly path: string;
  /** Lower-cased header names. */
  readonly headers: Record<string, string>;
  readonly body: Buffer;
  readonly bodyText: string;
  readonly receivedAt: number;
}

interface Timed {
  /** Wait this long before sending the status line (a slow endpoint). */
  readonly delayMs?: number;
}

export interface OkResponse extends Timed {
  readonly kind: 'ok';
  readonly body: Buffer;
  readonly contentType: string;
  readonly invokedProductionVariant?: string;
  readonly customAttributes?: string;
}

export interface ErrorResponse extends Timed {
  readonly kind: 'error';
  readonly error: RuntimeErrorName;
  readonly status: number;
  readonly body: Record<string, unknown>;
}

export interface ResetResponse extends Timed {
  readonly kind: 'reset';
}

export type StreamEvent =
  | { readonly type: 'PayloadPart'; readonly bytes: Buffer }
  | { readonly type: 'ModelStreamError'; readonly message: string; readonly errorCode: string }
  | { readonly type: 'InternalStreamFailure'; readonly message: string }
  | { readonly type: 'reset' }
  | { readonly type: 'pause'; readonly ms: number };

export interface StreamResponse extends Timed {
  readonly kind: 'stream';
  readonly events: readonly StreamEvent[];
  /** Content type of the model's output (`X-Amzn-SageMaker-Content-Type`). */
  readonly contentType: string;
  readonly invokedProductionVariant?: string;
  /** Pause between events. */
  readonly eventDelayMs?: number;
}

export interface AcceptedResponse extends Timed {
  readonly kind: 'accepted';
  readonly inferenceId?: string;
  readonly outputLocation?: string;
  readonly failureLocation?: string;
}

export type ScriptedResponse = OkResponse | ErrorResponse | ResetResponse | StreamResponse | AcceptedResponse;
export type ScriptEntry = ScriptedResponse | ((request: RecordedRequest) => ScriptedResponse);

function toBuffer(body: unknown): Buffer {
  if (Buffer.isBuffer(body)) return body;
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  return Buffer.from(JSON.stringify(body), 'utf8');
}

/** 200 with `body` (objects are sent as JSON, strings as text/plain unless `contentType` says otherwise). */
export function ok(
  body: unknown = '',
  opts: { contentType?: string; invokedProductionVariant?: string; customAttributes?: string; delayMs?: number } = {},
): OkResponse {
  const defaultType = typeof body === 'string' ? 'text/plain' : body instanceof Uint8Array ? 'application/octet-stream' : 'application/json';
  return {
    kind: 'ok',
    body: toBuffer(body),
    contentType: opts.contentType ?? defaultType,
    invokedProductionVariant: opts.invokedProductionVariant ?? 'AllTraffic',
    customAttributes: opts.customAttributes,
    delayMs: opts.delayMs,
  };
}

/**
 * An error response exactly as the service sends it: status, `x-amzn-ErrorType`, JSON body with `Message` (+ the
 * ModelError members `OriginalStatusCode`, `OriginalMessage`, `LogStreamArn`, `ErrorCode`).
 */
export function fail(
  error: RuntimeErrorName,
  opts: { message?: string; originalStatusCode?: number; originalMessage?: string; logStreamArn?: string; delayMs?: number } = {},
): ErrorResponse {
  const body: Record<string, unknown> = { Message: opts.message ?? `${error} from the local SageMaker runtime` };
  if (error === 'ModelError') {
    const original = opts.originalStatusCode ?? 400;
    body.ErrorCode = original >= 500 ? 'SERVER_ERROR_FROM_MODEL' : 'CLIENT_ERROR_FROM_MODEL';
    body.OriginalStatusCode = original;
    body.OriginalMessage = opts.originalMessage ?? 'model rejected the input';
    body.LogStreamArn = opts.logStreamArn ?? 'arn:aws:logs:us-east-1:123456789012:log-group:/aws/sagemaker/Endpoints/local';
    if (!opts.message) {
      body.Message = `Received ${original >= 500 ? 'server' : 'client'} error (${original}) from primary with message "${body.OriginalMessage}".`;
    }
  }
  return { kind: 'error', error, status: RUNTIME_ERRORS[error], body, delayMs: opts.delayMs };
}

/** Reads the request, then destroys the socket without answering (the client sees ECONNRESET / socket hang up). */
export function reset(opts: { delayMs?: number } = {}): ResetResponse {
  return { kind: 'reset', delayMs: opts.delayMs };
}

export function part(data: unknown): StreamEvent {
  return { type: 'PayloadPart', bytes: toBuffer(data) };
}
export function modelStreamError(message = 'model stream broke', errorCode = 'ModelInvocationTimeExceeded'): StreamEvent {
  return { type: 'ModelStreamError', message, errorCode };
}
export function internalStreamFailure(message = 'internal stream failure'): StreamEvent {
  return { type: 'InternalStreamFailure', message };
}
/** Destroys the socket in the middle of the stream. */
export function streamReset(): StreamEvent {
  return { type: 'reset' };
}
/** Sends nothing for `ms`, the response still open (a model that stalls mid-generation); `stop()` ends the wait. */
export function pause(ms: number): StreamEvent {
  return { type: 'pause', ms };
}

export function stream(
  events: readonly StreamEvent[],
  opts: { contentType?: string; invokedProductionVariant?: string; eventDelayMs?: number; delayMs?: number } = {},
): StreamResponse {
  return {
    kind: 'stream',
    events,
    contentType: opts.contentType ?? 'application/json',
    invokedProductionVariant: opts.invokedProductionVariant ?? 'AllTraffic',
    eventDelayMs: opts.eventDelayMs,
    delayMs: opts.delayMs,
  };
}

/** InvokeEndpointAsync's 202. Locations default to the server's `asyncOutputPath`/`asyncFailurePath` + the id. */
export function accepted(opts: { inferenceId?: string; outputLocation?: string; failureLocation?: string; delayMs?: number } = {}): AcceptedResponse {
  return { kind: 'accepted', ...opts };
}

/** One model of a `multiModel` endpoint. */
export interface TargetModelSpec {
  /** How long its first request takes longer (the download from S3 and the load). @default 0 */
  readonly loadMs?: number;
  /** Answer its first request with ModelNotReadyException instead of waiting (the model is then loaded). @default false */
  readonly notReadyFirst?: boolean;
}

/**
 * A multi-model endpoint, as a `setDefault`/`script` entry. The request names its model in the
 * `X-Amzn-SageMaker-Target-Model` header, InvokeEndpoint's `TargetModel`: "The model to request for inference when
 * invoking a multi-model endpoint" (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_runtime_InvokeEndpoint.html).
 * Each model's first request waits `loadMs` ("The first request against a given model takes longer because the model
 * has to be downloaded from Amazon S3 and loaded into memory",
 * https://docs.aws.amazon.com/sagemaker/latest/dg/invoke-multi-model-endpoint.html), or, with `notReadyFirst`, is
 * answered ModelNotReadyException (the API reference: "a multi-model endpoint is still downloading or loading the target
 * model. Wait and try your request again."). Later requests answer at once with `{ targetModel, input }`. A request
 * without the header, or for a model not in `targets`, gets a ValidationError (this stand-in's choice for what
 * SageMaker refuses before any model runs).
 */
export function multiModel(targets: Record<string, TargetModelSpec>): (request: RecordedRequest) => ScriptedResponse {
  const loaded = new Set<string>();
  return (request) => {
    const target = request.headers['x-amzn-sagemaker-target-model'];
    if (target === undefined) return fail('ValidationError', { message: `Endpoint ${request.endpointName} is a multi-model endpoint: name a TargetModel` });
    const spec = targets[target];
    if (spec === undefined) return fail('ValidationError', { message: `Target model ${target} was not found under the model data prefix` });
    const first = !loaded.has(target);
    loaded.add(target);
    if (first && spec.notReadyFirst) return fail('ModelNotReadyException', { message: `Model ${target} is still loading` });
    return ok({ targetModel: target, input: request.bodyText }, { delayMs: first ? spec.loadMs : undefined });
  };
}

export interface RuntimeServerOptions {
  /** Prefix of generated `X-Amzn-SageMaker-OutputLocation` values (`<prefix>/<InferenceId>.out`). */
  readonly asyncOutputPath?: string;
  /** Prefix of generated `X-Amzn-SageMaker-FailureLocation` values (`<prefix>/<InferenceId>-error.out`). */
  readonly asyncFailurePath?: string;
}

export type LocalClientConfig = { endpoint: string; region: string; credentials: typeof RUNTIME_CREDENTIALS } & Record<string, unknown>;

export interface SageMakerRuntimeServer {
  /** e.g. http://127.0.0.1:41234 */
  readonly endpoint: string;
  /** Every request received, in arrival order. */
  readonly requests: RecordedRequest[];
  /** Client config for `new SageMakerRuntimeClient(...)`: endpoint, region, dummy credentials, plus `extra`. */
  clientConfig(extra?: Record<string, unknown>): LocalClientConfig;
  /** Queues responses for `endpointName`, consumed one per call in order. */
  script(endpointName: string, ...responses: ScriptEntry[]): void;
  /** Response used for `endpointName` (or `'*'` for all) when its queue is empty. */
  setDefault(endpointName: string, response: ScriptEntry): void;
  requestsFor(endpointName: string, operation?: Operation): RecordedRequest[];
  /** Forgets recorded requests, queues and defaults. */
  clear(): void;
  /** Server-side TCP connections currently open. */
  openSockets(): number;
  /** Requests received but not yet answered (or reset). */
  inFlight(): number;
  /** Total TCP connections accepted since start. */
  connectionsAccepted(): number;
  /** Most TCP connections open at once since start or the last `clear()` (checks a client's maxSockets). */
  peakOpenSockets(): number;
  stop(): Promise<void>;
}

const utf8Codec = new EventStreamCodec(
  (bytes) => Buffer.from(bytes).toString('utf8'),
  (text) => new Uint8Array(Buffer.from(text, 'utf8')),
);

/** Encodes one event-stream message the way the service frames it (`:message-type` event|exception). */
export function encodeStreamEvent(event: Exclude<StreamEvent, { type: 'reset' | 'pause' }>): Uint8Array {
  const str = (value: string) => ({ type: 'string' as const, value });
  let headers: MessageHeaders;
  let body: Uint8Array;
  if (event.type === 'PayloadPart') {
    headers = { ':message-type': str('event'), ':event-type': str('PayloadPart'), ':content-type': str('application/octet-stream') };
    body = event.bytes;
  } else {
    headers = { ':message-type': str('exception'), ':exception-type': str(event.type), ':content-type': str('application/json') };
    const payload = event.type === 'ModelStreamError' ? { Message: event.message, ErrorCode: event.errorCode } : { Message: event.message };
    body = toBuffer(payload);
  }
  return utf8Codec.encode({ headers, body });
}

const ROUTE = /^\/endpoints\/([^/]+)\/(invocations|invocations-response-stream|async-invocations)$/;
const OPERATIONS: Record<string, Operation> = {
  'invocations': 'invoke',
  'invocations-response-stream': 'stream',
  'async-invocations': 'async',
};

export async function startSageMakerRuntimeServer(options: RuntimeServerOptions = {}): Promise<SageMakerRuntimeServer> {
  const requests: RecordedRequest[] = [];
  const queues = new Map<string, ScriptEntry[]>();
  const defaults = new Map<string, ScriptEntry>();
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let pending = 0;
  let accepted_ = 0;
  let peak = 0;
  const outputPath = options.asyncOutputPath ?? 's3://local-async-output/results';
  const failurePath = options.asyncFailurePath ?? 's3://local-async-output/failures';

  const sleep = (ms: number) => new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      resolve();
    }, ms);
    timers.add(timer);
  });

  const defaultFor = (request: RecordedRequest): ScriptedResponse => {
    if (request.operation === 'async') return accepted();
    const contentType = request.headers['content-type'] ?? 'application/octet-stream';
    if (request.operation === 'stream') return stream([part(request.body)], { contentType });
    return ok(request.body, { contentType });
  };

  const choose = (request: RecordedRequest): ScriptedResponse => {
    const entry = queues.get(request.endpointName)?.shift() ?? defaults.get(request.endpointName) ?? defaults.get('*');
    if (entry === undefined) return defaultFor(request);
    return typeof entry === 'function' ? entry(request) : entry;
  };

  // Forget the socket at once: its 'close' event comes a tick later, after the client may already have reconnected.
  const dropConnection = (socket: Socket) => {
    sockets.delete(socket);
    socket.destroy();
  };

  const baseHeaders = () => ({ 'x-amzn-RequestId': randomUUID() });

  async function answer(req: IncomingMessage, res: ServerResponse, request: RecordedRequest): Promise<void> {
    const response = choose(request);
    if (response.delayMs) await sleep(response.delayMs);
    if (res.destroyed || req.socket.destroyed) return;
    switch (response.kind) {
      case 'reset':
        dropConnection(req.socket);
        return;
      case 'error': {
        const body = JSON.stringify(response.body);
        res.writeHead(response.status, {
          ...baseHeaders(),
          'x-amzn-ErrorType': response.error,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
        });
        res.end(body);
        return;
      }
      case 'ok': {
        const headers: Record<string, string | number> = {
          ...baseHeaders(),
          'Content-Type': response.contentType,
          'Content-Length': response.body.length,
        };
        if (response.invokedProductionVariant) headers['x-Amzn-Invoked-Production-Variant'] = response.invokedProductionVariant;
        if (response.customAttributes) headers['X-Amzn-SageMaker-Custom-Attributes'] = response.customAttributes;
        res.writeHead(200, headers);
        res.end(response.body);
        return;
      }
      case 'accepted': {
        const inferenceId = response.inferenceId ?? request.headers['x-amzn-sagemaker-inference-id'] ?? randomUUID();
        const body = JSON.stringify({ InferenceId: inferenceId });
        res.writeHead(202, {
          ...baseHeaders(),
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          'X-Amzn-SageMaker-OutputLocation': response.outputLocation ?? `${outputPath}/${inferenceId}.out`,
          'X-Amzn-SageMaker-FailureLocation': response.failureLocation ?? `${failurePath}/${inferenceId}-error.out`,
        });
        res.end(body);
        return;
      }
      case 'stream': {
        const headers: Record<string, string> = {
          ...baseHeaders(),
          'Content-Type': 'application/vnd.amazon.eventstream',
          'X-Amzn-SageMaker-Content-Type': response.contentType,
        };
        if (response.invokedProductionVariant) headers['x-Amzn-Invoked-Production-Variant'] = response.invokedProductionVariant;
        res.writeHead(200, headers);
        for (const event of response.events) {
          if (response.eventDelayMs) await sleep(response.eventDelayMs);
          if (res.destroyed || req.socket.destroyed) return;
          if (event.type === 'reset') {
            dropConnection(req.socket);
            return;
          }
          if (event.type === 'pause') {
            await sleep(event.ms);
            continue;
          }
          // Wait for the flush so a following reset cannot discard an event that was "sent".
          await new Promise<void>((resolve) => res.write(encodeStreamEvent(event), () => resolve()));
        }
        res.end();
        return;
      }
    }
  }

  const server = createServer((req, res) => {
    pending++;
    let settled = false;
    const settle = () => {
      if (!settled) {
        settled = true;
        pending--;
      }
    };
    // 'close' fires after the response is sent and also when the connection dies first.
    res.on('close', settle);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://local');
      const match = ROUTE.exec(url.pathname);
      if (req.method !== 'POST' || !match) {
        const body = JSON.stringify({ Message: `no route for ${req.method} ${url.pathname}` });
        res.writeHead(404, { ...baseHeaders(), 'x-amzn-ErrorType': 'UnknownOperationException', 'Content-Type': 'application/json' });
        res.end(body);
        return;
      }
      const body = Buffer.concat(chunks);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
      }
      const request: RecordedRequest = {
        operation: OPERATIONS[match[2]],
        endpointName: decodeURIComponent(match[1]),
        method: req.method,
        path: url.pathname,
        headers,
        body,
        bodyText: body.toString('utf8'),
        receivedAt: Date.now(),
      };
      requests.push(request);
      answer(req, res, request).catch((err) => {
        res.destroy(err as Error);
      });
    });
  });
  server.keepAliveTimeout = 5_000;
  server.on('connection', (socket: Socket) => {
    accepted_++;
    sockets.add(socket);
    peak = Math.max(peak, sockets.size);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;

  return {
    endpoint,
    requests,
    clientConfig: (extra = {}) => ({ endpoint, region: RUNTIME_REGION, credentials: RUNTIME_CREDENTIALS, ...extra }),
    script: (endpointName, ...responses) => {
      const queue = queues.get(endpointName) ?? [];
      queue.push(...responses);
      queues.set(endpointName, queue);
    },
    setDefault: (endpointName, response) => {
      defaults.set(endpointName, response);
    },
    requestsFor: (endpointName, operation) =>
      requests.filter((r) => r.endpointName === endpointName && (operation === undefined || r.operation === operation)),
    clear: () => {
      requests.length = 0;
      queues.clear();
      defaults.clear();
      peak = sockets.size;
    },
    openSockets: () => sockets.size,
    inFlight: () => pending,
    connectionsAccepted: () => accepted_,
    peakOpenSockets: () => peak,
    stop: async () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Short alias: `const sm = await start()`. */
export const start = startSageMakerRuntimeServer;
