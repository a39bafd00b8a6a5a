import { BatchGetRecordCommand, GetRecordCommand, ResourceNotFound, SageMakerFeatureStoreRuntimeClient, ValidationError } from '@aws-sdk/client-sagemaker-featurestore-runtime';
import { FeatureStoreRuntimeServer, startFeatureStoreRuntimeServer } from '@cdk-sagemaker-mcp/test-stand-ins/featurestore-runtime-server';

// The local server must speak the wire format of the Feature Store runtime API (GetRecord, BatchGetRecord, PutRecord,
// DeleteRecord: https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_Operations_Amazon_SageMaker_Feature_Store_Runtime.html),
// or the runtime tests prove nothing.
let fs: FeatureStoreRuntimeServer;
let client: SageMakerFeatureStoreRuntimeClient;
beforeAll(async () => {
  fs = await startFeatureStoreRuntimeServer();
  fs.createGroup({ name: 'g', recordIdentifier: 'id', eventTime: 'ts' });
  client = new SageMakerFeatureStoreRuntimeClient(fs.clientConfig({ maxAttempts: 1 }));
});
afterAll(async () => {
  client.destroy();
  await fs.stop();
});

test('errors carry the status, the x-amzn-errortype header and a JSON message', async () => {
  const res = await fetch(`${fs.endpoint}/FeatureGroup/missing?RecordIdentifierValueAsString=x`);
  expect(res.status).toBe(404);
  expect(res.headers.get('x-amzn-errortype')).toBe('ResourceNotFound');
  expect(await res.json()).toEqual({ message: expect.stringContaining('missing') });
});

test('the real SDK deserializes them to its modelled exceptions', async () => {
  await expect(client.send(new GetRecordCommand({ FeatureGroupName: 'missing', RecordIdentifierValueAsString: 'x' }))).rejects.toBeInstanceOf(ResourceNotFound);
  const tooMany = Array.from({ length: 101 }, (_, i) => `id${i}`);
  await expect(client.send(new BatchGetRecordCommand({ Identifiers: [{ FeatureGroupName: 'g', RecordIdentifiersValueAsString: tooMany }] }))).rejects.toBeInstanceOf(ValidationError);
});

test('a missing record is 200 with no Record; BatchGetRecord always returns Records, Errors and UnprocessedIdentifiers', async () => {
  const res = await fetch(`${fs.endpoint}/FeatureGroup/g?RecordIdentifierValueAsString=nobody`);
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({});
  const batch = await fetch(`${fs.endpoint}/BatchGetRecord`, { method: 'POST', body: JSON.stringify({ Identifiers: [{ FeatureGroupName: 'g', RecordIdentifiersValueAsString: ['nobody'] }] }) });
  expect(await batch.json()).toEqual({ Records: [], Errors: [], UnprocessedIdentifiers: [] });
});

test('the SDK sends GetRecord as GET /FeatureGroup/{name} with its query parameters', async () => {
  fs.resetCounters();
  await client.send(new GetRecordCommand({ FeatureGroupName: 'g', RecordIdentifierValueAsString: 'a b', FeatureNames: ['x', 'y'], ExpirationTimeResponse: 'Enabled' }));
  const req = fs.requests[0];
  expect([req.method, req.path]).toEqual(['GET', '/FeatureGroup/g']);
  expect(req.query.get('RecordIdentifierValueAsString')).toBe('a b');
  expect(req.query.getAll('FeatureName')).toEqual(['x', 'y']);
  expect(req.query.get('ExpirationTimeResponse')).toBe('Enabled');
});
