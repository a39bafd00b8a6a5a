import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { addAsyncExample } from '../../examples/async';
import { expectNagClean } from '../support/nag-checks';
import { expectValidTemplate } from '../support/template-checks';

// GIVEN the example stack (built once: synthesis dominates this file's time)
const app = new App();
const stack = new Stack(app, 'AsyncExample', { env: { account: '123456789012', region: 'us-east-1' } });
const endpoint = addAsyncExample(stack);

test('the example scales from zero and records results', () => {
  const template = Template.fromStack(stack);
  template.hasResourceProperties('AWS::ApplicationAutoScaling::ScalableTarget', { MinCapacity: 0, MaxCapacity: 4 });
  template.hasResourceProperties('AWS::CloudWatch::Alarm', { MetricName: 'HasBacklogWithoutCapacity' });
  expect(endpoint.jobTable).toBeDefined();
});

test('the example template passes the CloudFormation schema and API-reference checks', () => {
  expectValidTemplate(stack);
});

test('the example is cdk-nag clean (AwsSolutions)', () => {
  expectNagClean(app);
});
