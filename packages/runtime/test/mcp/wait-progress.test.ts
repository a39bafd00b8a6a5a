/**
 * The wait_for_* tools send MCP progress notifications while they wait, to a client that asks for them (a request
 * carrying `_meta.progressToken`: the SDK client sets one when `onprogress` is given), over streamable HTTP and over
 * stdio (the bundled CLI); a client that does not ask gets the same final result. Against the local SageMaker runtime,
 * control plane, s3rver and dynalite: the job completes (the test writes what SageMaker and the result recorder would)
 * while the tool waits.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { accepted } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { buildSync } from 'esbuild';
import { BUCKET, cliConfigJson, completeAsyncOutput, LocalEnv, recordAsyncJob, startLocalEnv } from '../support/local-env';
import { McpHttpSession, startMcpHttpSession } from '../support/mcp-session';

// The repository root (this file is in packages/runtime/test/<folder>/).
const ROOT = join(__dirname, '..', '..', '..', '..');
const POLL_MS = 150;

type Progress = { progress: number; total?: number; message?: string };
type Caller = (name: string, args: Record<string, unknown>, onprogress?: (p: Progress) => void) => Promise<any>;

let env: LocalEnv;
let http: McpHttpSession;
let stdio: Client;
let dir: string;

beforeAll(async () => {
  env = await startLocalEnv();
  const config = { ...env.config, waitPollIntervalMs: POLL_MS, toolDeadlines: { wait_for_async_inference: 20_000, wait_for_training_run: 20_000 } };
  http = await startMcpHttpSession(config, 'wait-http');
  dir = mkdtempSync(join(tmpdir(), 'mcp-wait-'));
  const bundle = join(dir, 'cli.js');
  buildSync({ entryPoints: [join(ROOT, 'packages', 'runtime', 'src', 'cli.ts')], bundle: true, platform: 'node', target: 'node20', outfile: bundle, logLevel: 'error' });
  const configFile = join(dir, 'mcp.json');
  writeFileSync(configFile, cliConfigJson(config));
  stdio = new Client({ name: 'wait-stdio', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await stdio.connect(new StdioClientTransport({ command: process.execPath, args: [bundle, 'mcp', '--config', configFile], stderr: 'pipe' }));
});

afterAll(async () => {
  await stdio?.close();
  await http?.close();
  await env?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const transports: Array<[string, () => Caller]> = [
  ['streamable HTTP', () => (name, args, onprogress) => http.client.callTool({ name, arguments: args }, onprogress ? { onprogress } : undefined)],
  ['stdio (bundled CLI)', () => (name, args, onprogress) => stdio.callTool({ name, arguments: args }, onprogress ? { onprogress } : undefined)],
];

describe.each(transports)('wait_for_async_inference over %s', (_label, caller) => {
  /** Starts a job and completes it after `afterMs`, as SageMaker and the result recorder would. */
  async function jobCompletingAfter(call: Caller, jobId: string, afterMs: number): Promise<string> {
    env.runtime.script('doc-summarizer', accepted({ inferenceId: jobId }));
    const started = await call('start_async_inference', { endpointName: 'doc-summarizer', payload: { format: 'text', text: 'doc' } });
    expect(started.isError).toBeFalsy();
    setTimeout(() => {
      void completeAsyncOutput(env, `outputs/${jobId}.out`, { summary: jobId })
        .then(() => recordAsyncJob(env, jobId, `s3://${BUCKET}/outputs/${jobId}.out`));
    }, afterMs);
    return started.structuredContent.handle;
  }

  test('a client that asks gets progress notifications while the job is pending, then the completed result', async () => {
    const call = caller();
    const jobId = `progress-${_label.replace(/\W/g, '')}`;
    const handle = await jobCompletingAfter(call, jobId, 4 * POLL_MS);
    const notes: Progress[] = [];
    // WHEN
    const result = await call('wait_for_async_inference', { handle, maxWaitSeconds: 15 }, (p) => notes.push(p));
    // THEN at least one "pending" check before the completing one, progress increasing
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ status: 'completed', endpointName: 'doc-summarizer', output: { json: { summary: jobId } } });
    expect(notes.length).toBeGreaterThanOrEqual(2);
    expect(notes[0].message).toMatch(/^async inference pending \(waited \d+ s of at most \d+ s\)$/);
    // The server sends the "completed" notification just before the result, but the client SDK settles the call when
    // the response arrives and may drop (or run after the await) a progress callback still queued: over stdio on Node 22
    // it sometimes arrives late. So every note but the last is "pending", and the last is pending or completed.
    expect(notes.slice(0, -1).every((n) => /^async inference pending/.test(n.message ?? ''))).toBe(true);
    expect(notes[notes.length - 1].message).toMatch(/^async inference (pending|completed)/);
    expect(notes.map((n) => n.progress)).toEqual(notes.map((_, i) => i + 1));
    // AND the final answer is what get_async_inference_result says, plus how long the call waited
    const once = await call('get_async_inference_result', { handle });
    const { waitedSeconds, ...rest } = result.structuredContent;
    expect(rest).toEqual(once.structuredContent);
    expect(Number.isInteger(waitedSeconds)).toBe(true);
  });

  test('a client that does not ask gets the same final result', async () => {
    const call = caller();
    const jobId = `quiet-${_label.replace(/\W/g, '')}`;
    const handle = await jobCompletingAfter(call, jobId, 2 * POLL_MS);
    const result = await call('wait_for_async_inference', { handle, maxWaitSeconds: 15 });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ status: 'completed', output: { json: { summary: jobId } } });
  });

  test('maxWaitSeconds bounds the wait: a job still running comes back pending, with when to check again', async () => {
    const call = caller();
    env.runtime.script('doc-summarizer', accepted({ inferenceId: `slow-${_label.replace(/\W/g, '')}` }));
    const { handle } = (await call('start_async_inference', { endpointName: 'doc-summarizer', payload: { format: 'text', text: 'doc' } })).structuredContent;
    const notes: Progress[] = [];
    const result = await call('wait_for_async_inference', { handle, maxWaitSeconds: 1 }, (p) => notes.push(p));
    expect(result.structuredContent).toMatchObject({ status: 'pending', checkAfterSeconds: expect.any(Number) });
    expect(notes.length).toBeGreaterThanOrEqual(2);
    expect(notes.every((n) => /^async inference pending/.test(n.message ?? ''))).toBe(true);
  });
});

describe('wait_for_training_run over streamable HTTP', () => {
  test('reports the run\'s status and steps while it runs, and stops at the final status', async () => {
    // GIVEN a run that the control plane stand-in reports as Executing, then Succeeded
    env.control.addPipeline('churn-training');
    const started = await http.call('start_training', { pipelineName: 'churn-training', sessionId: 'wait-progress-1' });
    expect(started.isError).toBeFalsy();
    const { handle } = started.structuredContent;
    const arn = env.control.executions()[env.control.executions().length - 1].PipelineExecutionArn;
    env.control.setSteps(arn, [{ StepName: 'Train', StepStatus: 'Executing' }]);
    setTimeout(() => {
      env.control.setSteps(arn, [{ StepName: 'Train', StepStatus: 'Succeeded' }]);
      env.control.updateExecution(arn, { PipelineExecutionStatus: 'Succeeded' });
    }, 4 * POLL_MS);
    const notes: Progress[] = [];
    // WHEN
    const result = await http.client.callTool({ name: 'wait_for_training_run', arguments: { handle, maxWaitSeconds: 15 } }, { onprogress: (p) => notes.push(p) }) as any;
    // THEN
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ pipelineName: 'churn-training', status: 'Succeeded', final: true });
    expect(notes.length).toBeGreaterThanOrEqual(2);
    expect(notes[0].message).toMatch(/^training run Executing: 0 of 1 steps succeeded/);
    // As above: the final notification may be settled after the call, so the last one is Executing or Succeeded.
    expect(notes[notes.length - 1].message).toMatch(/^training run (Executing: 0|Succeeded: 1) of 1 steps succeeded/);
  });
});
