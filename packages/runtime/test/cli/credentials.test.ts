/**
 * The CLI, finding no credentials, says a spawning client may have dropped the environment (the MCP
 * SDK's and Strands' stdio transports pass only HOME, LOGNAME, PATH, SHELL, TERM and USER unless given `env`).
 * Driven through `main`, in this process: the config exposes a pipeline but has no handle key, so once the CLI has
 * written its start-up warnings it exits 2 instead of serving this process's stdin.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { captureOutput } from '../support/captured-output';
import { main } from 'cdk-sagemaker-mcp-runtime/cli';

const dir = mkdtempSync(join(tmpdir(), 'mcp-credentials-'));
const home = join(dir, 'home');
mkdirSync(home);
const saved = process.env;
afterEach(() => {
  process.env = saved;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const output = captureOutput();

/** What `cdk-sagemaker-mcp mcp --config <file>` writes to stderr, given this config and this environment. */
async function startUp(config: Record<string, unknown>, env: NodeJS.ProcessEnv): Promise<string> {
  output.err.length = 0;
  const file = join(dir, 'mcp.json');
  writeFileSync(file, JSON.stringify({ pipelines: [{ name: 'churn-training' }], ...config }));
  process.env = env;
  expect(await main(['mcp', '--config', file])).toBe(2);
  expect(output.err.join('')).toMatch(/handleKey: not set/);
  return output.err.join('');
}

test('no credentials anywhere: the CLI warns that the environment may have been dropped and how to pass it', async () => {
  const err = await startUp({}, { HOME: home, PATH: '/usr/bin' });
  expect(err).toMatch(/^cdk-sagemaker-mcp: no AWS credentials found/);
  expect(err).toMatch(/may have dropped the environment/);
  expect(err).toMatch(/`env`.*-e AWS_PROFILE/s);
});

test('credentials in the config, the environment or ~/.aws: no warning', async () => {
  const credentials = { accessKeyId: 'a', secretAccessKey: 'b' };
  expect(await startUp({ credentials }, { HOME: home })).not.toMatch(/no AWS credentials found/);
  expect(await startUp({}, { HOME: home, AWS_PROFILE: 'dev' })).not.toMatch(/no AWS credentials found/);
  mkdirSync(join(home, '.aws'));
  writeFileSync(join(home, '.aws', 'config'), '[default]\n');
  expect(await startUp({}, { HOME: home })).not.toMatch(/no AWS credentials found/);
});
