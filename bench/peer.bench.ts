/**
 * The same `tools/call invoke_endpoint` (a 2025-06-18 JSON-RPC request in a function URL event) through AWS's own way
 * of running MCP servers on Lambda, `@aws/run-mcp-servers-with-aws-lambda` (0.5.21: `LambdaFunctionURLEventHandler`
 * over `StdioServerAdapterRequestHandler`, which spawns the stdio server and runs `initialize` on every invocation)
 * wrapping our stdio CLI (packages/runtime/src/cli.ts, bundled), and through our bundled handler
 * (assets/mcp/server.lambda), both against the same local SageMaker runtime: per-call median and p95 from one
 * interleaved run, and cold start (a fresh node process: load + first call) interleaved likewise. Loopback only,
 * bounded loops.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'fs';
import { join } from 'path';
import { pathToFileURL } from 'url';
import { buildSync } from 'esbuild';
import { Bench, BenchRow, median } from './harness';
import { MCP_ENV } from '../packages/runtime/src/contract/mcp';
import functionUrlEvent from '../test/mcp/fixtures/function-url-event.json';
import { ColdStart, coldStart } from '../test/support/cold-start';
import { ok, start } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { startSecretsManagerServer } from '@cdk-sagemaker-mcp/test-stand-ins/secrets-manager-server';

const CALLS = 15;
const COLD_RUNS = 5;
const ROOT = join(__dirname, '..');
const RUNNER = join(ROOT, 'node_modules', '@aws', 'run-mcp-servers-with-aws-lambda', 'dist', 'index.js');

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)];
}

/** The runner is an ES module: loaded with a real dynamic import (ts-node would turn `import()` into `require`). */
// eslint-disable-next-line @typescript-eslint/no-implied-eval
const importEsm = new Function('specifier', 'return import(specifier)') as (s: string) => Promise<any>;

function answered(result: unknown, what: string): void {
  const text = JSON.stringify(result);
  if (!text.includes('greeting') || text.includes('isError\\":true') || text.includes('"isError":true')) throw new Error(`${what}: unexpected answer ${text.slice(0, 400)}`);
}

export const bench: Bench = {
  title: 'MCP on Lambda vs AWS\'s runner (@aws/run-mcp-servers-with-aws-lambda) wrapping our stdio CLI',
  async run(): Promise<BenchRow[]> {
    const sm = await start();
    const secrets = await startSecretsManagerServer();
    sm.setDefault('clf', ok([{ label: 'greeting', score: 0.97 }]));
    const c = sm.clientConfig();
    mkdirSync(join(ROOT, '.bench-out'), { recursive: true });
    const dir = mkdtempSync(join(ROOT, '.bench-out', 'peer-'));
    const saved = { ...process.env };
    try {
      const cli = join(dir, 'cli.js');
      buildSync({ entryPoints: [join(ROOT, 'packages', 'runtime', 'src', 'cli.ts')], bundle: true, platform: 'node', target: 'node20', outfile: cli, logLevel: 'error' });
      const configFile = join(dir, 'mcp.json');
      writeFileSync(configFile, JSON.stringify({ region: c.region, credentials: { accessKeyId: c.credentials.accessKeyId, secretAccessKey: c.credentials.secretAccessKey }, endpoints: { sagemakerRuntime: c.endpoint }, realtimeEndpoints: [{ name: 'clf' }] }));
      const env: Record<string, string> = {
        AWS_REGION: c.region,
        AWS_ACCESS_KEY_ID: c.credentials.accessKeyId,
        AWS_SECRET_ACCESS_KEY: c.credentials.secretAccessKey,
        AWS_ENDPOINT_URL_SAGEMAKER_RUNTIME: c.endpoint,
        AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.endpoint,
        POWERTOOLS_LOG_LEVEL: 'SILENT',
        [MCP_ENV.SPEC]: JSON.stringify({ realtimeEndpoints: [{ name: 'clf' }] }),
        [MCP_ENV.HANDLE_KEY_SECRET_ARN]: secrets.putSecret('mcp-handle-key', 'peer-bench-key'),
      };
      const serverParams = { command: process.execPath, args: [cli, 'mcp', '--config', configFile], env: { PATH: process.env.PATH ?? '', ...env } };
      const event = {
        ...functionUrlEvent,
        isBase64Encoded: false,
        headers: { ...functionUrlEvent.headers, 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'invoke_endpoint', arguments: { endpointName: 'clf', payload: { format: 'json', data: { inputs: 'hello there' } } } } }),
      };
      const context = { functionName: 'bench', awsRequestId: 'bench-request', getRemainingTimeInMillis: () => 60_000 };

      // (a) AWS's runner, in this process; (b) our bundled handler, in this process.
      const runner = await importEsm(pathToFileURL(RUNNER).href);
      const theirs = new runner.LambdaFunctionURLEventHandler(new runner.StdioServerAdapterRequestHandler(serverParams));
      Object.assign(process.env, env);
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const ours = require(join(ROOT, 'assets', 'mcp', 'server.lambda', 'index.js')).handler as (e: unknown) => Promise<unknown>;
      const viaRunner = async () => answered(await theirs.handle(event, context), 'runner');
      const viaOurs = async () => answered(await ours(event), 'bundled handler');
      await viaRunner();
      await viaOurs();
      const tr: number[] = [];
      const to: number[] = [];
      for (let i = 0; i < CALLS; i++) {
        for (const [fn, into] of [[viaRunner, tr], [viaOurs, to]] as const) {
          const t0 = process.hrtime.bigint();
          await fn();
          into.push(Number(process.hrtime.bigint() - t0) / 1e6);
        }
      }

      // Cold starts: a fresh process each, load + first call, interleaved.
      const wrapper = join(dir, 'runner-handler.js');
      writeFileSync(wrapper, [
        `const params = ${JSON.stringify(serverParams)};`,
        'let h;',
        'exports.handler = async (event) => {',
        `  h ??= import(${JSON.stringify(pathToFileURL(RUNNER).href)}).then((m) => new m.LambdaFunctionURLEventHandler(new m.StdioServerAdapterRequestHandler(params)));`,
        '  return (await h).handle(event, { functionName: "bench", awsRequestId: "cold", getRemainingTimeInMillis: () => 60000 });',
        '};',
      ].join('\n'));
      const coldRunner: ColdStart[] = [];
      const coldOurs: ColdStart[] = [];
      for (let i = 0; i < COLD_RUNS; i++) {
        coldRunner.push(await coldStart({ bundle: wrapper, events: [event], env, cwd: ROOT }));
        coldOurs.push(await coldStart({ bundle: join(ROOT, 'assets', 'mcp', 'server.lambda', 'index.js'), events: [event], env, cwd: ROOT }));
      }
      for (const run of [...coldRunner, ...coldOurs]) answered(run.invocations[0].result, 'cold start');
      const firstCall = (runs: ColdStart[]) => median(runs.map((r) => r.requireMs + r.invocations[0].ms));
      const note = 'ratio = ours / runner: below 1 means ours is faster';
      return [
        { name: `warm tools/call invoke_endpoint, median of ${CALLS}`, ours: median(to), baseline: median(tr), unit: 'ms', baselineLabel: 'AWS runner + our stdio CLI', note },
        { name: `warm tools/call invoke_endpoint, p95 of ${CALLS}`, ours: p95(to), baseline: p95(tr), unit: 'ms', baselineLabel: 'AWS runner + our stdio CLI', note },
        { name: `cold start: load + first tools/call (median of ${COLD_RUNS} fresh processes)`, ours: firstCall(coldOurs), baseline: firstCall(coldRunner), unit: 'ms', baselineLabel: 'AWS runner + our stdio CLI', note },
      ];
    } finally {
      process.env = saved;
      await sm.stop();
      await secrets.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
