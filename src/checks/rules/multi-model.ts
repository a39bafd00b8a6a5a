import { SageMakerMcpCheckLevel } from '../check-level';
import { CheckRule, RuleFinding } from '../private/rule';
import { isPlainObject, literalShape, literalString, ResourceRef, TemplateView, variantInstanceTypesOf, variantsOf } from '../private/template-view';

/** https://docs.aws.amazon.com/sagemaker/latest/dg/multi-model-support.html */
const SUPPORT_PAGE = 'https://docs.aws.amazon.com/sagemaker/latest/dg/multi-model-support.html';
/**
 * "Multi-model endpoints support the following GPU instance types" (the table of the support page): p2, p3, g5 and
 * g4dn sizes with one GPU each.
 */
export const MME_GPU_INSTANCE_TYPES: readonly string[] = [
  'ml.p2.xlarge', 'ml.p3.2xlarge',
  'ml.g5.xlarge', 'ml.g5.2xlarge', 'ml.g5.4xlarge', 'ml.g5.8xlarge', 'ml.g5.16xlarge',
  'ml.g4dn.xlarge', 'ml.g4dn.2xlarge', 'ml.g4dn.4xlarge', 'ml.g4dn.8xlarge', 'ml.g4dn.16xlarge',
];
const GPU_INSTANCE = /^ml\.(g|p)\d/;
const ACCELERATOR_INSTANCE = /^ml\.(inf|trn)\d/;
/** "Hosting multiple GPU backed models on multi-model endpoints is supported through the SageMaker AI Triton Inference server." */
const TRITON_IMAGE = /\/sagemaker-tritonserver(:|@|$)/;
/** LLM serving containers, which are not among the containers the support page lists (TGI, TEI, DJL/LMI, vLLM). */
const LLM_IMAGE = /\/[^/:]*(tgi|tei|djl|lmi|vllm)[^/:]*(:|@|$)/i;

function multiModelContainers(model: ResourceRef): any[] {
  const extra = Array.isArray(model.props.Containers) ? model.props.Containers : [];
  return [model.props.PrimaryContainer, ...extra].filter(isPlainObject).filter((c) => literalString(c.Mode) === 'MultiModel');
}

function variantProblems(view: TemplateView, model: ResourceRef, image: string | undefined): Array<{ config: ResourceRef; problem: string }> {
  const out: Array<{ config: ResourceRef; problem: string }> = [];
  for (const config of view.ofType('AWS::SageMaker::EndpointConfig')) {
    for (const variant of variantsOf(config)) {
      if (view.resolveNamed(variant.ModelName, 'AWS::SageMaker::Model', 'ModelName')?.logicalId !== model.logicalId) continue;
      const name = literalString(variant.VariantName) ?? '?';
      if (variant.ServerlessConfig !== undefined) {
        out.push({
          config,
          problem: `variant ${name} is serverless, and Serverless Inference does not support multi-model endpoints `
          + '(https://docs.aws.amazon.com/sagemaker/latest/dg/serverless-endpoints.html#serverless-endpoints-how-it-works-exclusions)',
        });
        continue;
      }
      // Every instance pool's type must qualify: SageMaker may provision any of them.
      for (const instanceType of variantInstanceTypesOf(variant)) {
        if (ACCELERATOR_INSTANCE.test(instanceType)) {
          out.push({ config, problem: `variant ${name} runs on ${instanceType}: multi-model endpoints support CPU instances and the GPU types of ${SUPPORT_PAGE}, not Inferentia or Trainium` });
        } else if (GPU_INSTANCE.test(instanceType)) {
          if (!MME_GPU_INSTANCE_TYPES.includes(instanceType)) {
            out.push({ config, problem: `variant ${name} runs on ${instanceType}, not one of the GPU types multi-model endpoints support (${MME_GPU_INSTANCE_TYPES.join(', ')}; ${SUPPORT_PAGE})` });
          }
          if (image !== undefined && !TRITON_IMAGE.test(image)) {
            out.push({ config, problem: `variant ${name} runs on GPU ${instanceType} with image ${image}: GPU multi-model endpoints need the SageMaker Triton Inference Server image (sagemaker-tritonserver; ${SUPPORT_PAGE})` });
          }
        }
      }
    }
  }
  return out;
}

/** What AWS requires of a multi-model endpoint: a prefix, a container that supports it, and instances it runs on. */
export const multiModelRequirements: CheckRule = {
  id: 'SMCP-MM1',
  level: SageMakerMcpCheckLevel.ERROR,
  description: 'A MultiModel container has an S3 prefix as ModelDataUrl, is not an LLM serving image, and runs on CPU or the listed GPU types (with Triton), never serverless.',
  check: (view) => {
    const out: RuleFinding[] = [];
    for (const model of view.ofType('AWS::SageMaker::Model')) {
      for (const container of multiModelContainers(model)) {
        const image = literalShape(container.Image);
        const url = literalShape(container.ModelDataUrl);
        if (container.ModelDataUrl === undefined) {
          out.push({
            logicalId: model.logicalId,
            location: 'Properties.PrimaryContainer.ModelDataUrl',
            message: `Model ${model.logicalId} is MultiModel without ModelDataUrl: set it to the S3 prefix the target models are under (TargetModel is relative to it).`,
          });
        } else if (url !== undefined && url.endsWith('.tar.gz')) {
          out.push({
            logicalId: model.logicalId,
            location: 'Properties.PrimaryContainer.ModelDataUrl',
            message: `Model ${model.logicalId} is MultiModel with ModelDataUrl ${url}, one archive: set it to the S3 prefix the target models are under.`,
          });
        }
        if (image !== undefined && LLM_IMAGE.test(image)) {
          out.push({
            logicalId: model.logicalId,
            location: 'Properties.PrimaryContainer.Image',
            message: `Model ${model.logicalId} is MultiModel with LLM serving image ${image}, which is not among the containers that support multi-model endpoints (${SUPPORT_PAGE}).`,
          });
        }
        for (const { config, problem } of variantProblems(view, model, image)) {
          out.push({
            logicalId: config.logicalId,
            location: 'Properties.ProductionVariants',
            message: `Endpoint config ${config.logicalId} hosts MultiModel model ${model.logicalId}: ${problem}.`,
          });
        }
      }
    }
    return out;
  },
};
