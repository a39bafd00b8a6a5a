/**
 * A tool's deadline is data: `invoke_endpoint` declares its own (its invoke deadline plus 2 s) when it registers, which
 * beats the server's `toolDeadlineMs`, and `toolDeadlines` beats both (packages/runtime/src/mcp/tools/registrar.ts).
 */
import { ok } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { modernCallHeaders, modernMeta, postToHandler, useRuntimeStandIn } from '../support/runtime-stand-in';
import type { SageMakerMcpServerConfig } from 'cdk-sagemaker-mcp-runtime/mcp';

const MODERN_META = modernMeta('registrar');

const env = useRuntimeStandIn('slow', { log: () => undefined });
// The endpoint answers long after every deadline below.
beforeAll(() => env.server.setDefault('slow', ok([1], { delayMs: 3_000 })));

/** The error message of one 2026-07-28 `tools/call invoke_endpoint` under `config`. */
async function invokeError(config: SageMakerMcpServerConfig): Promise<string> {
  const { json } = await postToHandler(config, {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'invoke_endpoint', arguments: { endpointName: 'slow', payload: { format: 'json', data: [1] } }, _meta: MODERN_META },
  }, modernCallHeaders('invoke_endpoint'));
  expect(json.result.isError).toBe(true);
  return json.result.structuredContent.message;
}

test('invoke_endpoint\'s declared deadline beats toolDeadlineMs: its own invoke deadline answers', async () => {
  const message = await invokeError({ ...env.config, invokeDeadlineMs: 150, toolDeadlineMs: 50 });
  expect(message).toMatch(/did not answer within the 150 ms deadline/);
});

test('toolDeadlines beats the declared deadline', async () => {
  const message = await invokeError({ ...env.config, invokeDeadlineMs: 60_000, toolDeadlines: { invoke_endpoint: 150 } });
  expect(message).toMatch(/^Tool invoke_endpoint did not finish within its deadline of 150 ms/);
});
