/**
 * The CLI, finding no credentials, says a spawning client may have dropped the environment (the MCP
 * SDK's and Strands' stdio transports pass only HOME, LOGNAME, PATH, SHELL, TERM and USER unless given `env`).
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { missingCredentialsHint } from 'cdk-sagemaker-mcp-runtime/internal/cli';

const home = mkdtempSync(join(tmpdir(), 'mcp-home-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

test('no credentials anywhere: the hint names the dropped environment and how to pass it', () => {
  const hint = missingCredentialsHint({}, { HOME: home, PATH: '/usr/bin' });
  expect(hint).toMatch(/no AWS credentials found/);
  expect(hint).toMatch(/may have dropped the environment/);
  expect(hint).toMatch(/`env`.*-e AWS_PROFILE/s);
});

test('credentials in the config, the environment or ~/.aws: no hint', () => {
  expect(missingCredentialsHint({ credentials: { accessKeyId: 'a', secretAccessKey: 'b' } }, { HOME: home })).toBeUndefined();
  expect(missingCredentialsHint({}, { HOME: home, AWS_PROFILE: 'dev' })).toBeUndefined();
  mkdirSync(join(home, '.aws'));
  writeFileSync(join(home, '.aws', 'config'), '[default]\n');
  expect(missingCredentialsHint({}, { HOME: home })).toBeUndefined();
});
