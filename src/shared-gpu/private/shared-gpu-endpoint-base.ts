import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { IConstruct } from 'constructs';
import { CapacityProblem, InferenceComponentRequirement, SharedGpuEndpointBinding } from './binding';
import { EndpointMetricOptions, SageMakerEndpointBase } from '../../core/endpoint-base';
import { ISharedGpuEndpoint } from '../shared-gpu-endpoint-interface';

/**
 * Internal: what `SharedGpuEndpoint` and its imports share: the normalized instance metrics, and the binding of
 * inference components each implements.
 *
 * @internal
 */
export abstract class SharedGpuEndpointBase extends SageMakerEndpointBase implements ISharedGpuEndpoint {
  public abstract readonly variantName: string;

  /** @internal */
  public abstract _bindInferenceComponent(component: IConstruct): SharedGpuEndpointBinding;

  /** @internal */
  public abstract _reserveCopies(component: IConstruct, requirements: InferenceComponentRequirement[]): CapacityProblem[];

  /**
   * GPU utilization of the endpoint's instances, normalized to 0-100% (`GPUUtilizationNormalized`).
   *
   * @default - Average over 5 minutes
   */
  public metricGpuUtilizationNormalized(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metricInstance('GPUUtilizationNormalized', { statistic: 'Average', ...props });
  }

  /**
   * GPU memory utilization of the endpoint's instances, normalized to 0-100% (`GPUMemoryUtilizationNormalized`).
   *
   * @default - Average over 5 minutes
   */
  public metricGpuMemoryUtilizationNormalized(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metricInstance('GPUMemoryUtilizationNormalized', { statistic: 'Average', ...props });
  }

  /**
   * CPU utilization of the endpoint's instances, normalized to 0-100% (`CPUUtilizationNormalized`).
   *
   * @default - Average over 5 minutes
   */
  public metricCpuUtilizationNormalized(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metricInstance('CPUUtilizationNormalized', { statistic: 'Average', ...props });
  }
}
