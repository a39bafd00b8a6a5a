import * as appscaling from 'aws-cdk-lib/aws-applicationautoscaling';
import { Construct } from 'constructs';
import { ScalableCapacity, ScalableCapacityProps, SageMakerTargetTrackingOptions } from './scalable-capacity';

/**
 * The copy count of an inference component (dimension `sagemaker:inference-component:DesiredCopyCount`), as registered
 * with Application Auto Scaling: returned by the inference component's copy count autoscaling, to add policies to.
 */
export class ScalableCopyCount extends ScalableCapacity {
  constructor(scope: Construct, id: string, props: ScalableCapacityProps) {
    super(scope, id, props);
  }

  /** Tracks `SageMakerInferenceComponentInvocationsPerCopy`: invocations per copy per minute. */
  public scaleOnInvocationsPerCopy(id: string, options: SageMakerTargetTrackingOptions): appscaling.CfnScalingPolicy {
    return this.trackPredefinedMetric(id, 'SageMakerInferenceComponentInvocationsPerCopy', options);
  }

  /**
   * Tracks `SageMakerInferenceComponentConcurrentRequestsPerCopyHighResolution`: concurrent requests per copy, sampled
   * at high resolution, which reacts faster than invocations to LLM requests that last seconds.
   */
  public scaleOnConcurrentRequestsPerCopy(id: string, options: SageMakerTargetTrackingOptions): appscaling.CfnScalingPolicy {
    return this.trackPredefinedMetric(id, 'SageMakerInferenceComponentConcurrentRequestsPerCopyHighResolution', options);
  }
}
