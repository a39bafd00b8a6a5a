/**
 * A TEST FIXTURE, never part of the product: the tools the conformance suite's Tasks scenarios call (`greet`,
 * `slow_compute`, `failing_job`, `protocol_error_job`; see the conformance package's server task scenarios), served with the
 * runtime's Tasks machinery (`createTaskService`, `serveTaskMethods`, `taskAwareTools`, `refuseUndeclaredTaskCall`),
 * the same code that serves `start_async_inference` and `start_training` as tasks. What a task needs lives in its
 * sealed id, except the fixture's record of cancelled `slow_compute` runs (this one process only: a fixture needs no
 * fleet), which the suite requires to settle `cancelled`.
 */
import { randomUUID } from 'crypto';
import { createServer, Server } from 'http';
import { AddressInfo } from 'net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';
import {
  createHandleCodec, createTaskService, refuseUndeclaredTaskCall, serveTaskMethods, taskAwareTools, TaskToolDefinition,
} from 'cdk-sagemaker-mcp-runtime/mcp';

const text = (t: string, isError = false) => ({ content: [{ type: 'text' as const, text: t }], ...(isError ? { isError: true } : {}) });

export interface TasksFixture {
  readonly url: string;
  stop(): Promise<void>;
}

export async function startTasksFixture(now: () => number = Date.now): Promise<TasksFixture> {
  const cancelled = new Set<string>();
  const elapsed = (state: Record<string, unknown>, seconds: number) => now() - Number(state.at) >= seconds * 1000;
  const tools: TaskToolDefinition[] = [
    {
      name: 'slow_compute',
      pollIntervalMs: 200,
      start: async (args) => (Number(args.seconds ?? 0) === 0
        ? { result: text(`Computed ${String(args.label ?? '')} at once`) }
        : { state: { at: now(), s: Number(args.seconds), l: String(args.label ?? ''), n: randomUUID() } }),
      poll: async (state) => {
        if (cancelled.has(String(state.n))) return { status: 'cancelled' };
        return elapsed(state, Number(state.s)) ? { status: 'completed', result: text(`Computed ${String(state.l)}`) } : { status: 'working' };
      },
      cancel: async (state) => {
        cancelled.add(String(state.n));
      },
    },
    {
      name: 'failing_job',
      requiresTask: true,
      pollIntervalMs: 200,
      start: async () => ({ state: { at: now() } }),
      poll: async (state) => (elapsed(state, 1) ? { status: 'completed', result: text('The job failed.', true) } : { status: 'working' }),
    },
    {
      name: 'protocol_error_job',
      pollIntervalMs: 200,
      start: async () => ({ state: { at: now() } }),
      poll: async (state) => (elapsed(state, 1)
        ? { status: 'failed', error: { code: -32603, message: 'Internal error: the job broke' } }
        : { status: 'working' }),
    },
  ];
  const service = createTaskService({ codec: createHandleCodec('tasks-fixture', { ttlSeconds: 3600 }), tools, pollIntervalMs: 200 });
  const handler = createMcpHandler((build) => {
    const server = new McpServer({ name: 'tasks-fixture', version: '1.0.0' }, { capabilities: { tools: {} } });
    const modern = build?.era === 'modern';
    if (modern) serveTaskMethods(server, service, undefined);
    const registrar = modern ? taskAwareTools(server as never, service, undefined, build?.requestInfo?.headers.get('mcp-method') === 'tools/call') : server;
    registrar.registerTool('greet', { description: 'Greets.', inputSchema: z.object({ name: z.string() }) },
      async ({ name }: { name: string }) => text(`Hello, ${name}!`));
    registrar.registerTool('slow_compute', { description: 'Sleeps `seconds`, then answers.', inputSchema: z.object({ seconds: z.number(), label: z.string().optional() }) },
      async (args: { seconds: number; label?: string }) => {
        await new Promise((resolve) => setTimeout(resolve, args.seconds * 1000));
        return text(`Computed ${args.label ?? ''}`);
      });
    registrar.registerTool('failing_job', { description: 'Fails as a task.', inputSchema: z.object({}) }, async () => text('The job failed.', true));
    registrar.registerTool('protocol_error_job', { description: 'Breaks as a task.', inputSchema: z.object({}) }, async () => text('The job broke.', true));
    return server;
  });
  const http: Server = createServer(toNodeHandler({
    ...handler,
    fetch: async (request, options) => {
      if (request.method !== 'POST') return handler.fetch(request, options);
      const body = JSON.parse(await request.text());
      return refuseUndeclaredTaskCall(body, ['failing_job']) ?? handler.fetch(request, { ...options, parsedBody: body });
    },
  }));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    stop: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}
