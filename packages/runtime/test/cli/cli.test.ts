/**
 * The bundled CLI (`cdk-sagemaker-mcp mcp --config <file>`, built here exactly as the package's bundle task builds it:
 * esbuild, platform node, target node20, nothing external) spawned over stdio by two MCP clients: the SDK's own client
 * and one no one here wrote, the MCP Inspector in CLI mode.
 */
import { execFile } from 'child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { dirname, join } from 'path';
import { promisify } from 'util';
import { fail, ok } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { buildSync } from 'esbuild';
import { captureOutput } from '../support/captured-output';
import { cliConfigJson, LocalEnv, startLocalEnv } from '../support/local-env';
import { main } from 'cdk-sagemaker-mcp-runtime/cli';

const run = promisify(execFile);
// The repository root (this file is in packages/runtime/test/<folder>/).
const ROOT = join(__dirname, '..', '..', '..', '..');
const INSPECTOR = join(ROOT, 'node_modules', '@modelcontextprotocol', 'inspector-cli', 'build', 'cli.js');

let env: LocalEnv;
let dir: string;
let bundle: string;
let configFile: string;
let client: Client;

type CallResult = { isError?: boolean; structuredContent?: any };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-cli-'));
  bundle = join(dir, 'cli', 'index.js');
  buildSync({ entryPoints: [join(ROOT, 'packages', 'runtime', 'src', 'cli.ts')], bundle: true, platform: 'node', target: 'node20', outfile: bundle, logLevel: 'error' });
  env = await startLocalEnv();
  configFile = join(dir, 'mcp.json');
  writeFileSync(configFile, cliConfigJson(env.config));
  client = new Client({ name: 'cli-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [bundle, 'mcp', '--config', configFile], stderr: 'pipe' }));
});

afterAll(async () => {
  await client?.close();
  await env?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => env.runtime.clear());

describe('argument parsing (through main, as the command runs)', () => {
  const output = captureOutput();
  /** Runs the command in this process: its exit code and what it wrote. */
  const runMain = async (...argv: string[]) => {
    output.out.length = 0;
    output.err.length = 0;
    const code = await main(argv);
    return { code, out: output.out.join(''), err: output.err.join('') };
  };

  test('mcp with --config (and --http), tools, help', async () => {
    // A config file that does not exist: the arguments parsed, and the file named is the one given
    const missing = join(dir, 'missing.json');
    expect(await runMain('mcp', '--config', missing)).toMatchObject({ code: 2, err: expect.stringMatching(`^cannot read config file '${missing}'`) });
    expect(await runMain('mcp', `--config=${missing}`, '--http', '8080')).toMatchObject({ code: 2, err: expect.stringContaining(`'${missing}'`) });
    const tools = await runMain('tools', '-c', configFile);
    expect([tools.code, tools.out.trim().split('\n')]).toEqual([0, expect.arrayContaining(['start_training'])]);
    expect(await runMain()).toMatchObject({ code: 0, err: expect.stringMatching(/^Usage:/) });
  });

  test('fails on an unknown command or option, or without --config, exiting 2 with the reason', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['serve'], /unknown command 'serve'/],
      [['mcp', '--config', 'a', '--verbose'], /unknown option '--verbose'/],
      [['mcp'], /--config <file> is required/],
      [['mcp', '-c', 'a', '--http', 'x'], /--http: got 'x', expected a port number/],
      [['mcp', '--config'], /--config needs a value/],
      [['tools', '-c', 'a', '--http', '80'], /unknown option '--http'/],
      [['mcp', '-c', 'a', 'extra'], /unexpected argument/],
    ];
    for (const [argv, reason] of cases) expect(await runMain(...argv)).toMatchObject({ code: 2, err: expect.stringMatching(reason) });
  });
});

describe('bundled CLI', () => {
  test('tools prints the tool names; a bad config file exits 2 naming the problem', async () => {
    const { stdout } = await run(process.execPath, [bundle, 'tools', '--config', configFile]);
    expect(stdout.trim().split('\n')).toContain('start_training');
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ asyncEndpoints: [{ name: 'x' }] }));
    await expect(run(process.execPath, [bundle, 'tools', '--config', bad])).rejects.toMatchObject({
      code: 2, stderr: expect.stringMatching(/config file '.*bad\.json'[\s\S]*asyncEndpoints\[0\]\.inputBucket: expected a string, but it is not set/),
    });
  });
});

describe('stdio server (SDK client)', () => {
  test('lists the tools with their schemas (2026-07-28 revision negotiated over stdio)', async () => {
    expect(client.getProtocolEra()).toBe('modern');
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(12);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
    }
  });

  test('invoke_endpoint: success, ModelError (not retryable), ServiceUnavailable (retryable), denied, bad arguments', async () => {
    env.runtime.script('churn-xgb', ok({ probability: 0.2 }), fail('ModelError', { originalStatusCode: 400 }));
    env.runtime.script('shared-llm', fail('ServiceUnavailable'), fail('ServiceUnavailable'), fail('ServiceUnavailable'));
    const call = async (args: Record<string, unknown>) => (await client.callTool({ name: 'invoke_endpoint', arguments: args })) as CallResult;
    const good = await call({ endpointName: 'churn-xgb', payload: { format: 'json', data: [1, 2] } });
    const modelError = await call({ endpointName: 'churn-xgb', payload: { format: 'json', data: [] } });
    const unavailable = await call({ endpointName: 'shared-llm', inferenceComponentName: 'llama3-8b', payload: { format: 'prompt', prompt: 'hi' } });
    const denied = await call({ endpointName: 'nope', payload: { format: 'json', data: 1 } });
    const invalid = await call({ endpointName: 'churn-xgb' });
    expect(good.structuredContent).toMatchObject({ json: { probability: 0.2 } });
    expect(modelError).toMatchObject({ isError: true, structuredContent: { errorName: 'ModelInvocationError', retryable: false } });
    expect(unavailable).toMatchObject({ isError: true, structuredContent: { errorName: 'TransientEndpointError', retryable: true } });
    expect(denied).toMatchObject({ isError: true, structuredContent: { errorName: 'EndpointNotAllowed', retryable: false } });
    expect(invalid).toMatchObject({ isError: true, structuredContent: { errorName: 'InvalidArguments', retryable: false } });
  });

  test('the other tools reach their local services', async () => {
    const features = (await client.callTool({ name: 'get_online_features', arguments: { featureGroupName: 'users', recordId: 'u1' } })) as CallResult;
    expect(features.structuredContent).toMatchObject({ found: true, features: { calls: 3 } });
    const training = (await client.callTool({ name: 'start_training', arguments: { pipelineName: 'churn-training', sessionId: 'cli-session' } })) as CallResult;
    const status = (await client.callTool({ name: 'get_training_status', arguments: { handle: training.structuredContent.handle } })) as CallResult;
    expect(status.structuredContent).toMatchObject({ status: 'Executing', sessionId: 'cli-session' });
    const described = (await client.callTool({ name: 'describe_endpoint', arguments: { endpointName: 'churn-xgb' } })) as CallResult;
    expect(described.structuredContent).toMatchObject({ status: 'InService' });
  });
});

describe('stdio server (MCP Inspector CLI, a client no one here wrote)', () => {
  // `-c`, not `--config`: the Inspector claims `--config` for its own config file. Its CLI mode (0.22.0) resolves its
  // package.json against the working directory, so it runs from its build folder.
  const inspector = (...methodArgs: string[]) =>
    run(process.execPath, [INSPECTOR, '--cli', process.execPath, bundle, 'mcp', '-c', configFile, ...methodArgs], { timeout: 30_000, cwd: dirname(INSPECTOR) });

  test('tools/list', async () => {
    const { stdout } = await inspector('--method', 'tools/list');
    const { tools } = JSON.parse(stdout);
    expect(tools.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(['invoke_endpoint', 'get_online_features', 'start_training']));
    expect(tools.find((t: { name: string }) => t.name === 'invoke_endpoint').inputSchema.required).toEqual(expect.arrayContaining(['endpointName', 'payload']));
  });

  test('tools/call get_online_features and describe_endpoint with key=value arguments', async () => {
    const features = JSON.parse((await inspector('--method', 'tools/call', '--tool-name', 'get_online_features',
      '--tool-arg', 'featureGroupName=users', '--tool-arg', 'recordId=u1')).stdout);
    expect(features.structuredContent).toMatchObject({ found: true, features: { user_id: 'u1', score: 0.75 } });
    // A 2025-era client (SDK v1) validates structuredContent even on errors: it gets the error JSON as text only.
    const denied = JSON.parse((await inspector('--method', 'tools/call', '--tool-name', 'describe_endpoint', '--tool-arg', 'endpointName=secret')).stdout);
    expect(denied.isError).toBe(true);
    expect(denied.structuredContent).toBeUndefined();
    expect(JSON.parse(denied.content[0].text)).toMatchObject({ errorName: 'EndpointNotAllowed', retryable: false });
  });

  test('tools/call invoke_endpoint with a JSON argument', async () => {
    env.runtime.script('churn-xgb', ok('0.42', { contentType: 'text/csv' }));
    const result = JSON.parse((await inspector('--method', 'tools/call', '--tool-name', 'invoke_endpoint',
      '--tool-arg', 'endpointName=churn-xgb', '--tool-arg', 'payload={"format":"csv","rows":[[1,2,3]]}')).stdout);
    expect(result.structuredContent).toMatchObject({ csv: [['0.42']] });
    expect(env.runtime.requestsFor('churn-xgb')[0].bodyText).toBe('1,2,3');
  });
});
