import { App, Duration, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import { specTextOf } from './spec-of';
import { userKeyedSchema } from '../../packages/runtime/test/support/feature-schemas';
import { FeatureGroup, Feature, OnlineStoreStorageType } from '../../src/features';
import { McpToolServer } from '../../src/mcp';
import { parseMcpServerSpec } from 'cdk-sagemaker-mcp-runtime/mcp';

// The store type reaches the runtime through the schema, and the server may call UpdateRecord only where the tool will.
const ENV = { account: '123456789012', region: 'us-east-1' };

function build(maxEventTimeSkew?: Duration) {
  const app = new App();
  const stack = new Stack(app, 'Mcp', { env: ENV });
  const common = {
    recordIdentifier: Feature.text('user_id'),
    eventTime: Feature.text('event_time'),
    features: [Feature.text('user_id'), Feature.text('event_time'), Feature.integral('calls')],
    offlineStore: { enabled: false },
  };
  const memory = new FeatureGroup(stack, 'Memory', { ...common, featureGroupName: 'memory', onlineStore: { storageType: OnlineStoreStorageType.IN_MEMORY } });
  const standard = new FeatureGroup(stack, 'Standard', { ...common, featureGroupName: 'standard' });
  const migrated = FeatureGroup.fromFeatureGroupName(stack, 'Migrated', 'migrated');
  const readOnly = new FeatureGroup(stack, 'ReadOnly', { ...common, featureGroupName: 'read-only', onlineStore: { storageType: OnlineStoreStorageType.IN_MEMORY } });
  const server = new McpToolServer(stack, 'Server', {
    featureGroups: [
      { featureGroup: memory, allowWrites: true },
      { featureGroup: standard, allowWrites: true },
      { featureGroup: migrated, allowWrites: true, schema: { ...userKeyedSchema('migrated', { name: 'calls', type: 'Integral' }), onlineStorageType: 'Standard_V2' } },
      { featureGroup: readOnly },
    ],
    maxEventTimeSkew,
  });
  return { stack, server };
}

/** The server role's record actions per feature group name. */
function recordActions(stack: Stack, server: McpToolServer): Record<string, string[]> {
  const template = Template.fromStack(stack).toJSON();
  const roleId = stack.resolve((server.serverFunction.role!.node.defaultChild as iam.CfnRole).logicalId);
  const out: Record<string, string[]> = {};
  for (const resource of Object.values<any>(template.Resources)) {
    if (resource.Type !== 'AWS::IAM::Policy' || !resource.Properties.Roles.some((r: any) => r.Ref === roleId)) continue;
    for (const st of resource.Properties.PolicyDocument.Statement) {
      for (const action of [st.Action].flat().filter((a: string) => a.endsWith('Record'))) {
        for (const res of [st.Resource].flat()) {
          const name = JSON.stringify(res).match(/feature-group\/([a-z-]+)/)![1];
          // UpdateRecord is authorized as PutRecord with sagemaker:IsUpdateRecord = true (IAM has no UpdateRecord action)
          const onlyUpdates = st.Condition?.Bool?.['sagemaker:IsUpdateRecord'] === 'true';
          (out[name] ??= []).push(onlyUpdates ? `${action} (UpdateRecord calls)` : action);
        }
      }
    }
  }
  for (const k of Object.keys(out)) out[k] = [...new Set(out[k])].sort();
  return out;
}

test('UpdateRecord is granted for writable Standard_V2 and InMemory groups only', () => {
  const { stack, server } = build();
  expect(recordActions(stack, server)).toEqual({
    'memory': ['sagemaker:GetRecord', 'sagemaker:PutRecord', 'sagemaker:PutRecord (UpdateRecord calls)'],
    'standard': ['sagemaker:GetRecord', 'sagemaker:PutRecord'],
    'migrated': ['sagemaker:GetRecord', 'sagemaker:PutRecord', 'sagemaker:PutRecord (UpdateRecord calls)'],
    'read-only': ['sagemaker:GetRecord'],
  });
});

function specOf(stack: Stack): any {
  return parseMcpServerSpec<any>(specTextOf(Template.fromStack(stack).toJSON()));
}

test('the spec hands each group\'s online store type to the runtime', () => {
  const spec = specOf(build().stack);
  expect(spec.featureGroups.map((g: any) => [g.schema.featureGroupName, g.schema.onlineStorageType])).toEqual([
    ['memory', 'InMemory'], ['standard', 'Standard'], ['migrated', 'Standard_V2'], ['read-only', 'InMemory'],
  ]);
});

test('maxEventTimeSkew reaches the spec in seconds (absent: the runtime default of 300 s); a bad value is refused by the runtime', () => {
  expect(specOf(build(Duration.minutes(2)).stack).maxEventTimeSkewSeconds).toBe(120);
  expect(specOf(build().stack).maxEventTimeSkewSeconds).toBeUndefined();
  expect(() => parseMcpServerSpec({ maxEventTimeSkewSeconds: -1 })).toThrow(/maxEventTimeSkewSeconds: expected a number of seconds >= 0, got -1/);
});
