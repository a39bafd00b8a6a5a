/**
 * Typed InvokeEndpoint: the body is always consumed (the SDK collects it on success and on error), failures come back
 * as the classified errors of ./errors, transient ones are retried by the SDK's own middleware with
 * TransientOnlyRetryStrategy, and an overall deadline bounds the whole call including retries: an AbortSignal the SDK
 * honours, raced (../core/deadline `abortable`) so that it holds even where the SDK does not.
 */
import type * as Http from 'http';
import type * as Https from 'https';
import type { SageMakerRuntimeClient, SageMakerRuntimeClientConfig } from '@aws-sdk/client-sagemaker-runtime';
import { sageMakerRuntimeSdk } from '../core/aws-sdk';
import { abortable, startDeadline } from '../core/deadline';
import { classifyError, TransientEndpointError } from '../core/errors';
import { DEFAULT_RETRY, RetryOptions, TransientOnlyRetryStrategy, withRetryOptions } from '../core/retry';

/** Realtime invocations time out at 60 s on the service side; the deadline leaves room for one retry wait after that. */
export const DEFAULT_DEADLINE_MS = 70_000;
export const DEFAULT_MAX_SOCKETS = 50;

export interface RuntimeClientOptions extends SageMakerRuntimeClientConfig {
  /** Keep-alive sockets per origin; requests beyond it queue instead of opening sockets. @default 50 */
  readonly maxSockets?: number;
  /**
   * Per-attempt limit until the response headers, counted from when the request is queued for a socket.
   * @default 61000
   */
  readonly attemptTimeoutMs?: number;
  /**
   * TCP connect limit. Off by default: the SDK starts this timer when the request is created, so with a small
   * `maxSockets` and a deep queue it fires on requests that are merely waiting for a socket. The deadline bounds
   * a hung connect instead. @default - none
   */
  readonly connectionTimeoutMs?: number;
  /** Retry budget and backoff of TransientOnlyRetryStrategy. @default 3 attempts, 100 ms base, 5 s cap */
  readonly retry?: RetryOptions;
}

/**
 * A SageMaker runtime client with keep-alive agents bounded by `maxSockets`, a per-attempt timeout that fails the
 * attempt (not just a warning), and the transient-only retry strategy. Any client setting (endpoint, region,
 * credentials, requestHandler) can be overridden.
 */
export function createRuntimeClient(options: RuntimeClientOptions = {}): SageMakerRuntimeClient {
  const { maxSockets, attemptTimeoutMs, connectionTimeoutMs, retry, ...config } = options;
  const sockets = maxSockets ?? DEFAULT_MAX_SOCKETS;
  // Loaded here, not at module load (./aws-sdk): a process that never invokes pays for neither the SDK nor node:https.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { Agent: HttpAgent } = require('http') as typeof Http;
  const { Agent: HttpsAgent } = require('https') as typeof Https;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const { SageMakerRuntimeClient } = sageMakerRuntimeSdk();
  return new SageMakerRuntimeClient({
    maxAttempts: retry?.maxAttempts ?? DEFAULT_RETRY.maxAttempts,
    retryStrategy: new TransientOnlyRetryStrategy(retry),
    requestHandler: {
      httpAgent: new HttpAgent({ keepAlive: true, maxSockets: sockets }),
      httpsAgent: new HttpsAgent({ keepAlive: true, maxSockets: sockets }),
      requestTimeout: attemptTimeoutMs ?? 61_000,
      throwOnRequestTimeout: true,
      connectionTimeout: connectionTimeoutMs,
    },
    ...config,
  });
}

export interface InvokeEndpointInput {
  readonly endpointName: string;
  readonly body: Uint8Array | string;
  /** MIME type of `body`; must be what the container's /invocations handler accepts (a mismatch is a 415 ModelError). */
  readonly contentType: string;
  readonly accept?: string;
  /** Production variant to route to (A/B tests). */
  readonly targetVariant?: string;
  /** Inference component to route to on a shared (IC) endpoint. */
  readonly inferenceComponentName?: string;
  /**
   * The model of a multi-model endpoint to run: its path relative to the endpoint's S3 prefix, e.g. `churn-a.tar.gz`
   * (InvokeEndpoint `TargetModel`, sent as `X-Amzn-SageMaker-Target-Model`: "The model to request for inference when
   * invoking a multi-model endpoint", https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_runtime_InvokeEndpoint.html).
   * SageMaker loads it from S3 on its first request.
   */
  readonly targetModel?: string;
  /** Opaque value passed to the container in `X-Amzn-SageMaker-Custom-Attributes` (≤1024 characters). */
  readonly customAttributes?: string;
  /** Recorded with data capture; 1–64 printable characters. */
  readonly inferenceId?: string;
}

export interface InvokeOptions {
  /** Client to use. @default a shared createRuntimeClient(clientConfig) */
  readonly client?: SageMakerRuntimeClient;
  /** Config of the shared client created when `client` is not given (one client per config object). */
  readonly clientConfig?: RuntimeClientOptions;
  /**
   * Total attempts for this call. Applies to clients from createRuntimeClient; other clients keep their own retry
   * settings. @default the client's (3)
   */
  readonly maxAttempts?: number;
  /** Backoff of this call's retries (tests use 0). @default the client's */
  readonly backoff?: { readonly baseDelayMs?: number; readonly maxDelayMs?: number };
  /** Overall limit for the call including retries and backoff; exceeding it throws TransientEndpointError. @default 70000 */
  readonly deadlineMs?: number;
  /** Caller cancellation; an abort rethrows the signal's AbortError. */
  readonly signal?: AbortSignal;
}

export interface InvokeResult {
  /** The whole response body. */
  readonly body: Uint8Array;
  readonly contentType?: string;
  readonly invokedProductionVariant?: string;
  readonly customAttributes?: string;
  readonly requestId?: string;
  /** HTTP attempts made, including retries. */
  readonly attempts: number;
  /** The body as UTF-8 text. */
  text(): string;
  /** The body parsed as JSON. */
  json<T = unknown>(): T;
}

const sharedClients = new WeakMap<RuntimeClientOptions, SageMakerRuntimeClient>();
let defaultClient: SageMakerRuntimeClient | undefined;

/** The client `options` asks for: the given one, else one shared per clientConfig object, else one shared default. */
export function resolveClient(options: Pick<InvokeOptions, 'client' | 'clientConfig'> = {}): SageMakerRuntimeClient {
  if (options.client) return options.client;
  if (options.clientConfig) {
    let client = sharedClients.get(options.clientConfig);
    if (!client) {
      client = createRuntimeClient(options.clientConfig);
      sharedClients.set(options.clientConfig, client);
    }
    return client;
  }
  return (defaultClient ??= createRuntimeClient());
}

/** What `failureOf` reads of a call's deadline: whether the deadline (not the caller) ended it. */
export interface CallSignal {
  readonly signal: AbortSignal;
  expired(): boolean;
}

/** Turns a failure into the error to throw: the caller's abort as is, a deadline as TransientEndpointError. */
export function failureOf(
  err: unknown,
  call: CallSignal,
  context: { endpointName: string; contentType?: string; deadlineMs?: number; attempts?: number },
  callerSignal?: AbortSignal,
): unknown {
  if (callerSignal?.aborted && !call.expired()) return err;
  if (call.expired()) {
    const limit = context.deadlineMs ?? DEFAULT_DEADLINE_MS;
    return new TransientEndpointError(`SageMaker endpoint "${context.endpointName}" did not answer within the ${limit} ms deadline`, {
      code: 'DeadlineExceeded',
      endpointName: context.endpointName,
      attempts: context.attempts ?? (err as { $metadata?: { attempts?: number } })?.$metadata?.attempts,
      cause: err,
    });
  }
  return classifyError(err, context);
}

const decoder = new TextDecoder('utf-8');

/**
 * Calls InvokeEndpoint and returns the whole response. Throws ModelInvocationError, EndpointValidationError,
 * TransientEndpointError (after retries, or on the deadline) or EndpointRequestError; a caller abort rethrows as is.
 */
export async function invokeEndpoint(input: InvokeEndpointInput, options: InvokeOptions = {}): Promise<InvokeResult> {
  const client = resolveClient(options);
  const call = startDeadline(`InvokeEndpoint ${input.endpointName}`, options.deadlineMs ?? DEFAULT_DEADLINE_MS, { signals: [options.signal] });
  const { InvokeEndpointCommand } = sageMakerRuntimeSdk();
  const command = new InvokeEndpointCommand({
    EndpointName: input.endpointName,
    Body: typeof input.body === 'string' ? new TextEncoder().encode(input.body) : input.body,
    ContentType: input.contentType,
    Accept: input.accept,
    TargetVariant: input.targetVariant,
    TargetModel: input.targetModel,
    InferenceComponentName: input.inferenceComponentName,
    CustomAttributes: input.customAttributes,
    InferenceId: input.inferenceId,
  });
  try {
    // Raced against the signal as a whole (credentials, signing, every attempt and backoff): see abortable.
    const out = await abortable(withRetryOptions(
      { maxAttempts: options.maxAttempts, baseDelayMs: options.backoff?.baseDelayMs, maxDelayMs: options.backoff?.maxDelayMs },
      () => client.send(command, { abortSignal: call.signal }),
    ), call.signal);
    const body = out.Body ?? new Uint8Array(0);
    return {
      body,
      contentType: out.ContentType,
      invokedProductionVariant: out.InvokedProductionVariant,
      customAttributes: out.CustomAttributes,
      requestId: out.$metadata.requestId,
      attempts: out.$metadata.attempts ?? 1,
      text: () => decoder.decode(body),
      json: <T>() => JSON.parse(decoder.decode(body)) as T,
    };
  } catch (err) {
    throw failureOf(err, call, { endpointName: input.endpointName, contentType: input.contentType, deadlineMs: options.deadlineMs }, options.signal);
  } finally {
    call.dispose();
  }
}
