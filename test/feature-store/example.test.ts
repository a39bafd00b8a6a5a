import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { addFeatureStoreExample } from '../../examples/feature-store';
import { expectNagClean, expectValidTemplate } from '../support/template-checks';

test('the feature store example synthesizes a valid, cdk-nag clean stack', () => {
  // GIVEN
  const app = new App();
  const stack = new Stack(app, 'Demo', { env: { account: '123456789012', region: 'us-east-1' } });
  // WHEN
  const group = addFeatureStoreExample(stack);
  // THEN
  expect(group.offlineStoreTableName).toBe('mcp_user_behavior_features');
  Template.fromStack(stack).hasResourceProperties('AWS::SageMaker::FeatureGroup', { FeatureGroupName: 'mcp-user-behavior-features' });
  expectValidTemplate(stack);
  expectNagClean(app);
});
