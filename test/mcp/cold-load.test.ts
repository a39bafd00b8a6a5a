/**
 * What the bundled MCP server Lambda (assets/mcp/server.lambda, after `npx projen bundle`) loads, and when. Loading an
 * AWS SDK client module costs tens of milliseconds, so the bundle requires none at load: each is loaded by the first
 * call that needs it (packages/runtime/src/core/aws-sdk.ts). Checked on the module ids the bundle requests in a fresh node
 * process (test/support/cold-start.ts) — structure, not timing; `npx projen bench mcp` has the milliseconds. The AWS SDK
 * (`@aws-sdk/*` and `@smithy/*`) is the Lambda runtime's, never in the bundle (projenrc/bundling.ts), which keeps to
 * its size target (docs/benchmarks.md).
 */
import { statSync } from 'fs';
import { join } from 'path';
import type { LambdaFunctionURLEvent } from 'aws-lambda';
import event from './fixtures/function-url-event.json';
import { coldStart } from '../support/cold-start';
import { LOCAL_CREDENTIALS } from '@cdk-sagemaker-mcp/test-stand-ins/local-aws';
import { ok, SageMakerRuntimeServer, startSageMakerRuntimeServer } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { SecretsManagerServer, startSecretsManagerServer } from '@cdk-sagemaker-mcp/test-stand-ins/secrets-manager-server';
import { MCP_ENV, McpServerSpec, toolNamesForSpec } from 'cdk-sagemaker-mcp-runtime/internal/contract';

const ROOT = join(__dirname, '..', '..');
const BUNDLE = join(ROOT, 'assets', 'mcp', 'server.lambda', 'index.js');

/** The client modules the server never needs to answer initialize, tools/list or invoke_endpoint. */
const NOT_NEEDED = [
  '@aws-sdk/client-s3',
  '@aws-sdk/client-dynamodb',
  '@aws-sdk/client-sagemaker-featurestore-runtime',
  '@aws-sdk/client-sagemaker',
];

function mcpEvent(message: object): LambdaFunctionURLEvent {
  return { ...(event as unknown as LambdaFunctionURLEvent), body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...message }) };
}

/** The JSON-RPC message of a function URL result (a JSON body, or the one `data:` line of an SSE body). */
function rpcMessage(result: unknown): any {
  const body = (result as { body: string }).body;
  return JSON.parse(body.startsWith('{') ? body : body.split('\n').find((l) => l.startsWith('data: '))!.slice('data: '.length));
}

/** The AWS SDK's module ids among `ids`: its clients and libraries (`@aws-sdk/*`) and its core (`@smithy/*`). */
const awsSdk = (ids: string[]) => [...new Set(ids.filter((id) => id.startsWith('@aws-sdk/') || id.startsWith('@smithy/')))].sort();

/** The bundle's size target (docs/benchmarks.md, "MCP server Lambda cold start"), in bytes. */
const BUNDLE_BYTES_TARGET = 600_000;

test('the bundle keeps to its size target: the AWS SDK (the bearer token signer\'s @smithy/* included) stays out of it', () => {
  expect(statSync(BUNDLE).size).toBeLessThanOrEqual(BUNDLE_BYTES_TARGET);
});

describe('bundled MCP server Lambda: AWS SDK modules load on first use', () => {
  let runtime: SageMakerRuntimeServer;
  let secrets: SecretsManagerServer;
  let env: Record<string, string>;
  let spec: McpServerSpec;

  beforeAll(async () => {
    runtime = await startSageMakerRuntimeServer();
    runtime.setDefault('churn-xgb', ok({ probability: 0.9 }));
    secrets = await startSecretsManagerServer();
    env = {
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
      AWS_ENDPOINT_URL_SAGEMAKER_RUNTIME: runtime.endpoint,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.endpoint,
      POWERTOOLS_LOG_LEVEL: 'SILENT',
      // Every kind of tool is registered, so every tool module (and what it imports) is in the load.
      [MCP_ENV.SPEC]: JSON.stringify(spec = {
        realtimeEndpoints: [{ name: 'churn-xgb' }],
        asyncEndpoints: [{ name: 'churn-async', inputBucket: 'inputs' }],
        featureGroups: [{
          schema: {
            featureGroupName: 'customers',
            recordIdentifier: 'customer_id',
            eventTime: 'event_time',
            features: [{ name: 'customer_id', type: 'String' }, { name: 'event_time', type: 'String' }, { name: 'tenure', type: 'Integral' }],
          },
          allowWrites: true,
        }],
        pipelines: [{ name: 'churn-training' }],
        trainingResultsTable: 'training-results',
        modelProvenance: true,
      } as McpServerSpec),
      [MCP_ENV.HANDLE_KEY_SECRET_ARN]: secrets.putSecret('mcp-handle-key', 'cold-load-test-handle-key'),
    };
  });

  afterAll(async () => {
    await runtime?.stop();
    await secrets?.stop();
  });

  test('require loads no AWS SDK client; tools/list adds only Secrets Manager (the handle key); invoke_endpoint only the SageMaker runtime', async () => {
    // WHEN a cold container loads the bundle, then serves tools/list and a tools/call of invoke_endpoint
    const cold = await coldStart({
      bundle: BUNDLE,
      cwd: ROOT,
      env,
      events: [
        mcpEvent({ method: 'tools/list', params: {} }),
        mcpEvent({ method: 'tools/call', params: { name: 'invoke_endpoint', arguments: { endpointName: 'churn-xgb', payload: { format: 'json', data: { f: [1] } } } } }),
      ],
    });
    const [list, call] = cold.invocations;

    // THEN both requests were answered (the hook saw a working server, not a failed one)
    expect(rpcMessage(list.result).result.tools.map((t: { name: string }) => t.name)).toEqual(toolNamesForSpec(spec));
    expect(rpcMessage(call.result).result).toMatchObject({ structuredContent: { json: { probability: 0.9 } } });
    expect(runtime.requestsFor('churn-xgb')).toHaveLength(1);
    // AND the load required no AWS SDK module, @smithy/* included (the hook recorded the bundle's own requires, e.g. node:crypto)
    expect(cold.requiredAtLoad.length).toBeGreaterThan(0);
    expect(awsSdk(cold.requiredAtLoad)).toEqual([]);
    // AND the first request read the handle key, loading Secrets Manager and nothing else of the SDK's clients
    expect(awsSdk(list.required).filter((id) => id.startsWith('@aws-sdk/client-'))).toEqual(['@aws-sdk/client-secrets-manager']);
    // AND invoke_endpoint loaded the SageMaker runtime client
    expect(awsSdk(call.required).filter((id) => id.startsWith('@aws-sdk/client-'))).toEqual(['@aws-sdk/client-sagemaker-runtime']);
    // AND at no point S3, DynamoDB, Feature Store runtime or the SageMaker control plane
    const all = [...cold.requiredAtLoad, ...list.required, ...call.required];
    for (const id of NOT_NEEDED) expect(all).not.toContain(id);
  });
});
