import { Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { operationsFor } from './operations';
import { SageMakerMcpChecks } from '../src/checks';
import { InstanceType } from '../src/core';
import { JumpStartModel } from '../src/jumpstart';
import { Rollout, RolloutCapacity } from '../src/rollouts';
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
    // Half the copies at a time, each half baking 10 minutes; rolled back when p99 latency stays above 20 s for 3 minutes.
    rollout: Rollout.rolling({ batchSize: RolloutCapacity.percent(50), autoRollbackOn: [chatLatencyAlarm(stack, 'mcp-chat-llama3-8b')] }),
  });
  chat.autoScaleCopyCount({ minCapacity: 1, maxCapacity: 3, target: CopyScalingTarget.concurrentRequestsPerCopy(4) });

  const summarize = endpoint.addInferenceComponent('Summarize', {
    model: JumpStartModel.of('huggingface-llm-mistral-7b-instruct', { version: '3.5.0' }),
    componentName: 'mcp-summarize-mistral-7b',
    containerStartupHealthCheckTimeout: Duration.minutes(15),
  });
  SageMakerMcpChecks.acknowledge(summarize, 'SMCP-RO1', 'Scales to zero copies when idle: an update usually finds 0 or 1 copy, '
    + 'so a rolling batch has nothing to split.');
  summarize.autoScaleCopyCount({ minCapacity: 0, maxCapacity: 2, target: CopyScalingTarget.invocationsPerCopy(5) });

  return endpoint;
}

/**
 * p99 ModelLatency of a component above 20 s for 3 minutes. The metric names the component literally: the component
 * names its rollback alarms, so an alarm naming it through its ARN would be a dependency cycle.
 */
function chatLatencyAlarm(stack: Stack, componentName: string): cloudwatch.Alarm {
  const alarm = new cloudwatch.Alarm(stack, 'ChatLatencyAlarm', {
    alarmDescription: `p99 ModelLatency of inference component ${componentName} above 20 s`,
    metric: new cloudwatch.Metric({
      namespace: 'AWS/SageMaker',
      metricName: 'ModelLatency',
      dimensionsMap: { InferenceComponentName: componentName },
      statistic: 'p99',
      period: Duration.minutes(1),
    }),
    threshold: 20_000_000, // microseconds
    evaluationPeriods: 3,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
  alarm.addAlarmAction(...operationsFor(stack).alarmActions);
  return alarm;
}
