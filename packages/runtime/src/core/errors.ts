/**
 * Library errors for SageMaker runtime calls. Every error says whether the same request can succeed later
 * (`retryable`), which is what an MCP tool (and the retry strategy in ./invoke) needs to decide.
 *
 * | SageMaker error                                   | Library class              | retryable |
 * |---------------------------------------------------|----------------------------|-----------|
 * | ModelError (424)                                  | ModelInvocationError       | no        |
 * | ModelStreamError ModelInvocationTimeExceeded      | ModelInvocationError       | no        |
 * | ValidationError (400)                             | EndpointValidationError    | no        |
 * | ModelNotReadyException (429), ThrottlingException | TransientEndpointError     | yes       |
 * | InternalFailure (500), ServiceUnavailable (503)   | TransientEndpointError     | yes       |
 * | InternalDependencyException (530)                 | TransientEndpointError     | yes       |
 * | InternalStreamFailure, ModelStreamError StreamBroken | TransientEndpointError  | yes       |
 * | connection reset / refused, socket or deadline timeout | TransientEndpointError | yes      |
 * | anything else (access denied, credentials, ...)   | EndpointRequestError       | no        |
 */

/** Base class of every error this library throws for a SageMaker runtime call. */
export abstract class SageMakerMcpError extends Error {
  /** True when the same request may succeed later without being changed. */
  public abstract readonly retryable: boolean;
  /** The AWS error code (e.g. `ModelError`), or a transport code (`ECONNRESET`, `TimeoutError`, `DeadlineExceeded`). */
  public readonly code?: string;
  public readonly httpStatusCode?: number;
  public readonly requestId?: string;
  public readonly endpointName?: string;
  /** HTTP attempts made, including retries, when known. */
  public readonly attempts?: number;

  protected constructor(message: string, details: ErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = details.code;
    this.httpStatusCode = details.httpStatusCode;
    this.requestId = details.requestId;
    this.endpointName = details.endpointName;
    this.attempts = details.attempts;
  }
}

export interface ErrorDetails {
  readonly code?: string;
  readonly httpStatusCode?: number;
  readonly requestId?: string;
  readonly endpointName?: string;
  readonly attempts?: number;
  readonly cause?: unknown;
}

/**
 * The model container received the request and answered with an error (ModelError 424), or broke its response
 * stream. Retrying the same input reproduces it.
 */
export class ModelInvocationError extends SageMakerMcpError {
  public readonly name = 'ModelInvocationError';
  public readonly retryable = false;
  /** Status the container returned (e.g. 400, 415, 500). */
  public readonly originalStatusCode?: number;
  public readonly originalMessage?: string;
  /** CloudWatch log stream of the container. */
  public readonly logStreamArn?: string;
  /** For in-stream errors: `ModelInvocationTimeExceeded`. */
  public readonly streamErrorCode?: string;

  public constructor(message: string, details: ErrorDetails & {
    originalStatusCode?: number;
    originalMessage?: string;
    logStreamArn?: string;
    streamErrorCode?: string;
  } = {}) {
    super(message, details);
    this.originalStatusCode = details.originalStatusCode;
    this.originalMessage = details.originalMessage;
    this.logStreamArn = details.logStreamArn;
    this.streamErrorCode = details.streamErrorCode;
  }
}

/** SageMaker rejected the request itself (ValidationError: unknown endpoint, bad header, body too large, ...). */
export class EndpointValidationError extends SageMakerMcpError {
  public readonly name = 'EndpointValidationError';
  public readonly retryable = false;
  public constructor(message: string, details: ErrorDetails = {}) {
    super(message, details);
  }
}

/** Infrastructure trouble that a later attempt can get past: throttling, not ready, 5xx, resets, timeouts. */
export class TransientEndpointError extends SageMakerMcpError {
  public readonly name = 'TransientEndpointError';
  public readonly retryable = true;
  public constructor(message: string, details: ErrorDetails = {}) {
    super(message, details);
  }
}

/** Any other failure (access denied, missing credentials, aborted by the caller, ...). Not retried. */
export class EndpointRequestError extends SageMakerMcpError {
  public readonly name = 'EndpointRequestError';
  public readonly retryable = false;
  public constructor(message: string, details: ErrorDetails = {}) {
    super(message, details);
  }
}

/** What an MCP tool returns to the agent for a failed call. */
export interface ToolError {
  readonly errorName: string;
  readonly message: string;
  readonly retryable: boolean;
  readonly originalStatusCode?: number;
  readonly logStreamArn?: string;
}

/** Context that makes classified messages useful: which endpoint, which content type was sent. */
export interface ErrorContext {
  readonly endpointName?: string;
  readonly contentType?: string;
  /** Attempts made, when the caller counted them itself (stream retries). */
  readonly attempts?: number;
}

const TRANSIENT_CODES = new Set([
  'InternalFailure',
  'ServiceUnavailable',
  'InternalDependencyException',
  'ModelNotReadyException',
  'InternalStreamFailure',
  // Generic AWS throttling codes: SageMaker runtime answers ThrottlingException (400) when over the account's rate.
  'ThrottlingException',
  'Throttling',
  'TooManyRequestsException',
  'RequestLimitExceeded',
  'RequestThrottled',
  'RequestThrottledException',
  'SlowDown',
  // Transport: the SDK names node's ECONNRESET/EPIPE/ETIMEDOUT errors TimeoutError.
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
]);
const TRANSIENT_NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ECONNABORTED']);
const TRANSIENT_STATUS = new Set([429, 500, 502, 503, 504, 530]);

interface SdkErrorShape {
  name?: string;
  message?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number; requestId?: string; attempts?: number };
  $response?: { statusCode?: number };
  OriginalStatusCode?: number;
  OriginalMessage?: string;
  LogStreamArn?: string;
  ErrorCode?: string;
  cause?: unknown;
}

function shapeOf(err: unknown): SdkErrorShape {
  return err !== null && typeof err === 'object' ? (err as SdkErrorShape) : { message: String(err) };
}

/**
 * The SDK re-wraps errors that fail its `instanceof Error` check (node's own errors seen from another realm, e.g.
 * under jest) into `AWS SDK error wrapper for <name>: <message>`, dropping `code`: recover the transport signal from it.
 */
function looksLikeTransportFailure(e: SdkErrorShape): boolean {
  if (e.code && TRANSIENT_NETWORK_CODES.has(e.code)) return true;
  const message = e.message ?? '';
  return /^AWS SDK error wrapper for (TimeoutError|Error: (socket hang up|read ECONNRESET|connect ECONNREFUSED|write EPIPE))/.test(message)
    || /socket hang up/.test(message) && e.$metadata?.httpStatusCode === undefined;
}

/** Whether an SDK (or library) error is one the same request may get past. Used by the retry strategy. */
export function isTransient(err: unknown): boolean {
  if (err instanceof SageMakerMcpError) return err.retryable;
  const e = shapeOf(err);
  if (e.name === 'AbortError') return false;
  if (e.name === 'ModelError' || e.name === 'ValidationError') return false;
  if (e.name === 'ModelStreamError') return e.ErrorCode === 'StreamBroken';
  if (e.name && TRANSIENT_CODES.has(e.name)) return true;
  const status = e.$metadata?.httpStatusCode;
  if (status !== undefined && TRANSIENT_STATUS.has(status)) return true;
  if (looksLikeTransportFailure(e)) return true;
  const cause = e.cause;
  return cause !== undefined && cause !== err && typeof cause === 'object' && looksLikeTransportFailure(shapeOf(cause));
}

/** Maps any error from a SageMaker runtime call to a library error. Library errors pass through unchanged. */
export function classifyError(err: unknown, context: ErrorContext = {}): SageMakerMcpError {
  if (err instanceof SageMakerMcpError) return err;
  const e = shapeOf(err);
  const details: ErrorDetails = {
    code: e.name === 'Error' && e.code ? e.code : e.name ?? e.code,
    httpStatusCode: e.$metadata?.httpStatusCode,
    requestId: e.$metadata?.requestId,
    attempts: context.attempts ?? e.$metadata?.attempts,
    endpointName: context.endpointName,
    cause: err,
  };
  const where = context.endpointName ? ` (endpoint "${context.endpointName}")` : '';
  const message = e.message ?? String(err);

  if (e.name === 'ModelError') {
    const status = e.OriginalStatusCode;
    const original = e.OriginalMessage ?? message;
    const logs = e.LogStreamArn ? ` Container logs: ${e.LogStreamArn}.` : '';
    const text = status === 415
      ? `The content type${context.contentType ? ` "${context.contentType}"` : ''} does not match what the model container accepts${where}: the container answered 415 (${original}). Send the content type its /invocations handler expects.${logs}`
      : `The model container${where} answered ${status ?? 'an error'}: ${original}. Retrying the same input reproduces this.${logs}`;
    return new ModelInvocationError(text, {
      ...details,
      originalStatusCode: status,
      originalMessage: e.OriginalMessage,
      logStreamArn: e.LogStreamArn,
    });
  }
  if (e.name === 'ModelStreamError' && e.ErrorCode !== 'StreamBroken') {
    return new ModelInvocationError(`The model's response stream failed${where}: ${e.ErrorCode ?? 'ModelStreamError'}: ${message}`, {
      ...details,
      streamErrorCode: e.ErrorCode,
    });
  }
  if (e.name === 'ValidationError') {
    return new EndpointValidationError(`SageMaker rejected the request${where}: ${message}`, details);
  }
  if (isTransient(err)) {
    const transportCode = looksLikeTransportFailure(e) ? e.code ?? 'ECONNRESET' : undefined;
    return new TransientEndpointError(`SageMaker endpoint temporarily unavailable${where}: ${e.name && e.name !== 'Error' ? `${e.name}: ` : ''}${message}`, {
      ...details,
      code: e.name === 'ModelStreamError' ? 'StreamBroken' : transportCode && (e.name === 'Error' || !e.name) ? transportCode : details.code,
    });
  }
  return new EndpointRequestError(`SageMaker runtime call failed${where}: ${e.name && e.name !== 'Error' ? `${e.name}: ` : ''}${message}`, details);
}

/** The error an MCP tool returns: name, message, whether to retry, and the model's status and logs when known. */
export function toToolError(err: unknown, context: ErrorContext = {}): ToolError {
  const classified = classifyError(err, context);
  const result: { -readonly [K in keyof ToolError]: ToolError[K] } = {
    errorName: classified.name,
    message: classified.message,
    retryable: classified.retryable,
  };
  if (classified instanceof ModelInvocationError) {
    if (classified.originalStatusCode !== undefined) result.originalStatusCode = classified.originalStatusCode;
    if (classified.logStreamArn !== undefined) result.logStreamArn = classified.logStreamArn;
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// Redaction of what reaches an agent

/** `arn:partition:service:region:account:resource` (region and account may be empty, e.g. IAM and S3). */
const ARN = /\barn:aws[a-z-]*:([a-z0-9-]+):[a-z0-9-]*:(\d{12})?:[^\s"'`,;()<>\]}]+/gi;
/** An ARN percent-encoded in a URL or form body (`arn%3Aaws%3Aiam%3A%3A123456789012%3Arole%2FName`; `%253A` twice encoded). */
const ENCODED_ARN = /\barn%(?:25)?3Aaws[a-z-]*%(?:25)?3A([a-z0-9-]+)%(?:25)?3A[a-z0-9-]*%(?:25)?3A(?:\d{12})?%(?:25)?3A[^\s"'`,;()<>\]}&]+/gi;
/**
 * Access key ids (long-term AKIA, temporary ASIA), also glued to a word (`key_ASIA…`, where `\b` finds no boundary):
 * bounded by what is not an upper-case letter or digit.
 */
const ACCESS_KEY_ID = /(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])/g;
/**
 * Any 12-digit number that is not part of a longer number or of a decimal: it may be an account id. Messages that
 * quote quantities or times must not print them as bare 12-digit numbers (event times are quoted as ISO-8601).
 */
const ACCOUNT_ID = /(?<![\d.])\d{12}(?!\d|\.\d)/g;

/**
 * The text an agent may see: every ARN replaced by `<service ARN>` (role, user, function and resource ARNs name the
 * account and its principals), 12-digit account ids by `<account>`, and request signatures, credentials and security
 * tokens by `<redacted>`. The server logs the original under a correlation id (see mcp-tools/guard).
 */
export function redactForAgent(text: string): string {
  return redactSecrets(text)
    .replace(ARN, (_m, service: string) => `<${service.toLowerCase()} ARN>`)
    .replace(ENCODED_ARN, (_m, service: string) => `<${service.toLowerCase()} ARN>`)
    .replace(ACCESS_KEY_ID, '<access key id>')
    .replace(ACCOUNT_ID, '<account>');
}

/**
 * A secret by its name, in every spelling a message or log line brings it: SDK configs and credential files
 * (`aws_secret_access_key = …`), JSON (`"SecretAccessKey":"…"`), JSON inside a JSON string (`\\"SessionToken\\":\\"…`),
 * Java properties (`aws.secretKey=…`, `aws.sessionToken:…`), botocore's repr (`secret_key='…'`), a canonical request
 * (`x-amz-security-token:…`) and URL-encoded forms (`X-Amz-Security-Token%3D…`, `%22SessionToken%22%3A%22…`).
 */
const SECRET_BY_NAME = new RegExp(
  // Not inside a longer word, but right after a digit (the `%22` of URL-encoded JSON).
  '(?<![A-Za-z])((?:aws[_.-]?)?(?:secret[_-]?(?:access[_-]?)?key|session[_-]?token|security[_-]?token|password)'
  + '|X-Amz-(?:Credential|Signature|SignedHeaders)|Credential|Signature|SignedHeaders)'
  + '((?:\\\\*["\']|%22|%27)?\\s*(?:[=:]|%3[DdAa])\\s*(?:\\\\*["\']|%22|%27)?)'
  + '[^\\s"\'&,;<>\\\\]+', 'gi');
/** The same names as XML elements (an STS answer: `<SecretAccessKey>…</SecretAccessKey><SessionToken>…`). */
const SECRET_ELEMENT = /<((?:[A-Za-z]+:)?(?:SecretAccessKey|SecretKey|SessionToken|SecurityToken|Password))>[^<]*<\/\1>/gi;
/** botocore's `Credentials(access_key='…', secret_key='…', token='…')`: a bare `token=` followed by a quote. */
const QUOTED_TOKEN = /(?<![\w-])(token\s*=\s*)(['"])[^'"]*\2/gi;
/** `Authorization: Bearer <token>` (RFC 6750 b64token). */
const BEARER = /\b(Bearer)(\s+)[A-Za-z0-9\-._~+/]+=*/g;
/**
 * A SageMaker bearer token: `sagemaker-api-key-` and a base64-encoded presigned URL, the key of the OpenAI-compatible
 * route (https://docs.aws.amazon.com/sagemaker/latest/dg/realtime-endpoints-openai-compatible.html; made by
 * aws/sagemaker-python-sdk `sagemaker-core/src/sagemaker/core/token_generator/token_generator.py`), wherever it appears.
 */
const SAGEMAKER_API_KEY = /\bsagemaker-api-key-[A-Za-z0-9+/_-]+=*/gi;

/**
 * The one redaction of every handler, for what it logs and what it returns. It removes credentials, never identifiers:
 * ARNs and account ids stay (operators need them to act), but signing material and secrets become `<redacted>`:
 * SigV4 credentials, signatures and security tokens (AWS echoes the canonical request, `x-amz-security-token` included,
 * in a signature-mismatch error), secret access keys and session tokens in each spelling above, passwords, `Bearer`
 * tokens and SageMaker bearer tokens (`sagemaker-api-key-…`). `redactForAgent` applies it and then hides identifiers.
 */
export function redactSecrets(text: string): string {
  return text
    .replace(SAGEMAKER_API_KEY, '<redacted sagemaker-api-key>')
    .replace(SECRET_ELEMENT, (_m, name: string) => `<${name}><redacted></${name}>`)
    .replace(SECRET_BY_NAME, (_m, name: string, sep: string) => `${name}${sep}<redacted>`)
    .replace(QUOTED_TOKEN, (_m, name: string, quote: string) => `${name}${quote}<redacted>${quote}`)
    .replace(BEARER, (_m, name: string, space: string) => `${name}${space}<redacted>`);
}

/** @deprecated the same function as `redactSecrets` (kept for callers of the earlier name). */
export const redactSigning = redactSecrets;

/** An ARN that stays useful to an agent (e.g. a log stream) with its account id masked. */
export function maskAccount(arn: string): string {
  return redactSecrets(arn.replace(ACCOUNT_ID, '<account>'));
}
