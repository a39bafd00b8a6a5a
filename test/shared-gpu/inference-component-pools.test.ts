import { App, Duration, Size, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { ContainerImage, InstancePool, InstanceType, ModelSource } from '../../src/core';
import { JumpStartModel } from '../../src/jumpstart/jumpstart-model';
import { SageMakerMcpDashboard } from '../../src/operations';
import { InferenceComponent, InferenceComponentOptions, SharedGpuEndpoint, SharedGpuEndpointAttributes } from '../../src/shared-gpu';
import { expectValidTemplate } from '../support/template-checks';
import { errorOf } from '../support/test-stacks';

/**
 * An inference component on a shared endpoint with instance pools of several types gets one `Specifications` entry per
 * type, each sized for its type: CreateInferenceComponent's `Specifications` "or the singular Specification parameter,
 * but not both" (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_CreateInferenceComponent.html), and the
 * CloudFormation schema wants "at least two entries; use the singular Specification for a single instance type"
 * (https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-sagemaker-inferencecomponent.html).
 */
const ENV = { account: '123456789012', region: 'us-east-1' };
const G6_12XLARGE = InstanceType.of('ml.g6.12xlarge');
const LMI = ModelSource.fromContainer(ContainerImage.fromDlc('djl-inference', '0.29.0-lmi11.0.0-cu124'));
const THREE_POOLS: InstancePool[] = [
  // Given out of order: the entries follow the priorities.
  { instanceType: G6_12XLARGE, priority: 2 },
  { instanceType: InstanceType.ML_G5_12XLARGE, priority: 1 },
  { instanceType: InstanceType.ML_G5_48XLARGE, priority: 3 },
];

function endpointWith(instancePools: InstancePool[]) {
  const stack = new Stack(new App(), 'Stack', { env: ENV });
  const endpoint = new SharedGpuEndpoint(stack, 'Shared', { instancePools });
  return { stack, endpoint };
}

function componentProps(stack: Stack): any {
  return Object.values<any>(Template.fromStack(stack).findResources('AWS::SageMaker::InferenceComponent'))[0].Properties;
}

describe('a component on a three-pool endpoint', () => {
  test('renders Specifications, one entry per type by priority, with the per-type requirements; no Specification', () => {
    // GIVEN
    const { stack, endpoint } = endpointWith(THREE_POOLS);

    // WHEN
    const component = endpoint.addInferenceComponent('Chat', {
      model: LMI,
      acceleratorCount: 1,
      minMemory: Size.gibibytes(16),
      cpuCores: 2,
      modelDataDownloadTimeout: Duration.minutes(10),
      instanceTypeRequirements: [
        { instanceType: InstanceType.ML_G5_48XLARGE, acceleratorCount: 2, minMemory: Size.gibibytes(32), maxMemory: Size.gibibytes(64) },
      ],
    });

    // THEN
    const props = componentProps(stack);
    expect(props.Specification).toBeUndefined();
    const model = { ModelName: { 'Fn::GetAtt': [stack.getLogicalId(component.cfnModel!), 'ModelName'] } };
    const startup = { StartupParameters: { ModelDataDownloadTimeoutInSeconds: 600 } };
    expect(props.Specifications).toEqual([
      {
        InstanceType: 'ml.g5.12xlarge',
        ...model,
        ...startup,
        ComputeResourceRequirements: { NumberOfAcceleratorDevicesRequired: 1, MinMemoryRequiredInMb: 16384, NumberOfCpuCoresRequired: 2 },
      },
      {
        InstanceType: 'ml.g6.12xlarge',
        ...model,
        ...startup,
        ComputeResourceRequirements: { NumberOfAcceleratorDevicesRequired: 1, MinMemoryRequiredInMb: 16384, NumberOfCpuCoresRequired: 2 },
      },
      {
        InstanceType: 'ml.g5.48xlarge',
        ...model,
        ...startup,
        ComputeResourceRequirements: {
          NumberOfAcceleratorDevicesRequired: 2, MinMemoryRequiredInMb: 32768, MaxMemoryRequiredInMb: 65536, NumberOfCpuCoresRequired: 2,
        },
      },
    ]);
    expect(props.RuntimeConfig).toEqual({ CopyCount: 1 });
    expect(component.instanceTypes.map((t) => t.name)).toEqual(['ml.g5.12xlarge', 'ml.g6.12xlarge', 'ml.g5.48xlarge']);
    expect([component.acceleratorCount, component.minMemory.toMebibytes()]).toEqual([1, 16384]);
    expectValidTemplate(stack);
  });

  test('a JumpStart model is sized for each type: the accelerators it needs there and the same share of host memory', () => {
    // GIVEN: Llama 3 8B at fp16 needs ~24.6 GiB: two 24 GiB A10Gs, or one 40 GiB A100
    const { stack, endpoint } = endpointWith([
      { instanceType: InstanceType.ML_G5_12XLARGE, priority: 1 },
      { instanceType: InstanceType.ML_G5_48XLARGE, priority: 2 },
      { instanceType: InstanceType.ML_P4D_24XLARGE, priority: 3 },
    ]);

    // WHEN
    endpoint.addInferenceComponent('Llama', { model: JumpStartModel.of('meta-textgeneration-llama-3-8b-instruct', { version: '2.2.0', acceptEula: true }) });

    // THEN: 2 of 4 GPUs and half of 192 GiB; 2 of 8 and a quarter of 768 GiB; 1 of 8 and an eighth of 1152 GiB
    const requirements = componentProps(stack).Specifications.map((s: any) => [s.InstanceType, s.ComputeResourceRequirements]);
    expect(requirements).toEqual([
      ['ml.g5.12xlarge', { NumberOfAcceleratorDevicesRequired: 2, MinMemoryRequiredInMb: 98304 }],
      ['ml.g5.48xlarge', { NumberOfAcceleratorDevicesRequired: 2, MinMemoryRequiredInMb: 196608 }],
      ['ml.p4d.24xlarge', { NumberOfAcceleratorDevicesRequired: 1, MinMemoryRequiredInMb: 147456 }],
    ]);
  });

  test('a type whose accelerators hold less than the model needs warns, naming the type', () => {
    // GIVEN: one 24 GiB A10G for a model of ~24.6 GiB
    const { stack, endpoint } = endpointWith([
      { instanceType: InstanceType.ML_G5_12XLARGE, priority: 1 },
      { instanceType: InstanceType.ML_G5_2XLARGE, priority: 2 },
    ]);

    // WHEN
    endpoint.addInferenceComponent('Llama', { model: JumpStartModel.of('meta-textgeneration-llama-3-8b-instruct', { version: '2.2.0', acceptEula: true }) });

    // THEN
    Annotations.fromStack(stack).hasWarning('/Stack/Shared/Llama', Match.stringLikeRegexp('^acceleratorCount: 1 × 24 GiB .* of ml\\.g5\\.2xlarge is 24 GiB, below the ~24\\.6 GiB'));
  });
});

describe('the dashboard', () => {
  test('pools of several families warn that each model is bound for the priority-1 type, not that sizing follows it', () => {
    // GIVEN / WHEN: g5 and g6 pools (no pool can name its own model on a shared endpoint)
    const { stack } = endpointWith(THREE_POOLS);
    // THEN
    const warnings = Annotations.fromStack(stack).findWarning('/Stack/Shared', Match.stringLikeRegexp('span instance families'));
    expect(warnings.map((w) => w.entry.data)).toEqual([expect.stringMatching(
      /^instancePools: the pools span instance families g6, g5; each inference component is sized per type, but its model is bound for the priority-1 type ml\.g5\.12xlarge .*check that each model runs on every pool \(AWS documents/)]);
  });

  test('draws the copies of each pool type with the InferenceComponentName, InstanceType dimensions', () => {
    // GIVEN
    const { stack, endpoint } = endpointWith(THREE_POOLS);
    endpoint.addInferenceComponent('Chat', { model: LMI, acceleratorCount: 1, minMemory: Size.gibibytes(16), componentName: 'chat' });

    // WHEN
    new SageMakerMcpDashboard(stack, 'Ops', { sharedGpuEndpoints: [endpoint] });

    // THEN
    const [dashboard] = Object.values<any>(Template.fromStack(stack).findResources('AWS::CloudWatch::Dashboard'));
    const body = JSON.stringify(dashboard.Properties.DashboardBody);
    for (const type of ['ml.g5.12xlarge', 'ml.g6.12xlarge', 'ml.g5.48xlarge']) {
      expect(body).toContain(`\\"InvocationsPerCopy\\",\\"InferenceComponentName\\",\\"chat\\",\\"InstanceType\\",\\"${type}\\"`);
      expect(body).toContain(`copies ${type}`);
    }
  });
});

describe('one instance type keeps the singular Specification', () => {
  test.each([
    ['one pool', [{ instanceType: InstanceType.ML_G5_12XLARGE, priority: 1 }]],
    ['two pools of the same type', [{ instanceType: InstanceType.ML_G5_12XLARGE, priority: 1 }, { instanceType: InstanceType.ML_G5_12XLARGE, priority: 2 }]],
  ])('%s', (_, pools) => {
    // GIVEN
    const { stack, endpoint } = endpointWith(pools);

    // WHEN: an entry for the endpoint's one type applies to the one Specification
    endpoint.addInferenceComponent('Chat', {
      model: LMI,
      acceleratorCount: 1,
      minMemory: Size.gibibytes(16),
      instanceTypeRequirements: [{ instanceType: InstanceType.ML_G5_12XLARGE, acceleratorCount: 2 }],
    });

    // THEN
    const props = componentProps(stack);
    expect(props.Specifications).toBeUndefined();
    expect(props.Specification.ComputeResourceRequirements).toEqual({ NumberOfAcceleratorDevicesRequired: 2, MinMemoryRequiredInMb: 16384 });
    expectValidTemplate(stack);
  });
});

describe('an imported endpoint with instance pools', () => {
  function imported(attrs: Partial<SharedGpuEndpointAttributes>, options: Partial<InferenceComponentOptions> = {}) {
    const stack = new Stack(new App(), 'Stack', { env: ENV });
    const endpoint = SharedGpuEndpoint.fromSharedGpuEndpointAttributes(stack, 'Shared', { endpointName: 'shared', ...attrs });
    new InferenceComponent(stack, 'Chat', { endpoint, model: LMI, acceleratorCount: 1, minMemory: Size.gibibytes(8), ...options });
    return stack;
  }

  test('its instanceTypes give one entry per type', () => {
    const stack = imported({ instanceTypes: [InstanceType.ML_G6E_XLARGE, InstanceType.ML_G5_2XLARGE] });
    expect(componentProps(stack).Specifications.map((s: any) => s.InstanceType)).toEqual(['ml.g6e.xlarge', 'ml.g5.2xlarge']);
  });

  test('fails if both instanceType and instanceTypes are given, or more than five types', () => {
    expect(errorOf(() => imported({ instanceType: InstanceType.ML_G5_2XLARGE, instanceTypes: [InstanceType.ML_G5_2XLARGE] })))
      .toContain("instanceType: got 'ml.g5.2xlarge', expected nothing when instanceTypes is given");
    expect(errorOf(() => imported({ instanceTypes: Array(6).fill(InstanceType.ML_G5_2XLARGE) })))
      .toContain("instanceTypes: got '6 instance types', expected between 1 and 5 (one per instance pool)");
  });

  test('fails if instanceTypeRequirements are given while the endpoint\'s types are unknown', () => {
    expect(errorOf(() => imported({}, { instanceTypeRequirements: [{ instanceType: InstanceType.ML_G5_2XLARGE, acceleratorCount: 1 }] })))
      .toContain("instanceTypeRequirements: got 1 entries, expected none: the endpoint's instance types are unknown");
  });
});

describe('refusals, in the component\'s validation (the message names its construct path)', () => {
  function refusal(options: Partial<InferenceComponentOptions>, pools: InstancePool[] = THREE_POOLS): string {
    const { endpoint } = endpointWith(pools);
    return errorOf(() => endpoint.addInferenceComponent('Chat', { model: LMI, acceleratorCount: 1, minMemory: Size.gibibytes(16), ...options }));
  }

  test('fails if an entry names a type that is not one of the pools\'', () => {
    const message = refusal({ instanceTypeRequirements: [{ instanceType: InstanceType.ML_G5_2XLARGE, acceleratorCount: 1 }] });
    expect(message).toMatch(/^Invalid InferenceComponent 'Stack\/Shared\/Chat': 1 problem:/);
    expect(message).toContain("instanceTypeRequirements[0].instanceType: got 'ml.g5.2xlarge', expected one of the endpoint's instance types "
      + '(ml.g5.12xlarge, ml.g6.12xlarge, ml.g5.48xlarge)');
  });

  test('fails if two entries name the same type', () => {
    expect(refusal({
      instanceTypeRequirements: [
        { instanceType: G6_12XLARGE, acceleratorCount: 1 },
        { instanceType: G6_12XLARGE, acceleratorCount: 2 },
      ],
    })).toContain("instanceTypeRequirements[1].instanceType: got 'ml.g6.12xlarge', expected each instance type once (instanceTypeRequirements[0] names it already)");
  });

  test('fails if an entry asks more accelerators, memory or CPU cores than one instance of its type has', () => {
    const message = refusal({
      instanceTypeRequirements: [{ instanceType: G6_12XLARGE, acceleratorCount: 8, minMemory: Size.gibibytes(256), cpuCores: 64 }],
    });
    expect(message).toContain('instanceTypeRequirements[0].acceleratorCount: got 8, expected at most 4: each copy runs on a single instance and one ml.g6.12xlarge instance has 4 accelerator(s)');
    expect(message).toContain('instanceTypeRequirements[0].minMemory: got 262144 MiB, expected at most 196608 MiB: each copy runs on a single instance and one ml.g6.12xlarge instance has 196608 MiB of host memory');
    expect(message).toContain('instanceTypeRequirements[0].cpuCores: got 64, expected at most 48: each copy runs on a single instance and one ml.g6.12xlarge instance has 48 vCPUs');
    // The other types are within their instances.
    expect(message).not.toMatch(/ml\.g5\.(12|48)xlarge instance/);
  });

  test('fails if the component\'s own values exceed one type of the pools, naming that type', () => {
    const message = refusal({ acceleratorCount: 4, minMemory: Size.gibibytes(16) }, [
      { instanceType: InstanceType.ML_G5_12XLARGE, priority: 1 },
      { instanceType: InstanceType.ML_G5_2XLARGE, priority: 2 },
    ]);
    expect(message).toContain('acceleratorCount: got 4, expected at most 1: each copy runs on a single instance and one ml.g5.2xlarge instance has 1 accelerator(s)');
  });

  test('fails if an entry\'s values are out of range, once per problem', () => {
    const message = refusal({
      cpuCores: 0.1,
      instanceTypeRequirements: [
        { instanceType: G6_12XLARGE, acceleratorCount: 0, minMemory: Size.mebibytes(64) },
        { instanceType: InstanceType.ML_G5_48XLARGE, minMemory: Size.gibibytes(32), maxMemory: Size.gibibytes(16) },
      ],
    });
    expect(message).toContain('instanceTypeRequirements[0].acceleratorCount: got 0, expected an integer >= 1');
    expect(message).toContain('instanceTypeRequirements[0].minMemory: got 64 MiB, expected a whole number of MiB >= 128');
    expect(message).toContain('instanceTypeRequirements[1].maxMemory: got 16384 MiB, expected at least minMemory (32768 MiB)');
    // The component's own cpuCores applies to three types and is reported once.
    expect(message.match(/- cpuCores: got 0\.1, expected a number >= 0\.25/g)).toHaveLength(1);
  });

  test('fails if a type gets no accelerator count (a model that does not know its needs), naming each type', () => {
    const message = refusal({
      acceleratorCount: undefined,
      instanceTypeRequirements: [{ instanceType: InstanceType.ML_G5_12XLARGE, acceleratorCount: 1 }],
    });
    expect(message).toMatch(/2 problems/);
    for (const type of ['ml.g6.12xlarge', 'ml.g5.48xlarge']) {
      expect(message).toContain(`acceleratorCount: got nothing, expected the number of accelerators one copy reserves (an integer >= 1) for ${type}: `
        + 'only models whose source knows its needs (JumpStart) bring a default (give it for this type alone in instanceTypeRequirements)');
    }
  });
});
