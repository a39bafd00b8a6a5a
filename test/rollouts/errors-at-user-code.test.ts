/**
 * A rollout's checks depend on what the endpoint has at synth (its variants and instance counts), so they run when the
 * app validates: the error names the construct path and has the check's own message, never aws-cdk-lib's
 * "Resolution error" (a check thrown while a token resolves) with its minified source.
 */
import { App, Duration, Stack } from 'aws-cdk-lib';
import { AsyncEndpoint } from '../../src/async';
import { ContainerImage, InstanceType, ModelSource } from '../../src/core';
import { RealtimeEndpoint } from '../../src/realtime';
import { Rollout, RolloutCapacity } from '../../src/rollouts';
import { errorOf } from '../support/test-stacks';

const MODEL = ModelSource.fromContainer(ContainerImage.fromImageUri('123456789012.dkr.ecr.us-east-1.amazonaws.com/model:1'));
const CANARY_OF_ONE = () => Rollout.canary({ size: RolloutCapacity.instances(1), bakingPeriod: Duration.minutes(5) });
const TOO_BIG = /rollout \(CANARY\): 1 problem:\n {2}- size: got '1 instances', expected a canary is at most 50% of the variant's instances: with 1 instances, no count fits \(use at least 2 instances\)$/;

function newStack(): Stack {
  return new Stack(new App(), 'Test', { env: { account: '123456789012', region: 'us-east-1' } });
}

describe.each([
  ['RealtimeEndpoint', (s: Stack) => new RealtimeEndpoint(s, 'Chat', { model: MODEL, instanceType: InstanceType.ML_M5_LARGE, rollout: CANARY_OF_ONE() })],
  ['AsyncEndpoint', (s: Stack) => new AsyncEndpoint(s, 'Chat', { model: MODEL, instanceType: InstanceType.ML_M5_LARGE, rollout: CANARY_OF_ONE() })],
])('%s: a canary on a one-instance endpoint', (kind, build) => {
  test('fails in the validation, with the construct path and the check\'s message, not in token resolution', () => {
    // GIVEN
    const stack = newStack();
    const endpoint = build(stack);
    // WHEN
    const message = errorOf(() => (stack.node.root as App).synth());
    // THEN
    expect(message).not.toMatch(/Resolution error/);
    expect(message).toContain(`[Test/Chat] Invalid ${kind} 'Chat' rollout (CANARY)`);
    expect(endpoint.node.validate().join('\n')).toMatch(TOO_BIG);
  });

  test('an error a token meets is not thrown again while the template renders', () => {
    // GIVEN: aws-cdk-lib's prepare phase resolves the endpoint's tokens before the app validates
    const stack = newStack();
    build(stack);
    // WHEN / THEN: resolving the template does not throw; the validation carries the error
    expect(() => stack.resolve((stack.node.findChild('Chat').node.findChild('Resource') as any)._toCloudFormation())).not.toThrow();
  });
});
