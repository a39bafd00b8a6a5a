/**
 * Serving the Tasks extension on a 2026-07-28 `McpServer`, on the SDK's public API: the extension advertised through
 * `registerCapabilities` (so `server/discover` lists it), `tasks/get|update|cancel` as custom request handlers (the SDK
 * checks `Mcp-Method` and `Mcp-Name` = `params.taskId` against the body before they run, and answers -32601 for
 * `tasks/result`, `tasks/list` and every other method nobody registered), and a tool wrapper that answers a declaring
 * `tools/call` of a task tool with `CreateTaskResult`.
 */
import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { declaresTasks, missingTasksCapability, TASKS_EXTENSION } from './protocol';
import type { TaskService } from './service';
import type { ToolRegistrar } from '../tools/invoke-tools';

export { declaresTasks, TASKS_EXTENSION } from './protocol';

const taskParams = z.looseObject({ taskId: z.string() });

interface HandlerContext {
  readonly mcpReq?: { readonly envelope?: unknown };
}

/** The per-request envelope of a 2026-07-28 request (undefined on the 2025 path, where the extension is not defined). */
const envelopeOf = (ctx: unknown) => (ctx as HandlerContext | undefined)?.mcpReq?.envelope;

/** Advertises the extension and serves `tasks/get`, `tasks/update` and `tasks/cancel` for `caller`'s tasks. */
export function serveTaskMethods(server: McpServer, service: TaskService, caller: string | undefined): void {
  server.server.registerCapabilities({ extensions: { [TASKS_EXTENSION]: {} } } as never);
  const declared = (ctx: unknown) => {
    if (!declaresTasks(envelopeOf(ctx))) throw missingTasksCapability();
  };
  server.server.setRequestHandler('tasks/get', { params: taskParams }, async (params, ctx) => {
    declared(ctx);
    return service.get(caller, params.taskId) as never;
  });
  server.server.setRequestHandler('tasks/update', { params: taskParams }, async (params, ctx) => {
    declared(ctx);
    return service.update(caller, params.taskId) as never;
  });
  server.server.setRequestHandler('tasks/cancel', { params: taskParams }, async (params, ctx) => {
    declared(ctx);
    return service.cancel(caller, params.taskId) as never;
  });
}

/**
 * Registers task tools so that a 2026-07-28 `tools/call` declaring the extension gets a `CreateTaskResult` once the
 * work is accepted (and sealed into the task id); any other call gets the tool's ordinary answer. `callOnly`: this
 * instance serves one `tools/call` (not `tools/list`), where task tools are registered without their output schema,
 * because the SDK 2.4 checks every non-error result of a tool against it and has no seam for `resultType: "task"`; the
 * tool's own answers are built from that schema's type, and `tools/list` still lists it.
 */
export function taskAwareTools(server: ToolRegistrar, service: TaskService, caller: string | undefined, callOnly: boolean): ToolRegistrar {
  return {
    registerTool: (name, config, cb) => {
      const tool = service.tool(name);
      if (!tool) return server.registerTool(name, config, cb);
      const { outputSchema, ...rest } = config;
      return server.registerTool(name, callOnly ? rest : { ...rest, outputSchema }, async (args, extra) => {
        const runSync = () => cb(args, extra);
        if (!declaresTasks(envelopeOf(extra))) return runSync();
        const started = await tool.start(args ?? {}, runSync);
        return ('result' in started ? started.result : service.create(caller, name, started.state)) as never;
      });
    },
  };
}

/**
 * The -32021 answer (HTTP 400, as the SDK's HTTP entry answers it) for a 2026-07-28 `tools/call` of a tool in
 * `requiresTask` that does not declare the extension, else undefined. It must run before the SDK: `McpServer` turns
 * whatever a tool throws into a tool result with `isError`.
 */
export function refuseUndeclaredTaskCall(body: unknown, requiresTask: readonly string[]): Response | undefined {
  const message = body as { id?: unknown; method?: unknown; params?: { name?: unknown; _meta?: unknown } } | null;
  if (!message || message.method !== 'tools/call' || !requiresTask.includes(String(message.params?.name))) return undefined;
  const meta = message.params?._meta as Record<string, unknown> | undefined;
  // Only 2026-07-28 requests: the extension is not defined under the 2025 revisions, whose calls are answered as before.
  if (typeof meta?.['io.modelcontextprotocol/protocolVersion'] !== 'string' || declaresTasks(meta)) return undefined;
  const error = missingTasksCapability();
  return Response.json({ jsonrpc: '2.0', id: message.id ?? null, error: { code: error.code, message: error.message, data: error.data } }, { status: 400 });
}
