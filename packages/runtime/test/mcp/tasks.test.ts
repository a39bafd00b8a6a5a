/**
 * The MCP Tasks extension (2026-07-28, `io.modelcontextprotocol/tasks`) on raw JSON-RPC over the streamable HTTP
 * handler, against the SageMaker runtime and control-plane stand-ins, s3rver and dynalite: a task created by one server
 * instance is read and cancelled by another (nothing is kept in process memory), is invisible to another principal,
 * and requests that do not declare the extension are served as before.
 */
import { accepted } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import type { McpHttpHandler } from '@modelcontextprotocol/server';
import { BUCKET, completeAsyncOutput, LocalEnv, recordAsyncJob, startLocalEnv } from '../support/local-env';
import { createHandleCodec, createSageMakerMcpHandler, createTaskService } from 'cdk-sagemaker-mcp-runtime/mcp';

const V = '2026-07-28';
const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const ALICE = { token: '', clientId: 'arn:aws:iam::111111111111:role/alice', scopes: [] };
const BOB = { token: '', clientId: 'arn:aws:iam::111111111111:role/bob', scopes: [] };

let env: LocalEnv;
let a: McpHttpHandler;
let b: McpHttpHandler;

interface Answer {
  status: number;
  body: { result?: any; error?: { code: number; message: string; data?: any } };
}

/** One 2026-07-28 request with the routing headers of streamable HTTP (Mcp-Name: the tool, or the task id). */
async function rpc(handler: McpHttpHandler, method: string, params: Record<string, unknown>, options: {
  declare?: boolean; auth?: typeof ALICE; headers?: Record<string, string>;
} = {}): Promise<Answer> {
  const name = typeof params.taskId === 'string' ? params.taskId : typeof params.name === 'string' ? params.name : undefined;
  const meta = {
    'io.modelcontextprotocol/protocolVersion': V,
    'io.modelcontextprotocol/clientInfo': { name: 'tasks-test', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': options.declare === false ? {} : TASKS,
  };
  const response = await handler.fetch(new Request('http://localhost/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'accept': 'application/json, text/event-stream',
      'mcp-protocol-version': V,
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
      ...options.headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } }),
  }), { authInfo: options.auth ?? ALICE });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

const startAsync = (handler: McpHttpHandler, options: { declare?: boolean; auth?: typeof ALICE } = {}) => rpc(handler, 'tools/call', {
  name: 'start_async_inference',
  arguments: { endpointName: 'doc-summarizer', payload: { format: 'json', data: { text: 'a long document' } } },
}, options);

beforeAll(async () => {
  env = await startLocalEnv();
  // Two instances of the server (two Lambda containers): same configuration and handle key, nothing else shared.
  a = createSageMakerMcpHandler(env.config);
  b = createSageMakerMcpHandler(env.config);
});

afterAll(async () => {
  await env?.stop();
});

beforeEach(() => env.runtime.clear());

describe('negotiation', () => {
  test('server/discover advertises the extension under capabilities.extensions', async () => {
    const { body } = await rpc(a, 'server/discover', {});
    expect(body.result.capabilities.extensions).toEqual({ 'io.modelcontextprotocol/tasks': {} });
    expect(body.result.capabilities.tasks).toBeUndefined();
    expect(body.result.resultType).toBe('complete');
  });

  test('tools/list carries caching hints and lists the tools in the same order every time', async () => {
    const first = (await rpc(a, 'tools/list', {})).body.result;
    const second = (await rpc(b, 'tools/list', {})).body.result;
    expect(first).toMatchObject({ resultType: 'complete', ttlMs: 300_000, cacheScope: 'private' });
    expect(first.tools.map((t: { name: string }) => t.name)).toEqual(second.tools.map((t: { name: string }) => t.name));
    // The task tools keep their output schema in the listing.
    expect(first.tools.find((t: { name: string }) => t.name === 'start_async_inference').outputSchema).toBeDefined();
  });

  test('a call that does not declare the extension gets today\'s handle, not a task', async () => {
    env.runtime.script('doc-summarizer', accepted({ inferenceId: 'plain-1' }));
    const { body } = await startAsync(a, { declare: false });
    expect(body.result).toMatchObject({ resultType: 'complete', structuredContent: { status: 'pending', handle: expect.any(String) } });
    expect(body.result.taskId).toBeUndefined();
  });

  test('tasks/get, tasks/update and tasks/cancel without the extension are -32021 with requiredCapabilities (HTTP 400)', async () => {
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const { status, body } = await rpc(a, method, { taskId: 'whatever', ...(method === 'tasks/update' ? { inputResponses: {} } : {}) }, { declare: false });
      expect({ method, status, code: body.error?.code, data: body.error?.data }).toEqual({
        method, status: 400, code: -32021, data: { requiredCapabilities: TASKS },
      });
    }
  });

  test('tasks/result and tasks/list are gone: -32601 (HTTP 404)', async () => {
    for (const method of ['tasks/result', 'tasks/list']) {
      const { status, body } = await rpc(a, method, method === 'tasks/result' ? { taskId: 'x' } : {});
      expect({ method, status, code: body.error?.code }).toEqual({ method, status: 404, code: -32601 });
    }
  });
});

describe('an async inference as a task', () => {
  test('created flat once the job is queued, working on another instance, then completed with the model\'s output', async () => {
    // GIVEN
    env.runtime.script('doc-summarizer', accepted({ inferenceId: 'task-1' }));
    // WHEN instance A creates the task
    const created = await startAsync(a);
    // THEN a flat CreateTaskResult, sent after SageMaker accepted the job
    const task = created.body.result;
    expect(task).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 7 * 24 * 3600 * 1000, pollIntervalMs: 30_000 });
    expect(task.task).toBeUndefined();
    expect(task.structuredContent).toBeUndefined();
    expect(Number.isInteger(task.ttlMs) && Number.isInteger(task.pollIntervalMs)).toBe(true);
    expect(Date.parse(task.createdAt)).toBe(Date.parse(task.lastUpdatedAt));
    expect(task.taskId.length).toBeGreaterThan(40);
    expect(env.runtime.requestsFor('doc-summarizer')).toHaveLength(1);

    // WHEN instance B reads it at once
    const working = (await rpc(b, 'tasks/get', { taskId: task.taskId })).body.result;
    // THEN
    expect(working).toMatchObject({ resultType: 'complete', taskId: task.taskId, status: 'working', createdAt: task.createdAt });
    expect(working.result).toBeUndefined();

    // WHEN the job completes and B reads it again
    await completeAsyncOutput(env, 'outputs/task-1.out', { summary: 'short' });
    await recordAsyncJob(env, 'task-1', `s3://${BUCKET}/outputs/task-1.out`);
    const done = (await rpc(b, 'tasks/get', { taskId: task.taskId })).body.result;
    // THEN the tool result is inlined
    expect(done).toMatchObject({ resultType: 'complete', status: 'completed' });
    expect(done.error).toBeUndefined();
    expect(done.result).toMatchObject({ resultType: 'complete', structuredContent: { status: 'completed', output: { json: { summary: 'short' } } } });
    expect(done.result.isError).toBeFalsy();

    // AND a terminal task stays terminal; cancelling it is the same empty ack
    expect((await rpc(a, 'tasks/cancel', { taskId: task.taskId })).body.result).toEqual(expect.objectContaining({ resultType: 'complete' }));
    expect((await rpc(a, 'tasks/get', { taskId: task.taskId })).body.result.status).toBe('completed');
  });

  test('cancel is acknowledged but an async job cannot be stopped: the task stays working; update is acknowledged too', async () => {
    env.runtime.script('doc-summarizer', accepted({ inferenceId: 'task-2' }));
    const { taskId } = (await startAsync(a)).body.result;
    const cancel = await rpc(b, 'tasks/cancel', { taskId });
    expect(cancel.body.result).toMatchObject({ resultType: 'complete' });
    expect(Object.keys(cancel.body.result).filter((k) => k !== '_meta')).toEqual(['resultType']);
    expect((await rpc(b, 'tasks/update', { taskId, inputResponses: { x: {} } })).body.result).toMatchObject({ resultType: 'complete' });
    expect((await rpc(a, 'tasks/get', { taskId })).body.result.status).toBe('working');
  });

  test('a job whose result has expired ends the task with the tool error AsyncResultGone, never working again', async () => {
    // GIVEN an instance whose clock the test moves
    let clock = Date.parse('2026-12-01T12:00:00Z');
    const clocked = createSageMakerMcpHandler({ ...env.config, now: () => clock });
    env.runtime.script('doc-summarizer', accepted({ inferenceId: 'task-gone' }));
    const { taskId } = (await startAsync(clocked)).body.result;
    expect((await rpc(clocked, 'tasks/get', { taskId })).body.result.status).toBe('working');
    // WHEN the job's queue time and run time (the tool's defaults: 3,600 s and 900 s) and 15 minutes more have passed, and
    // neither an output nor a failure was ever found
    clock += (3_600 + 900 + 900) * 1000 + 1;
    const done = (await rpc(clocked, 'tasks/get', { taskId })).body.result;
    // THEN the task is over, with the tool's answer
    expect(done).toMatchObject({ status: 'completed', result: { isError: true, structuredContent: { errorName: 'AsyncResultGone', retryable: false } } });
  });

  test('a refused start answers at once with the tool error, no task', async () => {
    const { body } = await rpc(a, 'tools/call', { name: 'start_async_inference', arguments: { endpointName: 'not-exposed', payload: { format: 'json', data: 1 } } });
    expect(body.result).toMatchObject({ resultType: 'complete', isError: true, structuredContent: { errorName: 'EndpointNotAllowed' } });
    expect(body.result.taskId).toBeUndefined();
  });
});

describe('tasks are bound to the caller', () => {
  test('another principal gets -32602, exactly as for an id that never existed', async () => {
    env.runtime.script('doc-summarizer', accepted({ inferenceId: 'task-3' }));
    const { taskId } = (await startAsync(a, { auth: ALICE })).body.result;
    const unknown = await rpc(b, 'tasks/get', { taskId: 'A'.repeat(taskId.length) }, { auth: BOB });
    for (const method of ['tasks/get', 'tasks/cancel', 'tasks/update']) {
      const theirs = await rpc(b, method, { taskId, ...(method === 'tasks/update' ? { inputResponses: {} } : {}) }, { auth: BOB });
      expect({ method, status: theirs.status, error: theirs.body.error }).toEqual({ method, status: unknown.status, error: unknown.body.error });
    }
    expect(unknown.body.error).toMatchObject({ code: -32602, message: 'Failed to retrieve task: Task not found' });
    // The owner still sees it.
    expect((await rpc(b, 'tasks/get', { taskId }, { auth: ALICE })).body.result.status).toBe('working');
  });

  test('Mcp-Name must be the task id: -32020 (HTTP 400) otherwise', async () => {
    const { status, body } = await rpc(a, 'tasks/get', { taskId: 'abc' }, { headers: { 'mcp-name': 'something-else' } });
    expect({ status, code: body.error?.code }).toEqual({ status: 400, code: -32020 });
  });
});

describe('a training run as a task', () => {
  test('cancel stops the pipeline execution; the task ends cancelled once SageMaker reports it Stopped', async () => {
    // GIVEN
    const created = (await rpc(a, 'tools/call', { name: 'start_training', arguments: { pipelineName: 'churn-training' } })).body.result;
    expect(created).toMatchObject({ resultType: 'task', status: 'working', pollIntervalMs: 60_000 });
    const execution = env.control.executions().at(-1)!;
    // WHEN another instance cancels it
    expect((await rpc(b, 'tasks/cancel', { taskId: created.taskId })).body.result).toMatchObject({ resultType: 'complete' });
    // THEN the execution is stopping; the task is still working until it has stopped
    expect(env.control.execution(execution.PipelineExecutionArn)!.PipelineExecutionStatus).toBe('Stopping');
    expect((await rpc(a, 'tasks/get', { taskId: created.taskId })).body.result.status).toBe('working');
    env.control.updateExecution(execution.PipelineExecutionArn, { PipelineExecutionStatus: 'Stopped' });
    expect((await rpc(a, 'tasks/get', { taskId: created.taskId })).body.result).toMatchObject({ status: 'cancelled' });
    // AND a second cancel is the same ack and stops nothing again
    const stops = env.control.requestsFor('StopPipelineExecution').length;
    expect((await rpc(b, 'tasks/cancel', { taskId: created.taskId })).body.result).toMatchObject({ resultType: 'complete' });
    expect(env.control.requestsFor('StopPipelineExecution')).toHaveLength(stops);
    expect((await rpc(a, 'tasks/get', { taskId: created.taskId })).body.result.status).toBe('cancelled');
  });

  test('a failed run completes with the run\'s status as a tool error', async () => {
    const created = (await rpc(a, 'tools/call', { name: 'start_training', arguments: { pipelineName: 'churn-training' } })).body.result;
    const execution = env.control.executions().at(-1)!;
    env.control.updateExecution(execution.PipelineExecutionArn, { PipelineExecutionStatus: 'Failed', FailureReason: 'Step failure' });
    const done = (await rpc(b, 'tasks/get', { taskId: created.taskId })).body.result;
    expect(done).toMatchObject({ status: 'completed', result: { isError: true, structuredContent: { status: 'Failed', final: true } } });
  });
});

test('an expired task is -32602 "Task has expired"', async () => {
  let now = Date.parse('2026-01-01T00:00:00Z');
  const codec = createHandleCodec('k', { ttlSeconds: 3600, now: () => now });
  const service = createTaskService({ codec, pollIntervalMs: 1000, tools: [{ name: 't', start: async () => ({ state: {} }), poll: async () => ({ status: 'working' }) }] });
  const { taskId } = service.create('me', 't', {});
  await expect(service.get('me', taskId)).resolves.toMatchObject({ status: 'working', ttlMs: 3_600_000 });
  now += 3_600_001;
  await expect(service.get('me', taskId)).rejects.toMatchObject({ code: -32602, message: 'Failed to retrieve task: Task has expired' });
});
