import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { addSharedGpuExample } from '../../examples/shared-gpu';
import { expectNagClean } from '../support/nag-checks';
import { expectValidTemplate } from '../support/template-checks';

describe('examples/shared-gpu', () => {
  test('two components share one ml.g5.12xlarge; the template is valid and cdk-nag clean', () => {
    // GIVEN
    const app = new App();
    const stack = new Stack(app, 'SharedGpuExample', { env: { account: '123456789012', region: 'us-east-1' } });

    // WHEN
    const endpoint = addSharedGpuExample(stack);

    // THEN
    expect(endpoint.inferenceComponents.map((c) => [c.acceleratorCount, c.minMemory.toMebibytes(), c.modelFamily?.name])).toEqual([
      [2, 98304, 'llama3'],
      [1, 49152, 'mistral'],
    ]);
    const template = Template.fromStack(stack);
    template.resourceCountIs('AWS::SageMaker::InferenceComponent', 2);
    template.resourceCountIs('AWS::SageMaker::Model', 2);
    template.resourceCountIs('AWS::ApplicationAutoScaling::ScalableTarget', 2);
    // the scale-from-zero alarm, and the chat component's rollback alarm (p99 latency)
    template.resourceCountIs('AWS::CloudWatch::Alarm', 2);
    template.hasResourceProperties('AWS::SageMaker::EndpointConfig', {
      ProductionVariants: [Match.objectLike({ InstanceType: 'ml.g5.12xlarge', ManagedInstanceScaling: Match.objectLike({ MinInstanceCount: 0 }) })],
    });
    expectValidTemplate(stack);
    expectNagClean(app);
  });
});
