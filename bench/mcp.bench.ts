/**
 * The MCP server's cost: a `tools/call invoke_endpoint` round trip (real MCP client, stateless streamable HTTP on
 * localhost, 2026-07-28 revision) vs a direct `invokeEndpoint` call, both against the same local SageMaker runtime
 * server and client settings, interleaved; and the Lambda bundle's size and cold `require` time vs a bundle of only the
 * runtime's invoke module (same esbuild options, AWS SDK external), each required in a fresh node process.
 */
import { execFileSync } from 'child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'fs';
import { createServer } from 'http';
import { AddressInfo } from 'net';
import { join } from 'path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { buildSync } from 'esbuild';
import { Bench, BenchRow, interleavedMs, median } from './harness';
import { createRuntimeClient, invokeEndpoint } from '../packages/runtime/src/invoke';
import { createSageMakerMcpHandler } from '../packages/runtime/src/mcp-server';
import { ok, start } from '../test/support/sagemaker-runtime-server';

const CALLS = 300;
const COLD_RUNS = 7;
const ROOT = join(__dirname, '..');

function bundle(entry: string, outfile: string): void {
  buildSync({ entryPoints: [join(ROOT, entry)], bundle: true, platform: 'node', target: 'node22', outfile, external: ['@aws-sdk/*'], logLevel: 'error' });
}

/** Median ms to `require` a file in a fresh node process, minus nothing: node startup is in both sides alike. */
function coldRequireMs(a: string, b: string): { a: number; b: number } {
  const time = (file: string) => {
    const out = execFileSync(process.execPath, ['-e', `const t=process.hrtime.bigint();require(${JSON.stringify(file)});process.stdout.write(String(Number(process.hrtime.bigint()-t)/1e6))`],
      { cwd: ROOT, env: { ...process.env, AWS_REGION: 'us-east-1' } });
    return Number(out.toString());
  };
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    ta.push(time(a));
    tb.push(time(b));
  }
  return { a: median(ta), b: median(tb) };
}

export const bench: Bench = {
  title: 'MCP tool server: tools/call round trip, Lambda bundle size and cold require',
  async run(): Promise<BenchRow[]> {
    const sm = await start();
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
      const invokeBundle = join(dir, 'invoke.js');
      bundle('packages/runtime/src/invoke.ts', invokeBundle);
      const cold = coldRequireMs(serverBundle, invokeBundle);
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
          baselineLabel: 'bundle of packages/runtime/src/invoke.ts',
          note: 'the MCP SDK and zod dominate',
        },
        {
          name: `cold require of the bundle (median of ${COLD_RUNS} fresh processes)`,
          ours: cold.a,
          baseline: cold.b,
          unit: 'ms',
          baselineLabel: 'cold require of the invoke bundle',
          note: 'both load their (external) AWS SDK client modules at require time',
        },
      ];
    } finally {
      await mcp.close();
      await handler.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      direct.destroy();
      await sm.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
