/**
 * Async handles outlive what their job may take. A job may queue RequestTTLSeconds and then run
 * InvocationTimeoutSeconds (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_runtime_InvokeEndpointAsync.html);
 * a handle that expires earlier could never read its result, so the start is refused. The start results and the tool
 * descriptions say when handles expire; a sealed expiry beyond now + TTL (a clock running ahead) is refused.
 * Real MCP client sessions over stateless HTTP against the local stand-ins.
 */
import { App, Duration, Stack } from 'aws-cdk-lib';
import { LocalEnv, startLocalEnv } from '../../packages/runtime/test/support/local-env';
import { McpHttpSession, startMcpHttpSession } from '../../packages/runtime/test/support/mcp-session';
import { AsyncEndpoint, AsyncWorkload } from '../../src/async';
import { ContainerImage, InstanceType, ModelSource } from '../../src/core';
import { McpToolServer } from '../../src/mcp';
import { accepted } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { createHandleCodec, HANDLE_CLOCK_SKEW_MS } from 'cdk-sagemaker-mcp-runtime/mcp';

let env: LocalEnv;
let session: McpHttpSession;

beforeAll(async () => {
  env = await startLocalEnv();
  session = await startMcpHttpSession({ ...env.config, handleTtlSeconds: 3600 }, 'handle-expiry-test');
});

afterAll(async () => {
  await session?.close();
  await env?.stop();
});

describe('async handles outlive their job', () => {
  test('a job that may queue 1 h and run 15 min (the defaults) is refused by a server whose handles live 1 h, before any call', async () => {
    const before = env.runtime.requestsFor('doc-summarizer').length;
    const result = await session.call('start_async_inference', { endpointName: 'doc-summarizer', payload: { format: 'text', text: 'doc' } });
    expect(result).toMatchObject({ isError: true, structuredContent: { errorName: 'HandleWouldExpire', retryable: false } });
    expect(result.structuredContent.message).toContain('requestTtlSeconds of at most 2700');
    expect(env.runtime.requestsFor('doc-summarizer').length).toBe(before);
  });

  test('a job that fits starts, and its result says when the handle expires', async () => {
    env.runtime.script('doc-summarizer', accepted({ inferenceId: 'fits-1' }));
    const started = Date.now();
    const result = await session.call('start_async_inference', {
      endpointName: 'doc-summarizer', payload: { format: 'text', text: 'doc' }, invocationTimeoutSeconds: 600, requestTtlSeconds: 1800,
    });
    expect(result.isError).toBeFalsy();
    const expiresAt = Date.parse(result.structuredContent.handleExpiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(started + 3600_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 3600_000);
  });

  test('the start tools\' descriptions name the handle lifetime; start_training reports its expiry too', async () => {
    const { tools } = await session.client.listTools();
    for (const name of ['start_async_inference', 'start_training']) {
      expect(tools.find((t) => t.name === name)!.description).toContain('The handle expires 3600 s after the start (handleExpiresAt)');
    }
    const training = await session.call('start_training', { pipelineName: 'churn-training', sessionId: 'expiry-1' });
    expect(Date.parse(training.structuredContent.handleExpiresAt)).toBeGreaterThan(Date.now() + 3500_000);
  });
});

describe('clock skew', () => {
  const KEY = 'skew-test-key';
  test('a handle sealed by a clock 2 h ahead does not open on an instance with the right time', () => {
    const ahead = createHandleCodec(KEY, { ttlSeconds: 3600, now: () => Date.now() + 2 * 3600_000 });
    const honest = createHandleCodec(KEY, { ttlSeconds: 3600 });
    const handle = ahead.seal('async', { id: 'j' });
    expect(() => honest.open('async', handle)).toThrow(/lies beyond what this server issues/);
  });

  test('a clock within the tolerated skew still opens', () => {
    const slightlyAhead = createHandleCodec(KEY, { ttlSeconds: 3600, now: () => Date.now() + HANDLE_CLOCK_SKEW_MS / 2 });
    const honest = createHandleCodec(KEY, { ttlSeconds: 3600 });
    expect(honest.open('async', slightlyAhead.seal('async', { id: 'j' }))).toEqual({ id: 'j' });
  });
});

describe('McpToolServer compares handleTtl with its async endpoints at synth', () => {
  const build = (handleTtl: Duration) => {
    const stack = new Stack(new App(), 'Expiry', { env: { account: '123456789012', region: 'us-east-1' } });
    const endpoint = new AsyncEndpoint(stack, 'LongJobs', {
      model: ModelSource.fromContainer(ContainerImage.fromDlc('huggingface-pytorch-inference', '2.1.0-transformers4.37.0-cpu-py310-ubuntu22.04')),
      instanceType: InstanceType.ML_M5_XLARGE,
      invocation: { workload: AsyncWorkload.CPU_PROCESSING, invocationTimeout: Duration.hours(1), requestTtl: Duration.hours(6) },
    });
    return () => new McpToolServer(stack, 'Server', { asyncEndpoints: [{ endpoint }], handleTtl });
  };

  test('fails if handleTtl is shorter than an async endpoint\'s queue + run time', () => {
    expect(build(Duration.hours(1))).toThrow(/handleTtl: got 3600 seconds, expected at least 25200 seconds: async endpoint .* queue 21600 s \(its invocation\.requestTtl\) and run 3600 s \(its invocation\.invocationTimeout\)/);
  });

  test('a handleTtl that outlives the job synthesizes', () => {
    expect(build(Duration.hours(7))).not.toThrow();
  });
});
