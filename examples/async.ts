import { Duration, Stack } from 'aws-cdk-lib';
import { operationsFor } from './operations';
import { AsyncEndpoint, AsyncWorkload } from '../src/async';
import { SageMakerMcpChecks } from '../src/checks';
import { ContainerImage, InstanceType, ModelSource } from '../src/core';

/**
 * A document processor for MCP tools that may run for minutes: a Hugging Face summarization model on CPU instances,
 * queued by SageMaker async inference, scaled on the backlog from zero to 4 instances, results recorded in a job table
 * (so a `check_job_status` tool answers with one read), and an alarm when a request waits more than 15 minutes; the
 * alarms notify the examples' topic and the bucket's access logs go to the examples' log bucket (examples/operations.ts).
 */
export function addAsyncExample(stack: Stack): AsyncEndpoint {
  const ops = operationsFor(stack);
  const endpoint = new AsyncEndpoint(stack, 'DocProcessor', {
    endpointName: 'mcp-doc-processor-async',
    model: ModelSource.fromContainer(
      ContainerImage.fromDlc('huggingface-pytorch-inference', '2.1.0-transformers4.37.0-cpu-py310-ubuntu22.04'),
      { environment: { HF_MODEL_ID: 'facebook/bart-large-cnn', HF_TASK: 'summarization' } },
    ),
    instanceType: InstanceType.ML_M5_XLARGE,
    invocation: {
      workload: AsyncWorkload.CPU_PROCESSING,
      maxConcurrentInvocationsPerInstance: 4,
      invocationTimeout: Duration.minutes(5),
      requestTtl: Duration.minutes(30),
    },
    autoScaling: { minCapacity: 0, maxCapacity: 4, targetBacklogPerInstance: 5 },
    alarms: { oldestRequestAgeThreshold: Duration.minutes(15) },
    alarmActions: ops.alarmActions,
    logRetention: ops.logRetention,
    storage: { serverAccessLogsBucket: ops.accessLogsBucket },
  });
  SageMakerMcpChecks.acknowledge(endpoint, 'SMCP-RO1', 'Scales from zero: an update usually finds 0 or 1 instance, so a canary or '
    + 'rolling batch has nothing to split, and SageMaker\'s default all-at-once blue/green update is what a rollout would do.');
  return endpoint;
}
