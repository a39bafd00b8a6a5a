import { SageMakerMcpCheckLevel } from '../check-level';
import { CheckRule, RuleFinding } from '../private/rule';
import { isPlainObject, literalNumber, literalShape, variantInstanceTypesOf, variantsOf } from '../private/template-view';

const GPU_INSTANCE = /^ml\.(g|p|inf|trn)\d/;
/** Image repositories of LLM serving containers (TGI, DJL/LMI, vLLM). */
const LLM_IMAGE = /\/[^/:]*(tgi|djl|lmi|vllm)[^/:]*(:|@|$)/i;

/**
 * MaxConcurrentInvocationsPerInstance 1–2 for GPU LLMs, which hold one or two generations in GPU memory at once
 * (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_AsyncInferenceClientConfig.html).
 */
export const llmGpuConcurrency: CheckRule = {
  id: 'SMCP-AS3',
  level: SageMakerMcpCheckLevel.WARNING,
  description: 'An async LLM endpoint on GPU/accelerator instances keeps MaxConcurrentInvocationsPerInstance at 1-2.',
  check: (view) => {
    const out: RuleFinding[] = [];
    for (const config of view.ofType('AWS::SageMaker::EndpointConfig')) {
      const concurrency = literalNumber(config.props.AsyncInferenceConfig?.ClientConfig?.MaxConcurrentInvocationsPerInstance);
      if (concurrency === undefined || concurrency <= 2) continue;
      for (const variant of variantsOf(config)) {
        // With instance pools: any GPU pool (the requests per instance are the same on every pool).
        const instanceType = variantInstanceTypesOf(variant).find((t) => GPU_INSTANCE.test(t));
        if (!instanceType) continue;
        const model = view.resolveNamed(variant.ModelName, 'AWS::SageMaker::Model', 'ModelName');
        if (!model) continue;
        const extra = Array.isArray(model.props.Containers) ? model.props.Containers : [];
        const containers = [model.props.PrimaryContainer, ...extra].filter(isPlainObject);
        const image = containers.map((c) => literalShape(c.Image)).find((i) => i !== undefined && LLM_IMAGE.test(i));
        if (!image) continue;
        out.push({
          logicalId: config.logicalId,
          location: 'Properties.AsyncInferenceConfig.ClientConfig.MaxConcurrentInvocationsPerInstance',
          message: `Endpoint config ${config.logicalId} sends up to ${concurrency} concurrent invocations per ${instanceType} instance to LLM image ${image}: `
            + 'set MaxConcurrentInvocationsPerInstance to 1-2 for GPU LLM containers (they batch internally; more only queues on the GPU and times out).',
        });
        break;
      }
    }
    return out;
  },
};
