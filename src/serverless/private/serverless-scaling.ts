/**
 * Internal: Application Auto Scaling of a serverless variant's provisioned concurrency
 * (https://docs.aws.amazon.com/sagemaker/latest/dg/serverless-endpoints-autoscale.html: ResourceId
 * `endpoint/<endpoint>/variant/<variant>`, ScalableDimension `sagemaker:variant:DesiredProvisionedConcurrency`,
 * PredefinedMetricType `SageMakerVariantProvisionedConcurrencyUtilization`).
 */
import { Duration, Token } from 'aws-cdk-lib';
import * as appscaling from 'aws-cdk-lib/aws-applicationautoscaling';
import { Construct, IConstruct } from 'constructs';
import { addTargetTrackingPolicy, validateVariantAutoScaling, warnOnCooldowns } from '../../core/endpoint-base';
import { PropValidator } from '../../core/validation';
import { ServerlessAutoScalingProps } from '../serverless-scaling-props';

export const PROVISIONED_CONCURRENCY_DIMENSION = 'sagemaker:variant:DesiredProvisionedConcurrency';
export const PROVISIONED_CONCURRENCY_METRIC = 'SageMakerVariantProvisionedConcurrencyUtilization';
const DEFAULT_TARGET_UTILIZATION = 0.5;

export function validateServerlessScaling(
  v: PropValidator, prefix: string, props: ServerlessAutoScalingProps, provisioned: number | undefined, maxConcurrency: number,
): void {
  const max = props.maxCapacity ?? maxConcurrency;
  validateVariantAutoScaling(v, prefix, { ...props, maxCapacity: max }, {
    minCapacityFloor: 1,
    zeroReason: 'a serverless variant\'s ProvisionedConcurrency is 1-200; leave provisionedConcurrency out for an on-demand endpoint',
  });
  v.range(`${prefix}maxCapacity`, props.maxCapacity, 1, 200);
  if (!Token.isUnresolved(max) && !Token.isUnresolved(maxConcurrency)) {
    v.check(max <= maxConcurrency, `${prefix}maxCapacity`, max, `at most maxConcurrency (${maxConcurrency}): provisioned concurrency cannot exceed it`);
  }
  const min = props.minCapacity ?? 1;
  if (provisioned !== undefined && !Token.isUnresolved(provisioned) && !Token.isUnresolved(min) && !Token.isUnresolved(max)) {
    v.check(provisioned >= min && provisioned <= max, 'provisionedConcurrency', provisioned,
      `between ${prefix}minCapacity (${min}) and ${prefix}maxCapacity (${max}), where scaling starts from`);
  }
  const t = props.targetUtilization;
  if (t !== undefined && !Token.isUnresolved(t)) {
    v.check(Number.isFinite(t) && t > 0 && t <= 1, `${prefix}targetUtilization`, t, 'a number greater than 0 and at most 1 (a share of the provisioned concurrency)');
  }
}

export interface ServerlessScalingOptions {
  readonly endpointName: string;
  readonly variantName: string;
  readonly endpoint: IConstruct;
  readonly props: ServerlessAutoScalingProps;
  readonly maxConcurrency: number;
}

export function addServerlessScaling(scope: Construct, opts: ServerlessScalingOptions): appscaling.CfnScalableTarget {
  const scaleOutCooldown = opts.props.scaleOutCooldown ?? Duration.seconds(60);
  const scaleInCooldown = opts.props.scaleInCooldown ?? Duration.seconds(300);
  warnOnCooldowns(scope, '', scaleOutCooldown, scaleInCooldown);
  // No RoleARN: Application Auto Scaling uses its SageMaker service-linked role.
  const target = new appscaling.CfnScalableTarget(scope, 'Target', {
    serviceNamespace: 'sagemaker',
    resourceId: `endpoint/${opts.endpointName}/variant/${opts.variantName}`,
    scalableDimension: PROVISIONED_CONCURRENCY_DIMENSION,
    minCapacity: opts.props.minCapacity ?? 1,
    maxCapacity: opts.props.maxCapacity ?? opts.maxConcurrency,
  });
  target.node.addDependency(opts.endpoint);
  addTargetTrackingPolicy(scope, 'Utilization', target, {
    policyName: `${opts.variantName}-provisioned-concurrency-utilization`,
    predefinedMetricType: PROVISIONED_CONCURRENCY_METRIC,
    targetValue: opts.props.targetUtilization ?? DEFAULT_TARGET_UTILIZATION,
    scaleOutCooldown,
    scaleInCooldown,
  });
  return target;
}
