import { Duration, Stack } from 'aws-cdk-lib';
import { operationsFor } from './operations';
import { InstanceType } from '../src/core';
import { JumpStartModel } from '../src/jumpstart';
import { RealtimeEndpoint } from '../src/realtime';
import { Rollout } from '../src/rollouts';

/**
 * A JumpStart foundation model on a realtime endpoint: Mistral 7B Instruct, pinned, resolved at synth from the bundled
 * catalog for the stack's region and the instance type (image, S3 artifacts, environment), sized-checked for ml.g5.2xlarge.
 */
export function addJumpStartExample(stack: Stack): RealtimeEndpoint {
  return new RealtimeEndpoint(stack, 'JumpStartMistral', {
    endpointName: 'mcp-mistral-7b',
    model: JumpStartModel.of('huggingface-llm-mistral-7b-instruct', { version: '3.5.0' }),
    instanceType: InstanceType.ML_G5_2XLARGE,
    autoScaling: { maxCapacity: 2 },
    // One instance to start: no canary to split, so all at once, baking 10 minutes with the 5xx alarm able to roll back.
    alarms: { invocation5XXRateThreshold: 5, period: Duration.minutes(1) },
    alarmActions: operationsFor(stack).alarmActions,
    rollout: Rollout.allAtOnce({ bakingPeriod: Duration.minutes(10) }),
  });
}
