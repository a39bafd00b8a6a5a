import { CfnOutput, Size, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { ContainerImage, InstanceType, ModelSource } from '../src/core';
import { HuggingFaceHubModel, TextGenerationServer } from '../src/huggingface';
import { RealtimeEndpoint } from '../src/realtime';
import { SharedGpuEndpoint } from '../src/shared-gpu';

/**
 * SageMaker's OpenAI-compatible route on endpoints the library builds (docs/openai.md): Qwen3 8B on vLLM as a realtime
 * endpoint and as an inference component, and an agent role allowed to call both routes with a bearer token.
 */
export function addOpenAiExample(stack: Stack) {
  // A Hugging Face Hub model on the vLLM image, one of the containers AWS lists as serving the route.
  const chat = new RealtimeEndpoint(stack, 'QwenChat', {
    endpointName: 'qwen-chat',
    model: HuggingFaceHubModel.of('Qwen/Qwen3-8B', {
      task: 'text-generation', textGenerationServer: TextGenerationServer.VLLM, containerVersion: '0.21',
    }),
    instanceType: InstanceType.ML_G5_2XLARGE,
  });

  // The same model as an inference component: its route names the component in the path.
  const shared = new SharedGpuEndpoint(stack, 'SharedLlms', { endpointName: 'shared-llms', instanceType: InstanceType.ML_G5_12XLARGE });
  const qwen = shared.addInferenceComponent('Qwen', {
    componentName: 'qwen3-8b',
    model: ModelSource.fromContainer(ContainerImage.vllm({ version: '0.21' }), { environment: { HF_MODEL_ID: 'Qwen/Qwen3-8B' } }),
    acceleratorCount: 1,
    minMemory: Size.gibibytes(24),
  });

  // The agent's role: InvokeEndpoint on each endpoint (and component), CallWithBearerToken on `*`.
  const agentRole = new iam.Role(stack, 'AgentRole', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
  chat.grantInvokeOpenAi(agentRole);
  qwen.grantInvokeOpenAi(agentRole);

  new CfnOutput(stack, 'ChatOpenAiBaseUrl', { value: chat.openAiBaseUrl });
  new CfnOutput(stack, 'QwenOpenAiBaseUrl', { value: qwen.openAiBaseUrl });
  return { chat, qwen, agentRole };
}
