/**
 * Warnings raised from the library's validation hooks (`addValidationHook`) are acknowledged and de-duplicated as any
 * warning, and the hook leaves the environment as it was.
 */
import { Annotations, App, Duration, Stack } from 'aws-cdk-lib';
import { Annotations as AssertAnnotations, Match } from 'aws-cdk-lib/assertions';
import * as kms from 'aws-cdk-lib/aws-kms';
import { Construct, IConstruct, MetadataEntry } from 'constructs';
import { AsyncEndpoint } from '../../src/async';
import { ContainerImage, InstanceType, ModelData, ModelSource } from '../../src/core';
import { addValidationHook } from '../../src/private/validation';
import { RealtimeEndpoint } from '../../src/realtime';
import { Rollout, RolloutCapacity } from '../../src/rollouts';
import { SharedGpuEndpoint } from '../../src/shared-gpu';

const ENV = { account: '123456789012', region: 'us-east-1' };

function warningsOf(scope: IConstruct): MetadataEntry[] {
  return scope.node.metadata.filter((m) => m.type === 'aws:cdk:warning');
}

/** A construct whose hook (ours by default, else a plain `node.addValidation`) runs `raise` while the app validates. */
function scopeWarningInValidation(raise: (scope: Construct) => void, hook: 'ours' | 'plain' = 'ours') {
  const app = new App();
  const stack = new Stack(app, 'Test', { env: ENV });
  const scope = new Construct(stack, 'Thing');
  const validate = () => {
    raise(scope);
    return [];
  };
  if (hook === 'ours') addValidationHook(scope, validate);
  else scope.node.addValidation({ validate });
  return { app, stack, scope };
}

const warn = (id: string, message: string) => (s: Construct) => Annotations.of(s).addWarningV2(id, message);

describe('addValidationHook', () => {
  test('a warning from its hook is recorded on its construct with its ack tag, as from a plain hook', () => {
    // GIVEN the same kind of warning from each kind of hook
    const ours = scopeWarningInValidation(warn('test:ours', 'ours'));
    const plain = scopeWarningInValidation(warn('test:plain', 'plain'), 'plain');
    // WHEN
    ours.app.synth();
    plain.app.synth();
    // THEN
    expect(warningsOf(ours.scope)).toEqual([expect.objectContaining({ data: 'ours [ack: test:ours]' })]);
    expect(warningsOf(plain.scope)).toEqual([expect.objectContaining({ data: 'plain [ack: test:plain]' })]);
    AssertAnnotations.fromStack(ours.stack).hasWarning('/Test/Thing', Match.stringLikeRegexp('^ours'));
  });

  test('an acknowledged warning is not recorded; a repeated one is recorded once', () => {
    const { app, scope } = scopeWarningInValidation((s) => {
      warn('test:acked', 'acked')(s);
      warn('test:twice', 'twice')(s);
      warn('test:twice', 'twice')(s);
    });
    Annotations.of(scope).acknowledgeWarning('test:acked', 'known');
    app.synth();
    expect(warningsOf(scope).map((m) => m.data)).toEqual(['twice [ack: test:twice]']);
  });
});

describe('the endpoints\' validation-time warnings', () => {
  test.each([
    ['RealtimeEndpoint', (s: Stack) => new RealtimeEndpoint(s, 'E', {
      model: ModelSource.fromContainer(ContainerImage.fromImageUri('123456789012.dkr.ecr.us-east-1.amazonaws.com/m:1')),
      instanceType: InstanceType.ML_G5_2XLARGE,
    })],
    ['SharedGpuEndpoint', (s: Stack) => new SharedGpuEndpoint(s, 'E', { instanceType: InstanceType.ML_G5_12XLARGE })],
    ['AsyncEndpoint', (s: Stack) => new AsyncEndpoint(s, 'E', {
      model: ModelSource.fromContainer(ContainerImage.fromImageUri('123456789012.dkr.ecr.us-east-1.amazonaws.com/m:1')),
      instanceType: InstanceType.ML_G5_2XLARGE,
    })],
  ])('%s on NVMe storage without a key of the user\'s says nothing: there is nothing to act on', (_, build) => {
    const app = new App();
    const stack = new Stack(app, 'Test', { env: ENV });
    const endpoint = build(stack);
    app.synth();
    expect(warningsOf(endpoint)).toEqual([]);
  });

  test('RealtimeEndpoint: the NVMe key and autoscaled-update warnings, raised while the app validates', () => {
    const app = new App();
    const stack = new Stack(app, 'Test', { env: ENV });
    const endpoint = new RealtimeEndpoint(stack, 'Chat', {
      endpointName: 'chat',
      encryptionKey: new kms.Key(stack, 'Key'),
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
  });

  test('RealtimeEndpoint: a rollout\'s warning, rendered at synth (prepare or validation), is on the endpoint', () => {
    const app = new App();
    const stack = new Stack(app, 'Test', { env: ENV });
    const endpoint = new RealtimeEndpoint(stack, 'Chat', {
      model: ModelSource.fromContainer(ContainerImage.fromImageUri('123456789012.dkr.ecr.us-east-1.amazonaws.com/m:1')),
      instanceType: InstanceType.ML_M5_LARGE,
      initialInstanceCount: 4,
      rollout: Rollout.canary({ size: RolloutCapacity.instances(1), bakingPeriod: Duration.minutes(5) }),
    });
    app.synth();
    expect(warningsOf(endpoint)).toEqual([expect.objectContaining({
      data: expect.stringContaining('[ack: cdk-sagemaker-mcp:rolloutWithoutAlarms]'),
    })]);
  });

  test('SharedGpuEndpoint warns of its NVMe key while the app validates, as the other kinds do', () => {
    const app = new App();
    const stack = new Stack(app, 'Test', { env: ENV });
    const endpoint = new SharedGpuEndpoint(stack, 'Shared', { instanceType: InstanceType.ML_G5_12XLARGE, encryptionKey: new kms.Key(stack, 'Key') });
    // nothing before validation
    expect(warningsOf(endpoint)).toEqual([]);
    app.synth();
    expect(warningsOf(endpoint)).toEqual([expect.objectContaining({
      data: expect.stringContaining('[ack: cdk-sagemaker-mcp:kmsKeyNvme]'),
    })]);
  });
});
