import { SageMakerMcpCheckLevel } from '../check-level';
import { CheckRule, RuleFinding } from '../private/rule';
import { isAbsent, ResourceRef, variantsOf } from '../private/template-view';

/**
 * An endpoint that hosts inference components has variants without ModelName, and its config needs an ExecutionRoleArn
 * (what the SageMaker SDK does whenever no variant has a model;
 * https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_CreateEndpointConfig.html).
 */
export const inferenceComponentConfig: CheckRule = {
  id: 'SMCP-IC1',
  level: SageMakerMcpCheckLevel.ERROR,
  description: 'An inference-component endpoint config has no ModelName on its variants and sets ExecutionRoleArn.',
  check: (view) => {
    const out: RuleFinding[] = [];
    const icConfigs = new Map<string, ResourceRef>();
    for (const ic of view.ofType('AWS::SageMaker::InferenceComponent')) {
      const endpoint = view.resolveNamed(ic.props.EndpointName, 'AWS::SageMaker::Endpoint', 'EndpointName');
      const config = endpoint && view.configOfEndpoint(endpoint);
      if (config) icConfigs.set(config.logicalId, config);
    }
    for (const config of view.ofType('AWS::SageMaker::EndpointConfig')) {
      const variants = variantsOf(config);
      if (variants.length === 0) continue;
      const withModel = variants.filter((v) => !isAbsent(v.ModelName));
      if (icConfigs.has(config.logicalId) && withModel.length > 0) {
        out.push({
          logicalId: config.logicalId,
          location: 'Properties.ProductionVariants',
          message: `Endpoint config ${config.logicalId} is used by an endpoint that hosts inference components, but variant(s) `
            + `${withModel.map((v) => v.VariantName).join(', ')} set ModelName: remove ModelName (each inference component names its own model).`,
        });
      }
      if (withModel.length === 0 && isAbsent(config.props.ExecutionRoleArn)) {
        out.push({
          logicalId: config.logicalId,
          location: 'Properties.ExecutionRoleArn',
          message: `Endpoint config ${config.logicalId} has no ModelName on any variant (an inference-component endpoint) but no ExecutionRoleArn: `
            + 'set ExecutionRoleArn to a role SageMaker can assume to pull images and artifacts for the inference components.',
        });
      }
    }
    return out;
  },
};
