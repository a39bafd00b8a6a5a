/**
 * Async inference jobs: submit (S3 upload + InvokeEndpointAsync). This module is the entry point of the async runtime
 * and re-exports configuration (./config) and results (./job-results). The result recorder's logic (./recorder,
 * ./notification) is the bundled handler's, reached through `cdk-sagemaker-mcp-runtime/internal/lambda`.
 *
 * Config comes from explicit options or the env vars of packages/runtime/src/contract/async.ts (set by `AsyncEndpoint`).
 */
import { randomUUID } from 'crypto';
import { AsyncJobRequestError, AsyncJobsDeps, parseS3Location, resolveConfig, s3Client, smClient } from './config';
import { ASYNC_ENV, DEFAULT_INVOCATION_TIMEOUT_SECONDS, DEFAULT_REQUEST_TTL_SECONDS, ttlProblems } from '../contract/async';
import { s3Sdk, sageMakerRuntimeSdk } from '../core/aws-sdk';
import { classifyError } from '../core/errors';

export type { AsyncJobRecord, AsyncJobFinalStatus } from '../contract/async';
export { AsyncJobRequestError, asyncJobsConfigFromEnv } from './config';
export type { AsyncJobsConfig, AsyncJobsDeps } from './config';
export {
  AsyncJobTimeoutError, AsyncResultAccessDeniedError, DEFAULT_ASYNC_OUTPUT_MAX_BYTES, fetchObject, getAsyncJob, waitForAsyncJob,
} from './job-results';
export type { AsyncJobOutput, AsyncJobState, FetchObjectOptions, GetAsyncJobOptions, WaitForAsyncJobRequest } from './job-results';

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
    await s3Client(deps).send(new (s3Sdk().PutObjectCommand)({
      Bucket: config.inputBucket,
      Key: key,
      Body: encodePayload(request.payload!),
      ContentType: contentType,
    }));
    inputLocation = `s3://${config.inputBucket}/${key}`;
  }

  let response;
  try {
    response = await smClient(deps).send(new (sageMakerRuntimeSdk().InvokeEndpointAsyncCommand)({
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
