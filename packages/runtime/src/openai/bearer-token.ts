/**
 * Bearer tokens for SageMaker's OpenAI-compatible route (`Authorization: Bearer sagemaker-api-key-...`), made the way
 * AWS's Python SDK makes them (sagemaker-core `token_generator`, documented on
 * https://docs.aws.amazon.com/sagemaker/latest/dg/realtime-endpoints-openai-compatible.html): a SigV4 query-presigned
 * `POST https://sagemaker.amazonaws.com/?Action=CallWithBearerToken` (service `sagemaker`, signed header `host`, the
 * region in the credential scope only), without its scheme, plus `&Version=1`, base64 (standard, padded), prefixed.
 * "No network call is made during token generation." Signed with the AWS SDK v3's own signer (`@smithy/signature-v4`)
 * and credential chain, both loaded on first use, and SHA-256 from node:crypto.
 *
 * A token is a credential: never log it, store it, or put it in an environment variable (AWS: "Do not log tokens").
 */
import { createHash, createHmac, Hash, Hmac } from 'crypto';
import type * as CredentialProviderNode from '@aws-sdk/credential-provider-node';
import type * as SignatureV4Module from '@smithy/signature-v4';

/** What every token starts with. */
const BEARER_TOKEN_PREFIX = 'sagemaker-api-key-';
/** The longest lifetime AWS allows: 12 hours. */
export const MAX_BEARER_TOKEN_EXPIRY_SECONDS = 43_200;

const HOST = 'sagemaker.amazonaws.com';
const SERVICE = 'sagemaker';
const VERSION_SUFFIX = '&Version=1';

/** AWS credentials, as the AWS SDK v3 represents them. */
export interface BearerTokenCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
  /** When the credentials stop working; the token never outlives them. */
  readonly expiration?: Date;
}

/** Where credentials come from: fixed ones or a provider (the SDK's `AwsCredentialIdentityProvider` shape). */
export type BearerTokenCredentialSource = BearerTokenCredentials | (() => Promise<BearerTokenCredentials>);

export interface BearerTokenOptions {
  /**
   * The region of the endpoint the token is for (it goes in the credential scope).
   *
   * @default - `AWS_REGION`, then `AWS_DEFAULT_REGION`; an error when neither is set
   */
  readonly region?: string;
  /**
   * The credentials that sign the token; the token carries their identity's permissions.
   *
   * @default - the AWS SDK's default Node.js chain (`defaultProvider()` of `@aws-sdk/credential-provider-node`)
   */
  readonly credentials?: BearerTokenCredentialSource;
  /**
   * The token's lifetime in seconds, 1-43200 (whole seconds, as AWS's SDK truncates). It is shortened to what remains
   * of the credentials' own `expiration`. AWS: "Set the token expiry to the shortest duration your workload requires."
   *
   * @default 43200 (12 hours, AWS's default)
   */
  readonly expiresInSeconds?: number;
}

/** A token and when it stops working. */
export interface BearerToken {
  readonly token: string;
  readonly expiresAt: Date;
}

/** One token for `options`, signed at `now` (epoch ms; the current time by default). */
export async function generateBearerToken(options: BearerTokenOptions = {}, now: Date = new Date()): Promise<BearerToken> {
  const region = options.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION;
  if (!region) throw new Error('region: got none (and AWS_REGION is not set), expected the endpoint\'s region such as us-east-1');
  const requested = validExpiry(options.expiresInSeconds);
  const credentials = await resolveCredentials(options.credentials);
  const remaining = credentials.expiration === undefined
    ? Infinity
    : Math.floor((credentials.expiration.getTime() - now.getTime()) / 1000);
  if (remaining < 1) {
    throw new Error(`credentials: they expire at ${credentials.expiration!.toISOString()}, expected credentials valid for at least 1 second more`);
  }
  const expiresIn = Math.min(requested, remaining);

  const { SignatureV4 } = signatureV4();
  const signer = new SignatureV4({ service: SERVICE, region, credentials, sha256: NodeSha256, uriEscapePath: true, applyChecksum: false });
  const signed = await signer.presign({
    method: 'POST',
    protocol: 'https:',
    hostname: HOST,
    path: '/',
    headers: { host: HOST },
    query: { Action: 'CallWithBearerToken' },
  }, { expiresIn, signingDate: now });
  const query = signed.query as Record<string, string>;
  // botocore's query order: the operation's parameters, then its auth parameters, then the signature.
  const names = ['Action', 'X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Date', 'X-Amz-Expires', 'X-Amz-SignedHeaders',
    ...(credentials.sessionToken ? ['X-Amz-Security-Token'] : []), 'X-Amz-Signature'];
  const url = `${HOST}/?${names.map((n) => `${n}=${rfc3986(query[n])}`).join('&')}${VERSION_SUFFIX}`;
  return {
    token: BEARER_TOKEN_PREFIX + Buffer.from(url, 'utf8').toString('base64'),
    expiresAt: new Date(now.getTime() + expiresIn * 1000),
  };
}

export interface BearerTokenProviderOptions extends BearerTokenOptions {
  /**
   * Make a new token when the cached one has less than this left (capped at half the token's lifetime).
   *
   * @default 300 (5 minutes)
   */
  readonly refreshBeforeSeconds?: number;
}

/**
 * A function that returns a valid token, cached and made anew before it lapses: pass it where an OpenAI client takes a
 * key function (`new OpenAI({ apiKey: tokenProvider })`), or call it per request. Concurrent callers share one signing.
 */
export function bearerTokenProvider(options: BearerTokenProviderOptions = {}): () => Promise<string> {
  const refreshBefore = options.refreshBeforeSeconds ?? 300;
  if (!Number.isFinite(refreshBefore) || refreshBefore < 0) {
    throw new Error(`refreshBeforeSeconds: got ${refreshBefore}, expected a number of seconds >= 0`);
  }
  validExpiry(options.expiresInSeconds);
  // The chain is built once: it caches and refreshes credentials itself.
  const credentials = options.credentials ?? credentialProviderNode().defaultProvider();
  let cached: { token: BearerToken; refreshAt: number } | undefined;
  let pending: Promise<BearerToken> | undefined;
  return async () => {
    const now = Date.now();
    if (cached && now < cached.refreshAt) return cached.token.token;
    pending ??= generateBearerToken({ ...options, credentials }, new Date(now)).finally(() => { pending = undefined; });
    const token = await pending;
    const lifetimeMs = token.expiresAt.getTime() - now;
    cached = { token, refreshAt: token.expiresAt.getTime() - Math.min(refreshBefore * 1000, lifetimeMs / 2) };
    return token.token;
  };
}

function validExpiry(seconds: number | undefined): number {
  if (seconds === undefined) return MAX_BEARER_TOKEN_EXPIRY_SECONDS;
  const whole = Math.trunc(seconds);
  if (!Number.isFinite(seconds) || whole < 1 || whole > MAX_BEARER_TOKEN_EXPIRY_SECONDS) {
    throw new Error(`expiresInSeconds: got ${seconds}, expected 1-${MAX_BEARER_TOKEN_EXPIRY_SECONDS} (1 second to 12 hours)`);
  }
  return whole;
}

async function resolveCredentials(source: BearerTokenCredentialSource | undefined): Promise<BearerTokenCredentials> {
  if (source === undefined) return credentialProviderNode().defaultProvider()();
  return typeof source === 'function' ? source() : source;
}

/** Percent-encoding of SigV4 (RFC 3986 unreserved characters kept), as botocore's `percent_encode` does. */
function rfc3986(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * SHA-256 (HMAC-SHA256 with a key) from node:crypto, in the shape the signer's `sha256` option takes: what the SDK's
 * Node.js clients use, without a JavaScript implementation in the bundle. Not the SDK's own (`Sha256` of
 * `@smithy/core/checksum`): the bundled server takes `@smithy/*` from the Lambda runtime's SDK, whose version the
 * function does not pin, and that submodule is newer than the signer.
 */
class NodeSha256 {
  private readonly hash: Hash | Hmac;
  constructor(secret?: SourceData) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }
  update(data: SourceData): void {
    this.hash.update(bytes(data));
  }
  async digest(): Promise<Uint8Array> {
    return this.hash.digest();
  }
}

/** What the signer hashes (the SDK's `SourceData`): a string is UTF-8. */
type SourceData = string | ArrayBuffer | ArrayBufferView;

function bytes(data: SourceData): string | Uint8Array {
  if (typeof data === 'string') return data;
  return ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);
}

/**
 * The SDK's signer and credential chain, loaded on first use (as ../core/aws-sdk loads the clients): requiring the MCP
 * server loads neither. The bundled MCP server Lambda takes both from the Lambda runtime's AWS SDK (projenrc/bundling.ts
 * leaves `@aws-sdk/*` and `@smithy/*` out of the bundle).
 */
function signatureV4(): typeof SignatureV4Module {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('@smithy/signature-v4');
}

function credentialProviderNode(): typeof CredentialProviderNode {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('@aws-sdk/credential-provider-node');
}
