import { createHash, createHmac } from 'crypto';
import { bearerTokenProvider, generateBearerToken } from 'cdk-sagemaker-mcp-runtime/openai';

// The example credentials of AWS's signing documentation (not real ones).
const CREDENTIALS = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
const SESSION = { ...CREDENTIALS, accessKeyId: 'ASIAIOSFODNN7EXAMPLE', sessionToken: 'IQoJb3JpZ2luX2Vj/+session=token' };
const NOW = new Date('2026-05-20T12:34:56.789Z');
/** `Authorization: Bearer sagemaker-api-key-...` (https://docs.aws.amazon.com/sagemaker/latest/dg/realtime-endpoints-openai-compatible.html). */
const PREFIX = 'sagemaker-api-key-';

/** RFC 3986 encoding as SigV4 wants it (https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html). */
const enc = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();
const sha256Hex = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');

/**
 * The token AWS's Python SDK makes (sagemaker-core token_generator: botocore SigV4QueryAuth on
 * POST https://sagemaker.amazonaws.com/?Action=CallWithBearerToken, header host only, then `&Version=1`, base64,
 * prefix), computed here by hand from the SigV4 steps of
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html, with no signer library.
 */
interface Creds { accessKeyId: string; secretAccessKey: string; sessionToken?: string }

function expectedToken(creds: Creds, region: string, now: Date, expires: number): string {
  const amzDate = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, ''); // 20260520T123456Z
  const date = amzDate.slice(0, 8);
  const scope = `${date}/${region}/sagemaker/aws4_request`;
  const params: Array<[string, string]> = [
    ['Action', 'CallWithBearerToken'],
    ['X-Amz-Algorithm', 'AWS4-HMAC-SHA256'],
    ['X-Amz-Credential', `${creds.accessKeyId}/${scope}`],
    ['X-Amz-Date', amzDate],
    ['X-Amz-Expires', String(expires)],
    ['X-Amz-SignedHeaders', 'host'],
    ...(creds.sessionToken ? [['X-Amz-Security-Token', creds.sessionToken] as [string, string]] : []),
  ];
  // Step 1, canonical request: method, URI, sorted encoded query, canonical headers, signed headers, payload hash (an
  // empty body: botocore's SigV4QueryAuth signs the payload, unlike S3's presigning).
  const canonicalQuery = params.map(([k, v]) => [enc(k), enc(v)]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${k}=${v}`).join('&');
  const canonicalRequest = ['POST', '/', canonicalQuery, 'host:sagemaker.amazonaws.com\n', 'host', sha256Hex('')].join('\n');
  // Step 2-4: string to sign, signing key, signature.
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${creds.secretAccessKey}`, date), region), 'sagemaker'), 'aws4_request');
  const signature = createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex');
  const url = `sagemaker.amazonaws.com/?${params.map(([k, v]) => `${k}=${enc(v)}`).join('&')}&X-Amz-Signature=${signature}&Version=1`;
  return PREFIX + Buffer.from(url).toString('base64');
}

function decode(token: string): URL {
  expect(token.startsWith(PREFIX)).toBe(true);
  const b64 = token.slice(PREFIX.length);
  expect(b64).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
  return new URL('https://' + Buffer.from(b64, 'base64').toString('utf8'));
}

describe('generateBearerToken', () => {
  test('equals the token recomputed by hand for fixed credentials, region, time and expiry', async () => {
    const { token, expiresAt } = await generateBearerToken({ region: 'us-west-2', credentials: CREDENTIALS, expiresInSeconds: 3600 }, NOW);
    expect(token).toBe(expectedToken(CREDENTIALS, 'us-west-2', NOW, 3600));
    expect(expiresAt).toEqual(new Date(NOW.getTime() + 3_600_000));
  });

  test('with a session token: X-Amz-Security-Token is signed and carried', async () => {
    const { token } = await generateBearerToken({ region: 'eu-west-1', credentials: SESSION, expiresInSeconds: 43_200 }, NOW);
    expect(token).toBe(expectedToken(SESSION, 'eu-west-1', NOW, 43_200));
    const url = decode(token);
    expect(url.searchParams.get('X-Amz-Security-Token')).toBe(SESSION.sessionToken);
  });

  test('decodes to the global host, the region in the scope only, 12 h by default, and &Version=1 last', async () => {
    const { token } = await generateBearerToken({ region: 'ap-southeast-2', credentials: CREDENTIALS }, NOW);
    const text = Buffer.from(token.slice(PREFIX.length), 'base64').toString('utf8');
    expect(text.startsWith('sagemaker.amazonaws.com/?Action=CallWithBearerToken&')).toBe(true);
    expect(text.endsWith('&Version=1')).toBe(true);
    const url = decode(token);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('43200');
    expect(url.searchParams.get('X-Amz-Credential')).toBe('AKIAIOSFODNN7EXAMPLE/20260520/ap-southeast-2/sagemaker/aws4_request');
    expect(url.searchParams.get('X-Amz-Date')).toBe('20260520T123456Z');
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
    expect(url.searchParams.has('X-Amz-Security-Token')).toBe(false);
  });

  test('never outlives the credentials: the expiry is cut to what remains of them', async () => {
    const expiration = new Date(NOW.getTime() + 900_500);
    const { token, expiresAt } = await generateBearerToken({ region: 'us-east-1', credentials: { ...SESSION, expiration } }, NOW);
    expect(decode(token).searchParams.get('X-Amz-Expires')).toBe('900');
    expect(expiresAt).toEqual(new Date(NOW.getTime() + 900_000));
  });

  test.each([0, -1, 43_201, Number.NaN, 0.5])('fails if expiresInSeconds is %p', async (expiresInSeconds) => {
    await expect(generateBearerToken({ region: 'us-east-1', credentials: CREDENTIALS, expiresInSeconds }, NOW))
      .rejects.toThrow(/expiresInSeconds: got .*, expected 1-43200/);
  });

  test('whole seconds, as AWS\'s SDK truncates', async () => {
    const { token } = await generateBearerToken({ region: 'us-east-1', credentials: CREDENTIALS, expiresInSeconds: 59.9 }, NOW);
    expect(decode(token).searchParams.get('X-Amz-Expires')).toBe('59');
  });

  test('fails if the credentials have expired', async () => {
    await expect(generateBearerToken({ region: 'us-east-1', credentials: { ...SESSION, expiration: new Date(NOW.getTime() - 1) } }, NOW))
      .rejects.toThrow(/credentials: they expire at/);
  });

  test('fails without a region', async () => {
    const saved = { r: process.env.AWS_REGION, d: process.env.AWS_DEFAULT_REGION };
    delete process.env.AWS_REGION;
    delete process.env.AWS_DEFAULT_REGION;
    try {
      await expect(generateBearerToken({ credentials: CREDENTIALS }, NOW)).rejects.toThrow(/region: got none/);
    } finally {
      if (saved.r !== undefined) process.env.AWS_REGION = saved.r;
      if (saved.d !== undefined) process.env.AWS_DEFAULT_REGION = saved.d;
    }
  });
});

describe('bearerTokenProvider', () => {
  beforeEach(() => {
    jest.useFakeTimers({ now: NOW });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  test('caches the token and makes a new one 5 minutes before it lapses', async () => {
    const source = jest.fn(async () => CREDENTIALS);
    const provider = bearerTokenProvider({ region: 'us-east-1', credentials: source, expiresInSeconds: 3600 });
    const first = await provider();
    jest.advanceTimersByTime(3_300_000 - 1);
    expect(await provider()).toBe(first);
    expect(source).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(1);
    const second = await provider();
    expect(second).not.toBe(first);
    expect(decode(second).searchParams.get('X-Amz-Date')).toBe('20260520T132956Z');
    expect(source).toHaveBeenCalledTimes(2);
  });

  test('a short-lived token is refreshed at half its life', async () => {
    const source = jest.fn(async () => ({ ...SESSION, expiration: new Date(NOW.getTime() + 120_000) }));
    const provider = bearerTokenProvider({ region: 'us-east-1', credentials: source });
    await provider();
    jest.advanceTimersByTime(59_999);
    await provider();
    expect(source).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(1);
    await provider();
    expect(source).toHaveBeenCalledTimes(2);
  });

  test('concurrent callers share one signing', async () => {
    const source = jest.fn(async () => CREDENTIALS);
    const provider = bearerTokenProvider({ region: 'us-east-1', credentials: source });
    const tokens = await Promise.all([provider(), provider(), provider()]);
    expect(new Set(tokens).size).toBe(1);
    expect(source).toHaveBeenCalledTimes(1);
  });

  test('fails at once on a bad expiry or refresh margin', () => {
    expect(() => bearerTokenProvider({ expiresInSeconds: 50_000 })).toThrow(/expiresInSeconds: got 50000/);
    expect(() => bearerTokenProvider({ refreshBeforeSeconds: -1 })).toThrow(/refreshBeforeSeconds: got -1/);
  });
});
