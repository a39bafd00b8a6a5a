/**
 * The stdio CLI and its handle key: handle tools without a `handleKey` refuse to start (exit 2, naming the option); a
 * per-process key only with `ephemeralHandleKey: true`, and then a handle does not survive a restart. The CLI bundled
 * as the package's bundle task builds it, spawned by a real MCP client, against the local SageMaker control plane.
 */
import { execFile } from 'child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { promisify } from 'util';
import { LOCAL_CREDENTIALS } from '@cdk-sagemaker-mcp/test-stand-ins/local-aws';
import { SageMakerControlServer, startSageMakerControlServer } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-control-server';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { buildSync } from 'esbuild';
import { loadCliConfig } from 'cdk-sagemaker-mcp-runtime/cli';
import { createSageMakerMcpServer } from 'cdk-sagemaker-mcp-runtime/mcp';

const run = promisify(execFile);
// The repository root (this file is in packages/runtime/test/<folder>/).
const ROOT = join(__dirname, '..', '..', '..', '..');
type CallResult = { isError?: boolean; structuredContent?: any };

let control: SageMakerControlServer;
let dir: string;
let bundle: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-cli-key-'));
  bundle = join(dir, 'cli', 'index.js');
  buildSync({ entryPoints: [join(ROOT, 'packages', 'runtime', 'src', 'cli.ts')], bundle: true, platform: 'node', target: 'node20', outfile: bundle, logLevel: 'error' });
  control = await startSageMakerControlServer();
  control.addPipeline('churn-training');
});

afterAll(async () => {
  await control?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function configFile(name: string, extra: Record<string, unknown>): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify({
    region: 'us-east-1',
    credentials: LOCAL_CREDENTIALS,
    endpoints: { sagemaker: control.endpoint },
    pipelines: [{ name: 'churn-training' }],
    ...extra,
  }));
  return file;
}

async function session<T>(file: string, use: (call: (name: string, args: Record<string, unknown>) => Promise<CallResult>) => Promise<T>): Promise<T> {
  const client = new Client({ name: 'cli-key-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [bundle, 'mcp', '--config', file], stderr: 'pipe' }));
  try {
    return await use(async (name, args) => (await client.callTool({ name, arguments: args })) as CallResult);
  } finally {
    await client.close();
  }
}

test('handle tools without a handleKey: the CLI exits 2 naming handleKey and ephemeralHandleKey', async () => {
  const file = configFile('no-key.json', {});
  await expect(run(process.execPath, [bundle, 'mcp', '--config', file])).rejects.toMatchObject({
    code: 2,
    stderr: expect.stringMatching(/handleKey: not set, expected the secret that seals tool handles.*ephemeralHandleKey: true/s),
  });
});

test('with ephemeralHandleKey a handle works in its process and is refused after a restart', async () => {
  // GIVEN a server with a per-process key
  const file = configFile('ephemeral.json', { ephemeralHandleKey: true });
  const handle = await session(file, async (call) => {
    const started = await call('start_training', { pipelineName: 'churn-training', sessionId: 'cli-ephemeral-1' });
    expect(started.isError).toBeFalsy();
    const status = await call('get_training_status', { handle: started.structuredContent.handle });
    expect(status.isError).toBeFalsy();
    return started.structuredContent.handle as string;
  });

  // WHEN the process restarts (a new key)
  const afterRestart = await session(file, (call) => call('get_training_status', { handle }));

  // THEN the old handle no longer opens
  expect(afterRestart).toMatchObject({ isError: true, structuredContent: { errorName: 'InvalidHandleError', retryable: false } });
});

test('with a configured handleKey a handle survives a restart', async () => {
  const file = configFile('keyed.json', { handleKey: 'a-key-kept-outside-the-process' });
  const handle = await session(file, async (call) =>
    (await call('start_training', { pipelineName: 'churn-training', sessionId: 'cli-keyed-1' })).structuredContent.handle as string);
  const afterRestart = await session(file, (call) => call('get_training_status', { handle }));
  expect(afterRestart.isError).toBeFalsy();
  expect(afterRestart.structuredContent).toMatchObject({ pipelineName: 'churn-training' });
});

test('the sample configuration (examples/mcp.json) starts: it asks for a per-process key explicitly', () => {
  const config = loadCliConfig(join(ROOT, 'examples', 'mcp.json'));
  expect(config.ephemeralHandleKey).toBe(true);
  expect(() => createSageMakerMcpServer(config)).not.toThrow();
});
