/**
 * A Lambda function URL event for an HTTP request that a real MCP client sent to a local server, built on AWS's
 * documented sample (./fixtures/function-url-event.json) so the bundled handler sees what Lambda would give it: the
 * request's method, path, query, headers and body. Shared by the suites that drive the bundled MCP server through a
 * local HTTP server.
 */
import { IncomingMessage } from 'http';
import type { LambdaFunctionURLEvent } from 'aws-lambda';
import event from './fixtures/function-url-event.json';

export const FUNCTION_URL_EVENT = event as unknown as LambdaFunctionURLEvent;

export interface FunctionUrlEventOptions {
  /** Send the body base64-encoded, as function URLs do for bodies they do not consider text. @default false */
  readonly base64Body?: boolean;
  /** The IAM caller (`requestContext.authorizer.iam.userArn`) instead of the sample's. @default the sample's */
  readonly callerArn?: string;
  /** Request headers not to pass on (e.g. a test's own side channel). @default none */
  readonly dropHeaders?: readonly string[];
}

export async function functionUrlEvent(req: IncomingMessage, options: FunctionUrlEventOptions = {}): Promise<LambdaFunctionURLEvent> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v !== undefined && !options.dropHeaders?.includes(k)) headers[k] = Array.isArray(v) ? v.join(',') : v;
  }
  const [path, query = ''] = (req.url ?? '/').split('?');
  const sample = FUNCTION_URL_EVENT.requestContext;
  return {
    ...FUNCTION_URL_EVENT,
    rawPath: path,
    rawQueryString: query,
    headers: { ...headers, host: sample.domainName },
    cookies: undefined,
    requestContext: {
      ...sample,
      http: { ...sample.http, method: req.method!, path },
      ...(options.callerArn ? { authorizer: { iam: { ...(sample as any).authorizer.iam, userArn: options.callerArn } } } : {}),
    } as LambdaFunctionURLEvent['requestContext'],
    body: body.length ? body.toString(options.base64Body ? 'base64' : 'utf8') : undefined,
    isBase64Encoded: Boolean(options.base64Body) && body.length > 0,
  };
}
