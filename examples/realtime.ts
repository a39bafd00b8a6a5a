import { Duration, Stack } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { operationsFor } from './operations';
import { ContainerImage, InstanceType, ModelData, ModelSource } from '../src/core';
import { RealtimeEndpoint } from '../src/realtime';

/**
 * A chat model for MCP tools: Hugging Face TGI (a Deep Learning Container) serving uncompressed weights from an S3
 * prefix on one ml.g5.2xlarge, autoscaled 1-4 on invocations per instance, with latency and 5xx alarms.
 */
export function addRealtimeExample(stack: Stack): RealtimeEndpoint {
  const artifacts = s3.Bucket.fromBucketName(stack, 'ModelArtifacts', `mcp-model-artifacts-${stack.account}`);
  const endpoint = new RealtimeEndpoint(stack, 'ChatEndpoint', {
    endpointName: 'mcp-chat',
    model: ModelSource.fromContainer(
      ContainerImage.fromDlc('huggingface-pytorch-tgi-inference', '2.7.0-tgi3.3.6-gpu-py311-cu124-ubuntu22.04'),
      {
        modelData: ModelData.fromBucket(artifacts, 'llama-3-8b-instruct/'),
        environment: {
          HF_MODEL_ID: '/opt/ml/model',
          SM_NUM_GPUS: '1',
          MAX_INPUT_TOKENS: '4096',
          MAX_TOTAL_TOKENS: '8192',
        },
        modelFamily: 'llama3',
      },
    ),
    instanceType: InstanceType.ML_G5_2XLARGE,
    // Loading 16 GB of weights and compiling kernels takes minutes.
    modelDataDownloadTimeout: Duration.minutes(20),
    containerStartupHealthCheckTimeout: Duration.minutes(15),
    autoScaling: { maxCapacity: 4 },
    alarms: { modelLatencyP99Threshold: Duration.seconds(20), invocation5XXRateThreshold: 1, alarmActions: operationsFor(stack).alarmActions },
  });
  return endpoint;
}
