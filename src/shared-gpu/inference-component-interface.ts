import { IResource } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import { IOpenAiCompatible } from '../core/endpoint-base';
import { ModelFamily } from '../core/model-family.generated';

/** An inference component: one model deployed on a shared endpoint. */
export interface IInferenceComponent extends IResource, IOpenAiCompatible {
  /**
   * The component's name: what callers pass as `InferenceComponentName` (header `X-Amzn-SageMaker-Inference-Component`).
   *
   * @attribute
   */
  readonly inferenceComponentName: string;

  /**
   * The component's ARN.
   *
   * @attribute
   */
  readonly inferenceComponentArn: string;

  /** The name of the endpoint the component runs on. */
  readonly endpointName: string;

  /** The ARN of the endpoint the component runs on. */
  readonly endpointArn: string;

  /**
   * The payload family of the model, for the MCP invoke tool (`ModelFamily.LLAMA3`, ...).
   *
   * @default - unknown
   */
  readonly modelFamily?: ModelFamily;

  /**
   * Grants `sagemaker:InvokeEndpoint` and `sagemaker:InvokeEndpointWithResponseStream` (streaming is an IAM action of its
   * own) on the component's endpoint and on the component. The Service Authorization Reference lists both resource
   * types for these actions; the endpoint ARN is required, so the grant lets `grantee` call every component of that
   * endpoint.
   */
  grantInvoke(grantee: iam.IGrantable): iam.Grant;

  /**
   * An invocation metric of this component, in `AWS/SageMaker` with dimension `InferenceComponentName`.
   *
   * @default - statistic Average over 5 minutes
   */
  metric(metricName: string, props?: cloudwatch.MetricOptions): cloudwatch.Metric;

  /**
   * A utilization metric of this component's copies, in `/aws/sagemaker/InferenceComponents` with dimension
   * `InferenceComponentName`.
   *
   * @default - statistic Average over 5 minutes
   */
  metricUtilization(metricName: string, props?: cloudwatch.MetricOptions): cloudwatch.Metric;

  /**
   * Requests sent to this component.
   *
   * @default - Sum over 5 minutes
   */
  metricInvocations(props?: cloudwatch.MetricOptions): cloudwatch.Metric;

  /**
   * Requests per copy (what the invocations-per-copy `CopyScalingTarget` tracks).
   *
   * @default - Sum over 5 minutes
   */
  metricInvocationsPerCopy(props?: cloudwatch.MetricOptions): cloudwatch.Metric;

  /**
   * Concurrent requests per copy.
   *
   * @default - Maximum over 5 minutes
   */
  metricConcurrentRequestsPerCopy(props?: cloudwatch.MetricOptions): cloudwatch.Metric;

  /**
   * Time the model takes to answer, in microseconds.
   *
   * @default - Average over 5 minutes
   */
  metricModelLatency(props?: cloudwatch.MetricOptions): cloudwatch.Metric;

  /**
   * Time SageMaker adds to the model's, in microseconds.
   *
   * @default - Average over 5 minutes
   */
  metricOverheadLatency(props?: cloudwatch.MetricOptions): cloudwatch.Metric;

  /**
   * Requests the model answered with a 4xx status.
   *
   * @default - Sum over 5 minutes
   */
  metricInvocation4XXErrors(props?: cloudwatch.MetricOptions): cloudwatch.Metric;

  /**
   * Requests the model answered with a 5xx status.
   *
   * @default - Sum over 5 minutes
   */
  metricInvocation5XXErrors(props?: cloudwatch.MetricOptions): cloudwatch.Metric;

  /**
   * Requests that got no 2xx from the model (error statuses, socket errors, timeouts).
   *
   * @default - Sum over 5 minutes
   */
  metricInvocationModelErrors(props?: cloudwatch.MetricOptions): cloudwatch.Metric;

  /**
   * Requests that failed because the component had no copy (scaled to zero): the signal that brings a copy back.
   *
   * @default - Sum over 5 minutes
   */
  metricNoCapacityInvocationFailures(props?: cloudwatch.MetricOptions): cloudwatch.Metric;

  /**
   * GPU utilization of the component's copies, over their reservation, 0-100%.
   *
   * @default - Average over 5 minutes
   */
  metricGpuUtilizationNormalized(props?: cloudwatch.MetricOptions): cloudwatch.Metric;

  /**
   * GPU memory utilization of the component's copies, 0-100%.
   *
   * @default - Average over 5 minutes
   */
  metricGpuMemoryUtilizationNormalized(props?: cloudwatch.MetricOptions): cloudwatch.Metric;

  /**
   * CPU utilization of the component's copies, over their reservation, 0-100%.
   *
   * @default - Average over 5 minutes
   */
  metricCpuUtilizationNormalized(props?: cloudwatch.MetricOptions): cloudwatch.Metric;

  /**
   * Memory utilization of the component's copies, over their reservation, 0-100%.
   *
   * @default - Average over 5 minutes
   */
  metricMemoryUtilizationNormalized(props?: cloudwatch.MetricOptions): cloudwatch.Metric;
}

/** Attributes of an inference component defined elsewhere. */
export interface InferenceComponentAttributes {
  /** The component's name. */
  readonly inferenceComponentName: string;
  /** The name of the endpoint it runs on. */
  readonly endpointName: string;
  /**
   * The payload family of the model (`ModelFamily.LLAMA3`, ...).
   *
   * @default - unknown
   */
  readonly modelFamily?: ModelFamily;
}
