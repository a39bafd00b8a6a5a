import { ArnFormat, Resource, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { ModelFamily } from '../../core/model-family.generated';
import { endpointArnForName } from '../../private/endpoint-arn';
import { iamActionsFor } from '../../private/iam-actions';
import { grantOpenAiRoute, openAiBaseUrl, warnIfRouteNotServed } from '../../private/openai-route';
import { IInferenceComponent, InferenceComponentAttributes } from '../inference-component-interface';

/**
 * Internal: grants and metrics of an inference component, shared by `InferenceComponent` and its imports.
 *
 * @internal
 */
export abstract class InferenceComponentBase extends Resource implements IInferenceComponent {
  public abstract readonly inferenceComponentName: string;
  public abstract readonly inferenceComponentArn: string;
  public abstract readonly endpointName: string;
  public abstract readonly endpointArn: string;
  public abstract readonly modelFamily?: ModelFamily;
  /** `.../endpoints/{endpoint}/inference-components/{component}/openai/v1`: AWS addresses the component in the path. */
  public get openAiBaseUrl(): string {
    warnIfRouteNotServed(this);
    return openAiBaseUrl(this, this.endpointName, this.inferenceComponentName);
  }

  /**
   * `sagemaker:InvokeEndpoint` on the component's endpoint and on the component (the resources of the invoke grant) and
   * `sagemaker:CallWithBearerToken` on `*`.
   */
  public grantInvokeOpenAi(grantee: iam.IGrantable): iam.Grant {
    warnIfRouteNotServed(this);
    return grantOpenAiRoute(this, grantee, [this.endpointArn, this.inferenceComponentArn]);
  }

  public grantInvoke(grantee: iam.IGrantable): iam.Grant {
    return iam.Grant.addToPrincipal({
      grantee,
      actions: iamActionsFor('SageMakerRuntime.InvokeEndpoint', 'SageMakerRuntime.InvokeEndpointWithResponseStream'),
      resourceArns: [this.endpointArn, this.inferenceComponentArn],
    });
  }

  public metric(metricName: string, props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.componentMetric('AWS/SageMaker', metricName, props);
  }

  public metricUtilization(metricName: string, props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.componentMetric('/aws/sagemaker/InferenceComponents', metricName, props);
  }

  /**
   * Requests sent to this component.
   *
   * @default - Sum over 5 minutes
   */
  public metricInvocations(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metric('Invocations', { statistic: 'Sum', ...props });
  }

  /**
   * Requests per copy (what a `CopyScalingTarget` of invocations per copy tracks).
   *
   * @default - Sum over 5 minutes
   */
  public metricInvocationsPerCopy(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metric('InvocationsPerCopy', { statistic: 'Sum', ...props });
  }

  /**
   * Concurrent requests per copy.
   *
   * @default - Maximum over 5 minutes
   */
  public metricConcurrentRequestsPerCopy(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metric('ConcurrentRequestsPerCopy', { statistic: 'Maximum', ...props });
  }

  /**
   * Time the model takes to answer, in microseconds.
   *
   * @default - Average over 5 minutes
   */
  public metricModelLatency(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metric('ModelLatency', { statistic: 'Average', ...props });
  }

  /**
   * Time SageMaker adds to the model's, in microseconds.
   *
   * @default - Average over 5 minutes
   */
  public metricOverheadLatency(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metric('OverheadLatency', { statistic: 'Average', ...props });
  }

  /**
   * Requests the model answered with a 4xx status.
   *
   * @default - Sum over 5 minutes
   */
  public metricInvocation4XXErrors(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metric('Invocation4XXErrors', { statistic: 'Sum', ...props });
  }

  /**
   * Requests the model answered with a 5xx status.
   *
   * @default - Sum over 5 minutes
   */
  public metricInvocation5XXErrors(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metric('Invocation5XXErrors', { statistic: 'Sum', ...props });
  }

  /**
   * Requests that got no 2xx from the model (error statuses, socket errors, timeouts).
   *
   * @default - Sum over 5 minutes
   */
  public metricInvocationModelErrors(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metric('InvocationModelErrors', { statistic: 'Sum', ...props });
  }

  /**
   * Requests that failed because the component had no copy (scaled to zero): the signal that brings a copy back.
   *
   * @default - Sum over 5 minutes
   */
  public metricNoCapacityInvocationFailures(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metric('NoCapacityInvocationFailures', { statistic: 'Sum', ...props });
  }

  /**
   * GPU utilization of the component's copies, over their reservation, 0-100%.
   *
   * @default - Average over 5 minutes
   */
  public metricGpuUtilizationNormalized(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metricUtilization('GPUUtilizationNormalized', { statistic: 'Average', ...props });
  }

  /**
   * GPU memory utilization of the component's copies, 0-100%.
   *
   * @default - Average over 5 minutes
   */
  public metricGpuMemoryUtilizationNormalized(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metricUtilization('GPUMemoryUtilizationNormalized', { statistic: 'Average', ...props });
  }

  /**
   * CPU utilization of the component's copies, over their reservation, 0-100%.
   *
   * @default - Average over 5 minutes
   */
  public metricCpuUtilizationNormalized(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metricUtilization('CPUUtilizationNormalized', { statistic: 'Average', ...props });
  }

  /**
   * Memory utilization of the component's copies, over their reservation, 0-100%.
   *
   * @default - Average over 5 minutes
   */
  public metricMemoryUtilizationNormalized(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metricUtilization('MemoryUtilizationNormalized', { statistic: 'Average', ...props });
  }

  private componentMetric(namespace: string, metricName: string, props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return new cloudwatch.Metric({
      namespace,
      metricName,
      dimensionsMap: { InferenceComponentName: this.inferenceComponentName },
      statistic: 'Average',
      ...props,
    });
  }
}

/** An existing inference component, by name and endpoint (for grants and metrics). */
export function importInferenceComponent(scope: Construct, id: string, attrs: InferenceComponentAttributes): IInferenceComponent {
  const stack = Stack.of(scope);
  class Import extends InferenceComponentBase {
    public readonly inferenceComponentName = attrs.inferenceComponentName;
    public readonly inferenceComponentArn = stack.formatArn({
      service: 'sagemaker', resource: 'inference-component', resourceName: attrs.inferenceComponentName, arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
    });
    public readonly endpointName = attrs.endpointName;
    // Endpoint ARNs are lowercase; one built from a mixed-case name would never match in IAM.
    public readonly endpointArn = endpointArnForName(scope, attrs.endpointName);
    public readonly modelFamily = attrs.modelFamily;
  }
  return new Import(scope, id);
}
