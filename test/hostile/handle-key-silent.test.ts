/**
 * The cold-start read of the handle key against a Secrets Manager that accepts the connection and
 * never answers (packages/test-stand-ins/src/silent-server.ts). The BUNDLED handler's `readHandleKey` with short bounds: it must end
 * with a clear error, not wait for the function timeout (the SDK's requestTimeout only warns unless
 * `throwOnRequestTimeout` is set, see packages/runtime/src/core/bounded.ts).
 */
import { LOCAL_CREDENTIALS } from '@cdk-sagemaker-mcp/test-stand-ins/local-aws';
import { SilentServer, startSilentServer } from '@cdk-sagemaker-mcp/test-stand-ins/silent-server';
import { MCP_ENV } from 'cdk-sagemaker-mcp-runtime/internal/contract';

const saved = { ...process.env };
let silent: SilentServer;

beforeAll(async () => {
  silent = await startSilentServer();
  Object.assign(process.env, {
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: silent.endpoint,
    [MCP_ENV.HANDLE_KEY_SECRET_ARN]: 'arn:aws:secretsmanager:us-east-1:111122223333:secret:mcp-handle-key-AbCdEf',
  });
});

afterAll(async () => {
  await silent.stop();
  process.env = saved;
});

test('a silent Secrets Manager fails the cold start with a clear error within the bounds', async () => {
  // GIVEN the bundle, and bounds of 300 ms per attempt, 2 attempts
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const bundle = require('../../assets/mcp/server.lambda/index.js');
  const started = Date.now();
  // WHEN the handle key is read
  const read = bundle.readHandleKey('arn:aws:secretsmanager:us-east-1:111122223333:secret:mcp-handle-key-AbCdEf', { connectionTimeoutMs: 300, requestTimeoutMs: 300, maxAttempts: 2 });
  // THEN it fails (before the test's own 10 s limit), naming the secret's env var and the network path
  await expect(read).rejects.toThrow(/MCP_HANDLE_KEY_SECRET_ARN.*did not answer within 300 ms per attempt \(2 attempts\)/s);
  expect(Date.now() - started).toBeLessThan(8_000);
  expect(silent.connections()).toBeGreaterThanOrEqual(1);
}, 10_000);

test('the handler\'s own bounds are the documented 3 s / 5 s / 3 attempts', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const bundle = require('../../assets/mcp/server.lambda/index.js');
  expect(bundle.HANDLE_KEY_READ_BOUNDS).toEqual({ connectionTimeoutMs: 3_000, requestTimeoutMs: 5_000, maxAttempts: 3 });
});
