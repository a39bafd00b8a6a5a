/**
 * The SageMaker MCP tool server: every capability of this library as MCP tools, built from a typed configuration.
 * One configuration serves three ways: stateless streamable HTTP (`createSageMakerMcpHandler`, a web-standard
 * Request -> Response handler: Lambda, Node via `@modelcontextprotocol/node`), stdio (`serveSageMakerMcpStdio`, the CLI),
 * or an `McpServer` instance for any other transport (`createSageMakerMcpServer`).
 */
import { CreateMcpHandlerOptions, McpHttpHandler, McpServer, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { serveStdio, ServeStdioOptions, StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import { parseMcpServerSpec } from './config';
import { statelessMcpHttpHandler } from './http';
import { createTaskService, serveTaskMethods, taskAwareTools, TaskService } from './tasks';
import { sageMakerTaskTools } from './tasks/sagemaker-tasks';
import { McpServerSpec, toolNamesForSpec } from '../contract/mcp';
import { registerAsyncTools } from './tools/async-tools';
import { callerIdentity, McpCallerAuthInfo, processCallerIdentity } from './tools/caller';
import { createToolContext, SageMakerMcpServerConfig, ToolContext } from './tools/context';
import { registerFeatureTools } from './tools/feature-tools';
import { registerInvokeTools } from './tools/invoke-tools';
import { registerLifecycleTools } from './tools/lifecycle-tools';
import { ToolRegistrar, wrapTools } from './tools/registrar';
import { registerTrainingTools } from './tools/training-tools';

export type { SageMakerMcpServerConfig, McpServiceEndpoints, McpAwsCredentials, ToolCallOutcome } from './tools/context';
export type { McpServerSpec, McpRealtimeEndpointSpec, McpAsyncEndpointSpec, McpFeatureGroupSpec, McpPipelineSpec } from '../contract/mcp';
export { MCP_ENV, MCP_TOOL_NAMES, toolNamesForSpec } from '../contract/mcp';
export { McpConfigError, mcpServerConfigFromEnv, parseMcpServerSpec, SageMakerMcpServerConfigSchema } from './config';
export { boundedRequestHandler } from '../core/bounded';
export { createHandleCodec, DEFAULT_HANDLE_TTL_SECONDS, HandleExpiredError, InvalidHandleError, MissingHandleKeyError } from './tools/handles';

/**
 * The runtime package's version, reported to MCP clients. Read from packages/runtime/package.json (two folders up from
 * both src/mcp/ and lib/mcp/): the compiled package reads the installed package's file, and esbuild inlines it into the bundled
 * MCP server handler at bundle time (a release bumps package.json before it bundles).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const MCP_SERVER_VERSION: string = require('../../package.json').version;

/**
 * The MCP protocol revisions this server answers, newest first: 2026-07-28 (sessionless, `server/discover`), served by
 * the SDK's modern path, and the 2025 revisions of the SDK's `SUPPORTED_PROTOCOL_VERSIONS` (2024 ones are left out:
 * AgentCore Gateway accepts none of them). test/mcp/protocol-revisions.test.ts pins a client to each. Where the runtime
 * contract defines the Gateway's supported versions, that list and this one must agree.
 */
export const MCP_PROTOCOL_REVISIONS: readonly string[] = ['2026-07-28', ...SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v >= '2025-03-26')];

function register(server: ToolRegistrar, ctx: ToolContext): void {
  registerInvokeTools(server, ctx);
  registerAsyncTools(server, ctx);
  registerFeatureTools(server, ctx);
  registerTrainingTools(server, ctx);
  registerLifecycleTools(server, ctx);
}

/** Which protocol era an instance serves and who it serves (the SDK's factories say so); unknown for a bare `McpServer`. */
export interface McpServerBuildContext {
  readonly era?: 'legacy' | 'modern';
  /**
   * The authenticated caller, as given to the HTTP handler's `fetch(request, { authInfo })` (the bundled Lambda passes
   * the IAM principal of the request context as `clientId`). Scopes `start_training` runs to the caller.
   */
  readonly authInfo?: McpCallerAuthInfo;
  /** The HTTP request being served (the SDK's HTTP entry passes it); a `tools/call` request registers only its tool. */
  readonly requestInfo?: { readonly headers: { get(name: string): string | null } };
}

/**
 * The one tool a request can reach, when the request says which: a 2026-07-28 `tools/call` names its tool in the
 * `Mcp-Name` header, and the SDK's HTTP entry refuses the request before building a server when that header and
 * `params.name` disagree (SEP-2243 standard headers), so registering that tool alone answers exactly as registering
 * all of them would. Anything else (2025-era requests, whose headers nobody checks, other methods, a Base64-encoded
 * or unknown name) registers every tool.
 */
function onlyToolOf(build: McpServerBuildContext, served: readonly string[]): string | undefined {
  if (build.era !== 'modern') return undefined;
  const headers = build.requestInfo?.headers;
  if (headers?.get('mcp-method') !== 'tools/call') return undefined;
  const name = headers.get('mcp-name')?.trim();
  return name && served.includes(name) ? name : undefined;
}

function buildServer(shared: ToolContext, served: readonly string[], tasks: TaskService, build: McpServerBuildContext = {},
  defaultCaller?: string): McpServer {
  const ctx: ToolContext = { ...shared, caller: callerIdentity(build.authInfo) ?? defaultCaller };
  // tools/list: the same tools in the same (registration) order on every request, so a client may cache it a while.
  const server = new McpServer({ name: ctx.config.serverName ?? 'cdk-sagemaker-mcp', version: MCP_SERVER_VERSION },
    { capabilities: { tools: {} }, cacheHints: { 'tools/list': TOOLS_LIST_CACHE } });
  const modern = build.era === 'modern';
  // The Tasks extension is a 2026-07-28 one ("not defined" under the 2025 revisions): only modern instances serve it.
  let registrar = server as unknown as ToolRegistrar;
  if (modern) {
    serveTaskMethods(server, tasks, ctx.caller);
    registrar = taskAwareTools(registrar, tasks, ctx.caller, build.requestInfo?.headers.get('mcp-method') === 'tools/call');
  }
  register(wrapTools(registrar, ctx, { structuredErrors: modern, only: onlyToolOf(build, served) }), ctx);
  return server;
}

/** Caching hints of `tools/list` on 2026-07-28 (the tool set changes only with a redeployment). */
const TOOLS_LIST_CACHE = { ttlMs: 300_000, cacheScope: 'private' } as const;

/**
 * A server factory sharing one set of AWS clients and one handle key across the instances it builds. Pass it to
 * `createMcpHandler` / `serveStdio`, which tell it the protocol era of each instance.
 */
export function sageMakerMcpServerFactory(config: SageMakerMcpServerConfig, defaultCaller?: string): (build?: McpServerBuildContext) => McpServer {
  parseMcpServerSpec(config);
  const ctx = createToolContext(config);
  const served = toolNamesForSpec(config);
  const tasks = createTaskService({ codec: ctx.handles, tools: sageMakerTaskTools(ctx), pollIntervalMs: 30_000 });
  return (build) => buildServer(ctx, served, tasks, build, defaultCaller);
}

/**
 * One `McpServer` with the tools of `config` (connect it to any transport). Say `era: 'modern'` when its clients speak
 * the 2026-07-28 revision: tool errors then carry `structuredContent` too.
 */
export function createSageMakerMcpServer(config: SageMakerMcpServerConfig, build: McpServerBuildContext = {}): McpServer {
  return sageMakerMcpServerFactory(config)(build);
}

/**
 * Stateless streamable HTTP: a web-standard `{ fetch }` handler building a fresh server per request (the clients are
 * shared). Serves the 2026-07-28 protocol and, statelessly, 2025-era clients (2025-11-25, 2025-06-18, 2025-03-26),
 * each answered with one JSON body unless it asks for progress (./mcp-http). Put authentication in front of it
 * (IAM on a Lambda function URL, an authorizer, a reverse proxy).
 */
export function createSageMakerMcpHandler(config: SageMakerMcpServerConfig, options: CreateMcpHandlerOptions = {}): McpHttpHandler {
  return statelessMcpHttpHandler(sageMakerMcpServerFactory(config), options);
}

/** Serves the tools over this process's stdin/stdout (local use, MCP clients that spawn servers). */
export function serveSageMakerMcpStdio(config: SageMakerMcpServerConfig, options: ServeStdioOptions = {}): StdioServerHandle {
  // One process, one caller: the OS user running it.
  return serveStdio(sageMakerMcpServerFactory(config, processCallerIdentity()), options);
}

/** The tools a configuration registers, in order. */
export function sageMakerMcpToolNames(config: McpServerSpec): string[] {
  return toolNamesForSpec(config);
}
