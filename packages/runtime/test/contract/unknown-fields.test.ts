/**
 * `unknownFields` (packages/runtime/src/contract/parse.ts): every field a schema does not know, at any depth, with the
 * known name it is closest to. The CLI refuses a config file that has one (packages/runtime/test/cli/lifecycle.test.ts runs it).
 */
import * as z from 'zod';
import { unknownFields } from 'cdk-sagemaker-mcp-runtime/internal/contract';
import { SageMakerMcpServerConfigSchema } from 'cdk-sagemaker-mcp-runtime/mcp';

test('a valid config has none (objects, arrays, records and optional fields walked)', () => {
  expect(unknownFields(SageMakerMcpServerConfigSchema, {
    region: 'us-east-1',
    realtimeEndpoints: [{ name: 'a', targetModels: ['m.tar.gz'] }],
    pipelines: [{ name: 'p' }],
    toolDeadlines: { invoke_endpoint: 5000 },
    httpTimeouts: { connectionTimeoutMs: 1000 },
  }, 'config')).toEqual([]);
});

test('each unknown field is named with its path, at the top, in an array entry and in a nested object', () => {
  expect(unknownFields(SageMakerMcpServerConfigSchema, {
    realtimeEndpoint: [],
    realtimeEndpoints: [{ name: 'a' }, { name: 'b', targetModel: ['m'] }],
    httpTimeouts: { requestTimeoutMS: 1000 },
    credentials: { accessKeyId: 'A', secretAccessKey: 'S', token: 'T' },
  }, 'config')).toEqual([
    'config.realtimeEndpoint: unknown field (did you mean realtimeEndpoints?)',
    'config.realtimeEndpoints[1].targetModel: unknown field (did you mean targetModels?)',
    'config.httpTimeouts.requestTimeoutMS: unknown field (did you mean requestTimeoutMs?)',
    'config.credentials.token: unknown field',
  ]);
});

test('values of the wrong shape are left to the parse (no crash, nothing reported here)', () => {
  expect(unknownFields(SageMakerMcpServerConfigSchema, { realtimeEndpoints: 'a', pipelines: [3], endpoints: null })).toEqual([]);
  expect(unknownFields(z.object({ a: z.string() }), 'not an object')).toEqual([]);
});

test('a name far from every known one gets no suggestion', () => {
  expect(unknownFields(z.object({ featureGroups: z.array(z.string()).optional() }), { zzz: 1 })).toEqual(['zzz: unknown field']);
});
