/**
 * API Gateway REST API Lambda proxy events (payload format 1.0) <-> web-standard Request/Response, so the same MCP
 * handler serves behind `McpToolServer`'s optional REST API as behind its function URL. Internal: not part of the
 * jsii API.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, LambdaFunctionURLEvent } from 'aws-lambda';
import { isBinaryContentType } from './function-url';

/**
 * True for a REST API proxy event. Function URL events (payload 2.0) carry `requestContext.http` and no top-level
 * `httpMethod`.
 */
export function isApiGatewayProxyEvent(event: APIGatewayProxyEvent | LambdaFunctionURLEvent): event is APIGatewayProxyEvent {
  return typeof (event as APIGatewayProxyEvent).httpMethod === 'string'
    && (event as LambdaFunctionURLEvent).requestContext?.http === undefined;
}

/**
 * The web Request a REST proxy event stands for. `multiValueHeaders` / `multiValueQueryStringParameters` are preferred
 * (they hold every value; the single-value maps keep only the last one); query values arrive decoded and are
 * re-encoded. `path` is the resource path without the stage prefix.
 */
export function apiGatewayEventToRequest(event: APIGatewayProxyEvent): Request {
  const method = event.httpMethod.toUpperCase();
  const headers = new Headers();
  if (event.multiValueHeaders && Object.keys(event.multiValueHeaders).length) {
    for (const [name, values] of Object.entries(event.multiValueHeaders)) {
      for (const value of values ?? []) headers.append(name, value);
    }
  } else {
    for (const [name, value] of Object.entries(event.headers ?? {})) {
      if (value !== undefined) headers.set(name, value);
    }
  }
  const query = new URLSearchParams();
  if (event.multiValueQueryStringParameters) {
    for (const [name, values] of Object.entries(event.multiValueQueryStringParameters)) {
      for (const value of values ?? []) query.append(name, value);
    }
  } else {
    for (const [name, value] of Object.entries(event.queryStringParameters ?? {})) {
      if (value !== undefined) query.append(name, value);
    }
  }
  const search = query.size ? `?${query.toString()}` : '';
  // The domain the client called (the execute-api or custom domain); only the URL's path and query matter to MCP.
  const host = event.requestContext?.domainName ?? headers.get('host') ?? 'localhost';
  const hasBody = method !== 'GET' && method !== 'HEAD' && event.body !== undefined && event.body !== null;
  const body = hasBody ? (event.isBase64Encoded ? Buffer.from(event.body!, 'base64') : event.body!) : undefined;
  return new Request(`https://${host}${event.path || '/'}${search}`, { method, headers, body });
}

/**
 * The REST proxy result for a web Response (the whole body read). `set-cookie` goes to `multiValueHeaders` (one entry
 * per cookie: a header map holds one value per name); binary bodies are base64 with `isBase64Encoded` (API Gateway
 * decodes them only for the API's binary media types; MCP answers JSON, so none are configured).
 */
export async function responseToApiGatewayResult(response: Response): Promise<APIGatewayProxyResult> {
  const headers: Record<string, string> = {};
  const cookies: string[] = response.headers.getSetCookie();
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const binary = isBinaryContentType(response.headers.get('content-type') ?? '');
  return {
    statusCode: response.status,
    headers,
    ...(cookies.length ? { multiValueHeaders: { 'set-cookie': cookies } } : {}),
    body: binary ? bytes.toString('base64') : bytes.toString('utf8'),
    isBase64Encoded: binary,
  };
}

/** Who called, for the request log: the IAM caller, else the Lambda authorizer's principal, else the Cognito subject. */
export function apiGatewayCaller(event: APIGatewayProxyEvent): string | undefined {
  const context = event.requestContext;
  const authorizer = (context?.authorizer ?? {}) as { principalId?: string; claims?: { sub?: string } };
  return context?.identity?.userArn ?? authorizer.principalId ?? authorizer.claims?.sub ?? undefined;
}
