/**
 * What every SageMaker endpoint construct shares (realtime, async, shared-GPU): the `ISageMakerEndpoint` interface
 * (name, lowercase ARN, grants, metrics), the `SageMakerEndpointBase` that implements it, and imports by name or ARN
 * (validated by src/private/endpoint-arn.ts). Subclasses set the endpoint's name, its ARN (the CfnEndpoint's
 * `attrEndpointArn`: SageMaker returns it lowercase) and the default variant's name.
 *
 * Beside it: `./production-variant.ts` (variant settings) and `./scaling/` (Application Auto Scaling); in src/private/,
 * the variant rendering (render-variant.ts), the NVMe/KMS rule (endpoint-kms.ts), the model role's cdk-nag
 * acknowledgements (model-role-nag.ts) and the rule for autoscaled variants (autoscaled-updates.ts).
 */
import { IResource, Resource } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { ModelFamily } from './model-family.generated';
import { DEFAULT_VARIANT_NAME, importedEndpointIdentity } from '../private/endpoint-arn';
import { iamActionsFor } from '../private/iam-actions';
import { grantOpenAiRoute, openAiBaseUrl, warnIfRouteNotServed } from '../private/openai-route';
import { PropValidator, TARGET_MODEL_EXPECTED, TARGET_MODEL_PATTERN } from '../private/validation';


/** Options of an endpoint metric. */
export interface EndpointMetricOptions extends cloudwatch.MetricOptions {
  /**
   * The production variant the metric is for (SageMaker publishes endpoint metrics per variant).
   *
   * @default - the endpoint's default variant (its first variant; `AllTraffic` for an imported endpoint unless its
   * attributes name another)
   */
  readonly variantName?: string;
}

/** A SageMaker endpoint: created by this library or imported. */
export interface ISageMakerEndpoint extends IResource {
  /**
   * The endpoint's name, exactly as created (case preserved: CloudWatch dimensions and the runtime API use it).
   *
   * @attribute
   */
  readonly endpointName: string;

  /**
   * The endpoint's ARN. SageMaker endpoint ARNs are lowercase, whatever the case of the name; IAM policies must use
   * this form.
   *
   * @attribute
   */
  readonly endpointArn: string;

  /**
   * The payload family of the model the default variant serves, when its model source knows it (a JumpStart or
   * Hugging Face Hub model, or a container source given a model family). `McpToolServer` uses it for `prompt` payloads
   * when the endpoint's entry names none.
   */
  readonly modelFamily?: ModelFamily;

  /** Grants `actions` on this endpoint's ARN only. */
  grant(grantee: iam.IGrantable, ...actions: string[]): iam.Grant;

  /**
   * Grants `sagemaker:InvokeEndpoint` and `sagemaker:InvokeEndpointWithResponseStream` (streaming is an IAM action of
   * its own) on this endpoint.
   */
  grantInvoke(grantee: iam.IGrantable): iam.Grant;

  /**
   * Grants `sagemaker:InvokeEndpoint` on this multi-model endpoint for requests naming one of the target models only (IAM
   * condition key `sagemaker:TargetModel`); no streaming, which names no target model.
   */
  grantInvokeTargetModels(grantee: iam.IGrantable, targetModels: string[]): iam.Grant;

  /** A metric of this endpoint in namespace `AWS/SageMaker`, dimensions EndpointName and VariantName. */
  metric(metricName: string, props?: EndpointMetricOptions): cloudwatch.Metric;

  /** An instance metric of this endpoint in namespace `/aws/sagemaker/Endpoints`, dimensions EndpointName and VariantName. */
  metricInstance(metricName: string, props?: EndpointMetricOptions): cloudwatch.Metric;

  /**
   * Requests sent to the variant (`Invocations`).
   *
   * @default - Sum over 5 minutes
   */
  metricInvocations(props?: EndpointMetricOptions): cloudwatch.Metric;

  /**
   * Requests per instance of the variant (`InvocationsPerInstance`), the metric target tracking scales on.
   *
   * @default - Sum over 5 minutes
   */
  metricInvocationsPerInstance(props?: EndpointMetricOptions): cloudwatch.Metric;

  /**
   * Time the model took to respond, in microseconds (`ModelLatency`).
   *
   * @default - Average over 5 minutes
   */
  metricModelLatency(props?: EndpointMetricOptions): cloudwatch.Metric;

  /**
   * Time SageMaker added on top of the model, in microseconds (`OverheadLatency`).
   *
   * @default - Average over 5 minutes
   */
  metricOverheadLatency(props?: EndpointMetricOptions): cloudwatch.Metric;

  /**
   * Requests answered with a 4xx status (`Invocation4XXErrors`).
   *
   * @default - Sum over 5 minutes
   */
  metricInvocation4XXErrors(props?: EndpointMetricOptions): cloudwatch.Metric;

  /**
   * Requests answered with a 5xx status (`Invocation5XXErrors`).
   *
   * @default - Sum over 5 minutes
   */
  metricInvocation5XXErrors(props?: EndpointMetricOptions): cloudwatch.Metric;

  /**
   * CPU utilization of the variant's instances, in percent summed over cores (`CPUUtilization`).
   *
   * @default - Average over 5 minutes
   */
  metricCpuUtilization(props?: EndpointMetricOptions): cloudwatch.Metric;

  /**
   * GPU utilization of the variant's instances, in percent summed over GPUs (`GPUUtilization`).
   *
   * @default - Average over 5 minutes
   */
  metricGpuUtilization(props?: EndpointMetricOptions): cloudwatch.Metric;

  /**
   * Memory utilization of the variant's instances, in percent (`MemoryUtilization`).
   *
   * @default - Average over 5 minutes
   */
  metricMemoryUtilization(props?: EndpointMetricOptions): cloudwatch.Metric;

  /**
   * GPU memory utilization of the variant's instances, in percent summed over GPUs (`GPUMemoryUtilization`).
   *
   * @default - Average over 5 minutes
   */
  metricGpuMemoryUtilization(props?: EndpointMetricOptions): cloudwatch.Metric;

  /**
   * Disk utilization of the variant's instances, in percent (`DiskUtilization`).
   *
   * @default - Average over 5 minutes
   */
  metricDiskUtilization(props?: EndpointMetricOptions): cloudwatch.Metric;
}

/**
 * A target of SageMaker's OpenAI-compatible route: a real-time or serverless endpoint, or an inference component
 * (https://docs.aws.amazon.com/sagemaker/latest/dg/realtime-endpoints-openai-compatible.html). Callers send
 * `POST <OpenAI base URL>/chat/completions` with `Authorization: Bearer sagemaker-api-key-...` (the runtime's
 * `cdk-sagemaker-mcp-runtime/openai` generates the token). The container must serve `/v1/chat/completions`: AWS lists
 * the SageMaker AI vLLM and SGLang DLCs and custom containers that implement it. See https://github.com/cdk-sagemaker-mcp/cdk-sagemaker-mcp/blob/main/docs/openai.md.
 */
export interface IOpenAiCompatible {
  /**
   * The base URL an OpenAI client takes: `https://runtime.sagemaker.{region}.{urlSuffix}/endpoints/{endpoint}/openai/v1`
   * (`.../endpoints/{endpoint}/inference-components/{component}/openai/v1` for a component). A token where the endpoint
   * name or the stack's region is one.
   *
   * @attribute
   */
  readonly openAiBaseUrl: string;

  /**
   * Grants what the OpenAI-compatible route needs, as AWS's page gives it: `sagemaker:InvokeEndpoint` on this endpoint
   * (a component: on its endpoint and on the component) and `sagemaker:CallWithBearerToken` on `*` (AWS: "It does not
   * support resource-level restrictions"; the bearer token carries no more than the identity that signed it).
   */
  grantInvokeOpenAi(grantee: iam.IGrantable): iam.Grant;
}

/** What identifies an existing endpoint. Give its name (preferred: metrics need the exact case) or its ARN. */
export interface SageMakerEndpointAttributes {
  /**
   * The endpoint's name, in its exact case.
   *
   * @default - parsed from the ARN (lowercase: metrics of a mixed-case name will not match, give the name then)
   */
  readonly endpointName?: string;
  /**
   * The endpoint's ARN.
   *
   * @default - built from the name, lowercased
   */
  readonly endpointArn?: string;
  /**
   * The variant that metrics default to.
   *
   * @default 'AllTraffic'
   */
  readonly defaultVariantName?: string;
}

/**
 * The base of every endpoint construct in this library: grants scoped to the endpoint's (lowercase) ARN, and metrics.
 */
export abstract class SageMakerEndpointBase extends Resource implements ISageMakerEndpoint {
  /**
   * Imports an endpoint by name and/or ARN. Capability constructs expose this as imports by endpoint name and by endpoint ARN.
   */
  public static fromSageMakerEndpointAttributes(scope: Construct, id: string, attrs: SageMakerEndpointAttributes): ISageMakerEndpoint {
    const { endpointName, endpointArn } = importedEndpointIdentity(scope, id, attrs);
    return new ImportedEndpoint(scope, id, endpointName, endpointArn, attrs.defaultVariantName ?? DEFAULT_VARIANT_NAME);
  }

  public abstract readonly endpointName: string;
  public abstract readonly endpointArn: string;
  /** Set by an endpoint that binds its model source (the model family of the default variant's model source). */
  protected boundModelFamily?: ModelFamily;
  /** The variant that metrics default to when no variant name is given. */
  protected abstract readonly defaultVariantName: string;

  /**
   * Grants `actions` on this endpoint's ARN only (never `*`).
   */
  public grant(grantee: iam.IGrantable, ...actions: string[]): iam.Grant {
    return iam.Grant.addToPrincipal({ grantee, actions, resourceArns: [this.endpointArn] });
  }

  /**
   * Grants `sagemaker:InvokeEndpoint` and `sagemaker:InvokeEndpointWithResponseStream` on this endpoint's ARN: the
   * runtime's `invokeEndpoint` and `invokeEndpointStream`. Streaming is an IAM action of its own in the Service
   * Authorization Reference (https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonsagemaker.html).
   */
  public grantInvoke(grantee: iam.IGrantable): iam.Grant {
    return this.grant(grantee, ...iamActionsFor('SageMakerRuntime.InvokeEndpoint', 'SageMakerRuntime.InvokeEndpointWithResponseStream'));
  }

  /**
   * The base URL of this endpoint's OpenAI-compatible route (`.../endpoints/{endpoint}/openai/v1`), for an OpenAI
   * client. Warns at synth when the model's container is one AWS does not list as serving the route. A shared-GPU
   * endpoint is called through its inference components: use the inference component's OpenAI base URL.
   */
  public get openAiBaseUrl(): string {
    warnIfRouteNotServed(this);
    return openAiBaseUrl(this, this.endpointName);
  }

  /**
   * Grants `sagemaker:InvokeEndpoint` on this endpoint's ARN and `sagemaker:CallWithBearerToken` on `*` (which
   * supports no resource-level restriction): the policy of AWS's OpenAI-compatible route
   * (https://docs.aws.amazon.com/sagemaker/latest/dg/realtime-endpoints-openai-compatible.html). Warns at synth when the
   * model's container is one AWS does not list as serving the route.
   */
  public grantInvokeOpenAi(grantee: iam.IGrantable): iam.Grant {
    warnIfRouteNotServed(this);
    return grantOpenAiRoute(this, grantee, [this.endpointArn]);
  }

  public get modelFamily(): ModelFamily | undefined {
    return this.boundModelFamily;
  }

  /**
   * Grants `sagemaker:InvokeEndpoint` on this multi-model endpoint for requests whose `TargetModel` is one of
   * the target models, exactly (`StringEquals`). Without it, "an IAM principal with InvokeEndpoint permissions on a
   * multi-model endpoint can invoke any model at the address of the S3 prefix"; the documented remedy is the
   * `sagemaker:TargetModel` IAM condition key
   * (https://docs.aws.amazon.com/sagemaker/latest/dg/multi-model-endpoint-security.html). A request without a target
   * model does not match the condition, so it is not allowed; nor is `InvokeEndpointWithResponseStream`.
   */
  public grantInvokeTargetModels(grantee: iam.IGrantable, targetModels: string[]): iam.Grant {
    const v = new PropValidator(`${this.node.path} grantInvokeTargetModels`);
    v.check(targetModels.length > 0, 'targetModels', targetModels, 'at least one target model (grantInvoke allows every model)');
    for (const t of targetModels) v.pattern('targetModels', t, TARGET_MODEL_PATTERN, TARGET_MODEL_EXPECTED);
    v.throwIfInvalid();
    return iam.Grant.addToPrincipal({
      grantee,
      actions: iamActionsFor('SageMakerRuntime.InvokeEndpoint'),
      resourceArns: [this.endpointArn],
      conditions: { StringEquals: { 'sagemaker:TargetModel': [...new Set(targetModels)] } },
    });
  }

  public metric(metricName: string, props: EndpointMetricOptions = {}): cloudwatch.Metric {
    return this.variantMetric('AWS/SageMaker', metricName, props);
  }

  public metricInstance(metricName: string, props: EndpointMetricOptions = {}): cloudwatch.Metric {
    return this.variantMetric('/aws/sagemaker/Endpoints', metricName, props);
  }

  public metricInvocations(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metric('Invocations', { statistic: 'Sum', ...props });
  }

  public metricInvocationsPerInstance(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metric('InvocationsPerInstance', { statistic: 'Sum', ...props });
  }

  public metricModelLatency(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metric('ModelLatency', { statistic: 'Average', ...props });
  }

  public metricOverheadLatency(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metric('OverheadLatency', { statistic: 'Average', ...props });
  }

  public metricInvocation4XXErrors(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metric('Invocation4XXErrors', { statistic: 'Sum', ...props });
  }

  public metricInvocation5XXErrors(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metric('Invocation5XXErrors', { statistic: 'Sum', ...props });
  }

  public metricCpuUtilization(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metricInstance('CPUUtilization', { statistic: 'Average', ...props });
  }

  public metricGpuUtilization(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metricInstance('GPUUtilization', { statistic: 'Average', ...props });
  }

  public metricMemoryUtilization(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metricInstance('MemoryUtilization', { statistic: 'Average', ...props });
  }

  public metricGpuMemoryUtilization(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metricInstance('GPUMemoryUtilization', { statistic: 'Average', ...props });
  }

  public metricDiskUtilization(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metricInstance('DiskUtilization', { statistic: 'Average', ...props });
  }

  private variantMetric(namespace: string, metricName: string, props: EndpointMetricOptions): cloudwatch.Metric {
    const { variantName, ...options } = props;
    return new cloudwatch.Metric({
      namespace,
      metricName,
      dimensionsMap: { EndpointName: this.endpointName, VariantName: variantName ?? this.defaultVariantName },
      ...options,
    });
  }
}

/** An endpoint imported by name or ARN. */
class ImportedEndpoint extends SageMakerEndpointBase {
  constructor(
    scope: Construct,
    id: string,
    public readonly endpointName: string,
    public readonly endpointArn: string,
    protected readonly defaultVariantName: string,
  ) {
    super(scope, id);
  }
}
