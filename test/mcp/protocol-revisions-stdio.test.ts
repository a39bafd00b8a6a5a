/**
 * The bundled CLI over stdio answers clients pinned to each protocol revision it supports (MCP_PROTOCOL_REVISIONS), with
 * the MCP SDK's own client pinned to each: it lists and calls tools. A slow suite (`npx projen test:slow`): the CLI is
 * bundled with esbuild and spawned once per revision. Over streamable HTTP: ./protocol-revisions.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { buildSync } from 'esbuild';
import { listAndCall, pinnedClient } from './pinned-client';
import { LOCAL_CREDENTIALS } from '@cdk-sagemaker-mcp/test-stand-ins/local-aws';
import { ok, SageMakerRuntimeServer, start } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { MCP_PROTOCOL_REVISIONS } from 'cdk-sagemaker-mcp-runtime/mcp';

const ROOT = join(__dirname, '..', '..');

let runtime: SageMakerRuntimeServer;
let dir: string;
let cli: string;
let configFile: string;

beforeAll(async () => {
  runtime = await start();
  runtime.setDefault('clf', ok([{ label: 'greeting', score: 0.97 }]));
  const c = runtime.clientConfig();
  const config = { region: c.region, credentials: { ...LOCAL_CREDENTIALS }, endpoints: { sagemakerRuntime: c.endpoint }, realtimeEndpoints: [{ name: 'clf' }] };
  dir = mkdtempSync(join(tmpdir(), 'mcp-revisions-'));
  cli = join(dir, 'cli.js');
  buildSync({ entryPoints: [join(ROOT, 'packages', 'runtime', 'src', 'cli.ts')], bundle: true, platform: 'node', target: 'node20', outfile: cli, logLevel: 'error' });
  configFile = join(dir, 'mcp.json');
  writeFileSync(configFile, JSON.stringify(config));
});

afterAll(async () => {
  await runtime?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test.each([...MCP_PROTOCOL_REVISIONS])('a client pinned to %s lists and calls tools', async (revision) => {
  const client = pinnedClient(revision);
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', '--config', configFile], stderr: 'pipe' }));
  try {
    expect(client.getNegotiatedProtocolVersion()).toBe(revision);
    await listAndCall(client);
  } finally {
    await client.close();
  }
});
