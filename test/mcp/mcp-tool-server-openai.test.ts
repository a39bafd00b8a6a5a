import { App, Size, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { placeholder, specTextOf } from './spec-of';
import { ContainerImage, InstanceType, ModelSource } from '../../src/core';
import { McpToolServer } from '../../src/mcp';
import { RealtimeEndpoint } from '../../src/realtime';
import { SharedGpuEndpoint } from '../../src/shared-gpu';
import { parseMcpServerSpec } from 'cdk-sagemaker-mcp-runtime/mcp';

const ENV = { account: '123456789012', region: 'us-east-1' };
const VLLM = ContainerImage.vllm({ version: '0.21.0' });
const TGI = ContainerImage.fromDlc('huggingface-pytorch-tgi-inference', '2.7.0-tgi3.3.6-gpu-py311-cu124-ubuntu22.04');

function setup() {
  const stack = new Stack(new App(), 'Stack', { env: ENV });
  const realtime = (id: string, image: ContainerImage) =>
    new RealtimeEndpoint(stack, id, {
      endpointName: id.toLowerCase(), model: ModelSource.fromContainer(image), instanceType: InstanceType.ML_G5_2XLARGE,
    });
  const shared = new SharedGpuEndpoint(stack, 'Shared', { endpointName: 'shared', instanceType: InstanceType.ML_G5_12XLARGE });
  const qwen = shared.addInferenceComponent('Qwen', {
    componentName: 'qwen', model: ModelSource.fromContainer(VLLM), acceleratorCount: 1, minMemory: Size.mebibytes(16_384),
  });
  return { stack, vllm: realtime('Vllm', VLLM), tgi: realtime('Tgi', TGI), custom: realtime('Custom', ContainerImage.fromImageUri('123456789012.dkr.ecr.us-east-1.amazonaws.com/my-llm:1')), qwen };
}

function specOf(stack: Stack): any {
  // A shared-GPU endpoint's name is its EndpointName attribute: read it as 'shared'.
  const resolve = (value: unknown): string => placeholder(value).replace(/<att:[^>]*\.EndpointName>/g, 'shared');
  return parseMcpServerSpec<any>(specTextOf(Template.fromStack(stack).toJSON(), undefined, resolve));
}

function serverStatements(stack: Stack): any[] {
  return Object.values<any>(Template.fromStack(stack).findResources('AWS::IAM::Policy')).flatMap((p) => p.Properties.PolicyDocument.Statement);
}

test('vLLM endpoints and components use the route (spec openAiRoute), TGI and unknown custom images keep InvokeEndpoint', () => {
  // GIVEN
  const { stack, vllm, tgi, custom, qwen } = setup();
  // WHEN
  new McpToolServer(stack, 'Mcp', {
    realtimeEndpoints: [{ endpoint: vllm }, { endpoint: tgi }, { endpoint: custom }],
    inferenceComponents: [{ component: qwen }],
  });
  // THEN
  const byName = Object.fromEntries(specOf(stack).realtimeEndpoints.map((e: any) => [e.name, e.openAiRoute]));
  expect(byName).toEqual({ vllm: true, tgi: undefined, custom: undefined, shared: true });
  expect(serverStatements(stack)).toContainEqual({ Action: 'sagemaker:CallWithBearerToken', Effect: 'Allow', Resource: '*' });
});

test('an entry\'s openAiRoute wins: on for a custom container, off for a vLLM one', () => {
  const { stack, vllm, custom } = setup();
  new McpToolServer(stack, 'Mcp', { realtimeEndpoints: [{ endpoint: vllm, openAiRoute: false }, { endpoint: custom, openAiRoute: true }] });
  const byName = Object.fromEntries(specOf(stack).realtimeEndpoints.map((e: any) => [e.name, e.openAiRoute]));
  expect(byName).toEqual({ vllm: undefined, custom: true });
});

test('no routed entry: no CallWithBearerToken grant', () => {
  const { stack, tgi } = setup();
  new McpToolServer(stack, 'Mcp', { realtimeEndpoints: [{ endpoint: tgi }] });
  expect(JSON.stringify(serverStatements(stack))).not.toContain('CallWithBearerToken');
  expect(specOf(stack).realtimeEndpoints[0].openAiRoute).toBeUndefined();
});

test('a multi-model entry never uses the route (it takes no target model)', () => {
  const { stack, vllm } = setup();
  new McpToolServer(stack, 'Mcp', { realtimeEndpoints: [{ endpoint: vllm, targetModels: ['a.tar.gz'], openAiRoute: true }] });
  expect(specOf(stack).realtimeEndpoints[0].openAiRoute).toBeUndefined();
});
