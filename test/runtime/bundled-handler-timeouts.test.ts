/**
 * A bundled handler's AWS clients give up on a silent service at their request timeout instead of waiting for ever. It
 * waits out the real 10 s timeout the bundle carries, so it runs in `npx projen test:slow`.
 * A real bundle (assets/, `npx projen bundle`) against a server that accepts connections and never answers.
 */
import * as fs from 'fs';
import * as path from 'path';
import { LOCAL_CREDENTIALS } from '@cdk-sagemaker-mcp/test-stand-ins/local-aws';
import { SilentServer, startSilentServer } from '@cdk-sagemaker-mcp/test-stand-ins/silent-server';
import { RESULT_TTL_DAYS_ENV, RESULTS_TABLE_ENV } from 'cdk-sagemaker-mcp-runtime/internal/contract';

let silent: SilentServer;
beforeAll(async () => {
  silent = await startSilentServer();
});
afterAll(async () => silent?.stop());

describe('handlers build their clients with timeouts', () => {
  test('the bundled pipeline router fails an event whose table never answers (Lambda retries, then dead-letters)', async () => {
    // GIVEN the bundled handler, its DynamoDB endpoint silent, one attempt per call
    const saved = { ...process.env };
    Object.assign(process.env, {
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
      AWS_ENDPOINT_URL_DYNAMODB: silent.endpoint,
      AWS_MAX_ATTEMPTS: '1',
      [RESULTS_TABLE_ENV]: 'results',
      [RESULT_TTL_DAYS_ENV]: '30',
    });
    try {
      let handler: (event: unknown) => Promise<unknown> = async () => undefined;
      jest.isolateModules(() => {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        handler = require('../../assets/pipelines/pipeline-router.lambda/index.js').handler;
      });
      const event = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'events', 'pipeline-execution-status-change.succeeded.json'), 'utf8'));
      const started = Date.now();
      // WHEN
      const err = await handler(event).catch((e) => e);
      // THEN: the 10 s request timeout, not for ever
      expect(err).toMatchObject({ name: 'TimeoutError' });
      expect(Date.now() - started).toBeLessThan(14_000);
    } finally {
      process.env = saved;
    }
  }, 20_000);
});
