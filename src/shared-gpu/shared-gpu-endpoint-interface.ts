import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import { IConstruct } from 'constructs';
import { SharedGpuInstanceScalingOptions } from './instance-scaling';
import { CapacityProblem, InferenceComponentRequirement, SharedGpuEndpointBinding } from './private/binding';
import { EndpointMetricOptions, ISageMakerEndpoint } from '../core/endpoint-base';
import { InstanceType } from '../core/instance-type';

/**
 * An endpoint that hosts inference components: a `SharedGpuEndpoint`, or one imported from
 * its attributes (components can be added to both).
 */
export interface ISharedGpuEndpoint extends ISageMakerEndpoint {
  /**
   * The production variant the components run on.
   *
   * @attribute
   */
  readonly variantName: string;

  /**
   * Internal contract with `InferenceComponent`, called once in its constructor: what the component runs with and what
   * it must be created after.
   *
   * @internal
   */
  _bindInferenceComponent(component: IConstruct): SharedGpuEndpointBinding;

  /**
   * Internal contract with `InferenceComponent`: reserves room on the endpoint's instances for a component's initial
   * copies and returns the problems found (nothing is reserved when there is one). `requirements` holds the component's
   * slice per instance type, or one for every type. An imported endpoint checks nothing (a warning on `component` says so).
   *
   * @internal
   */
  _reserveCopies(component: IConstruct, requirements: InferenceComponentRequirement[]): CapacityProblem[];

  /**
   * GPU utilization of the endpoint's instances, normalized to 0-100% (`GPUUtilizationNormalized`).
   *
   * @default - Average over 5 minutes
   */
  metricGpuUtilizationNormalized(props?: EndpointMetricOptions): cloudwatch.Metric;

  /**
   * GPU memory utilization of the endpoint's instances, normalized to 0-100% (`GPUMemoryUtilizationNormalized`).
   *
   * @default - Average over 5 minutes
   */
  metricGpuMemoryUtilizationNormalized(props?: EndpointMetricOptions): cloudwatch.Metric;

  /**
   * CPU utilization of the endpoint's instances, normalized to 0-100% (`CPUUtilizationNormalized`).
   *
   * @default - Average over 5 minutes
   */
  metricCpuUtilizationNormalized(props?: EndpointMetricOptions): cloudwatch.Metric;
}

/** What identifies an existing shared endpoint, so that inference components can be added to it. */
export interface SharedGpuEndpointAttributes {
  /** The endpoint's name, in its exact case (components name it). */
  readonly endpointName: string;

  /**
   * The production variant the components run on.
   *
   * @default 'AllTraffic'
   */
  readonly variantName?: string;

  /**
   * The endpoint's instance type: models bind for it, and JumpStart models size their copies for it. For an endpoint
   * with instance pools, give the pools' types instead (the instance types attribute), not both.
   *
   * @default - the first of the instance types given; unknown without them: give every component its accelerator
   * count and minimum memory
   */
  readonly instanceType?: InstanceType;

  /**
   * The instance types of the endpoint's instance pools, highest priority first (1-5), in place of the single instance
   * type: models bind for the first, and with more than one type each component has one specification per type
   * (`Specifications`), sized for it.
   *
   * @default - the endpoint has one instance type, the single instance type attribute
   */
  readonly instanceTypes?: InstanceType[];

  /**
   * The endpoint's execution role, which components' models then run with (and which is granted what they need).
   *
   * @default - each component creates a role for its model
   */
  readonly role?: iam.IRole;

  /**
   * The endpoint's managed instance scaling, to check that components may scale to zero copies.
   *
   * @default - unknown: scale to zero is not checked
   */
  readonly instanceScaling?: SharedGpuInstanceScalingOptions;
}
