import { App, Size, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import { ContainerImage, InstanceType, ModelSource } from '../../src/core';
import { RealtimeEndpoint } from '../../src/realtime';
import { ServerlessEndpoint } from '../../src/serverless';
import { InferenceComponent, SharedGpuEndpoint } from '../../src/shared-gpu';
import { IAM_DATA_VERSION, identityStatements, statementProblems } from '../support/iam-reference';
import { expectValidTemplate } from '../support/template-checks';

const ENV = { account: '123456789012', region: 'us-east-1' };
const VLLM = ContainerImage.vllm({ version: '0.21.0' });
const TGI = ContainerImage.fromDlc('huggingface-pytorch-tgi-inference', '2.7.0-tgi3.3.6-gpu-py311-cu124-ubuntu22.04');
const LMI = ContainerImage.djlLmi({ version: '0.33.0' });
const WARNING_ID = /cdk-sagemaker-mcp:openAiRouteContainer/;

function newStack(): Stack {
  return new Stack(new App(), 'Stack', { env: ENV });
}

function callerRole(stack: Stack): iam.Role {
  return new iam.Role(stack, 'Agent', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
}

function realtime(stack: Stack, image: ContainerImage, endpointName = 'chat'): RealtimeEndpoint {
  return new RealtimeEndpoint(stack, 'Chat', { endpointName, model: ModelSource.fromContainer(image), instanceType: InstanceType.ML_G5_2XLARGE });
}

function component(stack: Stack, image: ContainerImage): InferenceComponent {
  const endpoint = new SharedGpuEndpoint(stack, 'Shared', { endpointName: 'shared', instanceType: InstanceType.ML_G5_12XLARGE });
  return endpoint.addInferenceComponent('Llama', {
    componentName: 'llama', model: ModelSource.fromContainer(image), acceleratorCount: 1, minMemory: Size.mebibytes(16_384),
  });
}

function agentStatements(stack: Stack): any[] {
  return Object.values(Template.fromStack(stack).findResources('AWS::IAM::Policy'))
    .filter((p: any) => JSON.stringify(p.Properties.Roles).includes('Agent'))
    .flatMap((p: any) => p.Properties.PolicyDocument.Statement);
}

function warnings(stack: Stack): string[] {
  return Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('OpenAI-compatible route'))
    .map((w) => String(w.entry.data));
}

describe('openAiBaseUrl', () => {
  test('a realtime endpoint: https://runtime.sagemaker.{region}.{urlSuffix}/endpoints/{name}/openai/v1', () => {
    const stack = newStack();
    const ep = realtime(stack, VLLM, 'chat-vllm');
    expect(stack.resolve(ep.openAiBaseUrl)).toEqual({
      'Fn::Join': ['', ['https://runtime.sagemaker.us-east-1.', { Ref: 'AWS::URLSuffix' }, '/endpoints/chat-vllm/openai/v1']],
    });
  });

  test('a generated endpoint name stays a token (the endpoint\'s EndpointName attribute)', () => {
    const stack = new Stack(new App(), 'Stack', { env: ENV });
    const ep = new RealtimeEndpoint(stack, 'Chat', { model: ModelSource.fromContainer(VLLM), instanceType: InstanceType.ML_G5_2XLARGE });
    expect(JSON.stringify(stack.resolve(ep.openAiBaseUrl))).toMatch(/"\/endpoints\/",\{"Fn::GetAtt":\["Chat[A-Z0-9]+","EndpointName"\]\},"\/openai\/v1"/);
  });

  test('an imported endpoint by name has a literal URL but the partition suffix', () => {
    const stack = newStack();
    const ep = RealtimeEndpoint.fromEndpointName(stack, 'Imported', 'My-Chat');
    expect(stack.resolve(ep.openAiBaseUrl)).toEqual({
      'Fn::Join': ['', ['https://runtime.sagemaker.us-east-1.', { Ref: 'AWS::URLSuffix' }, '/endpoints/My-Chat/openai/v1']],
    });
  });

  test('an inference component is addressed in the path', () => {
    const stack = newStack();
    const ic = InferenceComponent.fromInferenceComponentAttributes(stack, 'Ic', { inferenceComponentName: 'llama', endpointName: 'shared' });
    expect(stack.resolve(ic.openAiBaseUrl)).toEqual({
      'Fn::Join': ['', ['https://runtime.sagemaker.us-east-1.', { Ref: 'AWS::URLSuffix' }, '/endpoints/shared/inference-components/llama/openai/v1']],
    });
  });

  test('a serverless endpoint imported by name has the route too', () => {
    const stack = newStack();
    const ep = ServerlessEndpoint.fromEndpointName(stack, 'Imported', 'churn');
    expect(JSON.stringify(stack.resolve(ep.openAiBaseUrl))).toContain('/endpoints/churn/openai/v1');
  });
});

describe('grants', () => {
  test('grantInvokeOpenAi on a realtime endpoint: InvokeEndpoint on its ARN, CallWithBearerToken on *, nothing else', () => {
    // GIVEN
    const stack = newStack();
    const ep = realtime(stack, VLLM);
    const agent = callerRole(stack);
    // WHEN
    ep.grantInvokeOpenAi(agent);
    // THEN
    expect(agentStatements(stack)).toEqual([
      { Action: 'sagemaker:InvokeEndpoint', Effect: 'Allow', Resource: { 'Fn::GetAtt': [expect.stringMatching(/^Chat/), 'EndpointArn'] } },
      { Action: 'sagemaker:CallWithBearerToken', Effect: 'Allow', Resource: '*' },
    ]);
    expectValidTemplate(stack);
  });

  test('grantInvokeOpenAi on an inference component: InvokeEndpoint on the endpoint and the component, as grantInvoke', () => {
    // GIVEN
    const stack = newStack();
    const ic = component(stack, VLLM);
    const agent = callerRole(stack);
    // WHEN
    ic.grantInvokeOpenAi(agent);
    // THEN
    const statements = agentStatements(stack);
    expect(statements).toHaveLength(2);
    expect(statements[0].Action).toBe('sagemaker:InvokeEndpoint');
    expect(statements[0].Resource).toHaveLength(2);
    expect(JSON.stringify(statements[0].Resource[1])).toContain('InferenceComponentArn');
    expect(statements[1]).toEqual({ Action: 'sagemaker:CallWithBearerToken', Effect: 'Allow', Resource: '*' });
  });

  test('an imported realtime endpoint grants on its lowercase ARN', () => {
    const stack = newStack();
    const ep = RealtimeEndpoint.fromEndpointName(stack, 'Imported', 'My-Chat');
    const agent = callerRole(stack);
    ep.grantInvokeOpenAi(agent);
    expect(agentStatements(stack)[0]).toEqual({
      Action: 'sagemaker:InvokeEndpoint',
      Effect: 'Allow',
      Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':sagemaker:us-east-1:123456789012:endpoint/my-chat']] },
    });
  });

  test(`the grant's actions and resources pass AWS's IAM reference data (iam-data ${IAM_DATA_VERSION})`, () => {
    // GIVEN
    const stack = newStack();
    const agent = callerRole(stack);
    realtime(stack, VLLM).grantInvokeOpenAi(agent);
    InferenceComponent.fromInferenceComponentAttributes(stack, 'Ic', { inferenceComponentName: 'llama', endpointName: 'shared' }).grantInvokeOpenAi(agent);
    // WHEN
    const template = Template.fromStack(stack).toJSON();
    const statements = identityStatements(template).filter((s: any) => JSON.stringify(s.Action).includes('Bearer') || JSON.stringify(s.Action).includes('InvokeEndpoint'));
    // THEN: CallWithBearerToken exists and takes no resource type, so `*` is its only valid resource.
    expect(statements.length).toBeGreaterThanOrEqual(2);
    for (const s of statements) expect(statementProblems(s, template.Resources)).toEqual([]);
    expect(statementProblems({ Effect: 'Allow', Action: 'sagemaker:CallWithBearerToken', Resource: 'arn:aws:sagemaker:us-east-1:123456789012:endpoint/chat' })).not.toEqual([]);
  });
});

describe('container warning', () => {
  test.each([
    ['TGI', TGI],
    ['LMI', LMI],
  ])('warns on a %s realtime endpoint, naming the containers that serve the route', (_name, image) => {
    const stack = newStack();
    const ep = realtime(stack, image);
    ep.grantInvokeOpenAi(callerRole(stack));
    const found = warnings(stack);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(WARNING_ID);
    expect(found[0]).toMatch(/vLLM DLC, the SageMaker AI SGLang DLC, or a custom container/);
  });

  test('warns on a TGI inference component when its URL is used', () => {
    const stack = newStack();
    const ic = component(stack, TGI);
    void ic.openAiBaseUrl;
    expect(warnings(stack)).toHaveLength(1);
  });

  test('no warning for vLLM, a custom image, or an import', () => {
    const stack = newStack();
    const agent = callerRole(stack);
    realtime(stack, VLLM).grantInvokeOpenAi(agent);
    new RealtimeEndpoint(stack, 'Custom', {
      model: ModelSource.fromContainer(ContainerImage.fromImageUri('123456789012.dkr.ecr.us-east-1.amazonaws.com/my-llm:1')),
      instanceType: InstanceType.ML_G5_2XLARGE,
    }).grantInvokeOpenAi(agent);
    RealtimeEndpoint.fromEndpointName(stack, 'Imported', 'other').grantInvokeOpenAi(agent);
    component(stack, ContainerImage.fromDlc('sglang', '0.5.0-gpu')).grantInvokeOpenAi(agent);
    expect(warnings(stack)).toEqual([]);
  });

  test('no warning when the route is not used', () => {
    const stack = newStack();
    realtime(stack, TGI).grantInvoke(callerRole(stack));
    expect(warnings(stack)).toEqual([]);
  });
});
