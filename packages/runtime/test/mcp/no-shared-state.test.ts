/**
 * What the handlers share across requests (per process: the tools' JSON Schemas; per handler: AWS clients and the handle
 * codec) carries nothing of a caller. Two handlers in one process with different allow-lists and handle keys, each
 * with its own client, called interleaved and concurrently: each sees only its own tools, endpoints and handles.
 */
import { accepted, ok } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { LocalEnv, startLocalEnv } from '../support/local-env';
import { McpHttpSession, startMcpHttpSession } from '../support/mcp-session';

let env: LocalEnv;
let a: McpHttpSession;
let b: McpHttpSession;

beforeAll(async () => {
  env = await startLocalEnv();
  const base = { ...env.config, featureGroups: undefined, pipelines: undefined, trainingResultsTable: undefined, modelProvenance: undefined };
  a = await startMcpHttpSession({ ...base, handleKey: 'key-of-a', realtimeEndpoints: [{ name: 'churn-xgb' }], asyncEndpoints: [env.config.asyncEndpoints![0]] }, 'caller-a');
  b = await startMcpHttpSession({ ...base, handleKey: 'key-of-b', realtimeEndpoints: [{ name: 'shared-llm', inferenceComponents: ['llama3-8b'] }], asyncEndpoints: [env.config.asyncEndpoints![1]] }, 'caller-b');
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  await env?.stop();
});

test('interleaved callers of two handlers each see only their own allow-list, descriptions and handles', async () => {
  env.runtime.setDefault('churn-xgb', ok([0.9]));
  env.runtime.script('doc-summarizer', accepted({ inferenceId: 'job-a' }));
  env.runtime.script('batch-scorer', accepted({ inferenceId: 'job-b' }));
  const payload = { format: 'text', text: 'x' };
  // WHEN both clients list and call at the same time, several rounds
  for (let round = 0; round < 3; round++) {
    const [listA, listB, ownA, otherA, otherB] = await Promise.all([
      a.client.listTools(),
      b.client.listTools(),
      a.call('invoke_endpoint', { endpointName: 'churn-xgb', payload: { format: 'json', data: [1] } }),
      a.call('invoke_endpoint', { endpointName: 'shared-llm', inferenceComponentName: 'llama3-8b', payload }),
      b.call('invoke_endpoint', { endpointName: 'churn-xgb', payload }),
    ]);
    // THEN each tools/list describes only its own endpoints
    const invokeA = listA.tools.find((t) => t.name === 'invoke_endpoint')!.description!;
    const invokeB = listB.tools.find((t) => t.name === 'invoke_endpoint')!.description!;
    expect(invokeA).toContain('churn-xgb');
    expect(invokeA).not.toContain('shared-llm');
    expect(invokeB).toContain('shared-llm');
    expect(invokeB).not.toContain('churn-xgb');
    // AND each allow-list is its own
    expect(ownA.isError).toBeFalsy();
    expect(otherA.structuredContent).toMatchObject({ errorName: 'EndpointNotAllowed' });
    expect(otherB.structuredContent).toMatchObject({ errorName: 'EndpointNotAllowed' });
  }
  // AND a handle opens only on the handler whose key sealed it
  const [startA, startB] = await Promise.all([
    a.call('start_async_inference', { endpointName: 'doc-summarizer', payload }),
    b.call('start_async_inference', { endpointName: 'batch-scorer', payload }),
  ]);
  const handleA = startA.structuredContent.handle;
  const handleB = startB.structuredContent.handle;
  const [aOnB, bOnA, aOnA] = await Promise.all([
    b.call('get_async_inference_result', { handle: handleA }),
    a.call('get_async_inference_result', { handle: handleB }),
    a.call('get_async_inference_result', { handle: handleA }),
  ]);
  expect(aOnB.structuredContent).toMatchObject({ errorName: 'InvalidHandleError' });
  expect(bOnA.structuredContent).toMatchObject({ errorName: 'InvalidHandleError' });
  expect(aOnA.structuredContent).toMatchObject({ status: 'pending', endpointName: 'doc-summarizer' });
});
