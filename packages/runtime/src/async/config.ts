/**
 * Where async jobs go and how they are reached: the configuration (explicit, or the env vars `AsyncEndpoint` sets,
 * parsed with the contract's zod schema, ./contract/async), the shared SDK clients, and S3 locations.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import type { SageMakerRuntimeClient } from '@aws-sdk/client-sagemaker-runtime';
import { ASYNC_ENV, AsyncEndpointEnvSchema } from '../contract/async';
import { parseContract } from '../contract/parse';
import { dynamoDbSdk, s3Sdk, sageMakerRuntimeSdk } from '../core/aws-sdk';
import { boundedClient } from '../core/bounded';

/** Raised before any AWS call when a request is invalid (TTL/timeout rules, missing config). Not retryable. */
export class AsyncJobRequestError extends Error {
  public readonly retryable = false;
  constructor(message: string) {
    super(message);
    this.name = 'AsyncJobRequestError';
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

/** Each variable may be absent here (explicit config may give it), but one that is set must be what the contract says. */
const AsyncJobsEnvSchema = AsyncEndpointEnvSchema.partial();

/**
 * Reads the contract env vars (`AsyncEndpoint.runtimeEnvironment`) with the contract's schema; an empty variable counts
 * as unset. A malformed one is refused naming it: `SAGEMAKER_ASYNC_INVOCATION_TIMEOUT_SECONDS: expected whole seconds, got "15m"`.
 */
export function asyncJobsConfigFromEnv(env: Record<string, string | undefined> = process.env): AsyncJobsConfig {
  const vars = Object.fromEntries(Object.keys(AsyncEndpointEnvSchema.shape).map((name) => [name, env[name] || undefined]));
  const parsed = parseContract(AsyncJobsEnvSchema, vars, {
    fail: (problems) => new AsyncJobRequestError(`The async endpoint environment is invalid:\n  - ${problems.join('\n  - ')}`),
  });
  const seconds = (value: string | undefined) => (value === undefined ? undefined : Number(value));
  return {
    endpointName: parsed[ASYNC_ENV.ENDPOINT_NAME],
    inputBucket: parsed[ASYNC_ENV.INPUT_BUCKET],
    inputPrefix: parsed[ASYNC_ENV.INPUT_PREFIX],
    jobTableName: parsed[ASYNC_ENV.JOB_TABLE_NAME],
    invocationTimeoutSeconds: seconds(parsed[ASYNC_ENV.INVOCATION_TIMEOUT_SECONDS]),
    requestTtlSeconds: seconds(parsed[ASYNC_ENV.REQUEST_TTL_SECONDS]),
  };
}

/** The explicit config over the environment's. */
export function resolveConfig(deps: AsyncJobsDeps): AsyncJobsConfig {
  const fromEnv = asyncJobsConfigFromEnv(deps.env ?? process.env);
  const explicit = Object.fromEntries(Object.entries(deps.config ?? {}).filter(([, v]) => v !== undefined));
  return { ...fromEnv, ...explicit };
}

// Clients are created lazily and reused when not injected, so a Lambda container keeps its connections warm.
const defaultClients: { sagemakerRuntime?: SageMakerRuntimeClient; s3?: S3Client; dynamodb?: DynamoDBClient } = {};
// Built with connection and request timeouts (./bounded), so the recorder handler never waits on a silent service.
export const smClient = (deps: AsyncJobsDeps) =>
  deps.sagemakerRuntime ?? (defaultClients.sagemakerRuntime ??= boundedClient(sageMakerRuntimeSdk().SageMakerRuntimeClient, {}));
export const s3Client = (deps: AsyncJobsDeps) => deps.s3 ?? (defaultClients.s3 ??= boundedClient(s3Sdk().S3Client, {}));
export const ddbClient = (deps: AsyncJobsDeps) => deps.dynamodb ?? (defaultClients.dynamodb ??= boundedClient(dynamoDbSdk().DynamoDBClient, {}));

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
