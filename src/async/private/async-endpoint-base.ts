import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { EndpointMetricOptions, SageMakerEndpointBase } from '../../core/endpoint-base';
import { ASYNC_ENV } from '../../private/contract.generated';
import { IAM_ACTION } from '../../private/iam-actions';
import { acknowledgeGrantWildcards } from '../../private/nag';
import { IAsyncEndpoint } from '../async-endpoint-props';

/**
 * What created and imported async endpoints share: the runtime environment, the grants and the async metrics.
 *
 * @internal
 */
export abstract class AsyncEndpointBase extends SageMakerEndpointBase implements IAsyncEndpoint {
  public abstract readonly bucket?: s3.IBucket;
  public abstract readonly inputPrefix: string;
  public abstract readonly outputPrefix: string;
  public abstract readonly failurePrefix: string;
  public abstract readonly jobTable?: dynamodb.ITable;
  public abstract readonly encryptionKey?: kms.IKey;
  protected abstract readonly defaultInvocationTimeoutSeconds: number;
  protected abstract readonly defaultRequestTtlSeconds: number;

  public get runtimeEnvironment(): { [key: string]: string } {
    const env: { [key: string]: string } = {
      [ASYNC_ENV.ENDPOINT_NAME]: this.endpointName,
      [ASYNC_ENV.INPUT_BUCKET]: this.requireBucket('runtimeEnvironment').bucketName,
      [ASYNC_ENV.INPUT_PREFIX]: this.inputPrefix,
      [ASYNC_ENV.INVOCATION_TIMEOUT_SECONDS]: String(this.defaultInvocationTimeoutSeconds),
      [ASYNC_ENV.REQUEST_TTL_SECONDS]: String(this.defaultRequestTtlSeconds),
    };
    if (this.jobTable) env[ASYNC_ENV.JOB_TABLE_NAME] = this.jobTable.tableName;
    return env;
  }

  /**
   * Sets the runtime's environment variables on the function and grants it submitting jobs and reading results.
   */
  public bindToFunction(fn: lambda.Function): void {
    for (const [name, value] of Object.entries(this.runtimeEnvironment)) fn.addEnvironment(name, value);
    this.grantSubmit(fn);
    this.grantReadResults(fn);
  }

  public grantSubmit(grantee: iam.IGrantable): iam.Grant {
    const bucket = this.requireBucket('grantSubmit');
    let grant = this.grant(grantee, IAM_ACTION.sagemaker.InvokeEndpointAsync);
    grant = grant.combine(acknowledgeGrantWildcards(this,
      iam.Grant.addToPrincipal({ grantee, actions: [IAM_ACTION.s3.PutObject], resourceArns: [bucket.arnForObjects(`${this.inputPrefix}*`)] }),
      'Async inference inputs: one new object per request under the endpoint\'s input prefix only; keys are generated per request (IAsyncEndpoint.grantSubmit).',
    ));
    const key = bucket.encryptionKey?.grant(grantee, IAM_ACTION.kms.GenerateDataKey);
    return key ? grant.combine(key) : grant;
  }

  public grantReadResults(grantee: iam.IGrantable): iam.Grant {
    const bucket = this.requireBucket('grantReadResults');
    let grant = acknowledgeGrantWildcards(this, iam.Grant.addToPrincipal({
      grantee,
      actions: [IAM_ACTION.s3.GetObject],
      resourceArns: [bucket.arnForObjects(`${this.outputPrefix}*`), bucket.arnForObjects(`${this.failurePrefix}*`)],
    }), 'Async inference results: SageMaker writes one object per request under the endpoint\'s output and failure prefixes only, with generated keys (IAsyncEndpoint.grantReadResults).');
    // Without ListBucket, GetObject on a missing key (a job still pending) is 403 instead of 404.
    grant = grant.combine(iam.Grant.addToPrincipal({
      grantee,
      actions: [IAM_ACTION.s3.ListBucket],
      resourceArns: [bucket.bucketArn],
      conditions: { StringLike: { 's3:prefix': [`${this.outputPrefix}*`, `${this.failurePrefix}*`] } },
    }));
    for (const key of new Set([this.encryptionKey, bucket.encryptionKey].filter((k): k is kms.IKey => k !== undefined))) {
      grant = grant.combine(key.grant(grantee, IAM_ACTION.kms.Decrypt));
    }
    if (this.jobTable) {
      grant = grant.combine(this.jobTable.grant(grantee, IAM_ACTION.dynamodb.GetItem));
      const tableKey = this.jobTable.encryptionKey?.grant(grantee, IAM_ACTION.kms.Decrypt);
      if (tableKey) grant = grant.combine(tableKey);
    }
    return grant;
  }

  public metricApproximateBacklogSize(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.endpointMetric('ApproximateBacklogSize', { statistic: 'Average', ...props });
  }

  public metricApproximateBacklogSizePerInstance(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.endpointMetric('ApproximateBacklogSizePerInstance', { statistic: 'Average', ...props });
  }

  public metricApproximateAgeOfOldestRequest(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.endpointMetric('ApproximateAgeOfOldestRequest', { statistic: 'Maximum', ...props });
  }

  public metricHasBacklogWithoutCapacity(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.endpointMetric('HasBacklogWithoutCapacity', { statistic: 'Average', period: Duration.minutes(1), ...props });
  }

  public metricInvocationFailures(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metric('InvocationFailures', { statistic: 'Sum', ...props });
  }

  public metricInvocationsProcessed(props?: EndpointMetricOptions): cloudwatch.Metric {
    // AWS's async metric list (async-inference-monitor.html) spells it with three s; whether SageMaker emits that
    // spelling or `InvocationsProcessed` is unconfirmed, so this returns the documented one and the dashboard graphs both.
    return this.metric('InvocationsProcesssed', { statistic: 'Sum', ...props });
  }

  public metricExpiredRequests(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metric('ExpiredRequests', { statistic: 'Sum', ...props });
  }

  public metricRequestDownloadFailures(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metric('RequestDownloadFailures', { statistic: 'Sum', ...props });
  }

  public metricResponseUploadFailures(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metric('ResponseUploadFailures', { statistic: 'Sum', ...props });
  }

  public metricNotificationFailures(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metric('NotificationFailures', { statistic: 'Sum', ...props });
  }

  public metricTimeInBacklog(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metric('TimeInBacklog', { statistic: 'Average', ...props });
  }

  public metricTotalProcessingTime(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metric('TotalProcessingTime', { statistic: 'Average', ...props });
  }

  /**
   * SageMaker publishes no `Invocations` for an async endpoint: use the invocations-processed metric.
   *
   * @deprecated async endpoints do not publish `Invocations` (https://docs.aws.amazon.com/sagemaker/latest/dg/async-inference-monitor.html); use the invocations-processed metric
   */
  public metricInvocations(_props?: EndpointMetricOptions): cloudwatch.Metric {
    throw this.unpublished('metricInvocations', 'Invocations', 'metricInvocationsProcessed');
  }

  /**
   * SageMaker publishes no `InvocationsPerInstance` for an async endpoint: use the backlog-size-per-instance metric.
   *
   * @deprecated async endpoints do not publish `InvocationsPerInstance` (https://docs.aws.amazon.com/sagemaker/latest/dg/async-inference-monitor.html); use the backlog-size-per-instance metric
   */
  public metricInvocationsPerInstance(_props?: EndpointMetricOptions): cloudwatch.Metric {
    throw this.unpublished('metricInvocationsPerInstance', 'InvocationsPerInstance', 'metricApproximateBacklogSizePerInstance');
  }

  /**
   * SageMaker publishes no `OverheadLatency` for an async endpoint: use the total-processing-time metric.
   *
   * @deprecated async endpoints do not publish `OverheadLatency` (https://docs.aws.amazon.com/sagemaker/latest/dg/async-inference-monitor.html); use the total-processing-time metric
   */
  public metricOverheadLatency(_props?: EndpointMetricOptions): cloudwatch.Metric {
    throw this.unpublished('metricOverheadLatency', 'OverheadLatency', 'metricTotalProcessingTime');
  }

  /** AWS's async metric list is exhaustive and names these three as not published: a graph of them stays empty. */
  private unpublished(member: string, metricName: string, instead: string): Error {
    return new Error(`AsyncEndpoint '${this.node.path}'.${member}: got a request for '${metricName}', which SageMaker does not publish `
      + `for an async endpoint (https://docs.aws.amazon.com/sagemaker/latest/dg/async-inference-monitor.html), expected ${instead}() `
      + 'or another metric of that list');
  }

  /** The bucket, or a clear error for an endpoint imported by name or ARN (which cannot know it). */
  private requireBucket(member: string): s3.IBucket {
    if (!this.bucket) {
      throw new Error(`AsyncEndpoint '${this.node.path}'.${member}: got an endpoint imported by name or ARN (no bucket known), `
        + 'expected one with its bucket and prefixes: import it with AsyncEndpoint.fromAsyncEndpointAttributes');
    }
    return this.bucket;
  }

  /** The async backlog metrics have the EndpointName dimension only. */
  private endpointMetric(metricName: string, props: cloudwatch.MetricOptions): cloudwatch.Metric {
    return new cloudwatch.Metric({ namespace: 'AWS/SageMaker', metricName, dimensionsMap: { EndpointName: this.endpointName }, ...props });
  }
}
