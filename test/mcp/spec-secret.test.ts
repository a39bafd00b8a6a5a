/**
 * The bundled MCP server Lambda (assets/mcp/server.lambda, after `npx projen bundle`) reading its spec from the secret
 * McpToolServer writes, as a cold start does: the real AWS SDK v3 Secrets Manager client against the local stand-in
 * (packages/test-stand-ins/src/secrets-manager-server.ts), the secret holding what the construct synthesized for a team's estate with
 * the deploy-time names resolved. Read once per container, both reads bounded; a missing or malformed spec fails the
 * invocation (the Errors alarm sees it) with every problem at once.
 */
import { gzipSync } from 'zlib';
import { Template } from 'aws-cdk-lib/assertions';
import type { LambdaFunctionURLEvent } from 'aws-lambda';
import { estateServer, specResolved, TEAM } from './estate';
import { FUNCTION_URL_EVENT as fixture } from './function-url-event';
import { specSecretValueOf } from './spec-of';
import { LOCAL_CREDENTIALS } from '@cdk-sagemaker-mcp/test-stand-ins/local-aws';
import { SecretsManagerServer, startSecretsManagerServer } from '@cdk-sagemaker-mcp/test-stand-ins/secrets-manager-server';
import { MCP_ENV, McpServerSpec, toolNamesForSpec } from 'cdk-sagemaker-mcp-runtime/internal/contract';
import { mcpServerSpecFromSecretText } from 'cdk-sagemaker-mcp-runtime/internal/lambda';

type Handler = (event: LambdaFunctionURLEvent) => Promise<{ statusCode?: number; body?: string }>;

const toolsList: LambdaFunctionURLEvent = { ...fixture, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}' };

/** A fresh container: the bundle loaded anew, with `env` (and the stand-in's endpoint and credentials) in place. */
function coldHandler(env: Record<string, string>): Handler {
  for (const name of [MCP_ENV.SPEC, MCP_ENV.SPEC_SECRET_ARN, MCP_ENV.SPEC_DIGEST, MCP_ENV.HANDLE_KEY_SECRET_ARN]) delete process.env[name];
  Object.assign(process.env, env);
  let handler: Handler | undefined;
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    handler = require('../../assets/mcp/server.lambda/index.js').handler;
  });
  return handler!;
}

/** The JSON-RPC message of a function URL result (a JSON body, or the one `data:` line of an SSE body). */
function rpcMessage(result: { body?: string }): any {
  const body = result.body ?? '';
  return JSON.parse(body.startsWith('{') ? body : body.split('\n').find((l) => l.startsWith('data: '))!.slice('data: '.length));
}

/** A packed spec text (packages/runtime/src/contract/mcp.ts `McpPackedSpec`) of `staticSpec` and `values`. */
const packed = (staticSpec: unknown, values: string[]) =>
  JSON.stringify({ specGzipBase64: gzipSync(Buffer.from(JSON.stringify(staticSpec))).toString('base64'), values });

describe('bundled server.lambda: the spec from its secret at cold start', () => {
  let secrets: SecretsManagerServer;
  let keyArn: string;
  const saved = { ...process.env };

  beforeAll(async () => {
    secrets = await startSecretsManagerServer();
    Object.assign(process.env, {
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.endpoint,
      POWERTOOLS_LOG_LEVEL: 'SILENT',
    });
    keyArn = secrets.putSecret('mcp-handle-key', 'spec-secret-test-handle-key');
  });

  afterAll(async () => {
    process.env = saved;
    await secrets?.stop();
  });

  test('serves tools/list with every entry of a 100/20/10/10 estate, reading the spec once per container', async () => {
    // GIVEN the spec secret as CloudFormation leaves it for the synthesized estate (the imported names resolved)
    const { stack } = estateServer(TEAM);
    const text = specResolved(specSecretValueOf(Template.fromStack(stack).toJSON()));
    const spec = mcpServerSpecFromSecretText(text, 'test');
    const specArn = secrets.putSecret('mcp-spec-estate', text);
    const handler = coldHandler({ [MCP_ENV.SPEC_SECRET_ARN]: specArn, [MCP_ENV.HANDLE_KEY_SECRET_ARN]: keyArn });
    const before = secrets.requests.length;
    // WHEN the container answers tools/list twice
    const first = rpcMessage(await handler(toolsList));
    const second = rpcMessage(await handler(toolsList));
    // THEN every tool of the spec is listed, every entry named in its tool's description
    const tools: Array<{ name: string; description: string }> = first.result.tools;
    expect(tools.map((t) => t.name)).toEqual(toolNamesForSpec(spec));
    const described = (name: string) => tools.find((t) => t.name === name)!.description;
    for (let i = 0; i < 100; i++) expect(described('invoke_endpoint')).toContain(`team-models-endpoint-${String(i).padStart(3, '0')}`);
    for (const e of spec.asyncEndpoints!) expect(described('describe_endpoint')).toContain(e.name);
    for (const g of spec.featureGroups!) expect(described('get_online_features')).toContain(g.schema.featureGroupName);
    for (const p of spec.pipelines!) expect(described('start_training')).toContain(p.name);
    expect(second.result.tools).toEqual(tools);
    // AND the spec and the key were read once each, by ARN, for the whole container
    expect(secrets.requests.slice(before).map((r) => `${r.operation} ${r.body.SecretId}`).sort())
      .toEqual([`GetSecretValue ${keyArn}`, `GetSecretValue ${specArn}`].sort());
  });

  test('fails the invocation when the spec secret is missing, naming the variable and what the function needs', async () => {
    const handler = coldHandler({
      [MCP_ENV.SPEC_SECRET_ARN]: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:mcp-spec-gone-AbCdEf',
      [MCP_ENV.HANDLE_KEY_SECRET_ARN]: keyArn,
    });
    await expect(handler(toolsList)).rejects.toThrow(
      /^Cannot read the server spec secret named by MCP_SERVER_SPEC_SECRET_ARN \(ResourceNotFoundException: .*\); the function needs secretsmanager:GetSecretValue on it/);
  });

  test('fails the invocation on a malformed spec, with every problem at once', async () => {
    // GIVEN a spec whose entries are wrong and whose slots do not match its values
    const bad = packed({ realtimeEndpoints: [{ name: 5 }, { name: { $deployTimeValue: 3 } }], pipelines: [{ name: '' }] }, ['a', 'b']);
    const handler = coldHandler({ [MCP_ENV.SPEC_SECRET_ARN]: secrets.putSecret('mcp-spec-bad', bad), [MCP_ENV.HANDLE_KEY_SECRET_ARN]: keyArn });
    // WHEN / THEN
    const error: Error = await handler(toolsList).then(() => { throw new Error('answered'); }, (e) => e);
    expect(error.message.split('\n').slice(1)).toEqual([
      '  - the server spec (the secret named by MCP_SERVER_SPEC_SECRET_ARN).realtimeEndpoints[1].name: expected a slot index from 0 to 1 (values), got 3',
      '  - the server spec (the secret named by MCP_SERVER_SPEC_SECRET_ARN).values: got 2 values, of which 0 are used by the spec',
    ]);
    // AND a spec that is not packed, or not gzip, says so
    for (const [text, expected] of [
      ['{"realtimeEndpoints":[]}', /specGzipBase64: expected a string, but it is not set/],
      ['{"specGzipBase64":"bm90IGd6aXA=","values":[]}', /specGzipBase64: expected gzipped JSON in base64, got data that does not decompress/],
      ['not json', /does not parse/],
    ] as const) {
      const h = coldHandler({ [MCP_ENV.SPEC_SECRET_ARN]: secrets.putSecret(`mcp-spec-${Math.random().toString(36).slice(2)}`, text), [MCP_ENV.HANDLE_KEY_SECRET_ARN]: keyArn });
      await expect(h(toolsList)).rejects.toThrow(expected);
    }
    // AND once the slots are right, the entries' own problems come all together
    const wrongEntries = packed({ realtimeEndpoints: [{ name: 5 }, { name: { $deployTimeValue: 0 } }], pipelines: [{ name: '' }] }, ['a']);
    const h = coldHandler({ [MCP_ENV.SPEC_SECRET_ARN]: secrets.putSecret('mcp-spec-entries', wrongEntries), [MCP_ENV.HANDLE_KEY_SECRET_ARN]: keyArn });
    const entries: Error = await h(toolsList).then(() => { throw new Error('answered'); }, (e) => e);
    expect(entries.message).toMatch(/realtimeEndpoints\[0\]\.name: expected a string, got 5/);
    expect(entries.message).toMatch(/pipelines\[0\]\.name: expected a non-empty string/);
  });

  test('a deploy-time number (an async endpoint\'s timeout) comes back a number; a slot that is not one is refused', () => {
    const spec = { asyncEndpoints: [{ name: { $deployTimeValue: 0 }, inputBucket: 'io', invocationTimeoutSeconds: { $deployTimeNumber: 1 } }] };
    expect(mcpServerSpecFromSecretText(packed(spec, ['doc-summarizer', '1800']), 'test').asyncEndpoints)
      .toEqual([{ name: 'doc-summarizer', inputBucket: 'io', invocationTimeoutSeconds: 1800 }]);
    expect(() => mcpServerSpecFromSecretText(packed(spec, ['doc-summarizer', 'soon']), 'test'))
      .toThrow(/test\.asyncEndpoints\[0\]\.invocationTimeoutSeconds: expected a number/);
  });

  test('the spec inline (MCP_SERVER_SPEC, a function configured by hand) still serves; both or neither is refused', async () => {
    const spec: McpServerSpec = { realtimeEndpoints: [{ name: 'churn-xgb' }] };
    const inline = coldHandler({ [MCP_ENV.SPEC]: JSON.stringify(spec), [MCP_ENV.HANDLE_KEY_SECRET_ARN]: keyArn });
    expect(rpcMessage(await inline(toolsList)).result.tools.map((t: { name: string }) => t.name)).toEqual(toolNamesForSpec(spec));
    const both = coldHandler({
      [MCP_ENV.SPEC]: JSON.stringify(spec),
      [MCP_ENV.SPEC_SECRET_ARN]: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:mcp-spec-AbCdEf',
      [MCP_ENV.HANDLE_KEY_SECRET_ARN]: keyArn,
    });
    await expect(both(toolsList)).rejects.toThrow(/MCP_SERVER_SPEC_SECRET_ARN: expected the ARN of the Secrets Manager secret holding the server spec .* got both/);
    const neither = coldHandler({ [MCP_ENV.HANDLE_KEY_SECRET_ARN]: keyArn });
    await expect(neither(toolsList)).rejects.toThrow(/MCP_SERVER_SPEC_SECRET_ARN: expected .* got neither/);
  });
});
