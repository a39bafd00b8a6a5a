import { App, Size, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ContainerImage, InstanceType, ModelSource } from '../../src/core';
import { SharedGpuEndpoint } from '../../src/shared-gpu';

/**
 * The same inference-component template at every aws-cdk-lib of the peer range: the floor's L1 (2.258) has no
 * `specifications` and requires `specification`, so `Specifications` is written as a property override in place of
 * `Specification` at every version. This file asserts nothing version-specific: `npx projen test:floor` runs it against
 * the peer floor (test/floor/run.ts).
 */
const ENV = { account: '123456789012', region: 'us-east-1' };

test('a component on a three-pool shared endpoint has Specifications, one entry per type, and no Specification', () => {
  // GIVEN
  const stack = new Stack(new App(), 'Shared', { env: ENV });
  const endpoint = new SharedGpuEndpoint(stack, 'Shared', {
    instancePools: [
      { instanceType: InstanceType.ML_G5_12XLARGE, priority: 1 },
      { instanceType: InstanceType.of('ml.g6.12xlarge'), priority: 2 },
      { instanceType: InstanceType.ML_G5_48XLARGE, priority: 3 },
    ],
  });

  // WHEN
  const component = endpoint.addInferenceComponent('Chat', {
    model: ModelSource.fromContainer(ContainerImage.fromImageUri('123456789012.dkr.ecr.us-east-1.amazonaws.com/chat:1')),
    acceleratorCount: 1,
    minMemory: Size.gibibytes(16),
    instanceTypeRequirements: [{ instanceType: InstanceType.ML_G5_48XLARGE, acceleratorCount: 2, minMemory: Size.gibibytes(32) }],
  });

  // THEN
  const props = Object.values<any>(Template.fromStack(stack).findResources('AWS::SageMaker::InferenceComponent'))[0].Properties;
  const modelName = { 'Fn::GetAtt': [stack.getLogicalId(component.cfnModel!), 'ModelName'] };
  expect(props.Specification).toBeUndefined();
  expect(props.Specifications).toEqual([
    { InstanceType: 'ml.g5.12xlarge', ModelName: modelName, ComputeResourceRequirements: { NumberOfAcceleratorDevicesRequired: 1, MinMemoryRequiredInMb: 16384 } },
    { InstanceType: 'ml.g6.12xlarge', ModelName: modelName, ComputeResourceRequirements: { NumberOfAcceleratorDevicesRequired: 1, MinMemoryRequiredInMb: 16384 } },
    { InstanceType: 'ml.g5.48xlarge', ModelName: modelName, ComputeResourceRequirements: { NumberOfAcceleratorDevicesRequired: 2, MinMemoryRequiredInMb: 32768 } },
  ]);
});
