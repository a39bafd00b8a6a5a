import { Annotations } from 'aws-cdk-lib';
import { Construct, IConstruct } from 'constructs';
import { CapacityProblem, InferenceComponentRequirement, SharedGpuEndpointBinding } from './binding';
import { SharedGpuEndpointBase } from './shared-gpu-endpoint-base';
import { DEFAULT_VARIANT_NAME, endpointArnForName } from '../../private/endpoint-arn';
import { PropValidator, SAGEMAKER_NAME_EXPECTED, SAGEMAKER_NAME_PATTERN } from '../../private/validation';
import { SharedGpuEndpointAttributes } from '../shared-gpu-endpoint-interface';

/**
 * Internal: a shared endpoint defined elsewhere, on which inference components can be added. Its instances and the
 * components already on it are unknown here, so components are not checked to fit (each gets a warning saying so).
 */
export class ImportedSharedGpuEndpoint extends SharedGpuEndpointBase {
  public readonly endpointName: string;
  public readonly endpointArn: string;
  public readonly variantName: string;
  protected readonly defaultVariantName: string;

  constructor(scope: Construct, id: string, private readonly attrs: SharedGpuEndpointAttributes) {
    super(scope, id);
    const v = new PropValidator(`imported shared endpoint '${id}'`)
      .pattern('endpointName', attrs.endpointName, SAGEMAKER_NAME_PATTERN, SAGEMAKER_NAME_EXPECTED, 63)
      .pattern('variantName', attrs.variantName, SAGEMAKER_NAME_PATTERN, SAGEMAKER_NAME_EXPECTED, 63);
    const types = attrs.instanceTypes;
    if (types !== undefined) {
      // An endpoint has at most five instance pools (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_ProductionVariant.html).
      v.check(types.length >= 1 && types.length <= 5, 'instanceTypes', `${types.length} instance types`, 'between 1 and 5 (one per instance pool)');
      v.check(attrs.instanceType === undefined, 'instanceType', attrs.instanceType?.name,
        'nothing when instanceTypes is given (the first of instanceTypes is the type models bind for)');
    }
    v.throwIfInvalid();
    this.endpointName = attrs.endpointName;
    // Endpoint ARNs are lowercase; one built from a mixed-case name would never match in IAM.
    this.endpointArn = endpointArnForName(scope, attrs.endpointName);
    this.variantName = attrs.variantName ?? DEFAULT_VARIANT_NAME;
    this.defaultVariantName = this.variantName;
  }

  /** @internal */
  public _bindInferenceComponent(_component: IConstruct): SharedGpuEndpointBinding {
    const types = this.attrs.instanceTypes ?? (this.attrs.instanceType ? [this.attrs.instanceType] : undefined);
    return {
      instanceType: types?.[0],
      instanceTypes: types,
      role: this.attrs.role,
      instanceScaling: () => this.attrs.instanceScaling ?? 'unknown',
    };
  }

  /** @internal */
  public _reserveCopies(component: IConstruct, _requirements: InferenceComponentRequirement[]): CapacityProblem[] {
    Annotations.of(component).addWarningV2('cdk-sagemaker-mcp:sharedGpuImportedCapacity',
      `endpoint: '${this.endpointName}' is imported, so this component's copies are not checked to fit its instances `
      + '(their type, count and the other components are unknown here); a copy that does not fit fails at deployment');
    return [];
  }
}
