/**
 * Features for 1,000 record ids over 2 feature groups: runtime.batchGetFeatures (BatchGetRecord, at most 100 ids per
 * call, 4 calls in flight) against the straightforward path, one GetRecord per id in turn. Both use the same real SDK client
 * against the local Feature Store runtime server, which counts the calls it receives and adds a fixed delay per
 * answer to stand in for a network round trip.
 */
import { GetRecordCommand, SageMakerFeatureStoreRuntimeClient } from '@aws-sdk/client-sagemaker-featurestore-runtime';
import { Bench, BenchRow, interleavedMs } from './harness';
import { FeatureGroupSchema } from '../packages/runtime/src/contract/feature-store';
import { batchGetFeatures } from '../packages/runtime/src/features/features';
import { startFeatureStoreRuntimeServer } from '@cdk-sagemaker-mcp/test-stand-ins/featurestore-runtime-server';

const IDS_PER_GROUP = 500;
const ROUND_TRIP_MS = 2;

const schema = (name: string, id: string): FeatureGroupSchema => ({
  featureGroupName: name,
  recordIdentifier: id,
  eventTime: 'event_time',
  features: [{ name: id, type: 'String' }, { name: 'event_time', type: 'String' }, { name: 'count_7d', type: 'Integral' }],
});
const users = schema('mcp-user-features', 'user_id');
const tools = schema('mcp-tool-features', 'tool_id');

export const bench: Bench = {
  title: 'features for 1,000 ids over 2 groups: batchGetFeatures vs one GetRecord per id',
  async run(): Promise<BenchRow[]> {
    const fs = await startFeatureStoreRuntimeServer({ latencyMs: ROUND_TRIP_MS });
    const client = new SageMakerFeatureStoreRuntimeClient(fs.clientConfig());
    const ids: Record<string, string[]> = {};
    for (const s of [users, tools]) {
      fs.createGroup({ name: s.featureGroupName, recordIdentifier: s.recordIdentifier, eventTime: 'event_time' });
      ids[s.featureGroupName] = Array.from({ length: IDS_PER_GROUP }, (_, i) => `${s.recordIdentifier}-${i}`);
      // Every tenth id has no record: both sides must return defaults for it.
      ids[s.featureGroupName].forEach((id, i) => i % 10 && fs.putRecord(s.featureGroupName, { [s.recordIdentifier]: id, event_time: '2024-05-01T00:00:00.000Z', count_7d: String(i) }));
    }
    const requests = [users, tools].map((s) => ({ schema: s, recordIds: ids[s.featureGroupName], defaults: { count_7d: 0 } }));
    const ours = () => batchGetFeatures(requests, { client });
    const perIdPath = async () => {
      let found = 0;
      for (const s of [users, tools]) {
        for (const id of ids[s.featureGroupName]) {
          const r = await client.send(new GetRecordCommand({ FeatureGroupName: s.featureGroupName, RecordIdentifierValueAsString: id }));
          if (r.Record?.length) found++;
        }
      }
      return found;
    };
    try {
      fs.resetCounters();
      const result = await ours();
      const oursCalls = fs.calls.BatchGetRecord;
      fs.resetCounters();
      const perIdFound = await perIdPath();
      const perIdCalls = fs.calls.GetRecord;
      if (result.missing.length !== 2 * IDS_PER_GROUP - perIdFound) throw new Error(`sides disagree: ${result.missing.length} missing vs ${perIdFound} found`);
      const time = await interleavedMs(ours, perIdPath, 3);
      return [
        { name: 'calls for 1,000 ids over 2 groups', ours: oursCalls, baseline: perIdCalls, unit: 'calls', baselineLabel: 'one GetRecord per id' },
        {
          name: `wall time, ${ROUND_TRIP_MS} ms simulated round trip (median of 3)`,
          ours: time.a,
          baseline: time.b,
          unit: 'ms',
          baselineLabel: 'one GetRecord per id',
          note: `${result.missing.length} missing records reported with defaults`,
        },
      ];
    } finally {
      client.destroy();
      await fs.stop();
    }
  },
};
