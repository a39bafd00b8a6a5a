import { literalString, ResourceRef, TemplateView } from './template-view';

export const VARIANT_INSTANCE_DIMENSION = 'sagemaker:variant:DesiredInstanceCount';

/** The scalable dimension a policy scales (its own, or its target's). */
export function dimensionOfPolicy(view: TemplateView, policy: ResourceRef): string | undefined {
  return literalString(policy.props.ScalableDimension) ?? literalString(view.targetOfPolicy(policy)?.props.ScalableDimension);
}

/** Endpoint-variant scalable targets (instance count) with their endpoint and endpoint config, where resolvable. */
export function variantTargets(view: TemplateView): Array<{ target: ResourceRef; endpoint?: ResourceRef; config?: ResourceRef }> {
  return view.ofType('AWS::ApplicationAutoScaling::ScalableTarget')
    .filter((t) => literalString(t.props.ScalableDimension) === VARIANT_INSTANCE_DIMENSION)
    .map((target) => {
      const endpoint = view.endpointOfResourceId(target.props.ResourceId)?.endpoint;
      return { target, endpoint, config: endpoint ? view.configOfEndpoint(endpoint) : undefined };
    });
}
