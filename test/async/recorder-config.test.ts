/**
 * What AsyncEndpoint tells its result recorder: the two topics it may record from and the event-time skew bound.
 */
import { App, Duration, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AsyncEndpoint, AsyncEndpointProps } from '../../src/async';
import { ContainerImage, InstanceType, ModelSource } from '../../src/core';
import { ASYNC_ENV } from 'cdk-sagemaker-mcp-runtime/internal/contract';

const MODEL = ModelSource.fromContainer(ContainerImage.fromDlc('huggingface-pytorch-inference', '2.1.0-transformers4.37.0-cpu-py310-ubuntu22.04'));

function recorderEnv(props: Partial<AsyncEndpointProps> = {}) {
  const stack = new Stack(new App(), 'S', { env: { account: '123456789012', region: 'us-east-1' } });
  const endpoint = new AsyncEndpoint(stack, 'Async', { model: MODEL, instanceType: InstanceType.ML_M5_XLARGE, ...props });
  const fnId = stack.resolve((endpoint.resultRecorder!.node.defaultChild as any).logicalId);
  const env = Template.fromStack(stack).toJSON().Resources[fnId].Properties.Environment.Variables;
  return { stack, endpoint, env };
}

test('the recorder is told exactly its endpoint\'s success and error topics, and a 5-minute skew by default', () => {
  const { stack, endpoint, env } = recorderEnv();
  expect(env[ASYNC_ENV.SUCCESS_TOPIC_ARN]).toEqual(stack.resolve(endpoint.successTopic.topicArn));
  expect(env[ASYNC_ENV.ERROR_TOPIC_ARN]).toEqual(stack.resolve(endpoint.errorTopic.topicArn));
  expect(env[ASYNC_ENV.SUCCESS_TOPIC_ARN]).not.toEqual(env[ASYNC_ENV.ERROR_TOPIC_ARN]);
  expect(env[ASYNC_ENV.MAX_EVENT_TIME_SKEW_SECONDS]).toBe('300');
});

test('results.maxEventTimeSkew sets the bound; outside 0 s .. 1 hour or fractional it is refused, naming the prop', () => {
  expect(recorderEnv({ results: { maxEventTimeSkew: Duration.seconds(60) } }).env[ASYNC_ENV.MAX_EVENT_TIME_SKEW_SECONDS]).toBe('60');
  expect(() => recorderEnv({ results: { maxEventTimeSkew: Duration.hours(2) } }))
    .toThrow(/results\.maxEventTimeSkew: got '2 hours', expected whole seconds from 0 to 1 hour/);
  expect(() => recorderEnv({ results: { maxEventTimeSkew: Duration.millis(1500) } })).toThrow(/results\.maxEventTimeSkew/);
});
