/**
 * The rules that read a variant's instance type read each of its instance pools' too
 * (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_InstancePool.html).
 */
import { ASYNC_CONFIG, asyncScaleToZero, endpointConfig, LMI_IMAGE, model } from './fixtures';
import { expectRule } from './util';

/** A variant with instance pools in place of InstanceType. */
const pools = (...types: string[]) => ({ InstanceType: undefined, InstancePools: types.map((t, i) => ({ InstanceType: t, Priority: i + 1 })) });

describe('instance pools in the template rules', () => {
  test('SMCP-KMS1: a config with an NVMe pool is exempt; EBS-only pools need a key, named by their types', () => {
    expectRule('SMCP-KMS1', { Model: model(), Config: endpointConfig(pools('ml.m5.xlarge', 'ml.g5.2xlarge'), { KmsKeyId: undefined }) }, []);
    expectRule('SMCP-KMS1', { Model: model(), Config: endpointConfig(pools('ml.m5.xlarge', 'ml.c5.xlarge'), { KmsKeyId: undefined }) },
      ['Config'], /variant\(s\) AllTraffic \(ml\.m5\.xlarge, ml\.c5\.xlarge\) attach ML storage volumes/);
  });

  test('SMCP-AS3: a GPU pool behind a CPU priority-1 pool still gets the LLM concurrency check', () => {
    const stack = asyncScaleToZero({
      Model: model({ PrimaryContainer: { Image: LMI_IMAGE } }),
      Config: endpointConfig(pools('ml.m5.xlarge', 'ml.g5.2xlarge'), {
        AsyncInferenceConfig: { ...ASYNC_CONFIG.AsyncInferenceConfig, ClientConfig: { MaxConcurrentInvocationsPerInstance: 8 } },
      }),
    });
    expectRule('SMCP-AS3', stack, ['Config'], /per ml\.g5\.2xlarge instance/);
  });

  test('SMCP-MM1: every pool of a multi-model variant must be a type multi-model endpoints support', () => {
    const mme = {
      Model: model({ PrimaryContainer: { Image: 'SKLEARN', Mode: 'MultiModel', ModelDataUrl: 's3://models/churn/' } }),
      Config: endpointConfig(pools('ml.m5.xlarge', 'ml.inf2.xlarge')),
    };
    expectRule('SMCP-MM1', mme, ['Config'], /runs on ml\.inf2\.xlarge: multi-model endpoints support CPU instances/);
  });
});
