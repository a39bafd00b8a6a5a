/**
 * The bundled Lambda handler (assets/mcp/server.lambda, after `npx projen bundle`) behind a stand-in function URL:
 * HTTP requests become payload-2.0 events (shaped like AWS's documented example in fixtures/), and a real MCP client
 * talks to it. Configuration comes from the env vars the construct sets; AWS endpoints from the SDK's standard
 * AWS_ENDPOINT_URL_<SERVICE> variables.
 */
import type { APIGatewayProxyStructuredResultV2, LambdaFunctionURLEvent } from 'aws-lambda';
import { useBundledServerLambda } from './bundled-server-lambda';
import { FUNCTION_URL_EVENT as fixture, functionUrlEvent } from './function-url-event';
import { fail, ok } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { MCP_ENV } from 'cdk-sagemaker-mcp-runtime/internal/contract';
import { functionUrlEventToRequest, responseToFunctionUrlResult } from 'cdk-sagemaker-mcp-runtime/internal/lambda';


describe('function URL event <-> web Request/Response', () => {
  test('an event becomes a Request with method, URL, query, headers, cookies and body', async () => {
    // GIVEN
    const e: LambdaFunctionURLEvent = { ...fixture, rawQueryString: 'a=1&b=two', body: '{"jsonrpc":"2.0"}' };
    // WHEN
    const request = functionUrlEventToRequest(e);
    // THEN
    expect(request.method).toBe('POST');
    expect(request.url).toBe('https://abcdefghijklmnopqrstuvwxyz0123.lambda-url.us-east-1.on.aws/mcp?a=1&b=two');
    expect(request.headers.get('accept')).toBe('application/json, text/event-stream');
    expect(request.headers.get('cookie')).toBe('cookie1; cookie2');
    expect(await request.text()).toBe('{"jsonrpc":"2.0"}');
  });

  test('a base64-encoded body is decoded; a GET has no body', async () => {
    const encoded = functionUrlEventToRequest({ ...fixture, body: Buffer.from('{"x":"é"}').toString('base64'), isBase64Encoded: true });
    expect(await encoded.text()).toBe('{"x":"é"}');
    const get = functionUrlEventToRequest({ ...fixture, requestContext: { ...fixture.requestContext, http: { ...fixture.requestContext.http, method: 'GET' } }, body: 'ignored' });
    expect(get.method).toBe('GET');
    expect(get.body).toBeNull();
  });

  test('a Response becomes a result with status, headers, cookies and a text or base64 body', async () => {
    // GIVEN
    const headers = new Headers({ 'content-type': 'application/json', 'mcp-session-id': 's1' });
    headers.append('set-cookie', 'a=1');
    // WHEN
    const text = await responseToFunctionUrlResult(new Response('{"ok":true}', { status: 202, headers }));
    const binary = await responseToFunctionUrlResult(new Response(new Uint8Array([0, 255]), { headers: { 'content-type': 'application/octet-stream' } }));
    // THEN
    expect(text).toEqual({ statusCode: 202, headers: { 'content-type': 'application/json', 'mcp-session-id': 's1' }, cookies: ['a=1'], body: '{"ok":true}', isBase64Encoded: false });
    expect(binary).toMatchObject({ statusCode: 200, body: Buffer.from([0, 255]).toString('base64'), isBase64Encoded: true });
  });
});

describe('bundled server.lambda behind a function URL', () => {
  const server = useBundledServerLambda<LambdaFunctionURLEvent, APIGatewayProxyStructuredResultV2>({
    clientName: 'lambda-test',
    mcpPath: '/mcp',
    // Function URLs base64-encode bodies they do not consider text; exercise that path on every request.
    toEvent: (req) => functionUrlEvent(req, { base64Body: true }),
    writeResult: (result, res) => {
      res.writeHead(result.statusCode ?? 200, { ...(result.headers as Record<string, string>) });
      res.end(result.isBase64Encoded ? Buffer.from(result.body ?? '', 'base64') : result.body);
    },
  });

  test('lists the tools of the spec in MCP_SERVER_SPEC', async () => {
    expect(server.client.getProtocolEra()).toBe('modern');
    const { tools } = await server.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['invoke_endpoint', 'describe_endpoint']);
    expect(server.events.length).toBeGreaterThan(0);
  });

  test('calls invoke_endpoint through the Lambda handler; a ModelError comes back as a tool error', async () => {
    // GIVEN
    server.runtime.script('churn-xgb', ok({ probability: 0.9 }), fail('ModelError', { originalStatusCode: 415 }));
    // WHEN
    const good = await server.client.callTool({ name: 'invoke_endpoint', arguments: { endpointName: 'churn-xgb', payload: { format: 'json', data: { f: [1, 2] } } } });
    const bad = await server.client.callTool({ name: 'invoke_endpoint', arguments: { endpointName: 'churn-xgb', payload: { format: 'json', data: {} } } });
    // THEN
    expect(good.structuredContent).toMatchObject({ json: { probability: 0.9 } });
    expect(bad).toMatchObject({ isError: true, structuredContent: { errorName: 'ModelInvocationError', retryable: false, originalStatusCode: 415 } });
    expect(server.runtime.requestsFor('churn-xgb')[0].bodyText).toBe('{"f":[1,2]}');
  });

  test('a missing spec fails the invocation (the Errors alarm sees it) instead of answering', async () => {
    // GIVEN a cold container without the spec
    let fresh: typeof server.handler | undefined;
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      fresh = require('../../assets/mcp/server.lambda/index.js').handler;
    });
    delete process.env[MCP_ENV.SPEC];
    // WHEN / THEN
    await expect(fresh!({ ...fixture, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' })).rejects.toThrow(/MCP_SERVER_SPEC/);
  });
});
