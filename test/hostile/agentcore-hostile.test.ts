/**
 * Hostile AgentCore Gateway invocations of the BUNDLED handler (assets/mcp/server.lambda) answer as
 * tool errors, never as a failed invocation: arguments nested thousands deep (JSON.stringify threw RangeError), tool
 * names with CR/LF, NUL, zero-width or Cyrillic characters after `<target>___` (copied into a request header: TypeError),
 * and an event that is neither HTTP nor carries AgentCore's client context (TypeError on `requestContext`).
 */
import type { Context } from 'aws-lambda';
import { functionUrlFrontDoor, useBundledServerLambda } from '../mcp/bundled-server-lambda';
import { agentCoreContext, agentCoreEvent } from '../mcp/fixtures/agentcore-gateway-invocation';
import { ok } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { MCP_GATEWAY_ENV } from 'cdk-sagemaker-mcp-runtime/internal/contract';

const TARGET = 'sagemaker-tools';

describe('hostile AgentCore invocations of the bundled handler', () => {
  const server = useBundledServerLambda(functionUrlFrontDoor('agentcore-hostile-test'), { [MCP_GATEWAY_ENV.TARGET_NAMES]: JSON.stringify([TARGET]) });
  const invoke = (args: unknown, context?: Context) => (server.handler as unknown as (e: unknown, c?: Context) => Promise<any>)(args, context);

  test('arguments nested 5,000 deep are an InvalidArguments tool error', async () => {
    // GIVEN a payload nested 5,000 levels deep
    let deep: unknown = 1;
    for (let i = 0; i < 5_000; i++) deep = { a: deep };
    // WHEN
    const result = await invoke({ ...agentCoreEvent, payload: { format: 'json', data: deep } }, agentCoreContext(TARGET, 'invoke_endpoint'));
    // THEN
    expect(result).toMatchObject({ isError: true, structuredContent: { errorName: 'InvalidArguments', retryable: false } });
    expect(result.structuredContent.message).toContain('deeper than 64');
  });

  test('arguments with too many values are an InvalidArguments tool error; a 50-deep payload still reaches the model', async () => {
    const wide = await invoke({ ...agentCoreEvent, payload: { format: 'json', data: new Array(250_000).fill(0) } }, agentCoreContext(TARGET, 'invoke_endpoint'));
    expect(wide).toMatchObject({ isError: true, structuredContent: { errorName: 'InvalidArguments' } });
    // GIVEN a nesting a model may legitimately take
    server.runtime.script('churn-xgb', ok({ probability: 0.5 }));
    let deep: unknown = 1;
    for (let i = 0; i < 50; i++) deep = [deep];
    const fine = await invoke({ ...agentCoreEvent, payload: { format: 'json', data: deep } }, agentCoreContext(TARGET, 'invoke_endpoint'));
    expect(fine.isError).toBeUndefined();
    expect(fine.structuredContent).toMatchObject({ json: { probability: 0.5 } });
  });

  test.each([
    ['CR/LF', 'invoke_endpoint\r\nx-injected: 1'],
    ['NUL', 'invoke_endpoint\u0000'],
    ['zero-width space', 'invoke\u200bendpoint'],
    ['Cyrillic look-alike', 'invoke_\u0435ndpoint'],
    ['empty', ''],
    ['longer than 128', 'x'.repeat(129)],
  ])('a tool name with %s after the target prefix is a ToolNotServed tool error', async (_what, tool) => {
    const before = server.runtime.requestsFor('churn-xgb').length;
    const result = await invoke(agentCoreEvent, agentCoreContext(TARGET, tool));
    expect(result).toMatchObject({ isError: true, structuredContent: { errorName: 'ToolNotServed', retryable: false } });
    expect(server.runtime.requestsFor('churn-xgb').length).toBe(before);
  });

  test.each([
    ['an object with no client context', { endpointName: 'churn-xgb' }, undefined],
    ['an object with a client context without the tool name', { endpointName: 'churn-xgb' }, { clientContext: { custom: {} } } as unknown as Context],
    ['null', null, undefined],
    ['a string', 'hello', undefined],
    ['an array', [1, 2], undefined],
  ])('an event that is %s is a ToolNotServed tool error', async (_what, event, context) => {
    const result = await invoke(event, context);
    expect(result).toMatchObject({ isError: true, structuredContent: { errorName: 'ToolNotServed', retryable: false } });
    expect(result.structuredContent.message).toContain('bedrockAgentCoreToolName');
  });
});
