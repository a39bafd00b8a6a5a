import { createServer, Server } from 'http';
import { AddressInfo } from 'net';
import { FeatureStoreRuntimeServer, startFeatureStoreRuntimeServer } from '@cdk-sagemaker-mcp/test-stand-ins/featurestore-runtime-server';
import { LOCAL_CREDENTIALS } from '@cdk-sagemaker-mcp/test-stand-ins/local-aws';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { userKeyedSchema } from '../support/feature-schemas';
import type { FeatureGroupSchema } from 'cdk-sagemaker-mcp-runtime/internal/contract';
import { createSageMakerMcpHandler, SageMakerMcpServerConfig } from 'cdk-sagemaker-mcp-runtime/mcp';

// put_feature_record through a real MCP client session (Streamable HTTP) against the Feature Store stand-in, whose
// PutRecord is a full over-write: a write of some features must keep the others on every store type, and an event time
// far in the future must be refused before it freezes the record.
const ABC = [{ name: 'a', type: 'Integral' }, { name: 'b', type: 'Integral' }, { name: 'c', type: 'String' }];
const group = (name: string, onlineStorageType: string): FeatureGroupSchema => ({ ...userKeyedSchema(name, ...ABC), onlineStorageType });

let fs: FeatureStoreRuntimeServer;
let http: Server;
let client: Client;

type CallResult = { isError?: boolean; structuredContent?: any; content: Array<{ type: string; text?: string }> };
const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallResult;
const put = (featureGroupName: string, record: Record<string, unknown>) => call('put_feature_record', { featureGroupName, record });
const read = async (featureGroupName: string, recordId: string) =>
  (await call('get_online_features', { featureGroupName, recordId })).structuredContent.features;

beforeAll(async () => {
  fs = await startFeatureStoreRuntimeServer();
  const config: SageMakerMcpServerConfig = {
    region: 'us-east-1',
    credentials: LOCAL_CREDENTIALS,
    handleKey: 'local-test-handle-key',
    endpoints: { featureStoreRuntime: fs.endpoint },
    // An hour instead of the default 5 minutes: the bound is the server's configuration, not a constant.
    maxEventTimeSkewSeconds: 3600,
    featureGroups: [
      { schema: group('std', 'Standard'), allowWrites: true },
      { schema: group('v2', 'Standard_V2'), allowWrites: true },
      { schema: group('mem', 'InMemory'), allowWrites: true },
      { schema: group('offline', 'None'), allowWrites: true },
    ],
  };
  http = createServer(toNodeHandler(createSageMakerMcpHandler(config)));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
  const { port } = http.address() as AddressInfo;
  client = new Client({ name: 'feature-writes-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
});

afterAll(async () => {
  await client?.close();
  await new Promise<void>((resolve) => http?.close(() => resolve()));
  await fs?.stop();
});

beforeEach(() => {
  for (const name of ['std', 'v2', 'mem', 'offline']) {
    fs.createGroup({ name, recordIdentifier: 'user_id', eventTime: 'event_time', onlineStorageType: name === 'v2' ? 'Standard_V2' : name === 'mem' ? 'InMemory' : 'Standard' });
  }
  fs.resetCounters();
});

describe('put_feature_record keeps the features a call leaves out', () => {
  test.each([
    ['std', 'merged', ['GetRecord', 'PutRecord']],
    ['v2', 'updated', ['UpdateRecord']],
    ['mem', 'updated', ['UpdateRecord']],
  ])('%s: a, b, c written, then only b: a and c are still there (mode %s)', async (name, mode, calls) => {
    // GIVEN
    const first = await put(name, { user_id: 'u1', a: 1, b: 2, c: 'three' });
    expect(first.structuredContent).toMatchObject({ written: true, mode: 'put', preservedFeatures: [] });
    fs.resetCounters();
    // WHEN
    const second = await put(name, { user_id: 'u1', b: 20 });
    // THEN
    expect(second.isError).toBeFalsy();
    expect(second.structuredContent).toMatchObject({ featureGroupName: name, recordId: 'u1', written: true, mode, preservedFeatures: ['a', 'c'] });
    expect(await read(name, 'u1')).toMatchObject({ a: 1, b: 20, c: 'three', event_time: second.structuredContent.eventTime });
    // The write's own calls come first; the read above made the last one.
    expect(fs.requests.slice(0, -1).map((r) => r.operation)).toEqual(calls);
  });

  test('a group without online store refuses a partial record with a clear error, and takes a complete one', async () => {
    const partial = await put('offline', { user_id: 'u1', b: 20 });
    expect(partial.isError).toBe(true);
    expect(partial.structuredContent).toMatchObject({ errorName: 'FeatureValueError', retryable: false });
    expect(partial.structuredContent.message).toMatch(/partial record \(missing a, c\) goes to a group without an online store/);
    expect(fs.calls.PutRecord).toBe(0);
    const complete = await put('offline', { user_id: 'u1', a: 1, b: 2, c: 'x' });
    expect(complete.structuredContent).toMatchObject({ written: true, mode: 'put' });
  });

  test('the tool description says what happens per group', async () => {
    const { tools } = await client.listTools();
    const description = tools.find((t) => t.name === 'put_feature_record')!.description!;
    expect(description).toContain('the others keep their values');
    expect(description).toMatch(/- std \(.*partial writes: read, merge, write back\)/);
    expect(description).toMatch(/- v2 \(.*partial writes: UpdateRecord, other features unchanged\)/);
    expect(description).toMatch(/- offline \(.*no online store: every feature is required\)/);
    expect(description).toContain('3600 s past the server clock');
    expect(description).not.toContain('merges');
  });
});

describe('put_feature_record bounds the event time', () => {
  test('a far-future event time is refused and the record stays writable', async () => {
    // GIVEN
    await put('std', { user_id: 'u1', a: 1, b: 2, c: 'three' });
    // WHEN
    const frozen = await put('std', { user_id: 'u1', b: 99, event_time: '9999-12-31T23:59:59.999Z' });
    // THEN
    expect(frozen.isError).toBe(true);
    expect(frozen.structuredContent).toMatchObject({ errorName: 'FeatureEventTimeError', retryable: false });
    expect(frozen.structuredContent.message).toMatch(/event time 9999-12-31T23:59:59.999Z is later than \S+, the latest accepted: the server clock \(\S+\) plus at most 3600 s/);
    const later = await put('std', { user_id: 'u1', b: 3 });
    expect(later.structuredContent).toMatchObject({ written: true, mode: 'merged' });
    expect(await read('std', 'u1')).toMatchObject({ a: 1, b: 3, c: 'three' });
  });

  test('the configured skew is the bound: 30 minutes ahead is written, 2 hours ahead is refused', async () => {
    const at = (ms: number) => new Date(Date.now() + ms).toISOString();
    const near = await put('mem', { user_id: 'u2', a: 1, b: 2, c: 'x', event_time: at(30 * 60_000) });
    expect(near.structuredContent).toMatchObject({ written: true, mode: 'put' });
    const far = await put('mem', { user_id: 'u3', a: 1, b: 2, c: 'x', event_time: at(2 * 3600_000) });
    expect(far.structuredContent).toMatchObject({ errorName: 'FeatureEventTimeError' });
    expect(fs.getStored('mem', 'u3')).toBeUndefined();
  });

  test('an event time older than the stored record\'s is refused (it would reach the offline store only)', async () => {
    await put('v2', { user_id: 'u1', a: 1, b: 2, c: 'three' });
    const stale = await put('v2', { user_id: 'u1', b: 5, event_time: '2020-01-01T00:00:00.000Z' });
    expect(stale.structuredContent).toMatchObject({ errorName: 'FeatureEventTimeError', retryable: false });
    expect(await read('v2', 'u1')).toMatchObject({ b: 2 });
  });
});
