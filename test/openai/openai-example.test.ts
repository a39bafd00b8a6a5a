import { readFileSync } from 'fs';
import { join } from 'path';
import { App, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { addOpenAiExample } from '../../examples/openai';

const ROOT = join(__dirname, '..', '..');
const normalize = (code: string) => code.split('\n').map((l) => l.trim()).filter((l) => l !== '').join('\n');

test('the example grants an agent role the OpenAI route of a realtime endpoint and of an inference component, without warnings', () => {
  // GIVEN
  const stack = new Stack(new App(), 'OpenAi', { env: { account: '123456789012', region: 'us-east-1' } });
  // WHEN
  addOpenAiExample(stack);
  // THEN
  const statements = Object.values<any>(Template.fromStack(stack).findResources('AWS::IAM::Policy'))
    .filter((p) => JSON.stringify(p.Properties.Roles).includes('AgentRole'))
    .flatMap((p) => p.Properties.PolicyDocument.Statement);
  const invoke = statements.filter((s) => s.Action === 'sagemaker:InvokeEndpoint');
  expect(JSON.stringify(invoke)).toMatch(/QwenChat[A-Z0-9]+","EndpointArn"/);
  expect(JSON.stringify(invoke)).toMatch(/SharedLlmsQwen[A-Z0-9]+","InferenceComponentArn"/);
  expect(statements).toContainEqual({ Action: 'sagemaker:CallWithBearerToken', Effect: 'Allow', Resource: '*' });
  const outputs = Template.fromStack(stack).toJSON().Outputs;
  expect(JSON.stringify(outputs.ChatOpenAiBaseUrl.Value)).toContain('/endpoints/qwen-chat/openai/v1');
  expect(JSON.stringify(outputs.QwenOpenAiBaseUrl.Value)).toContain('/inference-components/qwen3-8b/openai/v1');
  expect(Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('OpenAI-compatible route'))).toEqual([]);
});

test('every TypeScript block of docs/openai.md is an excerpt of a type-checked example file', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'openai.md'), 'utf8');
  const sources = ['openai.ts', 'openai-clients.ts'].map((f) => normalize(readFileSync(join(ROOT, 'examples', f), 'utf8'))).join('\n');
  const blocks = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
  expect(blocks.length).toBe(4);
  for (const block of blocks) expect(sources).toContain(normalize(block));
});
