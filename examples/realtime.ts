import { Duration, Stack } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { operationsFor } from './operations';
import { ContainerImage, InstanceType, ModelData, ModelFamily, ModelSource } from '../src/core';
import { RealtimeEndpoint } from '../src/realtime';
import { Rollout, RolloutCapacity } from '../src/rollouts';

const TGI = ContainerImage.fromDlc('huggingface-pytorch-tgi-inference', '2.7.0-tgi3.3.6-gpu-py311-cu124-ubuntu22.04');

/** Options of the realtime example. */
export interface RealtimeExampleOptions {
  /** Run a challenger model (Llama 3.1 8B) as a shadow variant on 20% of the requests (the integ app does). */
  readonly shadowChallenger?: boolean;
}

/** TGI serving the uncompressed weights under `prefix` of the artifacts bucket. */
function tgiModel(artifacts: s3.IBucket, prefix: string): ModelSource {
  return ModelSource.fromContainer(TGI, {
    modelData: ModelData.fromBucket(artifacts, prefix),
    environment: { HF_MODEL_ID: '/opt/ml/model', SM_NUM_GPUS: '1', MAX_INPUT_TOKENS: '4096', MAX_TOTAL_TOKENS: '8192' },
    modelFamily: ModelFamily.LLAMA3,
  });
}

/**
 * A chat model for MCP tools: Hugging Face TGI (a Deep Learning Container) serving uncompressed weights from an S3
 * prefix on two ml.g5.2xlarge, autoscaled 2-4 on invocations per instance, with latency and 5xx alarms that roll back
 * a canary rollout (one instance takes traffic and bakes 10 minutes before the rest moves). Optionally a shadow
 * challenger (see docs/rollouts.md).
 */
export function addRealtimeExample(stack: Stack, options: RealtimeExampleOptions = {}): RealtimeEndpoint {
  const artifacts = s3.Bucket.fromBucketName(stack, 'ModelArtifacts', `mcp-model-artifacts-${stack.account}`);
  const endpoint = new RealtimeEndpoint(stack, 'ChatEndpoint', {
    endpointName: 'mcp-chat',
    model: tgiModel(artifacts, 'llama-3-8b-instruct/'),
    instanceType: InstanceType.ML_G5_2XLARGE,
    initialInstanceCount: 2,
    // Loading 16 GB of weights and compiling kernels takes minutes.
    modelDataDownloadTimeout: Duration.minutes(20),
    containerStartupHealthCheckTimeout: Duration.minutes(15),
    autoScaling: { minCapacity: 2, maxCapacity: 4 },
    // 1-minute periods: the alarms can fire within the canary's 10-minute baking period (3 of 3 breaching minutes).
    alarms: {
      modelLatencyP99Threshold: Duration.seconds(20),
      invocation5XXRateThreshold: 1,
      period: Duration.minutes(1),
    },
    alarmActions: operationsFor(stack).alarmActions,
    rollout: Rollout.canary({ size: RolloutCapacity.instances(1), bakingPeriod: Duration.minutes(10), maximumExecutionTime: Duration.hours(2) }),
    shadow: options.shadowChallenger ? {
      model: tgiModel(artifacts, 'llama-3.1-8b-instruct/'),
      instanceType: InstanceType.ML_G5_2XLARGE,
      samplingPercentage: 20,
      modelDataDownloadTimeout: Duration.minutes(20),
      containerStartupHealthCheckTimeout: Duration.minutes(15),
    } : undefined,
  });
  return endpoint;
}
