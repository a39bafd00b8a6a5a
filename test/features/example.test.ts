import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { addFeatureStoreExample } from '../../examples/feature-store';
import { expectNagClean } from '../support/nag-checks';
import { expectValidTemplate } from '../support/template-checks';

test('the feature store example synthesizes a valid, cdk-nag clean stack', () => {
  // GIVEN
  const app = new App();
  const stack = new Stack(app, 'Demo', { env: { account: '123456789012', region: 'us-east-1' } });
  // WHEN
  const group = addFeatureStoreExample(stack);
  // THEN
  // The Glue table name ends with a suffix of the stack id (Glue tables outlive their feature group).
  expect(JSON.stringify(stack.resolve(group.offlineStoreTableName))).toMatch(/^\{"Fn::Join":\["",\["mcp_user_behavior_features_",\{"Fn::Select":\[0,\{"Fn::Split":\["-",/);
  Template.fromStack(stack).hasResourceProperties('AWS::SageMaker::FeatureGroup', { FeatureGroupName: 'mcp-user-behavior-features' });
  expectValidTemplate(stack);
  expectNagClean(app);
});
