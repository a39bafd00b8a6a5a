/**
 * The current MCP Inspector (@modelcontextprotocol/inspector 2.12, Node >= 22.19) in CLI mode as a real MCP client of the
 * bundled CLI over stdio: list, call with key=value and JSON arguments, `-e KEY=VALUE` reaching the spawned server (it
 * passes none of its own environment otherwise), and exit code 5 when a tool returns isError (its EXIT_CODES.TOOL_ERROR,
 * after printing the result). Headless: `--cli` opens no browser and downloads nothing. Runs in `npx projen test:clients`.
 */
import { execFile } from 'child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { buildSync } from 'esbuild';
import { cliConfigJson, LocalEnv, startLocalEnv } from '../../packages/runtime/test/support/local-env';
import { ok } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';

const ROOT = join(__dirname, '..', '..');
const INSPECTOR = join(ROOT, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');
let env: LocalEnv;
let dir: string;
let bundle: string;
let config: string;

interface Run { code: number; stdout: string; stderr: string }
/** `inspector --cli [-e ...] node <bundle> mcp -c <config> <method args>`, resolved with its exit code (never rejected). */
type Opts = { e?: string[]; config?: string; env?: NodeJS.ProcessEnv };
const inspector = (opts: Opts, ...methodArgs: string[]) => new Promise<Run>((resolve, reject) => {
  const e = (opts.e ?? []).flatMap((kv) => ['-e', kv]);
  const args = [INSPECTOR, '--cli', ...e, process.execPath, bundle, 'mcp', '-c', opts.config ?? config, ...methodArgs];
  execFile(process.execPath, args, { timeout: 30_000, cwd: dir, env: opts.env ?? process.env }, (err, stdout, stderr) => {
    const code = err ? (err as any).code : 0;
    if (typeof code !== 'number') reject(new Error(`inspector did not exit (${err?.message})\n${stderr}`));
    else resolve({ code, stdout, stderr });
  });
});

beforeAll(async () => {
  env = await startLocalEnv();
  dir = mkdtempSync(join(tmpdir(), 'mcp-inspector-'));
  bundle = join(dir, 'cli.js');
  buildSync({ entryPoints: [join(ROOT, 'packages', 'runtime', 'src', 'cli.ts')], bundle: true, platform: 'node', target: 'node20', outfile: bundle, logLevel: 'error' });
  config = join(dir, 'mcp.json');
  writeFileSync(config, cliConfigJson(env.config));
});

afterAll(async () => {
  await env?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => env.runtime.clear());

test('tools/list', async () => {
  const run = await inspector({}, '--method', 'tools/list');
  expect(run.code).toBe(0);
  const { tools } = JSON.parse(run.stdout);
  expect(tools.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(['invoke_endpoint', 'get_online_features', 'start_training']));
  expect(tools.find((t: { name: string }) => t.name === 'invoke_endpoint').inputSchema.required).toEqual(expect.arrayContaining(['endpointName', 'payload']));
});

test('tools/call with key=value and JSON --tool-arg values', async () => {
  const features = await inspector({}, '--method', 'tools/call', '--tool-name', 'get_online_features', '--tool-arg', 'featureGroupName=users', '--tool-arg', 'recordId=u1');
  expect(features.code).toBe(0);
  expect(JSON.parse(features.stdout).structuredContent).toMatchObject({ found: true, features: { user_id: 'u1', score: 0.75 } });
  env.runtime.script('churn-xgb', ok('0.42', { contentType: 'text/csv' }));
  const invoked = await inspector({}, '--method', 'tools/call', '--tool-name', 'invoke_endpoint',
    '--tool-arg', 'endpointName=churn-xgb', '--tool-arg', 'payload={"format":"csv","rows":[[1,2,3]]}');
  expect(invoked.code).toBe(0);
  expect(JSON.parse(invoked.stdout).structuredContent).toMatchObject({ csv: [['0.42']] });
  expect(env.runtime.requestsFor('churn-xgb')[0].bodyText).toBe('1,2,3');
});

test('a tool result with isError: the result on stdout, exit code 5', async () => {
  const denied = await inspector({}, '--method', 'tools/call', '--tool-name', 'describe_endpoint', '--tool-arg', 'endpointName=secret');
  expect(denied.code).toBe(5);
  const result = JSON.parse(denied.stdout);
  expect(result.isError).toBe(true);
  // It negotiates a 2025 revision, where the server puts the error in the text only (docs/mcp.md).
  expect(result.structuredContent).toBeUndefined();
  expect(JSON.parse(result.content[0].text)).toMatchObject({ errorName: 'EndpointNotAllowed', retryable: false });
  expect(denied.stderr).toMatch(/returned isError:true/);
});

test('-e KEY=VALUE reaches the spawned server; its own environment does not', async () => {
  // No credentials and no region in this config: only the environment can give them.
  const bare = join(dir, 'no-credentials.json');
  writeFileSync(bare, JSON.stringify({ ...JSON.parse(cliConfigJson(env.config)), credentials: undefined, region: undefined }));
  const aws = { AWS_ACCESS_KEY_ID: 'AKIDINSPECTOREXAMPLE', AWS_SECRET_ACCESS_KEY: 'inspector-secret', AWS_REGION: 'eu-west-1' };
  // In the Inspector's environment only: the server finds no credentials and says so.
  const dropped = await inspector({ config: bare, env: { ...process.env, ...aws } }, '--method', 'tools/list');
  expect(dropped.code).toBe(0);
  expect(dropped.stderr).toMatch(/no AWS credentials found[\s\S]*may have dropped the environment/);
  // Passed with -e: no hint, and the request the endpoint receives is signed with that key, for that region.
  env.runtime.script('churn-xgb', ok('0.5', { contentType: 'text/csv' }));
  const passed = await inspector({ config: bare, e: Object.entries(aws).map(([k, v]) => `${k}=${v}`) }, '--method', 'tools/call',
    '--tool-name', 'invoke_endpoint', '--tool-arg', 'endpointName=churn-xgb', '--tool-arg', 'payload={"format":"csv","rows":[[1]]}');
  expect(passed.code).toBe(0);
  expect(passed.stderr).not.toMatch(/no AWS credentials found/);
  expect(JSON.parse(passed.stdout).structuredContent).toMatchObject({ csv: [['0.5']] });
  expect(env.runtime.requestsFor('churn-xgb')[0].headers.authorization).toMatch(/Credential=AKIDINSPECTOREXAMPLE\/\d{8}\/eu-west-1\/sagemaker\/aws4_request/);
});
