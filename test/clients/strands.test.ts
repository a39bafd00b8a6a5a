/**
 * The Strands Agents TypeScript SDK (@strands-agents/sdk 1.19, Node >= 22) as a real MCP client of this server, over
 * stdio (the bundled CLI it spawns, AWS settings passed through `env`: its stdio transport passes only HOME, LOGNAME,
 * PATH, SHELL, TERM and USER otherwise) and over streamable HTTP (the server factory the CLI and the Lambda use): list,
 * call, a refused call surfacing isError, and the `_meta` it injects on tools/call. The client runs in
 * ./strands-client.mjs (the SDK is ESM). Runs in `npx projen test:clients`.
 */
import { execFile } from 'child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { createServer, Server } from 'http';
import { AddressInfo } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { buildSync } from 'esbuild';
import { cliConfigJson, LocalEnv, startLocalEnv } from '../../packages/runtime/test/support/local-env';
import { ok } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { createSageMakerMcpHandler } from 'cdk-sagemaker-mcp-runtime/mcp';

const ROOT = join(__dirname, '..', '..');
const SCRIPT = join(__dirname, 'strands-client.mjs');
let env: LocalEnv;
let dir: string;
let http: Server;
const posted: any[] = [];

const strands = (...args: string[]) => new Promise<any>((resolve, reject) => {
  execFile(process.execPath, [SCRIPT, ...args], { timeout: 60_000, cwd: ROOT }, (err, stdout, stderr) => {
    if (err) reject(new Error(`${err.message}\n${stderr}`));
    else resolve(JSON.parse(stdout.trim().split('\n').at(-1)!));
  });
});

beforeAll(async () => {
  env = await startLocalEnv();
  dir = mkdtempSync(join(tmpdir(), 'mcp-strands-'));
  const handler = toNodeHandler(createSageMakerMcpHandler(env.config));
  http = createServer((req, res) => {
    // Record each JSON-RPC message as the client sent it, then hand the request on unread.
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (chunks.length) try { posted.push(JSON.parse(Buffer.concat(chunks).toString())); } catch { /* not JSON */ }
    });
    void handler(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
});

afterAll(async () => {
  http?.closeAllConnections();
  await new Promise<void>((resolve) => (http ? http.close(() => resolve()) : resolve()));
  await env?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const expectSeen = (seen: any) => {
  expect(seen.names).toEqual(expect.arrayContaining(['invoke_endpoint', 'describe_endpoint', 'start_training']));
  expect(JSON.stringify(seen.ok)).toContain('0.87');
  // A refusal reaches the agent as the tool's error (isError), not as a transport failure.
  expect(JSON.stringify(seen.refused)).toContain('EndpointNotAllowed');
};

test('over streamable HTTP: lists, calls, surfaces isError; its tools/call carries the _meta it injects', async () => {
  env.runtime.script('churn-xgb', ok('0.87', { contentType: 'text/csv' }));
  const seen = await strands('http', `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
  expectSeen(seen);
  // The trace context Strands injects sits in the tool's arguments (not params._meta): the tools' schemas strip it, and
  // the call above succeeded with it.
  const call = posted.flat().find((m) => m?.method === 'tools/call' && m.params?.arguments?.endpointName === 'churn-xgb');
  expect(call.params.arguments._meta).toEqual({ traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' });
}, 90_000);

test('over stdio, the bundled CLI it spawns with the AWS settings passed through env', async () => {
  const bundle = join(dir, 'cli.js');
  buildSync({ entryPoints: [join(ROOT, 'packages', 'runtime', 'src', 'cli.ts')], bundle: true, platform: 'node', target: 'node20', outfile: bundle, logLevel: 'error' });
  const config = join(dir, 'mcp.json');
  writeFileSync(config, cliConfigJson(env.config));
  env.runtime.script('churn-xgb', ok('0.87', { contentType: 'text/csv' }));
  expectSeen(await strands('stdio', bundle, config));
}, 90_000);
