/**
 * Lambda function URL events (payload format 2.0) <-> web-standard Request/Response, so the MCP SDK's fetch-shaped
 * handler serves behind a function URL unchanged. Internal: not part of the jsii API.
 */
import type { APIGatewayProxyStructuredResultV2, LambdaFunctionURLEvent } from 'aws-lambda';

const BINARY_TYPES = /^(application\/(octet-stream|pdf|zip|gzip)|image\/|audio\/|video\/)/;

/** Whether a response body of this content type is returned base64-encoded (both Lambda HTTP front doors). */
export function isBinaryContentType(contentType: string): boolean {
  return BINARY_TYPES.test(contentType);
}

/** The web Request a function URL event stands for (the body decoded when it arrived base64-encoded). */
export function functionUrlEventToRequest(event: LambdaFunctionURLEvent): Request {
  const method = event.requestContext.http.method;
  const host = event.headers?.host ?? event.requestContext.domainName;
  const query = event.rawQueryString ? `?${event.rawQueryString}` : '';
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined) headers.set(name, value);
  }
  if (event.cookies?.length) headers.set('cookie', event.cookies.join('; '));
  const hasBody = method !== 'GET' && method !== 'HEAD' && event.body !== undefined && event.body !== null;
  const body = hasBody ? (event.isBase64Encoded ? Buffer.from(event.body!, 'base64') : event.body) : undefined;
  return new Request(`https://${host}${event.rawPath || '/'}${query}`, { method, headers, body });
}

/** The function URL result for a web Response (the whole body read: function URLs in BUFFERED mode). */
export async function responseToFunctionUrlResult(response: Response): Promise<APIGatewayProxyStructuredResultV2> {
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  response.headers.forEach((value, name) => {
    if (name === 'set-cookie') cookies.push(value);
    else headers[name] = value;
  });
  const contentType = response.headers.get('content-type') ?? '';
  const bytes = Buffer.from(await response.arrayBuffer());
  const binary = isBinaryContentType(contentType);
  return {
    statusCode: response.status,
    headers,
    ...(cookies.length ? { cookies } : {}),
    body: binary ? bytes.toString('base64') : bytes.toString('utf8'),
    isBase64Encoded: binary,
  };
}
