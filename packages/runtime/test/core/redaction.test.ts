/**
 * `redactSecrets`, the one redaction every handler applies to what it logs and returns: one example of each shape a
 * credential reaches a message or a log line in. The secret must be gone; the name around it stays, so the line still
 * says what was there.
 */
import { redactForAgent, redactSecrets } from 'cdk-sagemaker-mcp-runtime/core';

// Test values shaped like the real thing (AWS's documented example secret key, a session-token-like string).
const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const TOKEN = 'IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQD6EXAMPLE+TOKEN=';
const SAGEMAKER_KEY = `sagemaker-api-key-${Buffer.from('sagemaker.amazonaws.com/?Action=CallWithBearerToken&X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=abc123&Version=1').toString('base64')}`;

const SHAPES: Array<[string, string, string[]]> = [
  ['botocore repr', `Credentials(access_key='ASIAIOSFODNN7EXAMPLE', secret_key='${SECRET}', token='${TOKEN}')`, [SECRET, TOKEN]],
  ['STS XML', `<Credentials><AccessKeyId>ASIAIOSFODNN7EXAMPLE</AccessKeyId><SecretAccessKey>${SECRET}</SecretAccessKey><SessionToken>${TOKEN}</SessionToken></Credentials>`, [SECRET, TOKEN]],
  ['JSON inside JSON', JSON.stringify({ body: JSON.stringify({ SecretAccessKey: SECRET, SessionToken: TOKEN }) }), [SECRET, TOKEN]],
  ['a URL-encoded token', `https://x.example/?X-Amz-Security-Token%3D${encodeURIComponent(TOKEN)}%26X-Amz-Signature%3Dabcdef0123`, [encodeURIComponent(TOKEN), 'abcdef0123']],
  ['URL-encoded JSON', encodeURIComponent(JSON.stringify({ SessionToken: TOKEN })), [encodeURIComponent(TOKEN)]],
  ['Java properties', `aws.accessKeyId=ASIAIOSFODNN7EXAMPLE\naws.secretKey=${SECRET}\naws.sessionToken:${TOKEN}`, [SECRET, TOKEN]],
  ['Bearer', `Authorization: Bearer ${TOKEN}`, [TOKEN]],
  ['a SageMaker bearer token', `openai.AuthenticationError: key ${SAGEMAKER_KEY} expired`, [SAGEMAKER_KEY, SAGEMAKER_KEY.slice(18, 60)]],
  ['a SageMaker bearer token as Bearer', `Authorization: Bearer ${SAGEMAKER_KEY}`, [SAGEMAKER_KEY.slice(18, 60)]],
  ['a credentials file', `[default]\naws_secret_access_key = ${SECRET}\naws_session_token=${TOKEN}`, [SECRET, TOKEN]],
  ['CloudFormation\'s signature mismatch (canonical request)',
    'The request signature we calculated does not match the signature you provided. The Canonical String for this request should have been\n'
    + `'POST\n/\n\ncontent-type:application/x-www-form-urlencoded; charset=utf-8\nhost:cloudformation.us-east-1.amazonaws.com\nx-amz-date:20261206T052000Z\nx-amz-security-token:${TOKEN}\n\ncontent-type;host;x-amz-date;x-amz-security-token\n0123abcd'`,
    [TOKEN]],
  ['a SigV4 Authorization header', 'AWS4-HMAC-SHA256 Credential=ASIAIOSFODNN7EXAMPLE/20261206/us-east-1/sagemaker/aws4_request, SignedHeaders=host;x-amz-date, Signature=fe5f80f77d5fa3beca038a248ff027d0445342fe2855ddc963176630326f1024',
    ['ASIAIOSFODNN7EXAMPLE/20261206', 'fe5f80f77d5fa3beca038a248ff027d0445342fe2855ddc963176630326f1024']],
];

describe('redactSecrets', () => {
  test.each(SHAPES)('%s: the secret is gone, its name stays', (_shape, text, secrets) => {
    const out = redactSecrets(text);
    for (const secret of secrets) expect(out).not.toContain(secret);
    expect(out).toContain('<redacted');
    // The agent's view is built on it, so it hides the same.
    for (const secret of secrets) expect(redactForAgent(text)).not.toContain(secret);
  });

  test('identifiers stay for the operator; ordinary tokens (NextToken, ClientRequestToken) are not credentials', () => {
    const text = 'UpdateStack arn:aws:cloudformation:us-east-1:123456789012:stack/S/1 ClientRequestToken=approved-model-v3-abc NextToken="page2" key ASIAIOSFODNN7EXAMPLE';
    expect(redactSecrets(text)).toBe(text);
  });
});
