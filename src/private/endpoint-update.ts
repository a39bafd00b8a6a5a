/** Internal: renders `EndpointUpdateOptions` onto an `AWS::SageMaker::Endpoint`. */
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import { RolloutEndpointContext } from './rollout-context';
import { PropValidator } from './validation';
import { EndpointUpdateOptions, RetainedVariantProperty } from '../rollouts/endpoint-update';

export interface EndpointUpdateProps {
  readonly deploymentConfig?: sagemaker.CfnEndpoint.DeploymentConfigProperty;
  readonly retainAllVariantProperties?: boolean;
  readonly excludeRetainedVariantProperties?: sagemaker.CfnEndpoint.VariantPropertyProperty[];
  readonly retainDeploymentConfig?: boolean;
}

/** Records the problems of the retention options (the rollout validates itself). */
export function validateEndpointUpdate(v: PropValidator, options: EndpointUpdateOptions): void {
  const excluded = options.excludeRetainedVariantProperties ?? [];
  // "Don't use this property when creating new endpoint resources or when RetainAllVariantProperties is set to false."
  // (https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-sagemaker-endpoint.html)
  v.check(excluded.length === 0 || options.retainAllVariantProperties !== false, 'excludeRetainedVariantProperties', excluded,
    'nothing when retainAllVariantProperties is false (there is nothing retained to exclude from)');
  v.check(new Set(excluded).size === excluded.length, 'excludeRetainedVariantProperties', excluded, 'each property once');
}

/**
 * The endpoint's update properties. `autoscaled`: some variant is a scalable target, so the instance counts are
 * retained by default (and weights follow the config).
 */
export function renderEndpointUpdate(options: EndpointUpdateOptions, autoscaled: boolean, context: RolloutEndpointContext): EndpointUpdateProps {
  const retain = options.retainAllVariantProperties ?? (autoscaled ? true : undefined);
  const excluded = options.excludeRetainedVariantProperties
    ?? (options.retainAllVariantProperties === undefined && autoscaled ? [RetainedVariantProperty.DESIRED_WEIGHT] : undefined);
  return {
    deploymentConfig: options.rollout?._bindToEndpoint(context),
    retainAllVariantProperties: retain,
    excludeRetainedVariantProperties: excluded && excluded.length > 0 ? excluded.map((variantPropertyType) => ({ variantPropertyType })) : undefined,
    retainDeploymentConfig: options.retainDeploymentConfig,
  };
}
