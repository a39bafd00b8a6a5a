/**
 * Internal (not exported from the package): validation and CloudFormation rendering of a production variant, shared by
 * the realtime, async and shared-GPU endpoints, and the one reader of its instance type(s): `variantInstanceTypes`.
 */
import { Annotations, Duration, Size, SizeRoundingBehavior, Token } from 'aws-cdk-lib';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import { IConstruct } from 'constructs';
import { PropValidator, SAGEMAKER_NAME_EXPECTED, SAGEMAKER_NAME_PATTERN } from './validation';
import { InstanceType } from '../core/instance-type';
import { InstancePool, ProductionVariantOptions } from '../core/production-variant';

/** 1-5 pools, priorities 1-5 (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_InstancePool.html). */
const MAX_POOLS = 5;
const MAX_PRIORITY = 5;

/**
 * The variant's instance types, highest priority first: `[instanceType]`, or the pools' types by priority (ties keep
 * the given order). Everything that reads a variant's instance type (sizing, KMS, naming, cost, dashboards) goes
 * through it. Empty only for options that failed validation (neither prop given).
 */
export function variantInstanceTypes(opts: Pick<ProductionVariantOptions, 'instanceType' | 'instancePools'>): InstanceType[] {
  if (opts.instancePools && opts.instancePools.length > 0) return sortedPools(opts.instancePools).map((p) => p.instanceType);
  return opts.instanceType ? [opts.instanceType] : [];
}

/** The type a variant's model is bound for (image and environment per instance type): the priority-1 type. */
export function primaryInstanceType(opts: Pick<ProductionVariantOptions, 'instanceType' | 'instancePools'>): InstanceType {
  const [first] = variantInstanceTypes(opts);
  if (!first) throw new Error('internal: a production variant without an instance type passed validation');
  return first;
}

/** The pools by priority, highest first (the given order among equal priorities). */
export function sortedPools(pools: InstancePool[]): InstancePool[] {
  return pools.map((p, i) => ({ p, i })).sort((a, b) => (a.p.priority - b.p.priority) || (a.i - b.i)).map((x) => x.p);
}

/** What a variant kind allows of the pools. */
export interface PoolRules {
  /** Whether a pool may name its own model (`ModelNameOverride`); the message says why not otherwise. */
  readonly modelOverride: true | string;
}

/** Records every problem with a variant's settings on `v`; `prefix` locates the variant in messages. */
export function validateProductionVariant(
  v: PropValidator, prefix: string, variantName: string, opts: ProductionVariantOptions, rules: PoolRules = { modelOverride: true },
): void {
  v.pattern(`${prefix}variantName`, variantName, SAGEMAKER_NAME_PATTERN, SAGEMAKER_NAME_EXPECTED, 63);
  validateInstanceChoice(v, prefix, opts, rules);
  v.atLeast(`${prefix}initialInstanceCount`, opts.initialInstanceCount, 1);
  v.atLeast(`${prefix}initialVariantWeight`, opts.initialVariantWeight, 0, { integer: false });
  v.range(`${prefix}volumeSize`, sizeInGb(opts.volumeSize), 1, 512, { unit: 'GB' });
  v.range(`${prefix}modelDataDownloadTimeout`, seconds(opts.modelDataDownloadTimeout), 60, 3600, { unit: 'seconds' });
  v.range(`${prefix}containerStartupHealthCheckTimeout`, seconds(opts.containerStartupHealthCheckTimeout), 60, 3600, { unit: 'seconds' });
}

/**
 * Exactly one of `instanceType` and `instancePools` (the pools replace the type, as the API reference's InstancePools
 * says), 1-5 pools with priorities 1-5, and the provision timeout within 300-3600 s
 * (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_ProductionVariant.html).
 */
export function validateInstanceChoice(v: PropValidator, prefix: string, opts: ProductionVariantOptions, rules: PoolRules): void {
  const pools = opts.instancePools;
  if (opts.instanceType === undefined && pools === undefined) {
    v.add(`${prefix}instanceType: got none, expected an InstanceType (e.g. InstanceType.ML_G5_2XLARGE, or the model's defaultInstanceType) `
      + `or ${prefix}instancePools (1-${MAX_POOLS} instance types in priority order): exactly one of the two`);
  } else if (opts.instanceType !== undefined && pools !== undefined) {
    v.add(`${prefix}instancePools: got ${pools.length} pool(s) and ${prefix}instanceType '${opts.instanceType.name}' too, expected exactly `
      + `one of ${prefix}instanceType and ${prefix}instancePools (the pools replace the instance type: list it as a pool)`);
  }
  if (pools !== undefined) {
    v.check(pools.length >= 1 && pools.length <= MAX_POOLS, `${prefix}instancePools`, `${pools.length} pools`,
      `between 1 and ${MAX_POOLS} pools`);
    pools.forEach((p, i) => {
      v.range(`${prefix}instancePools[${i}].priority`, p.priority, 1, MAX_PRIORITY, { unit: '(1 is the highest)' });
      if (p.model !== undefined && rules.modelOverride !== true) {
        v.add(`${prefix}instancePools[${i}].model: got a model, expected none: ${rules.modelOverride}`);
      }
    });
  }
  v.range(`${prefix}instanceProvisionTimeout`, seconds(opts.instanceProvisionTimeout), 300, 3600, { unit: 'seconds' });
}

/** What else the variant's endpoint uses, for the warnings on combinations AWS does not document. */
export interface PoolContext {
  readonly managedInstanceScaling?: boolean;
  readonly shadowVariant?: boolean;
  readonly dataCapture?: boolean;
  /** The variant hosts inference components: each is sized per instance type, and a pool cannot name a model. */
  readonly inferenceComponents?: boolean;
}

/**
 * Warns (never fails) on what AWS's pages neither allow nor forbid for instance pools: repeated priorities or instance
 * types, pools of different instance families (the variant's model is built for the priority-1 type), and pools
 * together with managed instance scaling, a shadow variant or data capture. `where` names the variant.
 */
export function warnOnInstancePools(scope: IConstruct, where: string, opts: ProductionVariantOptions, context: PoolContext = {}): void {
  const pools = opts.instancePools;
  if (!pools || pools.length === 0) return;
  const warn = (id: string, message: string) => Annotations.of(scope).addWarningV2(`cdk-sagemaker-mcp:${id}`,
    `${where}instancePools: ${message} (AWS documents no rule on this: https://docs.aws.amazon.com/sagemaker/latest/dg/realtime-endpoints-heterogeneous.html).`);
  const priorities = pools.map((p) => p.priority).filter((p) => !Token.isUnresolved(p));
  const repeated = [...new Set(priorities.filter((p, i) => priorities.indexOf(p) !== i))];
  if (repeated.length > 0) {
    warn('instancePoolPriorities', `priority ${repeated.join(', ')} is given to more than one pool; the order SageMaker tries such pools in is not documented, give each pool its own priority`);
  }
  const names = pools.map((p) => p.instanceType).filter((t) => !t.isUnresolved).map((t) => t.name);
  const twice = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
  if (twice.length > 0) warn('instancePoolTypes', `${twice.join(', ')} appears in more than one pool; each pool should have its own instance type`);
  const families = [...new Set(pools.map((p) => p.instanceType.family).filter((f): f is string => f !== undefined))];
  if (families.length > 1 && pools.some((p, i) => i > 0 && p.model === undefined)) {
    const primary = primaryInstanceType(opts).name;
    warn('instancePoolFamilies', context.inferenceComponents
      ? `the pools span instance families ${families.join(', ')}; each inference component is sized per type, but its model is bound `
        + `for the priority-1 type ${primary} (a JumpStart or catalog image and its environment follow it): check that each model runs on every pool`
      : `the pools span instance families ${families.join(', ')}; the variant's model is bound for the priority-1 `
        + `type ${primary} (a JumpStart or catalog image, its environment and sizing follow it): check that it runs on `
        + 'every pool, or give a pool its own model');
  }
  const with_ = [
    ...(context.managedInstanceScaling ? ['managed instance scaling'] : []),
    ...(context.shadowVariant ? ['a shadow variant'] : []),
    ...(context.dataCapture ? ['data capture'] : []),
  ];
  if (with_.length > 0) warn('instancePoolsCombination', `used together with ${with_.join(' and ')}, a combination AWS neither documents nor rules out; test it in a non-production account first`);
}

/**
 * The CloudFormation ProductionVariant. `modelName` is omitted for inference-component endpoints; `poolModelNames`
 * (parallel to `opts.instancePools`) are the pools' `ModelNameOverride`s. `InstancePools` and
 * `VariantInstanceProvisionTimeoutInSeconds` are written through the L1, which has them at every aws-cdk-lib of the peer
 * range (from 2.257).
 */
export function renderProductionVariant(
  variantName: string,
  modelName: string | undefined,
  opts: ProductionVariantOptions,
  poolModelNames: ReadonlyArray<string | undefined> = [],
): sagemaker.CfnEndpointConfig.ProductionVariantProperty {
  return {
    variantName,
    modelName,
    ...renderInstanceChoice(opts, poolModelNames),
    initialInstanceCount: opts.initialInstanceCount ?? 1,
    initialVariantWeight: opts.initialVariantWeight ?? 1,
    volumeSizeInGb: sizeInGb(opts.volumeSize),
    modelDataDownloadTimeoutInSeconds: seconds(opts.modelDataDownloadTimeout),
    containerStartupHealthCheckTimeoutInSeconds: seconds(opts.containerStartupHealthCheckTimeout),
  };
}

/** `InstanceType`, or `InstancePools` (with the pools' `ModelNameOverride`s), and the provision timeout. */
export function renderInstanceChoice(
  opts: Pick<ProductionVariantOptions, 'instanceType' | 'instancePools' | 'instanceProvisionTimeout'>,
  poolModelNames: ReadonlyArray<string | undefined> = [],
): Pick<sagemaker.CfnEndpointConfig.ProductionVariantProperty, 'instanceType' | 'instancePools' | 'variantInstanceProvisionTimeoutInSeconds'> {
  return {
    instanceType: opts.instanceType?.name,
    instancePools: opts.instancePools?.map((p, i) => ({
      instanceType: p.instanceType.name,
      priority: p.priority,
      modelNameOverride: poolModelNames[i],
    })),
    variantInstanceProvisionTimeoutInSeconds: seconds(opts.instanceProvisionTimeout),
  };
}

function sizeInGb(size: Size | undefined): number | undefined {
  // NONE keeps fractions so that validation reports them with the prop's name (FAIL would throw a generic error).
  return size === undefined ? undefined : size.toGibibytes({ rounding: SizeRoundingBehavior.NONE });
}

function seconds(d: Duration | undefined): number | undefined {
  return d === undefined ? undefined : d.toSeconds({ integral: false });
}
