import { Duration, Size, SizeRoundingBehavior, Token } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import { Construct } from 'constructs';
import { addServerlessScaling, validateServerlessScaling } from './private/serverless-scaling';
import { ServerlessAutoScalingOptions } from './serverless-scaling-props';
import { EndpointMetricOptions, IOpenAiCompatible, ISageMakerEndpoint, SageMakerEndpointAttributes, SageMakerEndpointBase } from '../core/endpoint-base';
import { ModelSource } from '../core/model-source';
import { ModelSourceConfig } from '../core/model-source-config';
import { ScalableProvisionedConcurrency } from '../core/scaling/scalable-provisioned-concurrency';
import { CostEstimateOptions, EndpointCostEstimate } from '../prices/cost-types';
import { estimateServerless } from '../prices/endpoint-estimates';
import { DEFAULT_VARIANT_NAME } from '../private/endpoint-arn';
import { importEndpoint } from '../private/endpoint-import';
import { createExecutionRole, renderModel } from '../private/model';
import { recordModelImage } from '../private/openai-route';
import { secondScalingCall } from '../private/scaling-resources';
import { PropValidator, SAGEMAKER_NAME_EXPECTED, SAGEMAKER_NAME_PATTERN } from '../private/validation';

/**
 * The limits of ProductionVariantServerlessConfig
 * (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_ProductionVariantServerlessConfig.html): memory
 * "in 1 GB increments: 1024 MB, 2048 MB, 3072 MB, 4096 MB, 5120 MB, or 6144 MB"; MaxConcurrency and
 * ProvisionedConcurrency 1-200, provisioned "less than or equal to MaxConcurrency".
 */
export const SERVERLESS_LIMITS = {
  memoryMbMin: 1024,
  memoryMbMax: 6144,
  memoryMbStep: 1024,
  concurrencyMin: 1,
  concurrencyMax: 200,
} as const;

/** Properties of a serverless endpoint. */
export interface ServerlessEndpointProps {
  /**
   * The model the endpoint serves: a CPU container (a `ModelSource` from a container) or an existing model. Serverless
   * Inference has no GPUs, no network isolation and no multi-model mode (see https://github.com/cdk-sagemaker-mcp/cdk-sagemaker-mcp/blob/main/docs/serverless.md).
   */
  readonly model: ModelSource;
  /** The memory of each concurrent execution: 1-6 GB in whole GB (1024-6144 MB in 1024 MB steps). */
  readonly memorySize: Size;
  /** The most invocations the endpoint processes at once (1-200); more are throttled. */
  readonly maxConcurrency: number;
  /**
   * Executions kept warm, so that requests up to this many at once start without a cold start (1-200, at most
   * the maximum concurrency). Billed while provisioned, used or not.
   *
   * @default - none: every execution starts on demand (cold starts after idle periods)
   */
  readonly provisionedConcurrency?: number;
  /**
   * Scale the provisioned concurrency with target tracking on `SageMakerVariantProvisionedConcurrencyUtilization`.
   * Needs provisioned concurrency.
   *
   * @default - no autoscaling: the provisioned concurrency stays as given
   */
  readonly autoScaling?: ServerlessAutoScalingOptions;
  /**
   * The endpoint's name (1-63 letters, digits, hyphens). Changing it replaces the endpoint.
   *
   * @default - CloudFormation generates a name
   */
  readonly endpointName?: string;
  /**
   * The variant's name.
   *
   * @default 'AllTraffic'
   */
  readonly variantName?: string;
  /**
   * The role SageMaker runs the model with.
   *
   * @default - a role is created with ECR pull on the image's repository, S3 read on the model data, CloudWatch logs
   * and metrics (none when the model already exists)
   */
  readonly role?: iam.IRole;
}

/**
 * A serverless endpoint: a `ServerlessEndpoint`, or one imported by name, ARN or attributes (what the
 * serverless endpoint entries of `McpToolServer` take).
 */
export interface IServerlessEndpoint extends ISageMakerEndpoint, IOpenAiCompatible {}

/**
 * A SageMaker Serverless Inference endpoint: one CPU model that SageMaker runs on demand, billed per request, with
 * optional provisioned concurrency (and its autoscaling). Invoked exactly like a realtime endpoint (the runtime's
 * `invokeEndpoint`, the MCP `invoke_endpoint` tool), so it can be passed wherever an `ISageMakerEndpoint` is expected.
 *
 * What Serverless Inference does not support (GPUs, VPC, network isolation, data capture, several variants,
 * multi-model, inference components, async) is refused at synth with the AWS page that says so; see https://github.com/cdk-sagemaker-mcp/cdk-sagemaker-mcp/blob/main/docs/serverless.md.
 */
export class ServerlessEndpoint extends SageMakerEndpointBase implements IServerlessEndpoint {
  /** Imports an endpoint by name (exact case; the ARN is built lowercase). */
  public static fromEndpointName(scope: Construct, id: string, endpointName: string): IServerlessEndpoint {
    return importEndpoint(scope, id, { endpointName });
  }

  /** Imports an endpoint by ARN (its name is parsed from the ARN, so it is lowercase). */
  public static fromEndpointArn(scope: Construct, id: string, endpointArn: string): IServerlessEndpoint {
    return importEndpoint(scope, id, { endpointArn });
  }

  /** Imports an endpoint by name and/or ARN, with the variant its metrics default to. */
  public static fromServerlessEndpointAttributes(scope: Construct, id: string, attrs: SageMakerEndpointAttributes): IServerlessEndpoint {
    return importEndpoint(scope, id, attrs);
  }

  public readonly endpointName: string;
  /** The endpoint's ARN as SageMaker returns it (lowercase). */
  public readonly endpointArn: string;
  /** The endpoint config's name. */
  public readonly endpointConfigName: string;
  /** The variant's name. */
  public readonly variantName: string;
  /** The memory of each execution, in MB. */
  public readonly memorySizeInMb: number;
  /**
   * The role the model runs with.
   *
   * @default - no value when the model already exists and no role was given
   */
  public readonly role?: iam.IRole;
  /** The endpoint (AWS::SageMaker::Endpoint). */
  public readonly cfnEndpoint: sagemaker.CfnEndpoint;
  /** The endpoint config (AWS::SageMaker::EndpointConfig). */
  public readonly cfnEndpointConfig: sagemaker.CfnEndpointConfig;
  /**
   * The model created for the endpoint.
   *
   * @default - no value when the model already exists
   */
  public readonly cfnModel?: sagemaker.CfnModel;
  /** The most invocations the endpoint processes at once. */
  public readonly maxConcurrency: number;
  /**
   * The executions kept warm (the starting point when autoscaling scales them).
   *
   * @default - none: on-demand only
   */
  public readonly provisionedConcurrency?: number;
  protected readonly defaultVariantName: string;

  private scaledConcurrency?: ScalableProvisionedConcurrency;

  constructor(scope: Construct, id: string, props: ServerlessEndpointProps) {
    super(scope, id, { physicalName: props.endpointName });
    this.variantName = props.variantName ?? DEFAULT_VARIANT_NAME;
    this.defaultVariantName = this.variantName;

    const v = new PropValidator(`ServerlessEndpoint '${id}'`);
    v.pattern('endpointName', props.endpointName, SAGEMAKER_NAME_PATTERN, SAGEMAKER_NAME_EXPECTED, 63);
    v.pattern('variantName', props.variantName, SAGEMAKER_NAME_PATTERN, SAGEMAKER_NAME_EXPECTED, 63);
    this.memorySizeInMb = validateServerlessConfig(v, props);
    if (props.autoScaling) validateServerlessScaling(v, 'autoScaling.', props.autoScaling, props.provisionedConcurrency, props.maxConcurrency);
    v.throwIfInvalid();

    // The model: bound without an instance type (there is none), then checked for what serverless refuses.
    // What the model needs goes inline on the created role (createExecutionRole); a given role gets its DefaultPolicy.
    const role = props.role ?? createExecutionRole(this, 'Role', `Runs the model of SageMaker serverless endpoint ${this.node.path}`);
    const config = props.model.bind(this, { role });
    rejectUnsupportedModel(id, config);
    this.boundModelFamily = config.modelFamily;
    recordModelImage(this, config.imageUri);
    if (config.modelName && !props.role) {
      this.node.tryRemoveChild('Role');
    } else {
      this.role = role;
    }
    const { modelName, model } = renderModel(this, 'Model', config, role);
    this.cfnModel = model;

    this.cfnEndpointConfig = new sagemaker.CfnEndpointConfig(this, 'EndpointConfig', {
      productionVariants: [{
        variantName: this.variantName,
        modelName,
        // No InstanceType, InitialInstanceCount or VolumeSizeInGB: a serverless variant has no instances.
        serverlessConfig: {
          memorySizeInMb: this.memorySizeInMb,
          maxConcurrency: props.maxConcurrency,
          provisionedConcurrency: props.provisionedConcurrency,
        },
      }],
    });
    this.endpointConfigName = this.cfnEndpointConfig.attrEndpointConfigName;

    this.cfnEndpoint = new sagemaker.CfnEndpoint(this, 'Resource', {
      endpointName: props.endpointName,
      endpointConfigName: this.cfnEndpointConfig.attrEndpointConfigName,
    });
    if (this.role) this.cfnEndpoint.node.addDependency(this.role);
    this.endpointName = props.endpointName ?? this.cfnEndpoint.attrEndpointName;
    this.endpointArn = this.cfnEndpoint.attrEndpointArn;

    this.provisionedConcurrency = props.provisionedConcurrency;
    this.maxConcurrency = props.maxConcurrency;
    if (props.autoScaling) this.autoScaleProvisionedConcurrency(props.autoScaling);
  }

  /**
   * Scales the variant's provisioned concurrency (which the endpoint must have) with target
   * tracking on `SageMakerVariantProvisionedConcurrencyUtilization`
   * (https://docs.aws.amazon.com/sagemaker/latest/dg/serverless-endpoints-autoscale.html); on-demand concurrency scales
   * by itself. The autoscaling prop calls it. Once per endpoint: a second call throws.
   *
   * @returns the provisioned concurrency as registered with Application Auto Scaling, to add more policies to
   */
  public autoScaleProvisionedConcurrency(props: ServerlessAutoScalingOptions = {}): ScalableProvisionedConcurrency {
    const v = new PropValidator(`ServerlessEndpoint '${this.node.path}' autoScaleProvisionedConcurrency`);
    if (this.scaledConcurrency) v.add(secondScalingCall('autoScaleProvisionedConcurrency', `variant '${this.variantName}'`));
    v.check(this.provisionedConcurrency !== undefined, 'provisionedConcurrency', undefined,
      'a provisioned concurrency on the endpoint: Application Auto Scaling scales the provisioned concurrency of a serverless '
      + 'variant (https://docs.aws.amazon.com/sagemaker/latest/dg/serverless-endpoints-autoscale.html); on-demand concurrency scales by itself');
    validateServerlessScaling(v, '', props, this.provisionedConcurrency, this.maxConcurrency);
    v.throwIfInvalid();
    this.scaledConcurrency = addServerlessScaling(new Construct(this, 'ProvisionedConcurrencyScaling'), {
      endpointName: this.endpointName,
      variantName: this.variantName,
      endpoint: this.cfnEndpoint,
      props,
      maxConcurrency: this.maxConcurrency,
    });
    return this.scaledConcurrency;
  }

  /**
   * The provisioned concurrency as registered with Application Auto Scaling, if its provisioned concurrency autoscaling
   * (or the autoscaling prop) registered it: for the library's own dashboard, which draws its range.
   * @internal
   */
  public get _scaledProvisionedConcurrency(): ScalableProvisionedConcurrency | undefined {
    return this.scaledConcurrency;
  }

  /**
   * What the endpoint costs (`EndpointCostEstimate`, the shape every endpoint kind returns): its provisioned concurrency
   * per hour and per month (730 h) at its fewest and most units (its autoscaling range, or the provisioned concurrency),
   * and the per-request model's price per second of compute, at its memory size, from the same price table as the
   * instance-based endpoints. The table has no serverless prices yet: give them in the options (the provisioned
   * concurrency's price per hour, the compute's per second); until then the price is not known and the summary says so.
   */
  public costEstimate(options?: CostEstimateOptions): EndpointCostEstimate {
    const provisioned = this.provisionedConcurrency ?? 0;
    return estimateServerless(`ServerlessEndpoint '${this.node.id}' costEstimate`, this.stack.region, {
      memorySizeInMb: this.memorySizeInMb,
      minProvisionedConcurrency: this.scaledConcurrency?.minCapacity ?? provisioned,
      maxProvisionedConcurrency: this.scaledConcurrency?.maxCapacity ?? provisioned,
    }, options);
  }

  /**
   * The share of provisioned concurrency in use (`ServerlessProvisionedConcurrencyUtilization`, 0-1), the metric the
   * provisioned-concurrency target tracking follows.
   *
   * @default - Maximum over 1 minute
   */
  public metricProvisionedConcurrencyUtilization(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metric('ServerlessProvisionedConcurrencyUtilization', { statistic: 'Maximum', period: Duration.minutes(1), ...props });
  }

  /**
   * The time SageMaker takes to launch compute for a request (`ModelSetupTime`, microseconds): a cold start. Its
   * SampleCount is the number of cold starts (serverless metrics:
   * https://docs.aws.amazon.com/sagemaker/latest/dg/serverless-endpoints-monitoring.html).
   *
   * @default - Average over 5 minutes
   */
  public metricModelSetupTime(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metric('ModelSetupTime', { statistic: 'Average', ...props });
  }

  /**
   * Concurrent executions divided by the maximum concurrency (`ServerlessConcurrentExecutionsUtilization`, 0-1): near 1,
   * further requests are throttled.
   *
   * @default - Maximum over 1 minute
   */
  public metricConcurrentExecutionsUtilization(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metric('ServerlessConcurrentExecutionsUtilization', { statistic: 'Maximum', period: Duration.minutes(1), ...props });
  }

  /**
   * Concurrent executions handled by the provisioned concurrency (`ServerlessProvisionedConcurrencyExecutions`, Count).
   *
   * @default - Maximum over 1 minute
   */
  public metricProvisionedConcurrencyExecutions(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metric('ServerlessProvisionedConcurrencyExecutions', { statistic: 'Maximum', period: Duration.minutes(1), ...props });
  }

  /**
   * Requests served by the provisioned concurrency (`ServerlessProvisionedConcurrencyInvocations`).
   *
   * @default - Sum over 5 minutes
   */
  public metricProvisionedConcurrencyInvocations(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metric('ServerlessProvisionedConcurrencyInvocations', { statistic: 'Sum', ...props });
  }

  /**
   * Requests beyond the provisioned concurrency, served on demand with a possible cold start
   * (`ServerlessProvisionedConcurrencySpilloverInvocations`).
   *
   * @default - Sum over 5 minutes
   */
  public metricProvisionedConcurrencySpilloverInvocations(props?: EndpointMetricOptions): cloudwatch.Metric {
    return this.metric('ServerlessProvisionedConcurrencySpilloverInvocations', { statistic: 'Sum', ...props });
  }
}

/** Records every problem with the serverless config; returns the memory in MB. */
function validateServerlessConfig(v: PropValidator, props: ServerlessEndpointProps): number {
  const mb = props.memorySize.toMebibytes({ rounding: SizeRoundingBehavior.NONE });
  if (!Token.isUnresolved(mb)) {
    const { memoryMbMin: min, memoryMbMax: max, memoryMbStep: step } = SERVERLESS_LIMITS;
    v.check(Number.isInteger(mb) && mb >= min && mb <= max && mb % step === 0, 'memorySize', `${mb} MB`,
      'one of 1024, 2048, 3072, 4096, 5120 or 6144 MB (Size.gibibytes(1) to Size.gibibytes(6))');
  }
  const { concurrencyMin: cMin, concurrencyMax: cMax } = SERVERLESS_LIMITS;
  v.range('maxConcurrency', props.maxConcurrency, cMin, cMax);
  v.range('provisionedConcurrency', props.provisionedConcurrency, cMin, cMax);
  if (props.provisionedConcurrency !== undefined && !Token.isUnresolved(props.provisionedConcurrency) && !Token.isUnresolved(props.maxConcurrency)) {
    v.check(props.provisionedConcurrency <= props.maxConcurrency, 'provisionedConcurrency', props.provisionedConcurrency,
      `at most maxConcurrency (${props.maxConcurrency})`);
  }
  v.check(props.autoScaling === undefined || props.provisionedConcurrency !== undefined, 'autoScaling', 'given',
    'provisionedConcurrency as well: Application Auto Scaling scales the provisioned concurrency of a serverless variant '
    + '(https://docs.aws.amazon.com/sagemaker/latest/dg/serverless-endpoints-autoscale.html); on-demand concurrency scales by itself');
  return mb;
}

/** The model settings Serverless Inference refuses, with the page that says so. */
function rejectUnsupportedModel(id: string, config: ModelSourceConfig): void {
  const exclusions = 'https://docs.aws.amazon.com/sagemaker/latest/dg/serverless-endpoints.html#serverless-endpoints-how-it-works-exclusions';
  new PropValidator(`ServerlessEndpoint '${id}'`)
    .check(config.enableNetworkIsolation !== true, 'model.enableNetworkIsolation', true,
      `a model without network isolation: Serverless Inference does not support network isolation (${exclusions})`)
    .check(config.multiModel !== true, 'model', 'a MultiModelSource', `a single model: Serverless Inference does not support multi-model endpoints (${exclusions})`)
    .throwIfInvalid();
}

