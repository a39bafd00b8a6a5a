/**
 * Warnings raised from validation hooks carry no stack trace (its frames would be the hook and aws-cdk-lib's synthesis,
 * never the user's code), yet are acknowledged and de-duplicated as any warning, and leave the environment as it was.
 */
import { Annotations, App, Stack } from 'aws-cdk-lib';
import { Annotations as AssertAnnotations, Match } from 'aws-cdk-lib/assertions';
import { Construct, IConstruct, MetadataEntry } from 'constructs';
import { ContainerImage, InstanceType, ModelData, ModelSource } from '../../src/core';
import { addValidationWarning } from '../../src/core/validation';
import { RealtimeEndpoint } from '../../src/realtime';
import { SharedGpuEndpoint } from '../../src/shared-gpu';

const ENV = { account: '123456789012', region: 'us-east-1' };

function warningsOf(scope: IConstruct): MetadataEntry[] {
  return scope.node.metadata.filter((m) => m.type === 'aws:cdk:warning');
}

function scopeWarningInValidation(add: (scope: Construct) => void) {
  const app = new App();
  const stack = new Stack(app, 'Test', { env: ENV });
  const scope = new Construct(stack, 'Thing');
  scope.node.addValidation({ validate: () => (add(scope), []) });
  return { app, stack, scope };
}

describe('addValidationWarning', () => {
  const saved = process.env.CDK_DISABLE_STACK_TRACE;
  afterEach(() => {
    if (saved === undefined) delete process.env.CDK_DISABLE_STACK_TRACE;
    else process.env.CDK_DISABLE_STACK_TRACE = saved;
  });

  test('records the warning with its ack tag and no stack trace, where Annotations alone records one', () => {
    delete process.env.CDK_DISABLE_STACK_TRACE;
    // GIVEN one warning through each path, both from a validation hook
    const ours = scopeWarningInValidation((s) => addValidationWarning(s, 'test:ours', 'ours'));
    const plain = scopeWarningInValidation((s) => Annotations.of(s).addWarningV2('test:plain', 'plain'));
    // WHEN
    ours.app.synth();
    plain.app.synth();
    // THEN
    expect(warningsOf(ours.scope)).toEqual([expect.objectContaining({ data: 'ours [ack: test:ours]', trace: undefined })]);
    expect(warningsOf(plain.scope)[0].trace?.length).toBeGreaterThan(0);
    AssertAnnotations.fromStack(ours.stack).hasWarning('/Test/Thing', Match.stringLikeRegexp('^ours'));
  });

  test('an acknowledged warning is not recorded; a repeated one is recorded once', () => {
    const { app, scope } = scopeWarningInValidation((s) => {
      addValidationWarning(s, 'test:acked', 'acked');
      addValidationWarning(s, 'test:twice', 'twice');
      addValidationWarning(s, 'test:twice', 'twice');
    });
    Annotations.of(scope).acknowledgeWarning('test:acked', 'known');
    app.synth();
    expect(warningsOf(scope).map((m) => m.data)).toEqual(['twice [ack: test:twice]']);
  });

  test.each([[undefined], ['true']])('leaves CDK_DISABLE_STACK_TRACE as it found it (%s)', (value) => {
    if (value === undefined) delete process.env.CDK_DISABLE_STACK_TRACE;
    else process.env.CDK_DISABLE_STACK_TRACE = value;
    const { app } = scopeWarningInValidation((s) => addValidationWarning(s, 'test:env', 'env'));
    app.synth();
    expect(process.env.CDK_DISABLE_STACK_TRACE).toBe(value);
    expect('CDK_DISABLE_STACK_TRACE' in process.env).toBe(value !== undefined);
  });
});

describe('the endpoints\' validation-time warnings', () => {
  test('RealtimeEndpoint: the NVMe key and autoscaled-update warnings carry no stack trace', () => {
    const app = new App();
    const stack = new Stack(app, 'Test', { env: ENV });
    const endpoint = new RealtimeEndpoint(stack, 'Chat', {
      endpointName: 'chat',
      model: ModelSource.fromContainer(ContainerImage.fromImageUri('123456789012.dkr.ecr.us-east-1.amazonaws.com/m:1'), {
        modelData: ModelData.fromS3Uri('s3://artifacts/model/'),
      }),
      instanceType: InstanceType.ML_G5_2XLARGE,
      autoScaling: {},
    });
    app.synth();
    const warnings = warningsOf(endpoint);
    expect(warnings.map((m) => String(m.data).match(/\[ack: ([^\]]+)\]/)?.[1])).toEqual(
      ['cdk-sagemaker-mcp:kmsKeyNvme', 'cdk-sagemaker-mcp:autoscaledVariantUpdate']);
    expect(warnings.map((m) => m.trace)).toEqual([undefined, undefined]);
  });

  test('SharedGpuEndpoint warns of its NVMe key while the app validates, as the other kinds do', () => {
    const app = new App();
    const stack = new Stack(app, 'Test', { env: ENV });
    const endpoint = new SharedGpuEndpoint(stack, 'Shared', { instanceType: InstanceType.ML_G5_12XLARGE });
    // nothing before validation
    expect(warningsOf(endpoint)).toEqual([]);
    app.synth();
    expect(warningsOf(endpoint)).toEqual([expect.objectContaining({
      data: expect.stringContaining('[ack: cdk-sagemaker-mcp:kmsKeyNvme]'),
      trace: undefined,
    })]);
  });
});
