import { App, CfnParameter, Duration, Size, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import { ContainerImage, InstanceType, ModelFamily, ModelSource } from '../../src/core';
import { JumpStartModel } from '../../src/jumpstart/jumpstart-model';
import { CopyScalingTarget, InferenceComponent, SharedGpuEndpoint, SharedGpuEndpointProps } from '../../src/shared-gpu';
import { expectNagClean } from '../support/nag-checks';
import { expectValidTemplate } from '../support/template-checks';

const ENV = { account: '123456789012', region: 'us-east-1' };
const LMI = ContainerImage.fromDlc('djl-inference', '0.29.0-lmi11.0.0-cu124');
const TGI = ContainerImage.fromDlc('huggingface-pytorch-tgi-inference', '2.7.0-tgi3.3.6-gpu-py311-cu124-ubuntu22.04');

function endpointOn(instanceType: InstanceType, props: Partial<SharedGpuEndpointProps> = {}) {
  const app = new App();
  const stack = new Stack(app, 'Stack', { env: ENV });
  const endpoint = new SharedGpuEndpoint(stack, 'Shared', { instanceType, ...props });
  return { app, stack, endpoint };
}

/** The 70B example of docs/shared-gpu.md and the SharedGpuEndpoint JSDoc: a component with 4 of the 8 A100s and 180,000 MB on one ml.p4d.24xlarge. */
function llama70bExample() {
  const { app, stack, endpoint } = endpointOn(InstanceType.ML_P4D_24XLARGE);
  const llama = endpoint.addInferenceComponent('Llama70B', {
    model: JumpStartModel.of('meta-textgeneration-llama-3-70b-instruct', { version: '2.2.0', acceptEula: true }),
    componentName: 'mcp-llama3-70b',
    acceleratorCount: 4,
    minMemory: Size.mebibytes(180_000),
    copies: 1,
  });
  return { app, stack, endpoint, llama };
}

describe('a 70B component on ml.p4d.24xlarge', () => {
  // Built once: the tests only read it.
  let example: ReturnType<typeof llama70bExample>;
  beforeAll(() => {
    example = llama70bExample();
  });

  test('a 70B component with 4 accelerators and 180,000 MB on ml.p4d.24xlarge synthesizes', () => {
    // GIVEN / WHEN
    const { stack } = example;

    // THEN
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::SageMaker::InferenceComponent', {
      InferenceComponentName: 'mcp-llama3-70b',
      EndpointName: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Shared'), 'EndpointName'] },
      VariantName: 'AllTraffic',
      Specification: {
        ModelName: { 'Fn::GetAtt': [Match.stringLikeRegexp('^SharedLlama70BModel'), 'ModelName'] },
        ComputeResourceRequirements: { NumberOfAcceleratorDevicesRequired: 4, MinMemoryRequiredInMb: 180000 },
      },
      RuntimeConfig: { CopyCount: 1 },
    });
    template.hasResourceProperties('AWS::SageMaker::Model', {
      PrimaryContainer: Match.objectLike({
        ModelDataSource: { S3DataSource: Match.objectLike({ S3DataType: 'S3Prefix', CompressionType: 'None', ModelAccessConfig: { AcceptEula: true } }) },
      }),
    });
  });

  test('the explicit 4 accelerators are below the model estimate, which is a warning, not an error', () => {
    const { stack } = example;
    Annotations.fromStack(stack).hasWarning('/Stack/Shared/Llama70B', Match.stringLikeRegexp('acceleratorCount: 4 × 40 GiB .* is 160 GiB, below the ~161 GiB'));
  });

  test('the template is valid and cdk-nag clean', () => {
    const { app, stack } = example;
    expectValidTemplate(stack);
    expectNagClean(app);
  });
});

describe('InferenceComponent', () => {
  test('depends on the endpoint and uses the role of the endpoint for its model', () => {
    // GIVEN
    const { stack, endpoint } = endpointOn(InstanceType.ML_G5_12XLARGE);

    // WHEN
    endpoint.addInferenceComponent('Chat', { model: ModelSource.fromContainer(TGI), acceleratorCount: 2, minMemory: Size.mebibytes(32_768) });

    // THEN
    const template = Template.fromStack(stack);
    const ics = template.findResources('AWS::SageMaker::InferenceComponent');
    const [ic] = Object.values(ics);
    const endpointId = Object.keys(template.findResources('AWS::SageMaker::Endpoint'))[0];
    expect(ic.DependsOn).toContain(endpointId);
    template.hasResourceProperties('AWS::SageMaker::Model', {
      ExecutionRoleArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^SharedRole'), 'Arn'] },
    });
  });

  test('defaults: one copy, no CPU reservation, no startup parameters, a generated name read from the ARN', () => {
    // GIVEN
    const { stack, endpoint } = endpointOn(InstanceType.ML_G5_12XLARGE);

    // WHEN
    const ic = endpoint.addInferenceComponent('Chat', { model: ModelSource.fromContainer(TGI), acceleratorCount: 1, minMemory: Size.mebibytes(16_384) });

    // THEN
    Template.fromStack(stack).hasResourceProperties('AWS::SageMaker::InferenceComponent', {
      InferenceComponentName: Match.absent(),
      RuntimeConfig: { CopyCount: 1 },
      Specification: {
        ComputeResourceRequirements: {
          NumberOfAcceleratorDevicesRequired: 1,
          MinMemoryRequiredInMb: 16384,
          NumberOfCpuCoresRequired: Match.absent(),
          MaxMemoryRequiredInMb: Match.absent(),
        },
        StartupParameters: Match.absent(),
      },
    });
    expect(stack.resolve(ic.inferenceComponentName)).toEqual({
      'Fn::Select': [1, { 'Fn::Split': ['inference-component/', { 'Fn::GetAtt': [expect.stringMatching(/^SharedChat/), 'InferenceComponentArn'] }] }],
    });
  });

  test('options: CPU cores, max memory, copies, startup timeouts', () => {
    // GIVEN
    const { stack, endpoint } = endpointOn(InstanceType.ML_G5_12XLARGE);

    // WHEN
    endpoint.addInferenceComponent('Chat', {
      model: ModelSource.fromContainer(TGI),
      acceleratorCount: 1,
      minMemory: Size.mebibytes(16_384),
      maxMemory: Size.mebibytes(32_768),
      cpuCores: 4,
      copies: 2,
      modelDataDownloadTimeout: Duration.minutes(20),
      containerStartupHealthCheckTimeout: Duration.minutes(15),
    });

    // THEN
    Template.fromStack(stack).hasResourceProperties('AWS::SageMaker::InferenceComponent', {
      RuntimeConfig: { CopyCount: 2 },
      Specification: {
        ComputeResourceRequirements: {
          NumberOfAcceleratorDevicesRequired: 1, MinMemoryRequiredInMb: 16384, MaxMemoryRequiredInMb: 32768, NumberOfCpuCoresRequired: 4,
        },
        StartupParameters: { ModelDataDownloadTimeoutInSeconds: 1200, ContainerStartupHealthCheckTimeoutInSeconds: 900 },
      },
    });
  });

  test('an existing model by name creates no AWS::SageMaker::Model', () => {
    const { stack, endpoint } = endpointOn(InstanceType.ML_G5_12XLARGE);
    endpoint.addInferenceComponent('Existing', { model: ModelSource.fromModelName('my-model'), acceleratorCount: 1, minMemory: Size.mebibytes(1024) });
    const template = Template.fromStack(stack);
    template.resourceCountIs('AWS::SageMaker::Model', 0);
    template.hasResourceProperties('AWS::SageMaker::InferenceComponent', { Specification: Match.objectLike({ ModelName: 'my-model' }) });
  });

  test('a JumpStart model brings its accelerators (rounded to a power of two) and a proportional share of host memory', () => {
    // GIVEN
    const { stack, endpoint } = endpointOn(InstanceType.ML_G5_12XLARGE);

    // WHEN: Llama 3 8B needs ~24.6 GiB: 2 of the 4 A10Gs (24 GiB each), and half of the 192 GiB of host memory
    const ic = endpoint.addInferenceComponent('Llama8B', {
      model: JumpStartModel.of('meta-textgeneration-llama-3-8b-instruct', { version: '2.2.0', acceptEula: true }),
    });

    // THEN
    Template.fromStack(stack).hasResourceProperties('AWS::SageMaker::InferenceComponent', {
      Specification: Match.objectLike({ ComputeResourceRequirements: { NumberOfAcceleratorDevicesRequired: 2, MinMemoryRequiredInMb: 98304 } }),
    });
    expect(ic.modelFamily).toBe(ModelFamily.LLAMA3);
    expect(ic.acceleratorCount).toBe(2);
  });

  test('a JumpStart 70B on ml.p4d.24xlarge defaults to 8 accelerators (5 needed, rounded up to a power of two)', () => {
    const { stack, endpoint } = endpointOn(InstanceType.ML_P4D_24XLARGE);
    endpoint.addInferenceComponent('Llama70B', {
      model: JumpStartModel.of('meta-textgeneration-llama-3-70b-instruct', { version: '2.2.0', acceptEula: true }),
    });
    Template.fromStack(stack).hasResourceProperties('AWS::SageMaker::InferenceComponent', {
      Specification: Match.objectLike({ ComputeResourceRequirements: { NumberOfAcceleratorDevicesRequired: 8, MinMemoryRequiredInMb: 1152 * 1024 } }),
    });
  });

  test('explicit values win over a JumpStart model\'s defaults', () => {
    const { stack, endpoint } = endpointOn(InstanceType.ML_G5_12XLARGE);
    endpoint.addInferenceComponent('Mistral', {
      model: JumpStartModel.of('huggingface-llm-mistral-7b-instruct', { version: '3.5.0' }),
      acceleratorCount: 1,
      minMemory: Size.mebibytes(20_000),
    });
    Template.fromStack(stack).hasResourceProperties('AWS::SageMaker::InferenceComponent', {
      Specification: Match.objectLike({ ComputeResourceRequirements: { NumberOfAcceleratorDevicesRequired: 1, MinMemoryRequiredInMb: 20000 } }),
    });
  });

  test('two components fill one ml.g5.12xlarge exactly', () => {
    const { stack, endpoint } = endpointOn(InstanceType.ML_G5_12XLARGE);
    endpoint.addInferenceComponent('A', { model: ModelSource.fromContainer(TGI), acceleratorCount: 2, minMemory: Size.mebibytes(98_304) });
    endpoint.addInferenceComponent('B', { model: ModelSource.fromContainer(LMI), acceleratorCount: 1, minMemory: Size.mebibytes(49_152), copies: 2 });
    Template.fromStack(stack).resourceCountIs('AWS::SageMaker::InferenceComponent', 2);
    expect(endpoint.inferenceComponents.map((c) => c.node.id)).toEqual(['A', 'B']);
  });

  test('a CPU-only instance needs no acceleratorCount', () => {
    const { stack, endpoint } = endpointOn(InstanceType.ML_M5_2XLARGE);
    endpoint.addInferenceComponent('Embed', { model: ModelSource.fromContainer(TGI), minMemory: Size.mebibytes(4096), cpuCores: 2 });
    Template.fromStack(stack).hasResourceProperties('AWS::SageMaker::InferenceComponent', {
      Specification: Match.objectLike({
        ComputeResourceRequirements: { MinMemoryRequiredInMb: 4096, NumberOfCpuCoresRequired: 2, NumberOfAcceleratorDevicesRequired: Match.absent() },
      }),
    });
  });
});

describe('InferenceComponent validation', () => {
  const model = ModelSource.fromContainer(TGI);

  test('fails if acceleratorCount is missing for a non-JumpStart model on a GPU instance', () => {
    const { endpoint } = endpointOn(InstanceType.ML_G5_12XLARGE);
    expect(() => endpoint.addInferenceComponent('Chat', { model, minMemory: Size.mebibytes(1024) }))
      .toThrow(/acceleratorCount: got nothing, expected the number of accelerators one copy reserves \(an integer >= 1\) for ml.g5.12xlarge/);
  });

  test('fails if minMemory is missing for a non-JumpStart model (the API requires MinMemoryRequiredInMb)', () => {
    const { endpoint } = endpointOn(InstanceType.ML_G5_12XLARGE);
    expect(() => endpoint.addInferenceComponent('Chat', { model, acceleratorCount: 1 }))
      .toThrow(/minMemory: got nothing, expected the host memory one copy reserves \(a whole number of MiB >= 128\): CreateInferenceComponent requires MinMemoryRequiredInMb/);
  });

  test('fails if the compute values are out of range', () => {
    const { endpoint } = endpointOn(InstanceType.ML_G5_12XLARGE);
    expect(() => endpoint.addInferenceComponent('Chat', {
      model,
      acceleratorCount: 0,
      minMemory: Size.mebibytes(64),
      maxMemory: Size.mebibytes(100),
      cpuCores: 0.1,
      copies: 0,
      modelDataDownloadTimeout: Duration.seconds(30),
      containerStartupHealthCheckTimeout: Duration.hours(2),
    })).toThrow(new RegExp([
      'acceleratorCount: got 0, expected an integer >= 1',
      'minMemory: got 64 MiB, expected a whole number of MiB >= 128',
      'maxMemory: got 100 MiB, expected a whole number of MiB >= 128',
      'cpuCores: got 0.1, expected a number >= 0.25',
      'copies: got 0, expected an integer >= 1',
      'modelDataDownloadTimeout: got 30, expected an integer between 60 and 3600 seconds',
      'containerStartupHealthCheckTimeout: got 7200, expected an integer between 60 and 3600 seconds',
    ].join('[\\s\\S]*')));
  });

  test('fails if a startup timeout is not a whole number of seconds, naming the prop', () => {
    // GIVEN
    const { endpoint } = endpointOn(InstanceType.ML_G5_12XLARGE);
    // WHEN / THEN: 90.5 s reaches the validator instead of Duration.toSeconds throwing a message that names no prop
    expect(() => endpoint.addInferenceComponent('Chat', {
      model,
      acceleratorCount: 1,
      minMemory: Size.mebibytes(1024),
      modelDataDownloadTimeout: Duration.millis(90_500),
      containerStartupHealthCheckTimeout: Duration.millis(120_250),
    })).toThrow(/modelDataDownloadTimeout: got 90.5, expected an integer between 60 and 3600 seconds[\s\S]*containerStartupHealthCheckTimeout: got 120.25, expected an integer between 60 and 3600 seconds/);
  });

  test('fails if maxMemory is below minMemory', () => {
    const { endpoint } = endpointOn(InstanceType.ML_G5_12XLARGE);
    expect(() => endpoint.addInferenceComponent('Chat', { model, acceleratorCount: 1, minMemory: Size.mebibytes(2048), maxMemory: Size.mebibytes(1024) }))
      .toThrow(/maxMemory: got 1024 MiB, expected at least minMemory \(2048 MiB\)/);
  });

  test('fails if the component name does not match the SageMaker pattern', () => {
    const { endpoint } = endpointOn(InstanceType.ML_G5_12XLARGE);
    expect(() => endpoint.addInferenceComponent('Chat', { model, acceleratorCount: 1, minMemory: Size.mebibytes(1024), componentName: 'mcp_llama' }))
      .toThrow(/componentName: got 'mcp_llama', expected 1-63 letters/);
  });

  test('fails if one copy needs more accelerators, memory or CPUs than one instance has', () => {
    const { endpoint } = endpointOn(InstanceType.ML_G5_12XLARGE);
    expect(() => endpoint.addInferenceComponent('Big', { model, acceleratorCount: 8, minMemory: Size.mebibytes(300_000), cpuCores: 64 }))
      .toThrow(new RegExp([
        'acceleratorCount: got 8, expected at most 4: each copy runs on a single instance and one ml.g5.12xlarge instance has 4 accelerator\\(s\\)',
        'minMemory: got 300000 MiB, expected at most 196608 MiB: each copy runs on a single instance and one ml.g5.12xlarge instance has 196608 MiB of host memory',
        'cpuCores: got 64, expected at most 48: each copy runs on a single instance and one ml.g5.12xlarge instance has 48 vCPUs',
      ].join('[\\s\\S]*')));
  });

  test('fails if the initial copies of all components need more accelerators than the endpoint\'s instances have', () => {
    // GIVEN: 4 A10Gs, of which A takes 2 × 1
    const { endpoint } = endpointOn(InstanceType.ML_G5_12XLARGE);
    endpoint.addInferenceComponent('A', { model, acceleratorCount: 1, minMemory: Size.mebibytes(16_384), copies: 2 });

    // WHEN / THEN: B asks for 3 more
    expect(() => endpoint.addInferenceComponent('B', { model, acceleratorCount: 3, minMemory: Size.mebibytes(16_384) }))
      .toThrow(/copies: the initial copies of all inference components need 5 accelerators \(A: 2 × 1, B: 1 × 3\), expected at most 4: the endpoint's 1 × ml.g5.12xlarge have 4 each/);
  });

  test('fails if the initial copies of all components need more memory than the endpoint\'s instances have', () => {
    const { endpoint } = endpointOn(InstanceType.ML_P4D_24XLARGE);
    endpoint.addInferenceComponent('A', { model, acceleratorCount: 1, minMemory: Size.mebibytes(600_000) });
    expect(() => endpoint.addInferenceComponent('B', { model, acceleratorCount: 1, minMemory: Size.mebibytes(600_000) }))
      .toThrow(/need 1200000 MiB of memory \(A: 1 × 600000, B: 1 × 600000\), expected at most 1179648: the endpoint's 1 × ml.p4d.24xlarge have 1179648 MiB each/);
  });

  test('more instances make room for more copies', () => {
    const { endpoint } = endpointOn(InstanceType.ML_G5_12XLARGE, { initialInstanceCount: 2 });
    endpoint.addInferenceComponent('A', { model, acceleratorCount: 2, minMemory: Size.mebibytes(16_384), copies: 4 });
    expect(() => endpoint.addInferenceComponent('B', { model, acceleratorCount: 1, minMemory: Size.mebibytes(1024) }))
      .toThrow(/need 9 accelerators .* expected at most 8: the endpoint's 2 × ml.g5.12xlarge have 4 each/);
  });
});

describe('autoScaleCopyCount', () => {
  function component(props: Partial<SharedGpuEndpointProps> = {}) {
    const { app, stack, endpoint } = endpointOn(InstanceType.ML_G5_12XLARGE, props);
    const ic = endpoint.addInferenceComponent('Chat', { model: ModelSource.fromContainer(TGI), acceleratorCount: 1, minMemory: Size.mebibytes(16_384) });
    return { app, stack, endpoint, ic };
  }

  test('target tracking on invocations per copy, asymmetric cooldowns by default', () => {
    // GIVEN
    const { stack, ic } = component();

    // WHEN
    ic.autoScaleCopyCount({ minCapacity: 1, maxCapacity: 4, target: CopyScalingTarget.invocationsPerCopy(10) });

    // THEN
    const template = Template.fromStack(stack);
    const icId = Object.keys(template.findResources('AWS::SageMaker::InferenceComponent'))[0];
    template.hasResource('AWS::ApplicationAutoScaling::ScalableTarget', {
      Properties: {
        ServiceNamespace: 'sagemaker',
        ScalableDimension: 'sagemaker:inference-component:DesiredCopyCount',
        ResourceId: { 'Fn::Join': ['', ['inference-component/', { 'Fn::Select': [1, { 'Fn::Split': ['inference-component/', { 'Fn::GetAtt': [icId, 'InferenceComponentArn'] }] }] }]] },
        MinCapacity: 1,
        MaxCapacity: 4,
        RoleARN: Match.absent(),
      },
      DependsOn: [icId],
    });
    template.hasResourceProperties('AWS::ApplicationAutoScaling::ScalingPolicy', {
      PolicyType: 'TargetTrackingScaling',
      ScalingTargetId: { Ref: Match.stringLikeRegexp('^SharedChatScalableTarget') },
      TargetTrackingScalingPolicyConfiguration: {
        PredefinedMetricSpecification: { PredefinedMetricType: 'SageMakerInferenceComponentInvocationsPerCopy' },
        TargetValue: 10,
        ScaleOutCooldown: 60,
        ScaleInCooldown: 300,
      },
    });
    template.resourceCountIs('AWS::CloudWatch::Alarm', 0);
    template.resourceCountIs('AWS::IAM::Role', 1);
  });

  test('high-resolution concurrency per copy, custom cooldowns, a named component', () => {
    // GIVEN
    const { stack, endpoint } = endpointOn(InstanceType.ML_G5_12XLARGE);
    const ic = endpoint.addInferenceComponent('Chat', { model: ModelSource.fromContainer(TGI), acceleratorCount: 1, minMemory: Size.mebibytes(16_384), componentName: 'mcp-chat' });

    // WHEN
    ic.autoScaleCopyCount({
      minCapacity: 1,
      maxCapacity: 3,
      target: CopyScalingTarget.concurrentRequestsPerCopy(4),
      scaleOutCooldown: Duration.seconds(30),
      scaleInCooldown: Duration.minutes(10),
    });

    // THEN
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::ApplicationAutoScaling::ScalableTarget', { ResourceId: 'inference-component/mcp-chat' });
    template.hasResourceProperties('AWS::ApplicationAutoScaling::ScalingPolicy', {
      TargetTrackingScalingPolicyConfiguration: {
        PredefinedMetricSpecification: { PredefinedMetricType: 'SageMakerInferenceComponentConcurrentRequestsPerCopyHighResolution' },
        TargetValue: 4,
        ScaleOutCooldown: 30,
        ScaleInCooldown: 600,
      },
    });
  });

  test('the endpoint\'s autoScaleInstanceCount, called after the component is added, reads like the instanceScaling prop', () => {
    // GIVEN
    const byProp = component({ instanceScaling: { minCapacity: 0, maxCapacity: 2 } });
    const byVerb = component();

    // WHEN
    const scaling = byVerb.endpoint.autoScaleInstanceCount({ minCapacity: 0, maxCapacity: 2 });
    for (const { ic } of [byProp, byVerb]) ic.autoScaleCopyCount({ minCapacity: 0, maxCapacity: 2, target: CopyScalingTarget.invocationsPerCopy(1) });

    // THEN
    expect(scaling).toEqual({ minCapacity: 0, maxCapacity: 2 });
    expect(byVerb.endpoint.instanceScaling).toBe(scaling);
    expect(Template.fromStack(byVerb.stack).toJSON()).toEqual(Template.fromStack(byProp.stack).toJSON());
    expect(() => byProp.endpoint.autoScaleInstanceCount({ minCapacity: 1, maxCapacity: 3 }))
      .toThrow(/autoScaleInstanceCount: got a second call for variant 'AllTraffic', expected one call per scalable target/);
  });

  test('scale to zero adds the step policy and the NoCapacityInvocationFailures alarm of the AWS recipe', () => {
    // GIVEN
    const { app, stack, ic } = component({ instanceScaling: { minCapacity: 0, maxCapacity: 2 } });

    // WHEN
    ic.autoScaleCopyCount({ minCapacity: 0, maxCapacity: 2, target: CopyScalingTarget.invocationsPerCopy(1) });

    // THEN
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::ApplicationAutoScaling::ScalableTarget', { MinCapacity: 0, MaxCapacity: 2 });
    template.hasResourceProperties('AWS::ApplicationAutoScaling::ScalingPolicy', {
      PolicyType: 'StepScaling',
      ScalingTargetId: { Ref: Match.stringLikeRegexp('^SharedChatScalableTarget') },
      StepScalingPolicyConfiguration: {
        AdjustmentType: 'ChangeInCapacity',
        MetricAggregationType: 'Maximum',
        Cooldown: 60,
        StepAdjustments: [{ MetricIntervalLowerBound: 0, ScalingAdjustment: 1 }],
      },
    });
    const stepPolicyId = Object.entries(template.findResources('AWS::ApplicationAutoScaling::ScalingPolicy'))
      .find(([, r]) => r.Properties.PolicyType === 'StepScaling')![0];
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/SageMaker',
      MetricName: 'NoCapacityInvocationFailures',
      Dimensions: [{ Name: 'InferenceComponentName', Value: Match.anyValue() }],
      Statistic: 'Sum',
      Period: 60,
      EvaluationPeriods: 1,
      DatapointsToAlarm: 1,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      AlarmActions: [{ Ref: stepPolicyId }],
      TreatMissingData: Match.absent(),
    });
    expectValidTemplate(stack);
    expectNagClean(app);
  });

  test('warns when scale-in is not slower than scale-out', () => {
    const { stack, ic } = component();
    const target = CopyScalingTarget.invocationsPerCopy(5);
    ic.autoScaleCopyCount({ minCapacity: 1, maxCapacity: 2, target, scaleOutCooldown: Duration.minutes(5), scaleInCooldown: Duration.minutes(1) });
    Annotations.fromStack(stack).hasWarning('/Stack/Shared/Chat', Match.stringLikeRegexp('scaleOutCooldown'));
  });

  test('fails if minCapacity is 0 while the endpoint cannot scale its instances to zero', () => {
    const { ic } = component({ instanceScaling: { minCapacity: 1, maxCapacity: 2 } });
    expect(() => ic.autoScaleCopyCount({ minCapacity: 0, maxCapacity: 2, target: CopyScalingTarget.invocationsPerCopy(1) }))
      .toThrow(/minCapacity: got 0, expected the endpoint's instanceScaling.minCapacity to be 0 too \(got 1\)/);
  });

  test('scale to zero is accepted when the endpoint\'s minCapacity is a token (known only at deploy time)', () => {
    // GIVEN
    const app = new App();
    const stack = new Stack(app, 'Stack', { env: ENV });
    const minInstances = new CfnParameter(stack, 'MinInstances', { type: 'Number', default: 0 }).valueAsNumber;
    const endpoint = new SharedGpuEndpoint(stack, 'Shared', {
      instanceType: InstanceType.ML_G5_12XLARGE,
      instanceScaling: { minCapacity: minInstances, maxCapacity: 2 },
    });
    const ic = endpoint.addInferenceComponent('Chat', { model: ModelSource.fromContainer(TGI), acceleratorCount: 1, minMemory: Size.mebibytes(16_384) });
    // WHEN
    ic.autoScaleCopyCount({ minCapacity: 0, maxCapacity: 2, target: CopyScalingTarget.invocationsPerCopy(1) });
    // THEN
    Template.fromStack(stack).hasResourceProperties('AWS::ApplicationAutoScaling::ScalableTarget', { MinCapacity: 0, MaxCapacity: 2 });
  });

  test('fails if minCapacity is 0 without managed instance scaling', () => {
    const { ic } = component();
    expect(() => ic.autoScaleCopyCount({ minCapacity: 0, maxCapacity: 2, target: CopyScalingTarget.invocationsPerCopy(1) }))
      .toThrow(/minCapacity: got 0, expected the endpoint's instanceScaling.minCapacity to be 0 too \(got no instanceScaling\)/);
  });

  test('fails if the copy bounds or the target are wrong', () => {
    const { ic } = component();
    expect(() => ic.autoScaleCopyCount({ minCapacity: 3, maxCapacity: 2, target: CopyScalingTarget.concurrentRequestsPerCopy(-1) }))
      .toThrow(/maxCapacity: got 2, expected at least minCapacity \(3\)[\s\S]*target.concurrentRequestsPerCopy: got -1, expected a number > 0/);
  });

  test('fails if no target is given (a JavaScript caller can omit it)', () => {
    const { ic } = component();
    expect(() => ic.autoScaleCopyCount({ minCapacity: 1, maxCapacity: 2 } as any))
      .toThrow(/target: got nothing, expected CopyScalingTarget.invocationsPerCopy\(n\) or CopyScalingTarget.concurrentRequestsPerCopy\(n\)/);
  });

  test('a target names its metric and value', () => {
    expect(CopyScalingTarget.invocationsPerCopy(5)).toMatchObject({ predefinedMetricType: 'SageMakerInferenceComponentInvocationsPerCopy', targetValue: 5 });
    expect(CopyScalingTarget.concurrentRequestsPerCopy(4)).toMatchObject({
      predefinedMetricType: 'SageMakerInferenceComponentConcurrentRequestsPerCopyHighResolution', targetValue: 4,
    });
  });

  test('fails if called twice', () => {
    const { ic } = component();
    ic.autoScaleCopyCount({ minCapacity: 1, maxCapacity: 2, target: CopyScalingTarget.invocationsPerCopy(1) });
    expect(() => ic.autoScaleCopyCount({ minCapacity: 1, maxCapacity: 2, target: CopyScalingTarget.invocationsPerCopy(1) }))
      .toThrow(/autoScaleCopyCount: got a second call for inference component 'Chat', expected one call per scalable target/);
  });
});

describe('grants', () => {
  test('grantInvoke allows InvokeEndpoint on the endpoint ARN (IC-level scoping is not documented)', () => {
    // GIVEN
    const { stack, endpoint } = endpointOn(InstanceType.ML_G5_12XLARGE);
    const ic = endpoint.addInferenceComponent('Chat', { model: ModelSource.fromContainer(TGI), acceleratorCount: 1, minMemory: Size.mebibytes(16_384) });
    const caller = new iam.Role(stack, 'Caller', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });

    // WHEN
    ic.grantInvoke(caller);

    // THEN
    Template.fromStack(stack).hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: Match.stringLikeRegexp('^Caller') }],
      PolicyDocument: {
        Statement: [{
          Action: ['sagemaker:InvokeEndpoint', 'sagemaker:InvokeEndpointWithResponseStream'],
          Effect: 'Allow',
          Resource: [{ 'Fn::GetAtt': [Match.stringLikeRegexp('^Shared'), 'EndpointArn'] }, Match.anyValue()],
        }],
      },
    });
  });

  test('an imported component grants on its endpoint\'s lowercase ARN', () => {
    // GIVEN
    const app = new App();
    const stack = new Stack(app, 'Stack', { env: ENV });
    const ic = InferenceComponent.fromInferenceComponentAttributes(stack, 'Imported', { inferenceComponentName: 'mcp-llama3-70b', endpointName: 'MCP-Shared-GPU' });
    const caller = new iam.Role(stack, 'Caller', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });

    // WHEN
    ic.grantInvoke(caller);

    // THEN
    Template.fromStack(stack).hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: { Statement: [Match.objectLike({ Resource: Match.arrayWith([{ 'Fn::Join': ['', Match.arrayWith([':sagemaker:us-east-1:123456789012:endpoint/mcp-shared-gpu'])] }]) })] },
    });
    expect(stack.resolve(ic.inferenceComponentArn)).toEqual({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':sagemaker:us-east-1:123456789012:inference-component/mcp-llama3-70b']] });
  });
});

describe('metrics', () => {
  test('invocation metrics are per component in AWS/SageMaker', () => {
    const { llama: ic } = llama70bExample();
    const expectations: Array<[string, string, string]> = [
      [ic.metricInvocations().metricName, 'Invocations', ic.metricInvocations().statistic],
      [ic.metricInvocationsPerCopy().metricName, 'InvocationsPerCopy', ic.metricInvocationsPerCopy().statistic],
      [ic.metricModelLatency().metricName, 'ModelLatency', ic.metricModelLatency().statistic],
      [ic.metricOverheadLatency().metricName, 'OverheadLatency', ic.metricOverheadLatency().statistic],
      [ic.metricInvocation4XXErrors().metricName, 'Invocation4XXErrors', ic.metricInvocation4XXErrors().statistic],
      [ic.metricInvocation5XXErrors().metricName, 'Invocation5XXErrors', ic.metricInvocation5XXErrors().statistic],
      [ic.metricInvocationModelErrors().metricName, 'InvocationModelErrors', ic.metricInvocationModelErrors().statistic],
      [ic.metricNoCapacityInvocationFailures().metricName, 'NoCapacityInvocationFailures', ic.metricNoCapacityInvocationFailures().statistic],
      [ic.metricConcurrentRequestsPerCopy().metricName, 'ConcurrentRequestsPerCopy', ic.metricConcurrentRequestsPerCopy().statistic],
    ];
    for (const [name, expected] of expectations) expect(name).toBe(expected);
    expect(expectations.map(([, , s]) => s)).toEqual(['Sum', 'Sum', 'Average', 'Average', 'Sum', 'Sum', 'Sum', 'Sum', 'Maximum']);
    const m = ic.metricInvocations();
    expect(m.namespace).toBe('AWS/SageMaker');
    expect(m.dimensions).toEqual({ InferenceComponentName: 'mcp-llama3-70b' });
  });

  test('utilization metrics are per component in /aws/sagemaker/InferenceComponents', () => {
    const { llama: ic } = llama70bExample();
    const metrics = [
      ic.metricGpuUtilizationNormalized(), ic.metricGpuMemoryUtilizationNormalized(),
      ic.metricCpuUtilizationNormalized(), ic.metricMemoryUtilizationNormalized(),
    ];
    expect(metrics.map((m) => m.metricName)).toEqual(['GPUUtilizationNormalized', 'GPUMemoryUtilizationNormalized', 'CPUUtilizationNormalized', 'MemoryUtilizationNormalized']);
    for (const m of metrics) {
      expect(m.namespace).toBe('/aws/sagemaker/InferenceComponents');
      expect(m.statistic).toBe('Average');
      expect(m.dimensions).toEqual({ InferenceComponentName: 'mcp-llama3-70b' });
    }
  });

  test('metric props override the defaults', () => {
    const { llama: ic } = llama70bExample();
    const m = ic.metricModelLatency({ statistic: 'p99', period: Duration.minutes(1) });
    expect(m.statistic).toBe('p99');
    expect(m.period.toSeconds()).toBe(60);
  });
});

describe('components on an imported shared endpoint', () => {
  function imported(attrs: Partial<Parameters<typeof SharedGpuEndpoint.fromSharedGpuEndpointAttributes>[2]> = {}) {
    const app = new App();
    const stack = new Stack(app, 'Stack', { env: ENV });
    const endpoint = SharedGpuEndpoint.fromSharedGpuEndpointAttributes(stack, 'Shared', { endpointName: 'Team-Shared', ...attrs });
    return { stack, endpoint };
  }

  test('a component is created on the named endpoint, with a model role of its own, and a warning that its fit is unchecked', () => {
    // GIVEN
    const { stack, endpoint } = imported();

    // WHEN
    const ic = new InferenceComponent(stack, 'Chat', {
      endpoint, model: ModelSource.fromContainer(TGI), acceleratorCount: 1, minMemory: Size.gibibytes(16), componentName: 'chat',
    });

    // THEN
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::SageMaker::InferenceComponent', {
      EndpointName: 'Team-Shared',
      VariantName: 'AllTraffic',
      Specification: Match.objectLike({ ComputeResourceRequirements: { NumberOfAcceleratorDevicesRequired: 1, MinMemoryRequiredInMb: 16384 } }),
    });
    template.hasResourceProperties('AWS::SageMaker::Model', { ExecutionRoleArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^ChatRole'), 'Arn'] } });
    expect(Object.values(template.findResources('AWS::SageMaker::InferenceComponent'))[0].DependsOn ?? []).toEqual([]);
    Annotations.fromStack(stack).hasWarning('/Stack/Chat', Match.stringLikeRegexp("endpoint: 'Team-Shared' is imported, so this component's copies are not checked to fit"));
    expect(ic.endpointArn).toMatch(/endpoint\/team-shared$/);
  });

  test('the import\'s role runs the model; a copy larger than any instance is not refused, since nothing is known of the instances', () => {
    const stack = new Stack(new App(), 'Stack', { env: ENV });
    const role = iam.Role.fromRoleName(stack, 'Role', 'shared-endpoint-role');
    const endpoint = SharedGpuEndpoint.fromSharedGpuEndpointAttributes(stack, 'Shared', { endpointName: 'shared', role });
    new InferenceComponent(stack, 'Big', { endpoint, model: ModelSource.fromContainer(TGI), acceleratorCount: 64, minMemory: Size.tebibytes(4) });
    const model = Object.values(Template.fromStack(stack).findResources('AWS::SageMaker::Model'))[0];
    expect(JSON.stringify(model.Properties.ExecutionRoleArn)).toMatch(/:role\/shared-endpoint-role"/);
    Template.fromStack(stack).resourceCountIs('AWS::IAM::Role', 0);
  });

  test('with the instance type given, a JumpStart model sizes its copies for it', () => {
    const { stack, endpoint } = imported({ instanceType: InstanceType.ML_G5_12XLARGE });
    const ic = new InferenceComponent(stack, 'Mistral', { endpoint, model: JumpStartModel.of('huggingface-llm-mistral-7b-instruct', { version: '3.5.0' }) });
    expect([ic.acceleratorCount, ic.minMemory.toMebibytes()]).toEqual([1, 49152]);
  });

  test('scale to zero: checked against the given instance scaling, warned about when it is unknown', () => {
    const known = imported({ instanceScaling: { minCapacity: 1, maxCapacity: 2 } });
    const a = new InferenceComponent(known.stack, 'A', { endpoint: known.endpoint, model: ModelSource.fromContainer(TGI), acceleratorCount: 1, minMemory: Size.gibibytes(16) });
    expect(() => a.autoScaleCopyCount({ minCapacity: 0, target: CopyScalingTarget.invocationsPerCopy(1) })).toThrow(/instanceScaling.minCapacity to be 0 too \(got 1\)/);

    const unknown = imported();
    const b = new InferenceComponent(unknown.stack, 'B', { endpoint: unknown.endpoint, model: ModelSource.fromContainer(TGI), acceleratorCount: 1, minMemory: Size.gibibytes(16) });
    b.autoScaleCopyCount({ minCapacity: 0, target: CopyScalingTarget.invocationsPerCopy(1) });
    Annotations.fromStack(unknown.stack).hasWarning('/Stack/B', Match.stringLikeRegexp('autoScaleCopyCount.minCapacity: 0 is not checked'));
    Template.fromStack(unknown.stack).resourceCountIs('AWS::CloudWatch::Alarm', 1);
  });

  test('fromEndpointName imports the same way, and refuses a bad name', () => {
    const stack = new Stack(new App(), 'Stack', { env: ENV });
    const endpoint = SharedGpuEndpoint.fromEndpointName(stack, 'Shared', 'shared');
    expect(endpoint.variantName).toBe('AllTraffic');
    expect(() => SharedGpuEndpoint.fromEndpointName(stack, 'Bad', 'bad_name')).toThrow(/endpointName: got 'bad_name'/);
  });
});
