/**
 * Internal: Application Auto Scaling of a serverless variant's provisioned concurrency, through the library's one
 * scaling model (src/core/scaling): ResourceId `endpoint/<endpoint>/variant/<variant>`, dimension
 * `sagemaker:variant:DesiredProvisionedConcurrency`, metric `SageMakerVariantProvisionedConcurrencyUtilization`
 * (https://docs.aws.amazon.com/sagemaker/latest/dg/serverless-endpoints-autoscale.html).
 */
import { Token } from 'aws-cdk-lib';
import { Construct, IConstruct } from 'constructs';
import { ScalableProvisionedConcurrency } from '../../core/scaling/scalable-provisioned-concurrency';
import {
  addTargetTracking, createScalableTarget, PROVISIONED_CONCURRENCY_SCALABLE_DIMENSION, SCALING_DEFAULTS, validateScaling, variantResourceId,
  warnOnCooldowns,
} from '../../private/scaling-resources';
import { PropValidator } from '../../private/validation';
import { ServerlessAutoScalingOptions } from '../serverless-scaling-props';


export function validateServerlessScaling(
  v: PropValidator, prefix: string, props: ServerlessAutoScalingOptions, provisioned: number | undefined, maxConcurrency: number,
): void {
  const max = props.maxCapacity ?? maxConcurrency;
  validateScaling(v, prefix, { ...props, maxCapacity: max }, {
    minCapacityFloor: 1,
    zeroReason: 'a serverless variant\'s ProvisionedConcurrency is 1-200; leave provisionedConcurrency out for an on-demand endpoint',
  }, { targetUtilization: props.targetUtilization });
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
  if (t !== undefined && !Token.isUnresolved(t) && Number.isFinite(t) && t > 0) {
    v.check(t <= 1, `${prefix}targetUtilization`, t, 'a number greater than 0 and at most 1 (a share of the provisioned concurrency)');
  }
}

export interface ServerlessScalingOptions {
  readonly endpointName: string;
  readonly variantName: string;
  readonly endpoint: IConstruct;
  readonly props: ServerlessAutoScalingOptions;
  readonly maxConcurrency: number;
}

export function addServerlessScaling(scope: Construct, opts: ServerlessScalingOptions): ScalableProvisionedConcurrency {
  const { props } = opts;
  warnOnCooldowns(scope, '', props.scaleOutCooldown, props.scaleInCooldown);
  const target = createScalableTarget(scope, 'Target', {
    resourceId: variantResourceId(opts.endpointName, opts.variantName),
    scalableDimension: PROVISIONED_CONCURRENCY_SCALABLE_DIMENSION,
    minCapacity: props.minCapacity ?? 1,
    maxCapacity: props.maxCapacity ?? opts.maxConcurrency,
    dependsOn: opts.endpoint,
  });
  addTargetTracking(scope, 'Utilization', target.ref, {
    policyName: `${opts.variantName}-provisioned-concurrency-utilization`,
    predefinedMetricType: 'SageMakerVariantProvisionedConcurrencyUtilization',
    targetValue: props.targetUtilization ?? SCALING_DEFAULTS.targetProvisionedConcurrencyUtilization,
    scaleOutCooldown: props.scaleOutCooldown,
    scaleInCooldown: props.scaleInCooldown,
  });
  return new ScalableProvisionedConcurrency(scope, 'ProvisionedConcurrency', { scalableTarget: target });
}
