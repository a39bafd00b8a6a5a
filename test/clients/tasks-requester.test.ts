/**
 * A real Tasks requester, @modelcontextprotocol/ext-tasks (`createTaskSessionFromClient` with `rawDispatch` and
 * `v2RequestFraming`, in ./tasks-requester.mjs: the package is ESM), drives this server's tasks end to end over
 * streamable HTTP, against the SageMaker runtime and control-plane stand-ins, s3rver and dynalite: an async inference
 * created, seen working, completed with the model's output; a training run cancelled (its pipeline execution stopped);
 * another principal refused. Two server instances answer alternately, as two Lambda containers would. Runs in
 * `npx projen test:clients` (Node 22).
 */
import { execFile } from 'child_process';
import { createServer, IncomingMessage, Server } from 'http';
import { AddressInfo } from 'net';
import { join } from 'path';
import type { McpHttpHandler } from '@modelcontextprotocol/server';
import { BUCKET, completeAsyncOutput, LocalEnv, recordAsyncJob, startLocalEnv } from '../../packages/runtime/test/support/local-env';
import { accepted } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { createSageMakerMcpHandler } from 'cdk-sagemaker-mcp-runtime/mcp';

const SCRIPT = join(__dirname, 'tasks-requester.mjs');
const ROOT = join(__dirname, '..', '..');
let env: LocalEnv;
let http: Server;
let url: string;
const seen: string[] = [];

const readBody = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

beforeAll(async () => {
  env = await startLocalEnv();
  const config = { ...env.config, asyncCheckAfterSeconds: 0.1, trainingCheckAfterSeconds: 0.1 };
  const instances: McpHttpHandler[] = [createSageMakerMcpHandler(config), createSageMakerMcpHandler(config)];
  let turn = 0;
  env.runtime.script('doc-summarizer', accepted({ inferenceId: 'e2e-1' }));
  http = createServer(async (req, res) => {
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    const message = body ? JSON.parse(body) : undefined;
    // The caller as the front door authenticated it (a function URL's IAM request context); never a header in production.
    const principal = String(req.headers['x-test-principal'] ?? 'anonymous');
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const request = new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body });
    const response = await instances[turn++ % 2].fetch(request, { authInfo: { token: '', clientId: `arn:aws:iam::111111111111:role/${principal}`, scopes: [] } });
    const text = await response.text();
    if (message?.method) seen.push(`${principal} ${message.method} ${text.includes('"status":"working"') ? 'working' : ''}`.trim());
    // The job completes once its task has been seen working; a stopped execution becomes Stopped after the cancel.
    if (message?.method === 'tasks/get' && text.includes('"status":"working"') && seen.filter((s) => s === 'alice tasks/get working').length === 1) {
      await completeAsyncOutput(env, 'outputs/e2e-1.out', { summary: 'short' });
      await recordAsyncJob(env, 'e2e-1', `s3://${BUCKET}/outputs/e2e-1.out`);
    }
    if (message?.method === 'tasks/cancel') {
      for (const e of env.control.executions()) if (e.PipelineExecutionStatus === 'Stopping') env.control.updateExecution(e.PipelineExecutionArn, { PipelineExecutionStatus: 'Stopped' });
    }
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(text);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => (http ? http.close(() => resolve()) : resolve()));
  await env?.stop();
});

test('ext-tasks creates, polls and completes an async inference, cancels a training run, and another principal sees neither', async () => {
  // WHEN
  const out = await new Promise<any>((resolve, reject) => {
    execFile(process.execPath, [SCRIPT, url], { timeout: 60_000, cwd: ROOT }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split('\n').at(-1)!));
    });
  });
  // THEN the inference: a task, seen working, completed with the model's output
  expect(out.inference).toMatchObject({ kind: 'task', outcome: 'completed', lastStatus: 'completed' });
  expect(out.inference.statuses).toContain('working');
  expect(out.inference.result.structuredContent).toMatchObject({ status: 'completed', output: { json: { summary: 'short' } } });
  expect(seen).toContain('alice tasks/get working');
  // AND bob cannot see alice's task
  expect(out.bob.snapshot).toBeUndefined();
  expect(out.bob.code).toBe(-32602);
  // AND the training run was stopped and its task cancelled
  expect(out.training).toMatchObject({ kind: 'task', outcome: 'cancelled', serverStatus: 'cancelled' });
  expect(env.control.requestsFor('StopPipelineExecution')).toHaveLength(1);
  expect(seen.filter((s) => s.startsWith('bob tasks/'))).toEqual(['bob tasks/get']);
}, 90_000);
