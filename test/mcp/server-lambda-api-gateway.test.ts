/**
 * The server handler behind API Gateway's REST API (Lambda proxy integration, payload format 1.0): the event <-> web
 * Request/Response conversion, the documented event shape (fixtures/api-gateway-proxy-event.json, modelled on AWS's
 * "Input format of a Lambda function for proxy integration" example) fed to the BUNDLED handler, and a real MCP client
 * through a stand-in REST API (node:http turning each request into a payload-1.0 event the way API Gateway does:
 * header names as sent, `multiValueHeaders`, the stage in `requestContext.path` only).
 */
import { IncomingMessage } from 'http';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, LambdaFunctionURLEvent } from 'aws-lambda';
import { useBundledServerLambda } from './bundled-server-lambda';
import apiEvent from './fixtures/api-gateway-proxy-event.json';
import urlEvent from './fixtures/function-url-event.json';
import { ok } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { apiGatewayCaller, apiGatewayEventToRequest, isApiGatewayProxyEvent, responseToApiGatewayResult } from 'cdk-sagemaker-mcp-runtime/internal/lambda';

const fixture = apiEvent as unknown as APIGatewayProxyEvent;

/** The JSON-RPC message of a response body: plain JSON, or the `data:` line of a one-event SSE stream. */
function rpcMessage(result: APIGatewayProxyResult): any {
  const body = result.isBase64Encoded ? Buffer.from(result.body, 'base64').toString('utf8') : result.body;
  const data = body.trimStart().startsWith('{') ? body : body.split('\n').find((l) => l.startsWith('data: '))!.slice(6);
  return JSON.parse(data);
}

describe('API Gateway REST proxy event <-> web Request/Response', () => {
  test('tells a REST proxy event from a function URL event', () => {
    expect(isApiGatewayProxyEvent(fixture)).toBe(true);
    expect(isApiGatewayProxyEvent(urlEvent as unknown as LambdaFunctionURLEvent)).toBe(false);
  });

  test('an event becomes a Request: resource path without the stage, every header value, re-encoded query, body', async () => {
    // GIVEN
    const e: APIGatewayProxyEvent = {
      ...fixture,
      multiValueHeaders: { ...fixture.multiValueHeaders, 'X-Trace': ['a', 'b'] },
      queryStringParameters: { q: 'last' },
      multiValueQueryStringParameters: { q: ['a b', 'c&d'], x: ['1'] },
    };
    // WHEN
    const request = apiGatewayEventToRequest(e);
    // THEN
    expect(request.method).toBe('POST');
    expect(request.url).toBe('https://a1b2c3d4e5.execute-api.us-east-1.amazonaws.com/mcp?q=a+b&q=c%26d&x=1');
    expect(request.headers.get('content-type')).toBe('application/json');
    expect(request.headers.get('accept')).toBe('application/json, text/event-stream');
    expect(request.headers.get('x-trace')).toBe('a, b');
    expect(await request.json()).toEqual({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
  });

  test('single-value maps are used when the multi-value ones are absent', () => {
    const request = apiGatewayEventToRequest({
      ...fixture,
      multiValueHeaders: undefined as any,
      headers: { Host: 'h.example', Accept: 'application/json' },
      multiValueQueryStringParameters: null,
      queryStringParameters: { a: '1 2' },
    });
    expect(request.url).toBe('https://a1b2c3d4e5.execute-api.us-east-1.amazonaws.com/mcp?a=1+2');
    expect(request.headers.get('accept')).toBe('application/json');
  });

  test('a base64-encoded body is decoded; a GET has no body', async () => {
    const encoded = apiGatewayEventToRequest({ ...fixture, body: Buffer.from('{"x":"é"}').toString('base64'), isBase64Encoded: true });
    expect(await encoded.text()).toBe('{"x":"é"}');
    const get = apiGatewayEventToRequest({ ...fixture, httpMethod: 'GET', body: 'ignored' });
    expect(get.method).toBe('GET');
    expect(get.body).toBeNull();
  });

  test('a Response becomes a payload-1.0 result: cookies in multiValueHeaders, binary bodies base64', async () => {
    // GIVEN
    const headers = new Headers({ 'content-type': 'application/json' });
    headers.append('set-cookie', 'a=1');
    headers.append('set-cookie', 'b=2');
    // WHEN
    const text = await responseToApiGatewayResult(new Response('{"ok":true}', { status: 202, headers }));
    const plain = await responseToApiGatewayResult(new Response(null, { status: 405, headers: { allow: 'POST' } }));
    const binary = await responseToApiGatewayResult(new Response(new Uint8Array([0, 255]), { headers: { 'content-type': 'application/octet-stream' } }));
    // THEN
    expect(text).toEqual({
      statusCode: 202,
      headers: { 'content-type': 'application/json' },
      multiValueHeaders: { 'set-cookie': ['a=1', 'b=2'] },
      body: '{"ok":true}',
      isBase64Encoded: false,
    });
    expect(plain).toEqual({ statusCode: 405, headers: { allow: 'POST' }, body: '', isBase64Encoded: false });
    expect(binary).toMatchObject({ statusCode: 200, body: Buffer.from([0, 255]).toString('base64'), isBase64Encoded: true });
  });

  test('the caller is the IAM user, else the Lambda authorizer principal, else the Cognito subject', () => {
    const ctx = fixture.requestContext;
    expect(apiGatewayCaller(fixture)).toBe('agent-1');
    expect(apiGatewayCaller({ ...fixture, requestContext: { ...ctx, identity: { ...ctx.identity, userArn: 'arn:aws:iam::111122223333:user/u' } } }))
      .toBe('arn:aws:iam::111122223333:user/u');
    expect(apiGatewayCaller({ ...fixture, requestContext: { ...ctx, authorizer: { claims: { sub: 'cognito-sub' } } } })).toBe('cognito-sub');
  });
});

describe('bundled server.lambda behind API Gateway (REST, Lambda proxy)', () => {
  /** What API Gateway hands the function for a request to https://<api>/prod/mcp. */
  async function toEvent(req: IncomingMessage): Promise<APIGatewayProxyEvent> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers: Record<string, string> = {};
    const multiValueHeaders: Record<string, string[]> = {};
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const [name, value] = [req.rawHeaders[i], req.rawHeaders[i + 1]];
      if (name.toLowerCase() === 'host') continue;
      headers[name] = value;
      (multiValueHeaders[name] ??= []).push(value);
    }
    headers.Host = fixture.headers.Host!;
    multiValueHeaders.Host = [fixture.headers.Host!];
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const path = url.pathname.replace(/^\/prod/, '');
    const query: Record<string, string[]> = {};
    url.searchParams.forEach((v, k) => (query[k] ??= []).push(v));
    const body = Buffer.concat(chunks);
    return {
      ...fixture,
      path,
      httpMethod: req.method!,
      headers,
      multiValueHeaders,
      queryStringParameters: Object.keys(query).length ? Object.fromEntries(Object.entries(query).map(([k, v]) => [k, v[v.length - 1]])) : null,
      multiValueQueryStringParameters: Object.keys(query).length ? query : null,
      requestContext: { ...fixture.requestContext, httpMethod: req.method!, path: url.pathname },
      body: body.length ? body.toString('utf8') : null,
      isBase64Encoded: false,
    };
  }

  const server = useBundledServerLambda<APIGatewayProxyEvent, any>({
    clientName: 'api-gateway-test',
    mcpPath: '/prod/mcp',
    toEvent,
    writeResult: (result: APIGatewayProxyResult, res) => {
      // The v1 result shape: headers, plus multiValueHeaders, which API Gateway merges in.
      const out: Record<string, string | string[]> = { ...(result.headers as Record<string, string>) };
      for (const [k, v] of Object.entries(result.multiValueHeaders ?? {})) out[k] = v.map(String);
      delete out.connection;
      res.writeHead(result.statusCode, out);
      res.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
    },
  });

  test('the documented event shape with a tools/list body returns the tools in a payload-1.0 result', async () => {
    // WHEN
    const result: APIGatewayProxyResult = await server.handler(fixture);
    // THEN
    expect(result).toMatchObject({ statusCode: 200, isBase64Encoded: false });
    expect((result as any).cookies).toBeUndefined();
    const message = rpcMessage(result);
    expect(message).toMatchObject({ jsonrpc: '2.0', id: 1 });
    expect(message.result.tools.map((t: { name: string }) => t.name)).toEqual(['invoke_endpoint', 'describe_endpoint']);
  });

  test('a base64-encoded body (a binary media type on the API) is decoded the same way', async () => {
    const result: APIGatewayProxyResult = await server.handler({ ...fixture, body: Buffer.from(fixture.body!).toString('base64'), isBase64Encoded: true });
    expect(rpcMessage(result).result.tools).toHaveLength(2);
  });

  test('GET answers 405 (stateless: no standalone stream) in the payload-1.0 shape', async () => {
    const result: APIGatewayProxyResult = await server.handler({ ...fixture, httpMethod: 'GET', body: null });
    expect(result.statusCode).toBe(405);
    expect(typeof result.body).toBe('string');
  });

  test('a real MCP client lists and calls tools through the stand-in REST API', async () => {
    // GIVEN
    server.runtime.script('churn-xgb', ok({ probability: 0.9 }));
    // WHEN
    const { tools } = await server.client.listTools();
    const called = await server.client.callTool({ name: 'invoke_endpoint', arguments: { endpointName: 'churn-xgb', payload: { format: 'json', data: { f: [1, 2] } } } });
    // THEN
    expect(tools.map((t) => t.name)).toEqual(['invoke_endpoint', 'describe_endpoint']);
    expect(called.structuredContent).toMatchObject({ json: { probability: 0.9 } });
    expect(server.runtime.requestsFor('churn-xgb')[0].bodyText).toBe('{"f":[1,2]}');
    expect(server.events.length).toBeGreaterThan(1);
    expect(server.events.every((e) => e.path === '/mcp' && e.requestContext.path === '/prod/mcp')).toBe(true);
  });

  test('function URL events still get payload-2.0 results from the same handler', async () => {
    const result = await server.handler({ ...(urlEvent as unknown as LambdaFunctionURLEvent), body: fixture.body! });
    expect(result.statusCode).toBe(200);
    expect(rpcMessage(result).result.tools).toHaveLength(2);
    expect(result.multiValueHeaders).toBeUndefined();
  });
});
