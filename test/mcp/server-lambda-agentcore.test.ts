/**
 * The bundled Lambda handler (assets/mcp/server.lambda, after `npx projen bundle`) invoked the way an Amazon Bedrock
 * AgentCore Gateway Lambda target invokes it (fixtures/agentcore-gateway-invocation.ts: the arguments as the event, the
 * tool name in the client context), beside a real MCP client on a stand-in function URL: both reach the same MCP
 * server, with its allow-list, redaction and error shape.
 */
import type { Context } from 'aws-lambda';
import { functionUrlFrontDoor, useBundledServerLambda } from './bundled-server-lambda';
import { agentCoreContext, agentCoreEvent } from './fixtures/agentcore-gateway-invocation';
import { fail, ok } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { MCP_GATEWAY_ENV } from 'cdk-sagemaker-mcp-runtime/internal/contract';

const TARGET = 'sagemaker-tools';

describe('bundled server.lambda as an AgentCore Gateway Lambda target', () => {
  const server = useBundledServerLambda(functionUrlFrontDoor('agentcore-test'), { [MCP_GATEWAY_ENV.TARGET_NAMES]: JSON.stringify([TARGET]) });
  const invoke = (args: unknown, target: string, tool: string) =>
    (server.handler as unknown as (e: unknown, c: Context) => Promise<any>)(args, agentCoreContext(target, tool));

  test('calls the tool named after the target prefix with the event as its arguments; returns the MCP tool result', async () => {
    // GIVEN
    server.runtime.script('churn-xgb', ok({ probability: 0.9 }));
    // WHEN
    const result = await invoke(agentCoreEvent, TARGET, 'invoke_endpoint');
    // THEN
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({ endpointName: 'churn-xgb', json: { probability: 0.9 } });
    expect(JSON.parse(result.content[0].text)).toMatchObject({ json: { probability: 0.9 } });
    expect(Object.keys(result).sort()).toEqual(['content', 'structuredContent']);
    expect(server.runtime.requestsFor('churn-xgb').at(-1)!.bodyText).toBe('{"f":[1,2]}');
  });

  test('the allow-list holds: an endpoint the server does not expose is refused before any call', async () => {
    const before = server.runtime.requestsFor('other-endpoint').length;
    const result = await invoke({ ...agentCoreEvent, endpointName: 'other-endpoint' }, TARGET, 'invoke_endpoint');
    expect(result).toMatchObject({ isError: true, structuredContent: { errorName: 'EndpointNotAllowed', retryable: false } });
    expect(server.runtime.requestsFor('other-endpoint').length).toBe(before);
  });

  test('a failure comes back as a redacted tool error with a correlation id, as over HTTP', async () => {
    // GIVEN the model fails with a message naming an account and an ARN
    server.runtime.script('churn-xgb', fail('ValidationError', { message: 'Endpoint arn:aws:sagemaker:us-east-1:123456789012:endpoint/churn-xgb of account 123456789012 is not ready' }));
    // WHEN
    const result = await invoke(agentCoreEvent, TARGET, 'invoke_endpoint');
    // THEN
    expect(result.isError).toBe(true);
    expect(result.structuredContent.correlationId).toEqual(expect.any(String));
    expect(JSON.stringify(result)).not.toContain('123456789012');
  });

  test('arguments that fail the tool\'s input schema are an InvalidArguments tool error', async () => {
    const result = await invoke({ endpointName: 'churn-xgb' }, TARGET, 'invoke_endpoint');
    expect(result).toMatchObject({ isError: true, structuredContent: { errorName: 'InvalidArguments', retryable: false } });
  });

  test('an unknown tool of this target is an UnknownTool tool error, not a failed invocation', async () => {
    const result = await invoke({}, TARGET, 'delete_endpoint');
    expect(result).toMatchObject({ isError: true, structuredContent: { errorName: 'UnknownTool', retryable: false } });
    expect(result.structuredContent.message).toContain('delete_endpoint');
  });

  test('a tool of another target (or with no target prefix) is refused and never reaches a tool', async () => {
    // GIVEN
    const before = server.runtime.requestsFor('churn-xgb').length;
    // WHEN
    const other = await invoke(agentCoreEvent, 'other-target', 'invoke_endpoint');
    const bare = await (server.handler as unknown as (e: unknown, c: Context) => Promise<any>)(agentCoreEvent, {
      ...agentCoreContext(TARGET, 'x'), clientContext: { custom: { bedrockAgentCoreToolName: 'invoke_endpoint' } } as unknown as Context['clientContext'],
    });
    // THEN
    expect(other).toMatchObject({ isError: true, structuredContent: { errorName: 'ToolNotServed' } });
    expect(other.structuredContent.message).toContain('other-target___invoke_endpoint');
    expect(bare).toMatchObject({ isError: true, structuredContent: { errorName: 'ToolNotServed' } });
    expect(server.runtime.requestsFor('churn-xgb').length).toBe(before);
  });

  test('without MCP_GATEWAY_TARGET_NAMES (the server is on no gateway) every AgentCore call is refused', async () => {
    const saved = process.env[MCP_GATEWAY_ENV.TARGET_NAMES];
    delete process.env[MCP_GATEWAY_ENV.TARGET_NAMES];
    try {
      // A container started with that environment (the handler reads its environment once per container).
      let cold: ((e: unknown, c: Context) => Promise<any>) | undefined;
      jest.isolateModules(() => {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        cold = require('../../assets/mcp/server.lambda/index.js').handler;
      });
      const result = await cold!(agentCoreEvent, agentCoreContext(TARGET, 'invoke_endpoint'));
      expect(result).toMatchObject({ isError: true, structuredContent: { errorName: 'ToolNotServed' } });
      expect(result.structuredContent.message).toContain('no gateway target');
    } finally {
      process.env[MCP_GATEWAY_ENV.TARGET_NAMES] = saved;
    }
  });

  test('HTTP requests through the function URL still work beside AgentCore invocations', async () => {
    server.runtime.script('churn-xgb', ok({ probability: 0.5 }));
    const res = await server.client.callTool({ name: 'invoke_endpoint', arguments: agentCoreEvent });
    expect(res.structuredContent).toMatchObject({ json: { probability: 0.5 } });
  });
});
