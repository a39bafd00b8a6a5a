import * as appscaling from 'aws-cdk-lib/aws-applicationautoscaling';
import { Construct } from 'constructs';
import { ScalableCapacity, ScalableCapacityProps, SageMakerTargetTrackingOptions } from './scalable-capacity';

/**
 * The provisioned concurrency of a serverless endpoint's variant (dimension
 * `sagemaker:variant:DesiredProvisionedConcurrency`), as registered with Application Auto Scaling: returned by
 * the provisioned concurrency autoscaling of `ServerlessEndpoint`, to add policies to (e.g. scheduled scaling for known peaks).
 */
export class ScalableProvisionedConcurrency extends ScalableCapacity {
  constructor(scope: Construct, id: string, props: ScalableCapacityProps) {
    super(scope, id, props);
  }

  /**
   * Tracks `SageMakerVariantProvisionedConcurrencyUtilization`: the share (0-1) of the provisioned concurrency in use
   * (https://docs.aws.amazon.com/sagemaker/latest/dg/serverless-endpoints-autoscale.html).
   */
  public scaleOnProvisionedConcurrencyUtilization(id: string, options: SageMakerTargetTrackingOptions): appscaling.CfnScalingPolicy {
    return this.trackPredefinedMetric(id, 'SageMakerVariantProvisionedConcurrencyUtilization', options);
  }
}
