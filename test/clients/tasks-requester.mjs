// Run by test/clients/tasks-requester.test.ts on Node 22: @modelcontextprotocol/ext-tasks, the Tasks extension's own
// requester, on an MCP SDK Client, against this server over streamable HTTP (argv[2] = the URL). The SDK Client has no
// public raw request path for 2026-07-28 task traffic, so the package takes one (`rawDispatch`) with the request framing
// (`v2RequestFraming`); the dispatcher adds the routing headers streamable HTTP requires (Mcp-Method, and Mcp-Name =
// the tool for tools/call, the task id for tasks/*), which the package leaves to its host. `x-test-principal` names the
// caller to the test's front door (the stand-in for the IAM request context a function URL gives). Prints one JSON line.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, taskViewFromExecutionEvent } from '@modelcontextprotocol/ext-tasks/client';

const url = process.argv[2];
const PROTOCOL = '2026-07-28';
const clientInfo = { name: 'tasks-requester', version: '1.0.0' };
let requestId = 0;

async function session(principal) {
  const headers = { 'x-test-principal': principal };
  const client = new Client(clientInfo, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  const rawDispatch = async (request) => {
    const name = request.params?.taskId ?? request.params?.name;
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/json',
        'accept': 'application/json, text/event-stream',
        'mcp-protocol-version': PROTOCOL,
        'mcp-method': request.method,
        ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
      },
      // The package hands over {method, params}; the JSON-RPC envelope is the dispatcher's.
      body: JSON.stringify({ jsonrpc: '2.0', id: ++requestId, ...request }),
    });
    const body = await response.json();
    return body.error ? { kind: 'error', error: body.error } : { kind: 'result', result: body.result };
  };
  return createTaskSessionFromClient(client, {
    endpointId: 'sagemaker-tasks-test',
    rawDispatch,
    v2RequestFraming: { protocolVersion: PROTOCOL, clientInfo, clientCapabilities: {} },
  });
}

const alice = await session('alice');
const bob = await session('bob');
const out = {};

// An async inference: created as a task, polled to completion (the test completes the job once it has seen it working).
const inference = await alice.callTool('start_async_inference',
  { endpointName: 'doc-summarizer', payload: { format: 'json', data: { text: 'a long document' } } },
  { task: { preference: 'require' } });
out.inference = { kind: inference.kind, taskId: inference.handle?.taskId };
const statuses = [];
const settled = await inference.settle({ onEvent: (event) => { const view = taskViewFromExecutionEvent(event); if (view) statuses.push(view.status); } });
out.inference.statuses = statuses;
out.inference.outcome = settled.outcome.status;
out.inference.result = settled.outcome.result;
out.inference.lastStatus = settled.lastTask?.status;

// Another principal: the task does not exist for it.
try {
  out.bob = { snapshot: await bob.task(out.inference.taskId).snapshot() };
} catch (err) {
  out.bob = { error: err?.name, code: err?.code ?? err?.error?.code, message: err?.message };
}

// A training run: created, then cancelled (the pipeline execution is stopped).
const training = await alice.callTool('start_training', { pipelineName: 'churn-training' }, { task: { preference: 'require' } });
out.training = { kind: training.kind, taskId: training.handle?.taskId };
await training.cancel();
const stopped = await training.settle();
out.training.outcome = stopped.outcome.status;
// The package settles `cancelled` as soon as its cancel is acknowledged; the server's own view is read afterwards.
out.training.serverStatus = (await alice.task(out.training.taskId).snapshot()).status;

process.stdout.write(`${JSON.stringify(out)}\n`);
await alice.close();
await bob.close();
