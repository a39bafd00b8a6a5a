/**
 * The CLI laid out as the runtime package ships it: `bin/cdk-sagemaker-mcp.js` loading `lib/cli.js`, here one esbuild
 * bundle of packages/runtime/src/cli.ts (platform node, target node20, nothing external) in a temp folder laid out like
 * the package — but without its package.json, so the version must come from the bundle (esbuild inlines the file the
 * code requires). The installed tarball itself is run by `npx projen test:consumer`.
 * Every test runs the CLI as a child process.
 */
import { ChildProcess, execFile, spawn } from 'child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { Agent, request } from 'http';
import { tmpdir } from 'os';
import { join } from 'path';
import { promisify } from 'util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { build, Plugin } from 'esbuild';

const run = promisify(execFile);
const RUNTIME = join(__dirname, '..', '..');
const PACKAGE_VERSION: string = JSON.parse(readFileSync(join(RUNTIME, 'package.json'), 'utf8')).version;

let dir: string;
const cli = (packageDir: string) => join(packageDir, 'bin', 'cdk-sagemaker-mcp.js');

/** Lays out bin/ + lib/cli.js in `packageDir`; `plugins` may replace what package.json says. */
async function packCli(packageDir: string, plugins: Plugin[] = []) {
  mkdirSync(join(packageDir, 'bin'), { recursive: true });
  copyFileSync(join(RUNTIME, 'bin', 'cdk-sagemaker-mcp.js'), cli(packageDir));
  await build({
    entryPoints: [join(RUNTIME, 'src', 'cli.ts')],
    outfile: join(packageDir, 'lib', 'cli.js'),
    ...{ bundle: true, platform: 'node', target: 'node20', logLevel: 'error', plugins },
  });
}

function writeConfig(name: string, config: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(config));
  return file;
}

// No AWS call is made by these tests (initialize, tools/list, HTTP plumbing): nothing listens at the endpoint.
const CONFIG = { region: 'us-east-1', realtimeEndpoints: [{ name: 'churn-xgb' }], endpoints: { sagemakerRuntime: 'http://127.0.0.1:9' } };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-cli-life-'));
  await packCli(join(dir, 'pkg'));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a config that exposes nothing is an error', () => {
  test('an empty {} config exits 2 and lists the keys that would expose tools', async () => {
    const empty = writeConfig('empty.json', {});
    const failure = await run(process.execPath, [cli(join(dir, 'pkg')), 'tools', '--config', empty]).catch((e) => e);
    expect(failure.code).toBe(2);
    expect(failure.stderr).toContain('exposes no tools');
    for (const key of ['realtimeEndpoints', 'asyncEndpoints', 'featureGroups', 'pipelines', 'modelProvenance']) {
      expect(failure.stderr).toContain(`${key}:`);
    }
  });

  test('a misspelt key is an error naming it and the key it is closest to; `mcp` refuses it too', async () => {
    const typo = writeConfig('typo.json', { region: 'us-east-1', realtimeEndpoint: [{ name: 'churn-xgb' }] });
    const failure = await run(process.execPath, [cli(join(dir, 'pkg')), 'mcp', '--config', typo], { timeout: 20_000 }).catch((e) => e);
    expect(failure.code).toBe(2);
    expect(failure.stderr).toContain(`config file '${typo}'`);
    expect(failure.stderr).toContain('config.realtimeEndpoint: unknown field (did you mean realtimeEndpoints?)');
  });

  test('a misspelt key inside an entry is an error too, even when other keys expose tools', async () => {
    // Dropped silently, `targetModel` would leave the multi-model endpoint without its allow-list.
    const typo = writeConfig('nested-typo.json', { pipelines: [{ name: 'p' }], realtimeEndpoints: [{ name: 'mme', targetModel: ['a.tar.gz'] }] });
    const failure = await run(process.execPath, [cli(join(dir, 'pkg')), 'tools', '--config', typo]).catch((e) => e);
    expect(failure.code).toBe(2);
    expect(failure.stderr).toContain('config.realtimeEndpoints[0].targetModel: unknown field (did you mean targetModels?)');
  });
});

describe('the server reports the package version', () => {
  test('--version and the MCP initialize result carry package.json\'s version, with no package.json beside the bundle', async () => {
    const { stdout } = await run(process.execPath, [cli(join(dir, 'pkg')), '--version']);
    expect(stdout.trim()).toBe(PACKAGE_VERSION);
    const client = new Client({ name: 'cli-version-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({
      command: process.execPath, args: [cli(join(dir, 'pkg')), 'mcp', '--config', writeConfig('one.json', CONFIG)], stderr: 'pipe',
    }));
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'cdk-sagemaker-mcp', version: PACKAGE_VERSION });
    } finally {
      await client.close();
    }
  });

  test('the version is taken from package.json when bundling (a bumped package.json shows up in the bundle)', async () => {
    // A release bumps package.json before it bundles: stand in for that by serving a bumped file to esbuild.
    const bumped: Plugin = {
      name: 'bumped-package-json',
      setup(esbuild) {
        esbuild.onLoad({ filter: /[\\/]package\.json$/ }, (args) => {
          if (args.path !== join(RUNTIME, 'package.json')) return undefined;
          const pkg = JSON.parse(readFileSync(args.path, 'utf8'));
          return { contents: JSON.stringify({ ...pkg, version: '9.8.7-release.1' }), loader: 'json' };
        });
      },
    };
    await packCli(join(dir, 'bumped'), [bumped]);
    const { stdout } = await run(process.execPath, [cli(join(dir, 'bumped')), '--version']);
    expect(stdout.trim()).toBe('9.8.7-release.1');
  });
});

describe('--http shuts down cleanly', () => {
  /** Starts `mcp --http 0`, waits for the listening line, returns the child and its port. */
  async function startHttp(): Promise<{ child: ChildProcess; port: number; stderr: () => string }> {
    const child = spawn(process.execPath, [cli(join(dir, 'pkg')), 'mcp', '--config', writeConfig('http.json', CONFIG), '--http', '0'],
      { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no listening line within 20 s; stderr: ${stderr}`)), 20_000);
      child.stderr!.on('data', (chunk) => {
        stderr += chunk;
        const match = /http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(stderr);
        if (match) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`exited ${code} before listening; stderr: ${stderr}`));
      });
    });
    return { child, port, stderr: () => stderr };
  }

  /** A tools/list over a keep-alive connection that stays open afterwards (what MCP clients do). */
  function listToolsKeepAlive(port: number, agent: Agent): Promise<string> {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    return new Promise((resolve, reject) => {
      const req = request({
        ...{ host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent },
        headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve(text));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  test.each(['SIGTERM', 'SIGINT'] as const)('%s with an open keep-alive connection: the server closes and the process exits 0', async (signal) => {
    const { child, port, stderr } = await startHttp();
    const agent = new Agent({ keepAlive: true });
    try {
      expect(await listToolsKeepAlive(port, agent)).toContain('invoke_endpoint');
      let timer: NodeJS.Timeout | undefined;
      const exited = new Promise<unknown>((resolve) => {
        timer = setTimeout(resolve, 10_000, 'still running after 10 s');
        child.once('exit', (code, sig) => resolve({ code, signal: sig }));
      });
      child.kill(signal);
      const result = await exited;
      clearTimeout(timer);
      expect(result).toEqual({ code: 0, signal: null });
      expect(stderr()).toContain(`${signal}, closing the HTTP server`);
    } finally {
      agent.destroy();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
