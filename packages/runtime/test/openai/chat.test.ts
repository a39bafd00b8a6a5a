import { containerError, noCapacity, OpenAiRouteServer, startOpenAiRouteServer } from '@cdk-sagemaker-mcp/test-stand-ins/openai-route-server';
import OpenAI from 'openai';
import { EndpointRequestError, EndpointValidationError, ModelInvocationError, RetryOptions, TransientEndpointError } from 'cdk-sagemaker-mcp-runtime/core';
import { bearerTokenProvider, ChatCompletionChunk, generateBearerToken, openAiBaseUrl, SageMakerChatClient } from 'cdk-sagemaker-mcp-runtime/openai';

const REGION = 'us-east-1';
const CREDENTIALS = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
const MESSAGES = [{ role: 'user', content: 'hello there' }];

let route: OpenAiRouteServer;
const token = bearerTokenProvider({ region: REGION, credentials: CREDENTIALS, expiresInSeconds: 900 });

beforeAll(async () => {
  route = await startOpenAiRouteServer({
    region: REGION,
    endpoints: { 'chat-vllm': {}, 'shared': { components: ['llama'] } },
    allowedAccessKeyIds: [CREDENTIALS.accessKeyId],
    rejectModelName: true,
  });
});
afterAll(() => route.stop());
beforeEach(() => route.requests.splice(0));

function client(endpointName = 'chat-vllm', inferenceComponentName?: string, retry: RetryOptions = { maxAttempts: 1 }) {
  const baseUrl = route.baseUrl(endpointName, inferenceComponentName);
  return new SageMakerChatClient({ endpointName, inferenceComponentName, region: REGION, token, baseUrl, retry });
}

describe('openAiBaseUrl', () => {
  test('the runtime host, the endpoint and the component in the path', () => {
    expect(openAiBaseUrl({ endpointName: 'chat', region: 'eu-west-1' })).toBe('https://runtime.sagemaker.eu-west-1.amazonaws.com/endpoints/chat/openai/v1');
    expect(openAiBaseUrl({ endpointName: 'shared', inferenceComponentName: 'llama', region: 'cn-north-1' }))
      .toBe('https://runtime.sagemaker.cn-north-1.amazonaws.com.cn/endpoints/shared/inference-components/llama/openai/v1');
  });

  test('fails on a name SageMaker would not accept', () => {
    expect(() => openAiBaseUrl({ endpointName: 'bad/name', region: REGION })).toThrow(/endpointName: got 'bad\/name', expected a SageMaker name/);
  });
});

describe('the official openai SDK against the route, with a generated token', () => {
  test('completes a chat', async () => {
    const { token: key } = await generateBearerToken({ region: REGION, credentials: CREDENTIALS, expiresInSeconds: 300 });
    const openai = new OpenAI({ baseURL: route.baseUrl('chat-vllm'), apiKey: key, maxRetries: 0 });
    const answer = await openai.chat.completions.create({ model: '', messages: [{ role: 'user', content: 'hello there' }] });
    expect(answer.choices[0].message.content).toBe('You said: hello there');
    expect(answer.usage?.total_tokens).toBeGreaterThan(0);
    expect(route.requests[0].path).toBe('/endpoints/chat-vllm/openai/v1/chat/completions');
    expect(String(route.requests[0].headers.authorization)).toBe(`Bearer ${key}`);
  });

  test('streams a chat on an inference component, the token provider as its key function', async () => {
    const openai = new OpenAI({ baseURL: route.baseUrl('shared', 'llama'), apiKey: token, maxRetries: 0 });
    const stream = await openai.chat.completions.create({ model: '', messages: [{ role: 'user', content: 'one two three' }], stream: true });
    const deltas: string[] = [];
    for await (const chunk of stream) deltas.push(chunk.choices[0]?.delta?.content ?? '');
    expect(deltas.join('')).toBe('You said: one two three');
    expect(deltas.filter((d) => d !== '').length).toBe(5);
    expect(route.requests[0].inferenceComponentName).toBe('llama');
  });

  test('an expired token is refused with 401', async () => {
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    const { token: key } = await generateBearerToken({ region: REGION, credentials: CREDENTIALS, expiresInSeconds: 60 }, twoMinutesAgo);
    const openai = new OpenAI({ baseURL: route.baseUrl('chat-vllm'), apiKey: key, maxRetries: 0 });
    await expect(openai.chat.completions.create({ model: '', messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ status: 401 });
  });

  test('a token scoped to another region is refused', async () => {
    const { token: key } = await generateBearerToken({ region: 'eu-west-1', credentials: CREDENTIALS });
    const openai = new OpenAI({ baseURL: route.baseUrl('chat-vllm'), apiKey: key, maxRetries: 0 });
    await expect(openai.chat.completions.create({ model: '', messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ status: 401 });
  });
});

describe('SageMakerChatClient', () => {
  test('complete: one chat.completion; model left empty, as AWS\'s examples send it', async () => {
    const answer = await client().complete({ messages: MESSAGES });
    expect(answer.choices[0].message.content).toBe('You said: hello there');
    expect(route.requests[0].body).toEqual({ messages: MESSAGES, stream: false });
  });

  test('stream: hands over every chunk and assembles them', async () => {
    const chunks: ChatCompletionChunk[] = [];
    const answer = await client('shared', 'llama').stream({ messages: MESSAGES, stream_options: { include_usage: true } }, (c) => {
      chunks.push(c);
    });
    expect(chunks).toHaveLength(6); // role, 4 words, finish
    expect(answer.choices).toEqual([{ index: 0, message: { role: 'assistant', content: 'You said: hello there' }, finish_reason: 'stop' }]);
    expect(answer.usage?.completion_tokens).toBe(4);
  });

  test('stream: JSON lines (no SSE framing, no [DONE]) read too', async () => {
    const lines = await startOpenAiRouteServer({ region: REGION, endpoints: { lmi: {} }, jsonLinesStream: true });
    try {
      const c = new SageMakerChatClient({ endpointName: 'lmi', region: REGION, token, baseUrl: lines.baseUrl('lmi') });
      const answer = await c.stream({ messages: MESSAGES });
      expect(answer.choices[0].message.content).toBe('You said: hello there');
    } finally {
      await lines.stop();
    }
  });

  test('no capacity (HTTP 400 "has no capacity") is transient, and retried', async () => {
    route.script('shared/llama', noCapacity('llama'));
    await expect(client('shared', 'llama').complete({ messages: MESSAGES })).rejects.toMatchObject({
      constructor: TransientEndpointError, retryable: true, code: 'NoCapacity', httpStatusCode: 400,
    });
    route.script('shared/llama', noCapacity('llama'));
    const answer = await client('shared', 'llama', { maxAttempts: 2, baseDelayMs: 1 }).complete({ messages: MESSAGES });
    expect(answer.choices[0].message.content).toBe('You said: hello there');
    expect(route.requests).toHaveLength(3); // one refused call, then a refusal and its retry
  });

  test('a container error is a ModelInvocationError with the container\'s status, not retried', async () => {
    route.script('chat-vllm', containerError(400, { message: 'max_tokens too large' }));
    const err = await client('chat-vllm', undefined, { maxAttempts: 3 }).complete({ messages: MESSAGES }).catch((e) => e);
    expect(err).toBeInstanceOf(ModelInvocationError);
    expect(err.originalStatusCode).toBe(400);
    expect(err.retryable).toBe(false);
    expect(route.requests).toHaveLength(1);
  });

  test('an endpoint name in model is refused by a vLLM-like container, passed through as a model error', async () => {
    await expect(client().complete({ messages: MESSAGES, model: 'chat-vllm' })).rejects.toBeInstanceOf(ModelInvocationError);
  });

  test('an unknown endpoint is a validation error; a denied identity is a request error', async () => {
    await expect(client('missing').complete({ messages: MESSAGES })).rejects.toBeInstanceOf(EndpointValidationError);
    const stranger = bearerTokenProvider({ region: REGION, credentials: { accessKeyId: 'AKIAOTHEROTHEROTHER1', secretAccessKey: 'x' } });
    const denied = new SageMakerChatClient({ endpointName: 'chat-vllm', region: REGION, token: stranger, baseUrl: route.baseUrl('chat-vllm') });
    await expect(denied.complete({ messages: MESSAGES }))
      .rejects.toMatchObject({ constructor: EndpointRequestError, httpStatusCode: 403, retryable: false });
  });

  test('plain SigV4 is refused (third-party evidence), the client never sends it', async () => {
    const res = await fetch(`${route.baseUrl('chat-vllm')}/chat/completions`, {
      method: 'POST',
      headers: { 'authorization': 'AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/sagemaker/aws4_request', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(403);
  });

  test('bounded: a call past its deadline fails with DeadlineExceeded', async () => {
    const hanging = new SageMakerChatClient({
      endpointName: 'chat-vllm',
      region: REGION,
      baseUrl: route.baseUrl('chat-vllm'),
      deadlineMs: 50,
      token: () => new Promise<string>(() => undefined), // never resolves: only the deadline ends the call
    });
    await expect(hanging.complete({ messages: MESSAGES })).rejects.toMatchObject({ name: 'DeadlineExceeded', retryable: true });
  });
});
