/**
 * Internal: the shadow variant of a realtime endpoint (`ShadowProductionVariants` of the endpoint config).
 *
 * "SageMaker AI supports a maximum of one shadow variant per endpoint. For an endpoint with a shadow variant, there can
 * be a maximum of one production variant." (https://docs.aws.amazon.com/sagemaker/latest/dg/shadow-tests-create.html)
 * The shadow's share of the traffic is its `InitialVariantWeight` relative to the production variant's: the guide's
 * example gives both a weight of 1 to copy every request (https://docs.aws.amazon.com/sagemaker/latest/dg/model-shadow-deployment.html),
 * and "the traffic to a production variant is determined by the ratio of the VariantWeight to the sum of all
 * VariantWeight values" (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_ProductionVariant.html). So a
 * sampling percentage p becomes a shadow weight of p/100 times the production weight.
 */
import { Token } from 'aws-cdk-lib';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import { renderProductionVariant, validateProductionVariant } from '../../private/render-variant';
import { PropValidator } from '../../private/validation';
import { ShadowVariantOptions } from '../shadow-variant';

export const DEFAULT_SHADOW_NAME = 'Shadow';

/** Records the problems of the shadow options on their own (the variant count is checked at synth). */
export function validateShadow(v: PropValidator, options: ShadowVariantOptions, productionName: string, productionWeight: number | undefined): void {
  const name = options.variantName ?? DEFAULT_SHADOW_NAME;
  validateProductionVariant(v, 'shadow.', name, options, { modelOverride: 'the shadow\'s pools run the shadow\'s model' });
  v.range('shadow.samplingPercentage', options.samplingPercentage, 1, 100, { unit: 'percent' });
  v.check(options.initialVariantWeight === undefined, 'shadow.initialVariantWeight', options.initialVariantWeight,
    'nothing: samplingPercentage sets the shadow\'s share of the production traffic');
  v.check(name !== productionName, 'shadow.variantName', name, `a name other than the production variant's ('${productionName}')`);
  v.check(productionWeight === undefined || !Token.isUnresolved(productionWeight), 'initialVariantWeight', productionWeight,
    'a number when a shadow variant is set (the shadow\'s weight is a share of it)');
}

/** The `ShadowProductionVariants` entry. */
export function renderShadow(
  options: ShadowVariantOptions, modelName: string, productionWeight: number,
): sagemaker.CfnEndpointConfig.ProductionVariantProperty {
  const share = (options.samplingPercentage ?? 100) / 100;
  const name = options.variantName ?? DEFAULT_SHADOW_NAME;
  return renderProductionVariant(name, modelName, { ...options, initialVariantWeight: productionWeight * share });
}
