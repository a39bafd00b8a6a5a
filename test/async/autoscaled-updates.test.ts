import { App, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { AsyncEndpoint, AsyncEndpointProps } from '../../src/async';
import { ContainerImage, InstanceType, ModelSource } from '../../src/core';

/**
 * The async variant is a scalable target too, so the rule of src/private/autoscaled-updates.ts applies: Application Auto
 * Scaling fails an endpoint update that changes the instance type of a registered variant
 * (https://docs.aws.amazon.com/sagemaker/latest/dg/endpoint-scaling-update.html).
 */
function synth(props: Partial<AsyncEndpointProps>) {
  const app = new App();
  const stack = new Stack(app, 'Test', { env: { account: '123456789012', region: 'us-east-1' } });
  new AsyncEndpoint(stack, 'Docs', {
    model: ModelSource.fromContainer(ContainerImage.fromImageUri('123456789012.dkr.ecr.us-east-1.amazonaws.com/docs:1')),
    instanceType: InstanceType.ML_G5_2XLARGE,
    ...props,
  });
  const template = Template.fromStack(stack);
  const endpoint = Object.values<any>(template.findResources('AWS::SageMaker::Endpoint'))[0];
  return { stack, endpointName: endpoint.Properties.EndpointName as string | undefined };
}

describe('AsyncEndpoint: instance type changes of the autoscaled variant', () => {
  test('with autoScaling, the generated name follows the instance type, so a change replaces the endpoint', () => {
    const before = synth({ autoScaling: { minCapacity: 0, maxCapacity: 2 } });
    const again = synth({ autoScaling: { minCapacity: 0, maxCapacity: 2 } });
    const after = synth({ autoScaling: { minCapacity: 0, maxCapacity: 2 }, instanceType: InstanceType.of('ml.g5.4xlarge') });
    expect(before.endpointName).toMatch(/^Test-Docs-[A-F0-9]{8}-[0-9a-f]{8}$/);
    expect(again.endpointName).toBe(before.endpointName);
    expect(after.endpointName).not.toBe(before.endpointName);
    Annotations.fromStack(after.stack).hasNoWarning('*', Match.stringLikeRegexp('autoscaled variant'));
  });

  test('without autoScaling, CloudFormation names the endpoint (an in-place update is allowed)', () => {
    expect(synth({}).endpointName).toBeUndefined();
  });

  test('a fixed endpointName with autoScaling warns with the two-step procedure', () => {
    const { stack, endpointName } = synth({ endpointName: 'docs', autoScaling: { minCapacity: 0, maxCapacity: 2 } });
    expect(endpointName).toBe('docs');
    Annotations.fromStack(stack).hasWarning('*', Match.stringLikeRegexp('endpointName is fixed.*two deployments'));
  });
});
