/**
 * An async inference as an agent runs it over 2026-07-28 streamable HTTP, as an MCP task (`tools/call` declaring the
 * Tasks extension, then `tasks/get` until the result is inlined) vs the handle-based flow (`start_async_inference`,
 * then `get_async_inference_result` until it is no longer pending), against the same local SageMaker runtime, s3rver
 * and dynalite. The job completes after the same number of checks in both flows (POLLS: the last one sees it done), so
 * the round trips are equal by construction; what differs is the bytes on the wire (request and response bodies, as
 * JSON-RPC over HTTP carries them): a task id seals the caller, the tool and the creation time besides what a handle
 * seals, and every `tasks/get` answer echoes it with the task's fields, while the handle flow repeats its structured
 * content as text in every answer.
 */
import type { McpHttpHandler } from '@modelcontextprotocol/server';
import { Bench, BenchRow } from './harness';
import { createSageMakerMcpHandler } from '../packages/runtime/src/mcp/server';
import { BUCKET, completeAsyncOutput, LocalEnv, recordAsyncJob, startLocalEnv } from '../packages/runtime/test/support/local-env';
import { accepted } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';

/** Checks of the job's state, the last of which finds it completed. */
const POLLS = 3;
const OUTPUT = { summary: 'A short summary of a long document.', topics: ['pricing', 'churn', 'support'] };

interface Wire {
  roundTrips: number;
  bytes: number;
}

function caller(handler: McpHttpHandler, wire: Wire, declare: boolean) {
  return async (method: string, params: Record<string, unknown>) => {
    const name = (params.taskId ?? params.name) as string | undefined;
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'bench-agent', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': declare ? { extensions: { 'io.modelcontextprotocol/tasks': {} } } : {},
    };
    const body = JSON.stringify({ jsonrpc: '2.0', id: wire.roundTrips + 1, method, params: { ...params, _meta: meta } });
    const response = await handler.fetch(new Request('http://localhost/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'accept': 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
        ...(name ? { 'mcp-name': name } : {}),
      },
      body,
    }), { authInfo: { token: '', clientId: 'arn:aws:iam::111111111111:role/agent', scopes: [] } });
    const text = await response.text();
    wire.roundTrips += 1;
    wire.bytes += Buffer.byteLength(body) + Buffer.byteLength(text);
    const parsed = JSON.parse(text);
    if (parsed.error || parsed.result?.isError) throw new Error(`${method}: ${text.slice(0, 300)}`);
    return parsed.result;
  };
}

const start = { name: 'start_async_inference', arguments: { endpointName: 'doc-summarizer', payload: { format: 'json', data: { document: 'x'.repeat(200) } } } };

async function complete(env: LocalEnv, id: string): Promise<void> {
  await completeAsyncOutput(env, `outputs/${id}.out`, OUTPUT);
  await recordAsyncJob(env, id, `s3://${BUCKET}/outputs/${id}.out`);
}

async function taskFlow(env: LocalEnv, handler: McpHttpHandler): Promise<Wire> {
  const wire = { roundTrips: 0, bytes: 0 };
  const rpc = caller(handler, wire, true);
  env.runtime.script('doc-summarizer', accepted({ inferenceId: 'bench-task' }));
  const { taskId } = await rpc('tools/call', start);
  let state: { status: string; result?: unknown } = { status: 'working' };
  for (let poll = 1; state.status === 'working'; poll++) {
    if (poll === POLLS) await complete(env, 'bench-task');
    state = await rpc('tasks/get', { taskId });
  }
  if (state.status !== 'completed' || !JSON.stringify(state.result).includes('pricing')) throw new Error(`task flow ended ${JSON.stringify(state)}`);
  return wire;
}

async function handleFlow(env: LocalEnv, handler: McpHttpHandler): Promise<Wire> {
  const wire = { roundTrips: 0, bytes: 0 };
  const rpc = caller(handler, wire, false);
  env.runtime.script('doc-summarizer', accepted({ inferenceId: 'bench-handle' }));
  const { handle } = (await rpc('tools/call', start)).structuredContent;
  let state: { status: string } = { status: 'pending' };
  for (let poll = 1; state.status === 'pending'; poll++) {
    if (poll === POLLS) await complete(env, 'bench-handle');
    state = (await rpc('tools/call', { name: 'get_async_inference_result', arguments: { handle } })).structuredContent;
  }
  if (state.status !== 'completed' || !JSON.stringify(state).includes('pricing')) throw new Error(`handle flow ended ${JSON.stringify(state)}`);
  return wire;
}

export const bench: Bench = {
  title: 'MCP Tasks: an async inference as a task vs the handle-based tools',
  async run(): Promise<BenchRow[]> {
    const env = await startLocalEnv();
    try {
      const handler = createSageMakerMcpHandler(env.config);
      const task = await taskFlow(env, handler);
      const handles = await handleFlow(env, handler);
      const note = `start + ${POLLS} checks, the last one completed; 2026-07-28 JSON-RPC bodies, request + response`;
      return [
        { name: 'async inference, round trips', ours: task.roundTrips, baseline: handles.roundTrips, unit: 'requests', baselineLabel: 'handle-based tools', note },
        { name: 'async inference, bytes on the wire', ours: task.bytes, baseline: handles.bytes, unit: 'bytes', baselineLabel: 'handle-based tools', note },
      ];
    } finally {
      await env.stop();
    }
  },
};
