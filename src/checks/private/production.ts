import { isAbsent, isPlainObject, literalNumber, literalString, ResourceRef, TemplateView } from './template-view';

const VARIANT_DIMENSION = 'sagemaker:variant:DesiredInstanceCount';
const COPY_DIMENSION = 'sagemaker:inference-component:DesiredCopyCount';

/**
 * What the rollout rules call production: a fleet that can lose more than one instance (or copy) at once. An endpoint
 * is production when a production variant starts with at least 2 instances (`InitialInstanceCount >= 2`) or is
 * autoscaled up to at least 2 (`MaxCapacity >= 2`); an inference component when it runs at least 2 copies
 * (`RuntimeConfig.CopyCount >= 2`) or is autoscaled up to at least 2. Endpoints that host inference components (no
 * variant names a model: they are updated component by component) and serverless endpoints are not endpoints the
 * rules look at. Returns why it is production (for the message), or undefined.
 */
export function endpointProductionReason(view: TemplateView, endpoint: ResourceRef): string | undefined {
  const config = view.configOfEndpoint(endpoint);
  if (!config) return undefined;
  const variants = (Array.isArray(config.props.ProductionVariants) ? config.props.ProductionVariants : []).filter(isPlainObject);
  if (variants.length === 0 || variants.every((v: any) => isAbsent(v.ModelName) || v.ServerlessConfig !== undefined)) return undefined;
  const counted = variants.find((v: any) => (literalNumber(v.InitialInstanceCount) ?? 0) >= 2);
  if (counted) return `variant ${literalString(counted.VariantName) ?? '?'} starts with ${literalNumber(counted.InitialInstanceCount)} instances`;
  const target = view.ofType('AWS::ApplicationAutoScaling::ScalableTarget')
    .filter((t) => literalString(t.props.ScalableDimension) === VARIANT_DIMENSION)
    .find((t) => view.endpointOfResourceId(t.props.ResourceId)?.endpoint.logicalId === endpoint.logicalId
      && (literalNumber(t.props.MaxCapacity) ?? 0) >= 2);
  return target ? `scalable target ${target.logicalId} scales it up to ${literalNumber(target.props.MaxCapacity)} instances` : undefined;
}

/** `endpointProductionReason` for an inference component. */
export function componentProductionReason(view: TemplateView, component: ResourceRef): string | undefined {
  const copies = literalNumber(component.props.RuntimeConfig?.CopyCount);
  if (copies !== undefined && copies >= 2) return `it runs ${copies} copies`;
  const name = literalString(component.props.InferenceComponentName);
  const target = view.ofType('AWS::ApplicationAutoScaling::ScalableTarget')
    .filter((t) => literalString(t.props.ScalableDimension) === COPY_DIMENSION && (literalNumber(t.props.MaxCapacity) ?? 0) >= 2)
    .find((t) => {
      const id = JSON.stringify(t.props.ResourceId ?? '');
      return id.includes(`"${component.logicalId}"`) || (name !== undefined && id.includes(`inference-component/${name}`));
    });
  return target ? `scalable target ${target.logicalId} scales it up to ${literalNumber(target.props.MaxCapacity)} copies` : undefined;
}
