import { App, CfnParameter, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { ContainerImage, InstanceType, ModelSource } from '../../src/core';
import { RealtimeEndpoint, RealtimeEndpointProps } from '../../src/realtime';
import { expectValidTemplate } from '../support/template-checks';

/**
 * Application Auto Scaling fails an endpoint update that changes the instance type of a variant registered as a
 * scalable target, or removes it (https://docs.aws.amazon.com/sagemaker/latest/dg/endpoint-scaling-update.html).
 * These tests compare two synths of the same app, before and after a change, as CloudFormation would see them.
 */
function synth(props: Partial<RealtimeEndpointProps>, more?: (ep: RealtimeEndpoint) => void) {
  const app = new App();
  const stack = new Stack(app, 'Test', { env: { account: '123456789012', region: 'us-east-1' } });
  const ep = new RealtimeEndpoint(stack, 'Chat', {
    model: ModelSource.fromContainer(ContainerImage.fromImageUri('123456789012.dkr.ecr.us-east-1.amazonaws.com/chat:1'),
      { environment: props.model ? {} : { MAX_INPUT_TOKENS: '4096' } }),
    instanceType: InstanceType.ML_G5_2XLARGE,
    autoScaling: {},
    ...props,
  });
  more?.(ep);
  const template = Template.fromStack(stack);
  const [endpointId, endpoint] = Object.entries<any>(template.findResources('AWS::SageMaker::Endpoint'))[0];
  return { stack, ep, template, endpointId, endpointName: endpoint.Properties.EndpointName };
}

describe('instance type changes of autoscaled variants', () => {
  test('changing the instance type of an autoscaled variant renames the endpoint: CloudFormation replaces it instead of updating it', () => {
    // GIVEN / WHEN
    const before = synth({});
    const again = synth({});
    const after = synth({ instanceType: InstanceType.of('ml.g5.4xlarge') });
    // THEN: a name of our own, stable across synths, different after the change (a name change is a replacement)
    expect(before.endpointName).toMatch(/^Test-Chat-[A-F0-9]{8}-[0-9a-f]{8}$/);
    expect(before.endpointName).toMatch(/^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$/);
    expect(again.endpointName).toBe(before.endpointName);
    expect(after.endpointName).not.toBe(before.endpointName);
    // The new endpoint gets its own scalable target (ResourceId names it, so the target is replaced too), registered
    // only once the endpoint exists; the old target is deleted with the old endpoint at cleanup.
    for (const { template, endpointId } of [before, after]) {
      template.hasResource('AWS::ApplicationAutoScaling::ScalableTarget', {
        Properties: Match.objectLike({
          ResourceId: { 'Fn::Join': ['', ['endpoint/', { 'Fn::GetAtt': [endpointId, 'EndpointName'] }, '/variant/AllTraffic']] },
        }),
        DependsOn: [endpointId],
      });
      template.hasResourceProperties('AWS::ApplicationAutoScaling::ScalingPolicy', { ScalingTargetId: { Ref: Match.stringLikeRegexp('ChatAllTrafficScalingTarget') } });
      expectValidTemplate(template);
    }
    Annotations.fromStack(after.stack).hasNoWarning('*', Match.stringLikeRegexp('autoscaled variant'));
  });

  test('removing an autoscaled variant renames the endpoint too', () => {
    const two = synth({}, (ep) => ep.addVariant('Canary', { instanceType: InstanceType.ML_G5_XLARGE, autoScaling: {} }));
    const one = synth({});
    expect(one.endpointName).not.toBe(two.endpointName);
  });

  test('what AWS allows in place keeps the name: a new model, or another instance type for a variant that is not autoscaled', () => {
    const base = synth({}, (ep) => ep.addVariant('Cpu', { instanceType: InstanceType.ML_M5_XLARGE }));
    const newModel = synth({ model: ModelSource.fromContainer(ContainerImage.fromImageUri('123456789012.dkr.ecr.us-east-1.amazonaws.com/chat:1')) },
      (ep) => ep.addVariant('Cpu', { instanceType: InstanceType.ML_M5_XLARGE }));
    const otherCpu = synth({}, (ep) => ep.addVariant('Cpu', { instanceType: InstanceType.ML_M5_2XLARGE }));
    expect(newModel.endpointName).toBe(base.endpointName);
    expect(otherCpu.endpointName).toBe(base.endpointName);
  });

  test('without autoscaling CloudFormation still generates the name', () => {
    const { endpointName } = synth({ autoScaling: undefined });
    expect(endpointName).toBeUndefined();
  });

  test('a fixed endpointName cannot be replaced: synth warns with the two-step procedure', () => {
    const { stack } = synth({ endpointName: 'chat' });
    Annotations.fromStack(stack).hasWarning('/Test/Chat', Match.stringLikeRegexp(
      '^autoscaled variant AllTraffic \\(ml.g5.2xlarge\\): an update that changes the instance type of an autoscaled variant, or removes it, fails '
      + '.*endpointName is fixed.*first without its autoScaling \\(CloudFormation deregisters the target\\), then with the new instance type and autoScaling back'
      + '.*endpoint-scaling-update.html'));
  });

  test('a deploy-time instance type cannot rename the endpoint: synth warns', () => {
    const app = new App();
    const stack = new Stack(app, 'Test');
    const type = new CfnParameter(stack, 'InstanceType', { default: 'ml.g5.2xlarge' });
    new RealtimeEndpoint(stack, 'Chat', {
      model: ModelSource.fromContainer(ContainerImage.fromImageUri('123456789012.dkr.ecr.us-east-1.amazonaws.com/chat:1')),
      instanceType: InstanceType.of(type.valueAsString),
      autoScaling: {},
    });
    Annotations.fromStack(stack).hasWarning('/Test/Chat', Match.stringLikeRegexp('instance type of AllTraffic is resolved at deploy time'));
  });
});
