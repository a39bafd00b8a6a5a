import { Token } from 'aws-cdk-lib';
import { CostEstimateOptions, EndpointCostEstimate, GpuComponentNeed, SharedGpuCostComparison } from './cost-types';
import { buildComparison, buildEstimate, priceOf, validatePrices } from './private/estimates';
import { PropValidator } from '../core/validation';

/**
 * Internal (not exported from the package): the endpoint constructs' `costEstimate` and `costComparison`, over the
 * plain data each construct hands over. An unknown price gives a result that says so (`priceKnown` false); a region
 * that is a token, capacities that are tokens and invalid prices throw.
 */

/** One production variant's instance type and capacity range. */
export interface VariantCapacity {
  readonly variantName?: string;
  /** The instance type's name (may be a token: the price is then unknown). */
  readonly instanceType: string;
  readonly minInstances: number;
  readonly maxInstances: number;
}

/** Estimates for each variant, at the region of `options` or the stack's. */
export function estimateVariants(
  subject: string, stackRegion: string, variants: VariantCapacity[], options: CostEstimateOptions = {},
): EndpointCostEstimate[] {
  const region = checkOptions(subject, stackRegion, options, variants);
  return variants.map((x) => buildEstimate({ ...x, region },
    Token.isUnresolved(x.instanceType) ? undefined : priceOf(region, x.instanceType, options.hourlyPricesUsd)));
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
    components, packedInstanceType: packed.instanceType, packedInstanceCount: packed.instanceCount, region, hourlyPricesUsd: options.hourlyPricesUsd,
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
  for (const x of variants) {
    const where = x.variantName ? `variant '${x.variantName}' ` : '';
    v.check(!Token.isUnresolved(x.minInstances) && !Token.isUnresolved(x.maxInstances), `${where}capacity`, `${x.minInstances}-${x.maxInstances}`,
      'instance counts known at synth (not tokens): the estimate multiplies them by the price');
  }
  v.throwIfInvalid();
  return region;
}
