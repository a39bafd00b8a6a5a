/**
 * `invoke_endpoint` on a multi-model endpoint through a real MCP session: the allow-listed target models are in the
 * tool's description, a call must name one of them (any other, or none, is refused before SageMaker is called), and the
 * chosen one travels as InvokeEndpoint's TargetModel to the local runtime's multi-model stand-in.
 */
import { multiModel } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { LocalEnv, startLocalEnv } from '../support/local-env';
import { McpHttpSession, startMcpHttpSession } from '../support/mcp-session';

let env: LocalEnv;
let session: McpHttpSession;

beforeAll(async () => {
  env = await startLocalEnv();
  session = await startMcpHttpSession({
    ...env.config,
    realtimeEndpoints: [
      ...(env.config.realtimeEndpoints ?? []),
      { name: 'tenant-churn', description: 'one churn model per tenant', targetModels: ['acme.tar.gz', 'globex.tar.gz'] },
    ],
  }, 'multi-model-test');
});

afterAll(async () => {
  await session?.close();
  await env?.stop();
});

beforeEach(() => env.runtime.clear());

test('the tool description lists the target models of a multi-model endpoint', async () => {
  const { tools } = await session.client.listTools();
  expect(tools.find((t) => t.name === 'invoke_endpoint')!.description).toContain('tenant-churn [target models: acme.tar.gz, globex.tar.gz]');
});

test('an allow-listed target model is sent as TargetModel and answered by that model', async () => {
  env.runtime.setDefault('tenant-churn', multiModel({ 'acme.tar.gz': {}, 'globex.tar.gz': {} }));
  const result = await session.call('invoke_endpoint', {
    endpointName: 'tenant-churn', targetModel: 'globex.tar.gz', payload: { format: 'csv', rows: [[1, 2, 3]] },
  });
  expect(result.isError).toBeFalsy();
  expect(result.structuredContent).toMatchObject({ endpointName: 'tenant-churn', targetModel: 'globex.tar.gz', json: { targetModel: 'globex.tar.gz' } });
  expect(env.runtime.requestsFor('tenant-churn')[0].headers['x-amzn-sagemaker-target-model']).toBe('globex.tar.gz');
});

test('refuses a target model that is not allow-listed, and a call without one, without calling SageMaker', async () => {
  const other = await session.call('invoke_endpoint', { endpointName: 'tenant-churn', targetModel: '../other-tenant.tar.gz', payload: { format: 'json', data: 1 } });
  const none = await session.call('invoke_endpoint', { endpointName: 'tenant-churn', payload: { format: 'json', data: 1 } });
  expect(other.structuredContent).toMatchObject({ errorName: 'TargetModelNotAllowed', retryable: false });
  expect(other.structuredContent.message).toContain('acme.tar.gz, globex.tar.gz');
  expect(none.structuredContent).toMatchObject({ errorName: 'TargetModelNotAllowed', retryable: false });
  expect(env.runtime.requests).toHaveLength(0);
});

test('refuses a target model on an endpoint that has none', async () => {
  const result = await session.call('invoke_endpoint', { endpointName: 'churn-xgb', targetModel: 'acme.tar.gz', payload: { format: 'json', data: 1 } });
  expect(result.structuredContent).toMatchObject({ errorName: 'TargetModelNotAllowed' });
  expect(result.structuredContent.message).toContain('omit targetModel');
  expect(env.runtime.requests).toHaveLength(0);
});
