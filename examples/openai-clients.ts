/**
 * Clients of the OpenAI-compatible route of the endpoints examples/openai.ts builds, each with the runtime's bearer
 * token generator (docs/openai.md): the official OpenAI SDK, a Strands agent and a LangChain.js chat model.
 */
import { ChatOpenAI } from '@langchain/openai';
import OpenAI from 'openai';
import { bearerTokenProvider, openAiBaseUrl } from 'cdk-sagemaker-mcp-runtime/openai';

const region = 'us-east-1';
// One provider per process: it signs with the AWS SDK's default credential chain (no network call) and caches each
// token until 5 minutes before it lapses. Never log or store the token.
const token = bearerTokenProvider({ region, expiresInSeconds: 3600 });

// The OpenAI SDK: the token provider is its key function, called before each request.
export async function askWithOpenAiSdk(question: string): Promise<string> {
  const client = new OpenAI({ baseURL: openAiBaseUrl({ region, endpointName: 'qwen-chat' }), apiKey: token });
  const stream = await client.chat.completions.create({
    model: '', // SageMaker routes by the URL; vLLM takes an empty model name
    messages: [{ role: 'user', content: question }],
    stream: true,
  });
  let answer = '';
  for await (const chunk of stream) answer += chunk.choices[0]?.delta?.content ?? '';
  return answer;
}

// A Strands agent on the inference component: the Chat Completions API, the model name vLLM serves. The Strands SDK is
// an ES module: a CommonJS file loads it with import().
export async function askWithStrandsAgent(question: string): Promise<string> {
  const { Agent } = await import('@strands-agents/sdk');
  const { OpenAIModel } = await import('@strands-agents/sdk/models/openai');
  const model = new OpenAIModel({
    api: 'chat',
    modelId: 'Qwen/Qwen3-8B',
    apiKey: token,
    clientConfig: { baseURL: openAiBaseUrl({ region, endpointName: 'shared-llms', inferenceComponentName: 'qwen3-8b' }) },
  });
  const agent = new Agent({ model, printer: false });
  const result = await agent.invoke(question);
  return String(result);
}

// A LangChain.js chat model on the realtime endpoint.
export async function askWithLangChain(question: string): Promise<string> {
  const model = new ChatOpenAI({
    model: 'Qwen/Qwen3-8B',
    apiKey: token,
    configuration: { baseURL: openAiBaseUrl({ region, endpointName: 'qwen-chat' }) },
  });
  const answer = await model.invoke(question);
  return answer.text;
}
