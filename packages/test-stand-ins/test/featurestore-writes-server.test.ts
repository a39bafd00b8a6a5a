import {
  ConflictException,
  PutRecordCommand,
  ResourceNotFound,
  SageMakerFeatureStoreRuntimeClient,
  UpdateRecordCommand,
  ValidationError,
} from '@aws-sdk/client-sagemaker-featurestore-runtime';
import { FeatureStoreRuntimeServer, FeatureStoreSession, startFeatureStoreSession } from '@cdk-sagemaker-mcp/test-stand-ins/featurestore-runtime-server';

// The stand-in's write semantics must be the service's (PutRecord and UpdateRecord API references), or the runtime's
// write tests prove nothing: a stand-in that merged PutRecord hid a data-loss bug.
let fs: FeatureStoreRuntimeServer;
let client: SageMakerFeatureStoreRuntimeClient;
const T0 = '2024-05-01T10:00:00.000Z';
const T1 = '2024-05-01T11:00:00.000Z';
const fv = (values: Record<string, string>) => Object.entries(values).map(([FeatureName, ValueAsString]) => ({ FeatureName, ValueAsString }));

let session: FeatureStoreSession;

beforeAll(async () => {
  session = await startFeatureStoreSession();
  ({ server: fs, client } = session);
});
afterAll(() => session.stop());
beforeEach(() => {
  fs.createGroup({ name: 'std', recordIdentifier: 'id', eventTime: 'ts' });
  fs.createGroup({ name: 'v2', recordIdentifier: 'id', eventTime: 'ts', onlineStorageType: 'Standard_V2' });
  fs.createGroup({ name: 'mem', recordIdentifier: 'id', eventTime: 'ts', onlineStorageType: 'InMemory' });
  fs.putRecord('std', { id: 'r', ts: T0, a: '1', b: '2', c: '3' });
  fs.putRecord('v2', { id: 'r', ts: T0, a: '1', b: '2', c: '3' });
  fs.putRecord('mem', { id: 'r', ts: T0, a: '1', b: '2', c: '3' });
  fs.resetCounters();
});

describe('PutRecord', () => {
  test('is a full over-write: features left out are erased from the online record', async () => {
    await client.send(new PutRecordCommand({ FeatureGroupName: 'std', Record: fv({ id: 'r', ts: T1, b: '20' }) }));
    expect(fs.getStored('std', 'r')).toEqual({ id: 'r', ts: T1, b: '20' });
  });

  test('a record with an older event time is historic: offline only, the online record is unchanged', async () => {
    await client.send(new PutRecordCommand({ FeatureGroupName: 'std', Record: fv({ id: 'r', ts: '2024-01-01T00:00:00.000Z', a: '9' }) }));
    expect(fs.getStored('std', 'r')).toEqual({ id: 'r', ts: T0, a: '1', b: '2', c: '3' });
    expect(fs.offlineRows('std')).toEqual([{ operation: 'PutRecord', values: { id: 'r', ts: '2024-01-01T00:00:00.000Z', a: '9' } }]);
  });
});

describe('UpdateRecord', () => {
  test('the SDK sends POST /FeatureGroup/{name}/Record; features not in the request stay unchanged', async () => {
    await client.send(new UpdateRecordCommand({ FeatureGroupName: 'v2', RecordIdentifierValueAsString: 'r', Features: fv({ b: '20', ts: T1 }) }));
    expect(fs.requests[0]).toMatchObject({ operation: 'UpdateRecord', method: 'POST', path: '/FeatureGroup/v2/Record' });
    expect(fs.requests[0].body).toEqual({ RecordIdentifierValueAsString: 'r', Features: fv({ b: '20', ts: T1 }) });
    expect(fs.getStored('v2', 'r')).toEqual({ id: 'r', ts: T1, a: '1', b: '20', c: '3' });
  });

  test('works on InMemory, not on a Standard online store', async () => {
    await client.send(new UpdateRecordCommand({ FeatureGroupName: 'mem', RecordIdentifierValueAsString: 'r', Features: fv({ c: '30' }) }));
    expect(fs.getStored('mem', 'r')).toEqual({ id: 'r', ts: T0, a: '1', b: '2', c: '30' });
    await expect(client.send(new UpdateRecordCommand({ FeatureGroupName: 'std', RecordIdentifierValueAsString: 'r', Features: fv({ c: '30' }) })))
      .rejects.toBeInstanceOf(ValidationError);
    expect(fs.getStored('std', 'r')!.c).toBe('3');
  });

  test('no EventTime keeps the existing one; an older one is a ConflictException; an equal one applies', async () => {
    await client.send(new UpdateRecordCommand({ FeatureGroupName: 'v2', RecordIdentifierValueAsString: 'r', Features: fv({ a: '10' }) }));
    expect(fs.getStored('v2', 'r')).toMatchObject({ ts: T0, a: '10' });
    await expect(client.send(new UpdateRecordCommand({ FeatureGroupName: 'v2', RecordIdentifierValueAsString: 'r', Features: fv({ a: '11', ts: '2024-01-01T00:00:00.000Z' }) })))
      .rejects.toBeInstanceOf(ConflictException);
    await client.send(new UpdateRecordCommand({ FeatureGroupName: 'v2', RecordIdentifierValueAsString: 'r', Features: fv({ a: '12', ts: T0 }) }));
    expect(fs.getStored('v2', 'r')).toMatchObject({ ts: T0, a: '12' });
  });

  test('the record must exist (ResourceNotFound); at most 100 features; a TtlDuration needs an EventTime', async () => {
    await expect(client.send(new UpdateRecordCommand({ FeatureGroupName: 'v2', RecordIdentifierValueAsString: 'nobody', Features: fv({ a: '1' }) })))
      .rejects.toBeInstanceOf(ResourceNotFound);
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`f${i}`, '1']));
    await expect(client.send(new UpdateRecordCommand({ FeatureGroupName: 'v2', RecordIdentifierValueAsString: 'r', Features: fv(many) })))
      .rejects.toBeInstanceOf(ValidationError);
    await expect(client.send(new UpdateRecordCommand({ FeatureGroupName: 'v2', RecordIdentifierValueAsString: 'r', Features: fv({ a: '1' }), TtlDuration: { Unit: 'Days', Value: 1 } })))
      .rejects.toBeInstanceOf(ValidationError);
    expect(fs.getStored('v2', 'r')).toEqual({ id: 'r', ts: T0, a: '1', b: '2', c: '3' });
  });
});
