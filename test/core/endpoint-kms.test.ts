import { App, Stack } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import * as kms from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { InstanceType } from '../../src/core';
import { endpointConfigKmsKeyId, hasNvmeInstanceStorage, kmsKeyWarnings } from '../../src/private/endpoint-kms';
import { hasLocalNvmeStorage } from '../../src/private/instance-table';

const M5 = InstanceType.ML_M5_LARGE;
const INF2 = InstanceType.ML_INF2_XLARGE;
const G5 = InstanceType.ML_G5_2XLARGE;
const P4D = InstanceType.ML_P4D_24XLARGE;

function setup() {
  const stack = new Stack(new App(), 'Test', { env: { account: '123456789012', region: 'us-east-1' } });
  return { stack, key: new kms.Key(stack, 'Key'), scope: new Construct(stack, 'Endpoint') };
}

describe('hasNvmeInstanceStorage', () => {
  test.each([
    ['ml.m5.large', false],
    ['ml.inf2.xlarge', false],
    ['ml.g5.2xlarge', true],
    ['ml.p4d.24xlarge', true],
    ['ml.m5d.large', true],
    ['ml.g6e.xlarge', true],
    // not in the instance table: decided by family
    ['ml.c7gd.xlarge', true],
    ['ml.p6-b200.48xlarge', true],
    ['ml.r8gd.large', true],
    ['ml.m7i.large', false],
  ])('%s: %s', (name, nvme) => {
    expect(hasNvmeInstanceStorage(InstanceType.of(name))).toBe(nvme);
    // the SMCP-KMS1 check exempts exactly the configs the constructs leave without a key
    expect(hasLocalNvmeStorage(name)).toBe(nvme);
  });
});

describe('endpointConfigKmsKeyId', () => {
  test('is the key\'s ARN when every variant is EBS-backed', () => {
    const { stack, key } = setup();
    expect(stack.resolve(endpointConfigKmsKeyId(key, [M5, INF2]))).toEqual(stack.resolve(key.keyArn));
  });

  test.each([
    ['every variant has NVMe storage', [G5, P4D]],
    ['one variant of several has NVMe storage (the API refuses a key then)', [M5, G5]],
    ['the last of three has NVMe storage', [M5, INF2, P4D]],
  ])('is left out when %s', (_what, types) => {
    const { key } = setup();
    expect(endpointConfigKmsKeyId(key, types)).toBeUndefined();
  });

  test('is nothing without a key', () => {
    expect(endpointConfigKmsKeyId(undefined, [M5])).toBeUndefined();
  });
});

describe('kmsKeyWarnings', () => {
  test('warns, naming the variant, when every variant has NVMe storage and the key is the user\'s', () => {
    // GIVEN
    const { stack, key, scope } = setup();
    // WHEN
    kmsKeyWarnings(scope, key, true, [G5], ['AllTraffic']);
    // THEN
    Annotations.fromStack(stack).hasWarning('/Test/Endpoint', Match.stringLikeRegexp(
      '^encryptionKey: left off the endpoint config because variant AllTraffic \\(ml.g5.2xlarge\\) uses NVMe instance storage, '
      + 'which a hardware module on the instance encrypts \\(CreateEndpointConfig fails with a KmsKeyId when any variant has such storage\\)\\. '));
  });

  test('warns, naming the NVMe and the EBS variants, when they are mixed', () => {
    // GIVEN
    const { stack, key, scope } = setup();
    // WHEN
    kmsKeyWarnings(scope, key, false, [M5, G5, P4D], ['Cpu', 'Small', 'Large']);
    // THEN
    Annotations.fromStack(stack).hasWarning('/Test/Endpoint', Match.stringLikeRegexp(
      'because variants Small \\(ml.g5.2xlarge\\), Large \\(ml.p4d.24xlarge\\) use NVMe instance storage.*'
      + 'the EBS volumes of Cpu \\(ml.m5.large\\) therefore use an AWS-managed key\\. Put the EBS-backed variants on an endpoint of their own'));
  });

  test('names instance types alone when no variant names are given', () => {
    const { stack, key, scope } = setup();
    kmsKeyWarnings(scope, key, true, [G5]);
    Annotations.fromStack(stack).hasWarning('/Test/Endpoint', Match.stringLikeRegexp('because instance type ml.g5.2xlarge uses NVMe instance storage'));
  });

  test.each([
    ['a key', true],
    ['no key', false],
  ])('is silent with EBS-backed variants only and %s', (_what, withKey) => {
    const { stack, key, scope } = setup();
    kmsKeyWarnings(scope, withKey ? key : undefined, withKey, [M5, INF2]);
    Annotations.fromStack(stack).hasNoWarning('*', Match.anyValue());
  });

  test.each([
    ['no key', false],
    ['a key the endpoint created', true],
  ])('is silent with NVMe variants only and %s: nothing the user gave is left off, and the hardware encrypts the storage', (_what, withKey) => {
    const { stack, key, scope } = setup();
    kmsKeyWarnings(scope, withKey ? key : undefined, false, [G5], ['AllTraffic']);
    Annotations.fromStack(stack).hasNoWarning('*', Match.anyValue());
  });

  test('warns with EBS variants beside NVMe ones and no key: their volumes get an AWS-managed key', () => {
    const { stack, scope } = setup();
    kmsKeyWarnings(scope, undefined, false, [M5, G5], ['Cpu', 'Gpu']);
    Annotations.fromStack(stack).hasWarning('/Test/Endpoint', Match.stringLikeRegexp(
      '^encryptionKey: none on the endpoint config \\(no KmsKeyId\\) because variant Gpu \\(ml.g5.2xlarge\\) uses NVMe instance storage.*AWS-managed key'));
  });
});
