import { Token } from 'aws-cdk-lib';
import { CostEstimateOptions, EndpointCostEstimate, GpuComponentNeed, ServerlessCostEstimate, SharedGpuCostComparison, VariantCostEstimate } from './cost-types';
import { PriceTable } from './price-table';
import {
  buildComparison, buildEstimate, buildPoolsEstimate, GIVEN_BY_CALLER, HOURS_PER_MONTH, NOT_IN_TABLE, priceOf, round, serverlessPriceOf,
  validatePrices,
} from './private/estimates';
import { PropValidator } from '../private/validation';

/**
 * Internal (not exported from the package): the endpoint constructs' `costEstimate` and `costComparison`, over the
 * plain data each construct hands over. An unknown price gives a result that says so (`priceKnown` false); a region
 * that is a token, capacities that are tokens and invalid prices throw.
 */

/** One production variant's instance type(s) and capacity range. */
export interface VariantCapacity {
  readonly variantName?: string;
  /**
   * The instance type's name, or with instance pools the pools' by priority (`variantInstanceTypes`); a token's price is
   * unknown.
   */
  readonly instanceTypes: string[];
  readonly minInstances: number;
  readonly maxInstances: number;
}

/** The estimate of an instance-based endpoint, one line per variant, at the region of `options` or the stack's. */
export function estimateVariants(
  subject: string, stackRegion: string, variants: VariantCapacity[], options: CostEstimateOptions = {},
): EndpointCostEstimate {
  const region = checkOptions(subject, stackRegion, options, variants);
  const table = options.priceTable ?? PriceTable.bundled();
  const price = (type: string) => (Token.isUnresolved(type) ? undefined : priceOf(table, region, type, options.hourlyPricesUsd));
  const lines: VariantCostEstimate[] = variants.map(({ instanceTypes, ...x }) => (instanceTypes.length === 1
    ? buildEstimate(table, { ...x, instanceType: instanceTypes[0], region }, price(instanceTypes[0]))
    : buildPoolsEstimate(table, { ...x, instanceTypes, region }, instanceTypes.map(price))));
  const priceKnown = lines.every((x) => x.priceKnown);
  return {
    region,
    variants: lines,
    priceKnown,
    monthlyAtMinUsd: priceKnown ? round(lines.reduce((sum, x) => sum + x.monthlyAtMinUsd!, 0)) : undefined,
    monthlyAtMaxUsd: priceKnown ? round(lines.reduce((sum, x) => sum + x.monthlyAtMaxUsd!, 0)) : undefined,
    scalesToZero: lines.every((x) => x.scalesToZero),
    summary: lines.map((x) => (lines.length > 1 && x.variantName ? `${x.variantName}: ${x.summary}` : x.summary)).join('\n'),
  };
}

/** A serverless endpoint's capacity, as plain data. */
export interface ServerlessCapacity {
  readonly memorySizeInMb: number;
  readonly minProvisionedConcurrency: number;
  readonly maxProvisionedConcurrency: number;
}

/** The estimate of a serverless endpoint: provisioned concurrency by the hour, compute per second of each request. */
export function estimateServerless(
  subject: string, stackRegion: string, capacity: ServerlessCapacity, options: CostEstimateOptions = {},
): EndpointCostEstimate {
  const region = checkOptions(subject, stackRegion, options, []);
  const { memorySizeInMb: mb, minProvisionedConcurrency: min, maxProvisionedConcurrency: max } = capacity;
  const provisioned = max > 0 ? serverlessPriceOf(region, mb, 'provisioned', options.provisionedConcurrencyPerHourUsd) : undefined;
  const compute = serverlessPriceOf(region, mb, 'compute', options.serverlessComputePerSecondUsd);
  const provisionedKnown = max === 0 || provisioned !== undefined;
  const missing = [
    ...(provisionedKnown ? [] : ['provisionedConcurrencyPerHourUsd: <USD per unit-hour>']),
    ...(compute ? [] : ['serverlessComputePerSecondUsd: <USD per second>']),
  ];
  const monthly = (units: number) => (provisionedKnown ? round((provisioned?.usd ?? 0) * units * HOURS_PER_MONTH) : undefined);
  const serverless: ServerlessCostEstimate = {
    memorySizeInMb: mb,
    minProvisionedConcurrency: min,
    maxProvisionedConcurrency: max,
    priceKnown: missing.length === 0,
    provisionedConcurrencyPerHourUsd: provisioned?.usd,
    monthlyAtMinUsd: monthly(min),
    monthlyAtMaxUsd: monthly(max),
    computePerSecondUsd: compute?.usd,
    priceSource: missing.length === 0 ? GIVEN_BY_CALLER : NOT_IN_TABLE,
    summary: missing.length > 0
      ? `No complete estimate for Serverless Inference (${mb} MiB${max > 0 ? `, ${min}-${max} provisioned concurrency` : ''}) in ${region}: `
        + `the price table has no serverless prices; give them as { ${missing.join(', ')} }`
      : `Estimate (prices given by caller): Serverless Inference ${mb} MiB in ${region}: `
        + (max > 0 ? `${min}-${max} provisioned concurrency at $${provisioned!.usd}/unit-hour = $${monthly(min)}-$${monthly(max)} per month (${HOURS_PER_MONTH} h), plus ` : '')
        + `$${compute!.usd} per second of request compute`,
  };
  return {
    region,
    variants: [],
    serverless,
    priceKnown: provisionedKnown,
    monthlyAtMinUsd: serverless.monthlyAtMinUsd,
    monthlyAtMaxUsd: serverless.monthlyAtMaxUsd,
    scalesToZero: min === 0,
    summary: serverless.summary,
  };
}

/** A shared-GPU endpoint's components packed on its instances versus each on its own smallest fitting instance. */
export function compareShared(
  subject: string, stackRegion: string, packed: { instanceType: string; instanceCount: number }, components: GpuComponentNeed[],
  options: CostEstimateOptions = {},
): SharedGpuCostComparison {
  const region = checkOptions(subject, stackRegion, options, []);
  const v = new PropValidator(subject);
  v.check(!Token.isUnresolved(packed.instanceType), 'instanceType', packed.instanceType, 'an instance type known at synth (not a token)');
  v.check(!Token.isUnresolved(packed.instanceCount), 'initialInstanceCount', packed.instanceCount, 'a count known at synth (not a token)');
  components.forEach((c) => {
    v.check(!Token.isUnresolved(c.accelerators) && c.accelerators !== undefined, `component '${c.name}' acceleratorCount`, c.accelerators,
      'a number known at synth: the comparison needs the accelerators each copy reserves');
    v.check(!Token.isUnresolved(c.copies), `component '${c.name}' copies`, c.copies, 'a number known at synth (not a token)');
  });
  v.throwIfInvalid();
  return buildComparison(subject, {
    components,
    packedInstanceType: packed.instanceType,
    packedInstanceCount: packed.instanceCount,
    region,
    hourlyPricesUsd: options.hourlyPricesUsd,
    priceTable: options.priceTable,
  }, false);
}

/** The region the prices are looked up in; throws when it is a token and none is given, or on invalid options. */
function checkOptions(subject: string, stackRegion: string, options: CostEstimateOptions, variants: VariantCapacity[]): string {
  const region = options.region ?? stackRegion;
  const v = new PropValidator(subject);
  if (Token.isUnresolved(region)) {
    v.add(`region: got ${options.region === undefined ? 'the stack\'s region, which is unresolved (an environment-agnostic stack)' : 'an unresolved token'}, `
      + 'expected a region such as \'us-east-1\' to look prices up in: give it as the region option ({ region: \'us-east-1\' })');
  }
  validatePrices(v, 'hourlyPricesUsd', options.hourlyPricesUsd);
  v.atLeast('serverlessComputePerSecondUsd', options.serverlessComputePerSecondUsd, 0, { integer: false });
  v.atLeast('provisionedConcurrencyPerHourUsd', options.provisionedConcurrencyPerHourUsd, 0, { integer: false });
  for (const x of variants) {
    const where = x.variantName ? `variant '${x.variantName}' ` : '';
    v.check(!Token.isUnresolved(x.minInstances) && !Token.isUnresolved(x.maxInstances), `${where}capacity`, `${x.minInstances}-${x.maxInstances}`,
      'instance counts known at synth (not tokens): the estimate multiplies them by the price');
  }
  v.throwIfInvalid();
  return region;
}
