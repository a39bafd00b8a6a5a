/**
 * The MCP server's cost: a `tools/call invoke_endpoint` round trip (real MCP client, stateless streamable HTTP on
 * localhost, 2026-07-28 revision) vs a direct `invokeEndpoint` call, both against the same local SageMaker runtime
 * server and client settings, interleaved; and the Lambda bundle's size and cold start vs an invoke-only handler
 * (bench/invoke-only-handler.ts, same esbuild options, AWS SDK external): each cold start is a fresh node process that
 * requires the bundle and invokes its handler once (test/support/cold-start.ts), against a local SageMaker runtime (and,
 * for the server, a local Secrets Manager holding the handle key). The target: the server's cold require
 * <= 100 ms on the project's machine.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'fs';
import { createServer } from 'http';
import { AddressInfo } from 'net';
import { join } from 'path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { buildSync } from 'esbuild';
import { Bench, BenchRow, interleavedMs, median } from './harness';
import { MCP_ENV } from '../packages/runtime/src/contract/mcp';
import { createRuntimeClient, invokeEndpoint } from '../packages/runtime/src/invoke/invoke';
import { createSageMakerMcpHandler } from '../packages/runtime/src/mcp/server';
import { LAMBDA_EXTERNALS, MCP_SHIMS_ALIAS } from '../projenrc/bundling';
import functionUrlEvent from '../test/mcp/fixtures/function-url-event.json';
import { ColdStart, coldStart } from '../test/support/cold-start';
import { ok, start } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { startSecretsManagerServer } from '@cdk-sagemaker-mcp/test-stand-ins/secrets-manager-server';

const CALLS = 300;
const COLD_RUNS = 9;
const ROOT = join(__dirname, '..');

/** Every AWS SDK client module the server's tools can use: what a bundle that loads every client at start requires. */
const ALL_CLIENTS = [
  '@aws-sdk/client-secrets-manager',
  '@aws-sdk/client-sagemaker-runtime',
  '@aws-sdk/client-sagemaker',
  '@aws-sdk/client-sagemaker-featurestore-runtime',
  '@aws-sdk/client-dynamodb',
  '@aws-sdk/client-s3',
];

/** The MCP server Lambda's esbuild options (projenrc/bundling.ts: minified, names kept, its externals and shim alias). */
function bundle(entry: string, outfile: string): void {
  buildSync({
    entryPoints: [join(ROOT, entry)],
    bundle: true,
    platform: 'node',
    target: 'node22',
    outfile,
    external: LAMBDA_EXTERNALS,
    minify: true,
    keepNames: true,
    alias: MCP_SHIMS_ALIAS,
    tsconfig: join(ROOT, 'tsconfig.dev.json'),
    absWorkingDir: ROOT,
    logLevel: 'error',
  });
}

/** Fails the run when a cold start did not answer as it should: a failed call would time an error path. */
function expectAnswered(cold: ColdStart, expected: string, what: string): ColdStart {
  const text = JSON.stringify(cold.invocations.map((i) => i.result));
  if (!text.includes(expected) || text.includes('isError')) throw new Error(`${what}: unexpected answer ${text.slice(0, 500)}`);
  return cold;
}

export const bench: Bench = {
  title: 'MCP tool server: tools/call round trip, Lambda bundle size and cold require',
  async run(): Promise<BenchRow[]> {
    const sm = await start();
    const secrets = await startSecretsManagerServer();
    sm.setDefault('clf', ok([{ label: 'greeting', score: 0.97 }]));
    const clientConfig = sm.clientConfig();
    const handler = createSageMakerMcpHandler({
      region: clientConfig.region,
      credentials: clientConfig.credentials,
      endpoints: { sagemakerRuntime: clientConfig.endpoint },
      realtimeEndpoints: [{ name: 'clf' }],
    });
    const http = createServer(toNodeHandler(handler));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
    const mcp = new Client({ name: 'bench', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`)));
    const direct = createRuntimeClient(clientConfig);
    // Inside the project (gitignored) so the external @aws-sdk/* packages resolve from node_modules.
    mkdirSync(join(ROOT, '.bench-out'), { recursive: true });
    const dir = mkdtempSync(join(ROOT, '.bench-out', 'mcp-'));
    try {
      const viaMcp = () => mcp.callTool({ name: 'invoke_endpoint', arguments: { endpointName: 'clf', payload: { format: 'json', data: { inputs: 'hello there' } } } });
      const viaRuntime = () => invokeEndpoint({ endpointName: 'clf', body: '{"inputs":"hello there"}', contentType: 'application/json' }, { client: direct }).then((r) => r.json());
      const roundTrip = await interleavedMs(viaMcp, viaRuntime, CALLS);

      const lambdaBundle = join(ROOT, 'assets', 'mcp', 'server.lambda', 'index.js');
      const serverBundle = existsSync(lambdaBundle) ? lambdaBundle : join(dir, 'server.js');
      if (serverBundle !== lambdaBundle) bundle('src/mcp/server.lambda.ts', serverBundle);
      const invokeBundle = join(dir, 'invoke-only.js');
      bundle('bench/invoke-only-handler.ts', invokeBundle);

      const env = {
        AWS_REGION: clientConfig.region,
        AWS_ACCESS_KEY_ID: clientConfig.credentials.accessKeyId,
        AWS_SECRET_ACCESS_KEY: clientConfig.credentials.secretAccessKey,
        AWS_ENDPOINT_URL_SAGEMAKER_RUNTIME: clientConfig.endpoint,
        AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.endpoint,
        POWERTOOLS_LOG_LEVEL: 'SILENT',
        [MCP_ENV.SPEC]: JSON.stringify({ realtimeEndpoints: [{ name: 'clf' }] }),
        [MCP_ENV.HANDLE_KEY_SECRET_ARN]: secrets.putSecret('mcp-handle-key', 'bench-handle-key'),
      };
      const toolsCall = {
        ...functionUrlEvent,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'invoke_endpoint', arguments: { endpointName: 'clf', payload: { format: 'json', data: { inputs: 'hello there' } } } } }),
      };
      const server: ColdStart[] = [];
      const invokeOnly: ColdStart[] = [];
      const eager: ColdStart[] = [];
      // Interleaved, one of each per round, so a slow moment of the machine lands on all three.
      for (let i = 0; i < COLD_RUNS; i++) {
        server.push(expectAnswered(await coldStart({ bundle: serverBundle, events: [toolsCall], env, cwd: ROOT }), 'greeting', 'server cold start'));
        invokeOnly.push(expectAnswered(await coldStart({ bundle: invokeBundle, events: [{ endpointName: 'clf', data: { inputs: 'hello there' } }], env, cwd: ROOT }), 'greeting', 'invoke-only cold start'));
        eager.push(await coldStart({ bundle: serverBundle, alsoRequire: ALL_CLIENTS, events: [], env, cwd: ROOT }));
      }
      const requireMs = (runs: ColdStart[]) => median(runs.map((r) => r.requireMs));
      const requireCpuMs = (runs: ColdStart[]) => median(runs.map((r) => r.requireCpuMs));
      const firstCallMs = (runs: ColdStart[]) => median(runs.map((r) => r.requireMs + r.invocations[0].ms));
      return [
        {
          name: `tools/call invoke_endpoint round trip (median of ${CALLS})`,
          ours: roundTrip.a,
          baseline: roundTrip.b,
          unit: 'ms',
          baselineLabel: 'direct runtime invokeEndpoint',
          note: 'localhost HTTP + a fresh McpServer per request + schema validation',
        },
        {
          name: 'Lambda bundle size (AWS SDK external)',
          ours: statSync(serverBundle).size,
          baseline: statSync(invokeBundle).size,
          unit: 'bytes',
          baselineLabel: 'invoke-only handler bundle',
          note: 'the MCP SDK and zod dominate',
        },
        {
          name: `cold require of the server bundle (median of ${COLD_RUNS} fresh processes)`,
          ours: requireMs(server),
          baseline: requireMs(invokeOnly),
          unit: 'ms',
          baselineLabel: 'cold require of the invoke-only handler',
          note: 'neither loads an AWS SDK module at require; the server: MCP SDK protocol schemas (zod), tool schemas, logger. Target <= 100 ms',
        },
        {
          name: `cold require of the server bundle, CPU time (median of ${COLD_RUNS})`,
          ours: requireCpuMs(server),
          baseline: requireCpuMs(invokeOnly),
          unit: 'ms',
          baselineLabel: 'CPU time of the invoke-only handler\'s require',
          note: 'user + system CPU of the process during the require: the work, less stretched by a loaded machine than the wall time',
        },
        {
          name: `cold require, then every AWS SDK client the tools can use (median of ${COLD_RUNS})`,
          ours: requireMs(server),
          baseline: requireMs(eager),
          unit: 'ms',
          baselineLabel: `the same bundle + require of ${ALL_CLIENTS.length} client modules`,
          note: 'what loading the clients on first use saves at require (against a bundle that loads them all at start)',
        },
        {
          name: `cold require + first tools/call invoke_endpoint (median of ${COLD_RUNS})`,
          ours: firstCallMs(server),
          baseline: firstCallMs(invokeOnly),
          unit: 'ms',
          baselineLabel: 'invoke-only handler: cold require + first invokeEndpoint',
          note: 'the server also reads its handle key from Secrets Manager (client loaded then) and builds an McpServer',
        },
      ];
    } finally {
      await mcp.close();
      await handler.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      direct.destroy();
      await sm.stop();
      await secrets.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
