/**
 * The load metric an inference component's copy count tracks, and its target value per copy: one of the predefined
 * metrics of inference components, so a policy names exactly one
 * (https://docs.aws.amazon.com/sagemaker/latest/dg/endpoint-auto-scaling-add-code-define.html).
 */
export class CopyScalingTarget {
  /**
   * Invocations per copy per minute (`SageMakerInferenceComponentInvocationsPerCopy`).
   *
   * @param target the invocations per copy per minute to hold (> 0)
   */
  public static invocationsPerCopy(target: number): CopyScalingTarget {
    return new CopyScalingTarget('SageMakerInferenceComponentInvocationsPerCopy', target, 'invocationsPerCopy');
  }

  /**
   * Concurrent requests per copy, sampled at high resolution
   * (`SageMakerInferenceComponentConcurrentRequestsPerCopyHighResolution`): reacts faster than invocations to LLM
   * requests that last seconds.
   *
   * @param target the concurrent requests per copy to hold (> 0)
   */
  public static concurrentRequestsPerCopy(target: number): CopyScalingTarget {
    return new CopyScalingTarget('SageMakerInferenceComponentConcurrentRequestsPerCopyHighResolution', target, 'concurrentRequestsPerCopy');
  }

  /** The predefined metric of the target-tracking policy (`PredefinedMetricType`). */
  public readonly predefinedMetricType: string;

  /** The value of the metric the policy holds (`TargetValue`). */
  public readonly targetValue: number;

  /** The factory that made this target (invocations or concurrent requests per copy), to name it in errors. */
  public readonly kind: string;

  private constructor(predefinedMetricType: string, targetValue: number, kind: string) {
    this.predefinedMetricType = predefinedMetricType;
    this.targetValue = targetValue;
    this.kind = kind;
  }
}
