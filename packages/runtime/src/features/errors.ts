/**
 * The errors of the Feature Store runtime calls: a missing group (never confused with a missing record), a value or
 * schema that does not match its declaration (raised before any call), and any other failed call with whether it may
 * be retried.
 */
import { ErrorDetails, isTransient, SageMakerMcpError } from '../core/errors';

/** The feature group does not exist (ResourceNotFound): a configuration problem, not a cold start. */
export class FeatureGroupNotFoundError extends SageMakerMcpError {
  public readonly name = 'FeatureGroupNotFoundError';
  public readonly retryable = false;
  public constructor(public readonly featureGroupName: string, details: ErrorDetails = {}) {
    super(`Feature group '${featureGroupName}' does not exist (ResourceNotFound). This is not a missing record (that returns ` +
      'defaults): check the group name or ARN, the region and that the group was created.', { code: 'ResourceNotFound', ...details });
  }
}

/** A value does not match its declared type, or a record or schema is malformed. Raised before any call. */
export class FeatureValueError extends SageMakerMcpError {
  public readonly name = 'FeatureValueError';
  public readonly retryable = false;
  public constructor(message: string) {
    super(message, { code: 'FeatureValueError' });
  }
}

/** Any other failed Feature Store runtime call; `retryable` says whether the same call may succeed later. */
export class FeatureStoreRequestError extends SageMakerMcpError {
  public readonly name = 'FeatureStoreRequestError';
  public readonly retryable: boolean;
  public constructor(message: string, retryable: boolean, details: ErrorDetails = {}) {
    super(message, details);
    this.retryable = retryable;
  }
}

/** A failed Feature Store runtime call as a library error (FeatureGroupNotFoundError for ResourceNotFound on a group). */
export function sdkError(err: unknown, group: string | undefined, operation: string): SageMakerMcpError {
  if (err instanceof SageMakerMcpError) return err;
  const e = (err ?? {}) as { name?: string; message?: string; $metadata?: { httpStatusCode?: number; requestId?: string; attempts?: number } };
  const details: ErrorDetails = {
    code: e.name,
    httpStatusCode: e.$metadata?.httpStatusCode,
    requestId: e.$metadata?.requestId,
    attempts: e.$metadata?.attempts,
    cause: err,
  };
  if (e.name === 'ResourceNotFound' && group) return new FeatureGroupNotFoundError(group, details);
  const where = group ? ` on feature group '${group}'` : '';
  return new FeatureStoreRequestError(`${operation}${where} failed: ${e.name ?? 'Error'}: ${e.message ?? String(err)}`, isTransient(err), details);
}
