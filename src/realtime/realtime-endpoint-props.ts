import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import { DataCaptureOptions } from './data-capture';
import { RealtimeEndpointAlarmOptions } from './realtime-alarms';
import { ShadowVariantOptions } from './shadow-variant';
import { VariantAutoScalingOptions } from './variant-auto-scaling';
import { IOpenAiCompatible, ISageMakerEndpoint } from '../core/endpoint-base';
import { EndpointMetricsConfig } from '../core/endpoint-metrics-config';
import { EndpointNetworkOptions } from '../core/endpoint-network';
import { ModelSource } from '../core/model-source';
import { ProductionVariantOptions } from '../core/production-variant';
import { EndpointUpdateOptions } from '../rollouts/endpoint-update';

/** A production variant added to a `RealtimeEndpoint` beside its default one. */
export interface RealtimeVariantOptions extends ProductionVariantOptions {
  /**
   * The model this variant serves (for A/B tests of models).
   *
   * @default - the endpoint's `model`
   */
  readonly model?: ModelSource;
  /**
   * Scale this variant's instance count with target tracking.
   *
   * @default - no autoscaling (add the endpoint's instance count autoscaling later, or keep the initial instance
   * count)
   */
  readonly autoScaling?: VariantAutoScalingOptions;
}

/** Properties of a realtime endpoint. The instance settings are those of its first production variant. */
export interface RealtimeEndpointProps extends ProductionVariantOptions, EndpointNetworkOptions, EndpointUpdateOptions {
  /** The model the endpoint serves: a container or an existing model (`ModelSource`), or a JumpStart model. */
  readonly model: ModelSource;
  /**
   * The endpoint's name (1-63 letters, digits, hyphens). Changing it replaces the endpoint. A fixed name cannot be
   * replaced, so changing the instance type of an autoscaled variant then takes two deployments (synth warns; see
   * https://github.com/cdk-sagemaker-mcp/cdk-sagemaker-mcp/blob/main/docs/realtime.md).
   *
   * @default - CloudFormation generates a name; when a variant is autoscaled, the construct generates
   * `<path>-<8 hex>` from the autoscaled variants' names and instance types, so that changing one replaces the endpoint
   * (the update AWS refuses for autoscaled variants never happens)
   */
  readonly endpointName?: string;
  /**
   * The first variant's name.
   *
   * @default 'AllTraffic'
   */
  readonly variantName?: string;
  /**
   * The role SageMaker runs the models with. It must allow pulling the image, reading the artifacts (and their KMS key),
   * and writing logs.
   *
   * @default - a role is created with exactly that: ECR pull on the image's repository, S3 read on the model data (with
   * KMS decrypt), CloudWatch logs and metrics; never AmazonSageMakerFullAccess
   */
  readonly role?: iam.IRole;
  /**
   * The customer-managed KMS key of the instances' ML storage (EBS) volumes (the endpoint config's `KmsKeyId`), and of
   * the data-capture bucket when one is created. When ANY variant uses an instance type with NVMe instance storage (g5,
   * g6, p4d, ...) the key is left off the endpoint config, with a warning: a hardware module on the instance encrypts
   * that storage, and CreateEndpointConfig fails with a KmsKeyId then (the EBS volumes of the other variants use an
   * AWS-managed key: put them on an endpoint of their own to use the key).
   *
   * @default - a key is created (rotation on) when the first variant is EBS-backed or a data-capture bucket is created;
   * otherwise none (NVMe instance storage is encrypted by the instance's hardware)
   */
  readonly encryptionKey?: kms.IKey;
  /**
   * Capture a sample of requests and responses to S3.
   *
   * @default - no data capture
   */
  readonly dataCapture?: DataCaptureOptions;
  /**
   * Scale the first variant with target tracking (InvocationsPerInstance 70, scale-out 60 s, scale-in 300 s, 1-8 instances).
   *
   * @default - no autoscaling
   */
  readonly autoScaling?: VariantAutoScalingOptions;
  /**
   * Alarms on the first variant. They are also the default rollback alarms of `rollout`.
   *
   * @default - no alarms
   */
  readonly alarms?: RealtimeEndpointAlarmOptions;
  /**
   * What the alarms this endpoint creates do when they fire (those of the alarms option and of adding alarms), e.g.
   * `[new cloudwatch_actions.SnsAction(topic)]`.
   *
   * @default - the alarms change state but notify nobody
   */
  readonly alarmActions?: cloudwatch.IAlarmAction[];
  /**
   * A shadow variant: a challenger model that gets a copy of a share of the requests, its answers discarded. The endpoint
   * then has one production variant (adding a variant fails at synth).
   *
   * @default - no shadow variant
   */
  readonly shadow?: ShadowVariantOptions;
  /**
   * How the endpoint publishes its metrics (the endpoint config's `MetricsConfig`): enhanced metrics, publish frequency,
   * detailed observability.
   *
   * @default - SageMaker's defaults (no enhanced metrics, every 60 seconds)
   */
  readonly metricsConfig?: EndpointMetricsConfig;
}

/**
 * A real-time endpoint: a `RealtimeEndpoint`, or one imported by name, ARN or attributes (what the
 * realtime endpoint entries of `McpToolServer` take).
 */
export interface IRealtimeEndpoint extends ISageMakerEndpoint, IOpenAiCompatible {}
