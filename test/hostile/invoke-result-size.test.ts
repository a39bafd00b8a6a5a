/**
 * invoke_endpoint's answer is encoded once (structuredContent plus one text block that repeats it,
 * https://modelcontextprotocol.io/specification/2025-11-25/server/tools#structured-content) and capped below Lambda's
 * 6 MB response payload limit (https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html), through the
 * BUNDLED handler behind a stand-in function URL and a real MCP client.
 */
import type { APIGatewayProxyStructuredResultV2, LambdaFunctionURLEvent } from 'aws-lambda';
import { useBundledServerLambda } from '../mcp/bundled-server-lambda';
import { functionUrlEvent } from '../mcp/function-url-event';
import { ok } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';

const LAMBDA_RESPONSE_LIMIT = 6 * 1024 * 1024;

/**
 * A tool result's size as the cap measures it (packages/runtime/src/mcp/tools/invoke-tools.ts): the serialized result,
 * escaped once more as the string body of the function URL result that carries it.
 */
const resultBytes = (result: { content: unknown; structuredContent: unknown }) =>
  Buffer.byteLength(JSON.stringify(JSON.stringify({ content: result.content, structuredContent: result.structuredContent })));

describe('invoke_endpoint result size through the bundled handler', () => {
  const results: APIGatewayProxyStructuredResultV2[] = [];
  const server = useBundledServerLambda<LambdaFunctionURLEvent, APIGatewayProxyStructuredResultV2>({
    clientName: 'result-size-test',
    mcpPath: '/mcp',
    toEvent: (req) => functionUrlEvent(req),
    writeResult: (result, res) => {
      results.push(result);
      res.writeHead(result.statusCode ?? 200, { ...(result.headers as Record<string, string>) });
      res.end(result.body);
    },
  });
  const call = async (args: Record<string, unknown>) => (await server.client.callTool({ name: 'invoke_endpoint', arguments: args })) as any;
  const lastInvocationBytes = () => Buffer.byteLength(JSON.stringify(results.at(-1)));
  /** The cap, in bytes, as invoke_endpoint's output schema states it to clients. */
  const resultCap = async () => {
    const { tools } = await server.client.listTools();
    const truncated = (tools.find((t) => t.name === 'invoke_endpoint')?.outputSchema?.properties as any)?.truncated;
    const cap = Number(/result cap \((\d+) bytes\)/.exec(truncated?.description ?? '')?.[1]);
    expect(cap).toBeGreaterThan(1_000_000);
    return cap;
  };

  test('a 1.8 MB JSON answer comes back whole, encoded once as json (plus its one text copy), inside 6 MB', async () => {
    // GIVEN a model answer of 1.8 MB of JSON with quotes (escaped at each level of JSON)
    const answer = { items: Array.from({ length: 30_000 }, (_v, i) => ({ id: i, label: `"item" number ${i} with padding...` })) };
    const bodyBytes = Buffer.byteLength(JSON.stringify(answer));
    expect(bodyBytes).toBeGreaterThan(1_800_000);
    server.runtime.script('churn-xgb', ok(answer));
    // WHEN
    const result = await call({ endpointName: 'churn-xgb', payload: { format: 'json', data: {} } });
    // THEN the answer is there once as json, not again as text
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.json).toEqual(answer);
    expect(result.structuredContent.text).toBeUndefined();
    expect(result.structuredContent.truncated).toBeUndefined();
    expect(result.content).toHaveLength(1);
    expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
    // and the Lambda result is below the 6 MB response limit
    expect(lastInvocationBytes()).toBeLessThan(LAMBDA_RESPONSE_LIMIT);
  });

  test('a text answer is text once', async () => {
    server.runtime.script('churn-xgb', ok('plain answer'));
    const result = await call({ endpointName: 'churn-xgb', payload: { format: 'text', text: 'q' } });
    expect(result.structuredContent).toMatchObject({ text: 'plain answer' });
    expect(result.structuredContent.json).toBeUndefined();
  });

  test('an answer past the cap is truncated with an explicit flag and its size, and the Lambda result stays inside 6 MB', async () => {
    // GIVEN a 4 MB answer full of characters JSON escapes (the worst case for the nested encodings)
    const answer = '"\\'.repeat(2_000_000);
    server.runtime.script('churn-xgb', ok(answer, { contentType: 'text/plain' }));
    // WHEN
    const result = await call({ endpointName: 'churn-xgb', payload: { format: 'text', text: 'q' } });
    // THEN
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ truncated: true, bodyBytes: 4_000_000, attempts: 1 });
    expect(answer.startsWith(result.structuredContent.text)).toBe(true);
    expect(result.structuredContent.text.length).toBeGreaterThan(100_000);
    expect(resultBytes(result)).toBeLessThanOrEqual(await resultCap());
    expect(lastInvocationBytes()).toBeLessThan(LAMBDA_RESPONSE_LIMIT);
  });

  test('an answer whose result reaches the cap comes back whole; one character more is truncated', async () => {
    // GIVEN the size of a one-character answer's result; each further character (plain ASCII, escaped nowhere) adds
    // two bytes: one in structuredContent.text, one in its text copy
    const cap = await resultCap();
    server.runtime.script('churn-xgb', ok('a', { contentType: 'text/plain' }));
    const base = resultBytes(await call({ endpointName: 'churn-xgb', payload: { format: 'text', text: 'q' } }));
    const longest = 1 + Math.floor((cap - base) / 2);
    // WHEN the longest answer that fits, then one character more
    server.runtime.script('churn-xgb', ok('a'.repeat(longest), { contentType: 'text/plain' }), ok('a'.repeat(longest + 1), { contentType: 'text/plain' }));
    const whole = await call({ endpointName: 'churn-xgb', payload: { format: 'text', text: 'q' } });
    const over = await call({ endpointName: 'churn-xgb', payload: { format: 'text', text: 'q' } });
    // THEN the first is whole, within a byte of the cap
    expect(whole.structuredContent.truncated).toBeUndefined();
    expect(whole.structuredContent.text).toHaveLength(longest);
    expect(resultBytes(whole)).toBeLessThanOrEqual(cap);
    expect(resultBytes(whole)).toBeGreaterThanOrEqual(cap - 1);
    // and the second is cut to fit, saying so
    expect(over.isError).toBeFalsy();
    expect(over.structuredContent).toMatchObject({ truncated: true, bodyBytes: longest + 1 });
    expect(over.structuredContent.text.length).toBeLessThan(longest + 1);
    expect(resultBytes(over)).toBeLessThanOrEqual(cap);
    expect(lastInvocationBytes()).toBeLessThan(LAMBDA_RESPONSE_LIMIT);
  });
});
