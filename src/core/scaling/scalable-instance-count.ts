import * as appscaling from 'aws-cdk-lib/aws-applicationautoscaling';
import { Construct } from 'constructs';
import { ScalableCapacity, ScalableCapacityProps, SageMakerTargetTrackingOptions } from './scalable-capacity';

/**
 * The instance count of an endpoint's production variant (dimension `sagemaker:variant:DesiredInstanceCount`), as
 * registered with Application Auto Scaling: returned by the instance count autoscaling of
 * `RealtimeEndpoint` and `AsyncEndpoint`, to add policies to.
 */
export class ScalableInstanceCount extends ScalableCapacity {
  constructor(scope: Construct, id: string, props: ScalableCapacityProps) {
    super(scope, id, props);
  }

  /**
   * Tracks `SageMakerVariantInvocationsPerInstance`: invocations per instance per minute, the metric AWS recommends for
   * realtime variants (https://docs.aws.amazon.com/sagemaker/latest/dg/endpoint-auto-scaling-add-code-define.html).
   */
  public scaleOnInvocationsPerInstance(id: string, options: SageMakerTargetTrackingOptions): appscaling.CfnScalingPolicy {
    return this.trackPredefinedMetric(id, 'SageMakerVariantInvocationsPerInstance', options);
  }

  /**
   * Tracks `SageMakerVariantConcurrentRequestsPerModelHighResolution`: concurrent requests per model copy, published
   * every 10 seconds, so that scaling reacts to bursts faster than on invocations.
   */
  public scaleOnConcurrentRequestsPerModel(id: string, options: SageMakerTargetTrackingOptions): appscaling.CfnScalingPolicy {
    return this.trackPredefinedMetric(id, 'SageMakerVariantConcurrentRequestsPerModelHighResolution', options);
  }
}
