import { Duration, Stack } from 'aws-cdk-lib';
import { InstanceType } from '../src/core';
import { JumpStartModel } from '../src/jumpstart';
import { CopyScalingTarget, SharedGpuEndpoint, SharedGpuScaleInStrategy } from '../src/shared-gpu';

/**
 * Two MCP tool models on one ml.g5.12xlarge (4 × A10G) instead of an endpoint each: a Llama 3 8B chat model (its
 * JumpStart sizing gives 2 GPUs and half the host memory per copy) and a Mistral 7B summarizer (1 GPU), as inference
 * components. Chat keeps a warm copy and scales on concurrent requests; the summarizer scales to zero copies when idle
 * and comes back on the first request that finds none. Managed instance scaling adds a second instance when copies no
 * longer fit, and may release every instance once no component has a copy.
 */
export function addSharedGpuExample(stack: Stack): SharedGpuEndpoint {
  const endpoint = new SharedGpuEndpoint(stack, 'SharedGpu', {
    endpointName: 'mcp-shared-gpu',
    instanceType: InstanceType.ML_G5_12XLARGE,
    instanceScaling: { minCapacity: 0, maxCapacity: 2, scaleInStrategy: SharedGpuScaleInStrategy.IDLE_RELEASE },
  });

  const chat = endpoint.addInferenceComponent('Chat', {
    model: JumpStartModel.of('meta-textgeneration-llama-3-8b-instruct', { version: '2.2.0', acceptEula: true }),
    componentName: 'mcp-chat-llama3-8b',
    // Loading 16 GB of weights and compiling kernels takes minutes.
    containerStartupHealthCheckTimeout: Duration.minutes(15),
  });
  chat.autoScale({ minCapacity: 1, maxCapacity: 3, target: CopyScalingTarget.concurrentRequestsPerCopy(4) });

  const summarize = endpoint.addInferenceComponent('Summarize', {
    model: JumpStartModel.of('huggingface-llm-mistral-7b-instruct', { version: '3.5.0' }),
    componentName: 'mcp-summarize-mistral-7b',
    containerStartupHealthCheckTimeout: Duration.minutes(15),
  });
  summarize.autoScale({ minCapacity: 0, maxCapacity: 2, target: CopyScalingTarget.invocationsPerCopy(5) });

  return endpoint;
}
