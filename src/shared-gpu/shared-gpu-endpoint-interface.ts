import { Size } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import { IConstruct, IDependable } from 'constructs';
import { SharedGpuInstanceScaling } from './instance-scaling';
import { EndpointMetricOptions, ISageMakerEndpoint } from '../core/endpoint-base';
import { InstanceType } from '../core/instance-type';

/**
 * An endpoint that hosts inference components: a `SharedGpuEndpoint`, or one imported with
 * `SharedGpuEndpoint.fromSharedGpuEndpointAttributes` (components can be added to both).
 */
export interface ISharedGpuEndpoint extends ISageMakerEndpoint {
  /**
   * The production variant the components run on.
   *
   * @attribute
   */
  readonly variantName: string;

  /**
   * Binds a new inference component: what it runs with (instance type, role) and what it must be created after.
   * `InferenceComponent` calls it once, in its constructor.
   */
  bindInferenceComponent(component: IConstruct): SharedGpuEndpointBinding;

  /**
   * Reserves room on the endpoint's instances for a component's initial copies and returns the problems found (one
   * copy larger than an instance, or the initial copies of all components more than the instances have); nothing is
   * reserved when there is a problem. An imported endpoint checks nothing (a warning on `component` says so).
   */
  reserveCopies(component: IConstruct, requirement: InferenceComponentRequirement): string[];

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

/** What an inference component learns from the endpoint it is bound to. */
export interface SharedGpuEndpointBinding {
  /**
   * The instance type of the endpoint's instances: models bind for it, and JumpStart models size their copies for it.
   *
   * @default - unknown (an import that did not give it): models bind for their default instance type and bring no
   * per-copy defaults
   */
  readonly instanceType?: InstanceType;

  /**
   * The role the component's model runs with (the endpoint's execution role).
   *
   * @default - unknown (an import that did not give it): the component creates a role for its model
   */
  readonly role?: iam.IRole;

  /**
   * What the component must be created after: a component can only be placed once the endpoint is InService.
   *
   * @default - nothing (the endpoint exists already)
   */
  readonly dependable?: IDependable;

  /**
   * The endpoint's managed instance scaling, which decides whether a component may scale to zero copies.
   *
   * @default - no managed instance scaling, unless `instanceScalingUnknown`
   */
  readonly instanceScaling?: SharedGpuInstanceScaling;

  /**
   * Whether the endpoint's instance scaling is unknown (an import that did not give it): scale to zero is then not
   * checked.
   *
   * @default false
   */
  readonly instanceScalingUnknown?: boolean;
}

/** The slice of an instance one copy of an inference component reserves, and how many copies it starts with. */
export interface InferenceComponentRequirement {
  /** How the component is named in messages. */
  readonly label: string;

  /**
   * Accelerators one copy reserves.
   *
   * @default - none, or unknown (a token)
   */
  readonly acceleratorCount?: number;

  /**
   * Host memory one copy reserves.
   *
   * @default - unknown (a token)
   */
  readonly minMemory?: Size;

  /**
   * CPU cores one copy reserves.
   *
   * @default - none, or unknown (a token)
   */
  readonly cpuCores?: number;

  /** Copies at creation (0 when unknown). */
  readonly copies: number;
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
   * The endpoint's instance type: models bind for it, and JumpStart models size their copies for it.
   *
   * @default - unknown: give `acceleratorCount` and `minMemory` for every component
   */
  readonly instanceType?: InstanceType;

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
  readonly instanceScaling?: SharedGpuInstanceScaling;
}
