import { VariantCostEstimate, EndpointCostProps, SharedGpuCostComparison, SharedGpuCostProps } from './cost-types';
import { PriceTable } from './price-table';
import { buildComparison, buildEstimate, GIVEN_BY_CALLER, HOURS_PER_MONTH, tablePrice } from './private/estimates';
import { PRICE_TABLE_DATE } from './private/hosting-prices';
import { PropValidator } from '../private/validation';

/**
 * Estimates of what endpoints cost, from a dated price table (on-demand, real-time inference). The endpoint constructs
 * have the same figures in their cost estimate (and `SharedGpuEndpoint` in its cost comparison); see https://github.com/cdk-sagemaker-mcp/cdk-sagemaker-mcp/blob/main/docs/cost.md.
 */
export class EndpointCost {
  /** The date of the bundled price table (`PriceTable.bundled()`), which is empty in this release: see https://github.com/cdk-sagemaker-mcp/cdk-sagemaker-mcp/blob/main/docs/cost.md. */
  public static readonly PRICE_TABLE_DATE = PRICE_TABLE_DATE;
  /** Hours in a month for monthly figures (365 × 24 / 12, the AWS Pricing Calculator's month). */
  public static readonly HOURS_PER_MONTH = HOURS_PER_MONTH;

  /**
   * Hourly and monthly cost at the minimum and maximum instance counts. Throws when the price is unknown, listing the
   * regions and instance types the table has.
   */
  public static estimate(props: EndpointCostProps): VariantCostEstimate {
    const v = new PropValidator('EndpointCost.estimate');
    v.atLeast('minInstances', props.minInstances, 0);
    v.atLeast('maxInstances', props.maxInstances, 1);
    if (Number.isInteger(props.minInstances) && Number.isInteger(props.maxInstances)) {
      v.check(props.maxInstances >= props.minInstances, 'maxInstances', props.maxInstances, `at least minInstances (${props.minInstances})`);
    }
    if (props.hourlyPriceUsd !== undefined) v.atLeast('hourlyPriceUsd', props.hourlyPriceUsd, 0, { integer: false });
    v.throwIfInvalid();
    const table = props.priceTable ?? PriceTable.bundled();
    const price = props.hourlyPriceUsd !== undefined
      ? { usd: props.hourlyPriceUsd, source: GIVEN_BY_CALLER, asOf: GIVEN_BY_CALLER }
      : tablePrice('EndpointCost.estimate', table, props.region, props.instanceType);
    return buildEstimate(table, props, price);
  }

  /**
   * What packing the components on the packed instance type saves against running every copy on its own smallest fitting
   * priced instance (same accelerator kind, by accelerator memory then size; hardware from the instance table). Throws
   * when a price is unknown.
   */
  public static compareSharedGpu(props: SharedGpuCostProps): SharedGpuCostComparison {
    return buildComparison('EndpointCost.compareSharedGpu', props, true);
  }

  private constructor() {}
}
