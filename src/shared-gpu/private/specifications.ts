import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';

/**
 * Internal: an inference component's `Specifications`, one entry per instance type of an endpoint with instance pools.
 * Not exported from the package.
 *
 * CreateInferenceComponent takes `Specifications`, 1-5 `InferenceComponentSpecification` entries whose `InstanceType` is
 * "Required when using the Specifications parameter with multiple entries", and "You can use either this parameter or
 * the singular Specification parameter, but not both"
 * (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_CreateInferenceComponent.html). The CloudFormation
 * schema of AWS::SageMaker::InferenceComponent is stricter: "Specify exactly one of Specification or Specifications",
 * "The service requires at least two entries; use the singular Specification for a single instance type", and
 * adapter components (`BaseInferenceComponentName`) are "supported only on the singular Specification"
 * (https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-sagemaker-inferencecomponent.html).
 * The stricter rules apply: 2-5 entries, never both, no adapter (the library builds no adapter components).
 *
 * The L1 of the peer floor (aws-cdk-lib 2.258) has no `specifications` and requires `specification`, so the
 * component's L1 gets the singular one and this list replaces it as property overrides. Later L1s have the property,
 * but writing it the same way at every version of the peer range keeps one template; the types below are this
 * library's own, keyed as CloudFormation spells them.
 */

/** `InferenceComponentComputeResourceRequirements`. */
export interface ComputeResourceRequirements {
  readonly NumberOfAcceleratorDevicesRequired?: number;
  readonly MinMemoryRequiredInMb?: number;
  readonly MaxMemoryRequiredInMb?: number;
  readonly NumberOfCpuCoresRequired?: number;
}

/** `InferenceComponentStartupParameters`. */
export interface StartupParameters {
  readonly ModelDataDownloadTimeoutInSeconds?: number;
  readonly ContainerStartupHealthCheckTimeoutInSeconds?: number;
}

/** One `Specifications` entry (`InferenceComponentSpecificationForInstanceType`). */
export interface SpecificationForInstanceType {
  readonly InstanceType: string;
  readonly ModelName: string;
  readonly ComputeResourceRequirements: ComputeResourceRequirements;
  readonly StartupParameters?: StartupParameters;
}

/** What one copy reserves on one instance type (MiB for memory). */
export interface TypeResources {
  readonly instanceType: string;
  readonly acceleratorCount?: number;
  readonly minMemoryMib?: number;
  readonly maxMemoryMib?: number;
  readonly cpuCores?: number;
}

/**
 * The `Specifications` list: one entry per type, the same model and startup parameters in each (`startup` as the L1's
 * singular specification takes it).
 */
export function renderSpecifications(
  modelName: string, perType: TypeResources[], startup?: sagemaker.CfnInferenceComponent.InferenceComponentStartupParametersProperty,
): SpecificationForInstanceType[] {
  return perType.map((t) => withoutUndefined({
    InstanceType: t.instanceType,
    ModelName: modelName,
    ComputeResourceRequirements: withoutUndefined({
      NumberOfAcceleratorDevicesRequired: t.acceleratorCount,
      MinMemoryRequiredInMb: t.minMemoryMib,
      MaxMemoryRequiredInMb: t.maxMemoryMib,
      NumberOfCpuCoresRequired: t.cpuCores,
    }),
    StartupParameters: startup && withoutUndefined({
      ModelDataDownloadTimeoutInSeconds: startup.modelDataDownloadTimeoutInSeconds,
      ContainerStartupHealthCheckTimeoutInSeconds: startup.containerStartupHealthCheckTimeoutInSeconds,
    }),
  }));
}

/** Writes `Specifications` in place of the singular `Specification` the L1 was given. */
export function overrideWithSpecifications(component: sagemaker.CfnInferenceComponent, specifications: SpecificationForInstanceType[]): void {
  component.addPropertyDeletionOverride('Specification');
  component.addPropertyOverride('Specifications', specifications);
}

/** An override is written as given: keys whose value is undefined are left out, as the L1 leaves them out. */
function withoutUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
