/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, run on Node 22: it needs `fs.globSync`)
 * against the two front doors of this server: the CLI's streamable HTTP server (`cdk-sagemaker-mcp mcp --http 0`,
 * bundled as the runtime package bundles it) and the BUNDLED Lambda handler (assets/mcp/server.lambda) behind a stand-in
 * function URL (./../mcp/function-url-event.ts). `--suite all` with test/clients/conformance-baseline.yml: the suite
 * exits 1 on a failure not in the baseline (a regression) and on a baseline entry that passes (stale), 0 otherwise.
 * Runs in `npx projen test:clients` (Node 22), not in `npx projen test`.
 */
import { ChildProcess, execFile, spawn } from 'child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { createServer, Server } from 'http';
import { AddressInfo } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';
import type { APIGatewayProxyStructuredResultV2, LambdaFunctionURLEvent } from 'aws-lambda';
import { buildSync } from 'esbuild';
import { setBundledServerEnv } from '../mcp/bundled-server-lambda';
import { functionUrlEvent } from '../mcp/function-url-event';
import { LOCAL_CREDENTIALS } from '@cdk-sagemaker-mcp/test-stand-ins/local-aws';
import { SecretsManagerServer, startSecretsManagerServer } from '@cdk-sagemaker-mcp/test-stand-ins/secrets-manager-server';

const ROOT = join(__dirname, '..', '..');
const CONFORMANCE = join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const BASELINE = join(__dirname, 'conformance-baseline.yml');
const LAMBDA_BASELINE = join(__dirname, 'conformance-baseline-lambda.yml');
/**
 * The scenarios that apply to any tool server: each must end with no failed check (the suite's summary marks it ✓).
 * The WARNINGS_ONLY ones are in the baselines for their SHOULD-level warnings only (see the file); dns-rebinding-protection
 * applies to localhost servers, so to the CLI, not to the function URL. The Tasks scenarios need the suite's fixture
 * tools: ./tasks-conformance.test.ts runs them against a fixture server.
 */
const WARNINGS_ONLY = ['server-sse-polling', 'server-sse-multiple-streams', 'sep-2164-resource-not-found'];
const MUST_PASS = ['server-initialize', 'ping', 'tools-list', 'http-header-validation', 'tasks-status-notifications', ...WARNINGS_ONLY];

let dir: string;
let cli: ChildProcess | undefined;
let secrets: SecretsManagerServer;
let standIn: Server;
const saved = { ...process.env };

/** Runs the suite against `url`; resolves with its exit code and output (never rejects on a non-zero exit). */
function conformance(url: string, baseline: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CONFORMANCE, 'server', '--url', url, '--suite', 'all', '--expected-failures', baseline],
      { timeout: 90_000, cwd: dir, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, output: `${stdout}\n${stderr}` });
      });
  });
}

const summaryOf = (output: string, scenario: string) => output.split('\n').find((l) => new RegExp(`^[✓✗] ${scenario}:`).test(l));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
  secrets = await startSecretsManagerServer();
});

afterAll(async () => {
  cli?.kill();
  await new Promise<void>((resolve) => (standIn ? standIn.close(() => resolve()) : resolve()));
  await secrets?.stop();
  process.env = saved;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('the baselines name no scenario that applies to every tool server, except the warning-only ones', async () => {
  const { readFileSync } = await import('fs');
  const entries = (file: string) => readFileSync(file, 'utf8').split('\n').map((l) => l.match(/^\s+-\s+(\S+)/)?.[1]).filter(Boolean);
  for (const s of [...MUST_PASS.filter((m) => !WARNINGS_ONLY.includes(m)), 'dns-rebinding-protection']) expect(entries(BASELINE)).not.toContain(s);
  for (const s of MUST_PASS.filter((m) => !WARNINGS_ONLY.includes(m))) expect(entries(LAMBDA_BASELINE)).not.toContain(s);
  expect(entries(LAMBDA_BASELINE)).toEqual(['dns-rebinding-protection', ...entries(BASELINE)]);
});

test('the CLI\'s streamable HTTP server passes the suite with its baseline', async () => {
  // GIVEN the bundled CLI serving one endpoint over HTTP (no AWS call is made by these scenarios)
  const bundle = join(dir, 'cli.js');
  buildSync({ entryPoints: [join(ROOT, 'packages', 'runtime', 'src', 'cli.ts')], bundle: true, platform: 'node', target: 'node20', outfile: bundle, logLevel: 'error' });
  const config = join(dir, 'mcp.json');
  writeFileSync(config, JSON.stringify({
    serverName: 'conformance',
    region: 'us-east-1',
    credentials: LOCAL_CREDENTIALS,
    handleKey: 'conformance-key',
    endpoints: { sagemakerRuntime: 'http://127.0.0.1:9' },
    realtimeEndpoints: [{ name: 'churn-xgb' }],
  }));
  const child = spawn(process.execPath, [bundle, 'mcp', '-c', config, '--http', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  cli = child;
  const url = await new Promise<string>((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (d) => {
      err += String(d);
      const m = err.match(/(http:\/\/127\.0\.0\.1:\d+\/mcp)/);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`the CLI exited ${code}: ${err}`)));
  });
  // WHEN
  const { code, output } = await conformance(url, BASELINE);
  // THEN
  for (const s of [...MUST_PASS, 'dns-rebinding-protection']) expect(summaryOf(output, s)).toMatch(/^✓/);
  expect({ code, tail: output.slice(-1500) }).toMatchObject({ code: 0 });
}, 120_000);

test('the bundled Lambda handler behind a stand-in function URL passes the suite with its baseline', async () => {
  // GIVEN the bundle, configured as McpToolServer configures it
  setBundledServerEnv({
    secretsEndpoint: secrets.endpoint,
    handleKeySecretArn: secrets.putSecret('mcp-handle-key', 'conformance-handle-key'),
    spec: { realtimeEndpoints: [{ name: 'churn-xgb' }] },
  });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const handler: (e: LambdaFunctionURLEvent) => Promise<APIGatewayProxyStructuredResultV2> = require('../../assets/mcp/server.lambda/index.js').handler;
  standIn = createServer(async (req, res) => {
    try {
      const result = await handler(await functionUrlEvent(req));
      res.writeHead(result.statusCode ?? 200, result.headers as Record<string, string>);
      res.end(result.body === undefined ? undefined : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8'));
    } catch (err) {
      // What a function URL answers for a failed invocation.
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ Message: (err as Error).message }));
    }
  });
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', () => resolve()));
  // WHEN
  const { code, output } = await conformance(`http://127.0.0.1:${(standIn.address() as AddressInfo).port}/mcp`, LAMBDA_BASELINE);
  // THEN
  for (const s of MUST_PASS) expect(summaryOf(output, s)).toMatch(/^✓/);
  expect({ code, tail: output.slice(-1500) }).toMatchObject({ code: 0 });
}, 120_000);
