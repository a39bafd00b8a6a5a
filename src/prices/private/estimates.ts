import { PRICE_TABLE_NOTE, SERVERLESS_PRICES } from './hosting-prices';
import { InstanceSpec } from '../../core/instance-hardware';
import { compareInstanceSpecs, instanceSpecs, knownInstanceSpecs } from '../../private/instance-table';
import { PropValidator } from '../../private/validation';
import { VariantCostEstimate, SeparateComponentCost, SharedGpuCostComparison, SharedGpuCostProps } from '../cost-types';
import { PriceTable } from '../price-table';

/**
 * Internal (not exported from the package): the arithmetic behind `EndpointCost` and the constructs' `costEstimate`
 * and `costComparison`, over plain data. `strict` callers (the `EndpointCost` statics) throw on an unknown price; the
 * constructs get a result that says which price is missing.
 */

/** Hours in a month for monthly figures (365 × 24 / 12, the AWS Pricing Calculator's month). */
export const HOURS_PER_MONTH = 730;

export const GIVEN_BY_CALLER = 'given by caller';
export const NOT_IN_TABLE = 'not in the price table';

export interface Price {
  readonly usd: number;
  readonly source: string;
  readonly asOf: string;
}

/** Prices by instance type the caller gives, then the table's. */
export type Prices = { readonly [instanceType: string]: number } | undefined;

/** The caller's price for the type, else the table's, else undefined. */
export function priceOf(table: PriceTable, region: string, instanceType: string, given: Prices): Price | undefined {
  const own = given?.[instanceType];
  if (own !== undefined) return { usd: own, source: GIVEN_BY_CALLER, asOf: GIVEN_BY_CALLER };
  const usd = table.hourlyPriceUsd(region, instanceType);
  return usd === undefined ? undefined : { usd, source: `${table.source}, usagetype ${table.usageType(region, instanceType)}`, asOf: table.asOf };
}

/** A serverless price (`compute` per second, `provisioned` per unit-hour): the caller's, else the table's, else undefined. */
export function serverlessPriceOf(region: string, memorySizeInMb: number, kind: 'compute' | 'provisioned', given: number | undefined): Price | undefined {
  if (given !== undefined) return { usd: given, source: GIVEN_BY_CALLER, asOf: GIVEN_BY_CALLER };
  const row = SERVERLESS_PRICES[region]?.[memorySizeInMb]?.[kind];
  return row ? { usd: row[0], source: row[1].url, asOf: row[1].asOf } : undefined;
}

/** What the table has in the region ("has for <region>: ...") or, when it has nothing there, its regions. */
export function tableCoverage(table: PriceTable, region: string): string {
  const inRegion = table.instanceTypes(region);
  if (inRegion.length > 0) return `has for ${region}: ${inRegion.join(', ')}`;
  return table.regions.length > 0
    ? `has no ${region} prices; it covers ${table.regions.join(', ')}`
    : 'is empty: build one with cdk-sagemaker-mcp prices and pass it as priceTable: PriceTable.fromFile(...)';
}

/** The table's price, or an error listing what the table has. */
export function tablePrice(subject: string, table: PriceTable, region: string, instanceType: string): Price {
  const inRegion = table.instanceTypes(region);
  const yourself = 'or give the price per instance-hour yourself';
  if (inRegion.length === 0) {
    throw new Error(`Invalid ${subject}: region: got '${region}', expected a region the price table (${table.asOf}) covers: `
      + (table.regions.length > 0
        ? `${table.regions.join(', ')} (${yourself})`
        : `it covers none, being empty (build one with cdk-sagemaker-mcp prices and pass priceTable: PriceTable.fromFile(...), ${yourself})`));
  }
  const price = priceOf(table, region, instanceType, undefined);
  if (!price) {
    throw new Error(`Invalid ${subject}: instanceType: got '${instanceType}', expected an instance type the price table (${table.asOf}) `
      + `has for ${region}: ${inRegion.join(', ')} (${yourself})`);
  }
  return price;
}

/** Problems of the prices a caller gives (each >= 0). */
export function validatePrices(v: PropValidator, prop: string, prices: Prices): void {
  for (const [type, usd] of Object.entries(prices ?? {})) v.atLeast(`${prop}['${type}']`, usd, 0, { integer: false });
}

export interface CapacityInput {
  readonly variantName?: string;
  readonly instanceType: string;
  readonly region: string;
  readonly minInstances: number;
  readonly maxInstances: number;
}

/** The estimate at `price`; with no price, a result saying which price is missing and how to give it. */
export function buildEstimate(table: PriceTable, input: CapacityInput, price: Price | undefined): VariantCostEstimate {
  const { instanceType, region, minInstances, maxInstances } = input;
  const base = { variantName: input.variantName, instanceType, region, minInstances, maxInstances, scalesToZero: minInstances === 0 };
  if (!price) {
    return {
      ...base,
      priceKnown: false,
      priceSource: NOT_IN_TABLE,
      priceAsOf: table.asOf,
      summary: `No estimate for ${minInstances}-${maxInstances} × ${instanceType} in ${region}: its price is not in the price table of `
        + `${table.asOf} (which ${tableCoverage(table, region)}); give it as hourlyPricesUsd: { '${instanceType}': <USD per instance-hour> }`,
    };
  }
  const monthlyAtMinUsd = round(price.usd * minInstances * HOURS_PER_MONTH);
  const monthlyAtMaxUsd = round(price.usd * maxInstances * HOURS_PER_MONTH);
  return {
    ...base,
    priceKnown: true,
    pricePerInstanceHourUsd: price.usd,
    hourlyAtMinUsd: round(price.usd * minInstances),
    hourlyAtMaxUsd: round(price.usd * maxInstances),
    monthlyAtMinUsd,
    monthlyAtMaxUsd,
    priceSource: price.source,
    priceAsOf: price.asOf,
    summary: `Estimate (${PRICE_TABLE_NOTE}; price ${price.asOf === GIVEN_BY_CALLER ? GIVEN_BY_CALLER : `as of ${price.asOf}, ${price.source}`}): `
      + `${minInstances}-${maxInstances} × ${instanceType} in ${region} at $${price.usd}/h = `
      + `$${monthlyAtMinUsd}-$${monthlyAtMaxUsd} per month (${HOURS_PER_MONTH} h)${minInstances === 0 ? ', $0 when scaled to zero' : ''}`,
  };
}

/**
 * The estimate of a variant with instance pools (`instanceTypes` by priority, `prices` parallel): a range, the fewest
 * instances all on the cheapest pool and the most all on the dearest, since SageMaker may provision from any pool.
 */
export function buildPoolsEstimate(
  table: PriceTable, input: Omit<CapacityInput, 'instanceType'> & { readonly instanceTypes: string[] }, prices: Array<Price | undefined>,
): VariantCostEstimate {
  const { instanceTypes, region, minInstances, maxInstances } = input;
  const pools = `${minInstances}-${maxInstances} × instance pools ${instanceTypes.join(', ')}`;
  const base = {
    variantName: input.variantName,
    instanceType: instanceTypes[0],
    instancePoolTypes: instanceTypes,
    region,
    minInstances,
    maxInstances,
    scalesToZero: minInstances === 0,
  };
  const missing = instanceTypes.filter((_, i) => prices[i] === undefined);
  if (missing.length > 0) {
    return {
      ...base,
      priceKnown: false,
      priceSource: NOT_IN_TABLE,
      priceAsOf: table.asOf,
      summary: `No estimate for ${pools} in ${region}: the price of ${missing.join(', ')} is not in the price table of ${table.asOf} `
        + `(which ${tableCoverage(table, region)}); give it as hourlyPricesUsd: { ${missing.map((t) => `'${t}': <USD per instance-hour>`).join(', ')} }`,
    };
  }
  const priced = instanceTypes.map((t, i) => ({ t, price: prices[i]! }));
  const cheapest = priced.reduce((a, b) => (b.price.usd < a.price.usd ? b : a));
  const dearest = priced.reduce((a, b) => (b.price.usd > a.price.usd ? b : a));
  const monthlyAtMinUsd = round(cheapest.price.usd * minInstances * HOURS_PER_MONTH);
  const monthlyAtMaxUsd = round(dearest.price.usd * maxInstances * HOURS_PER_MONTH);
  const unique = (xs: string[]) => [...new Set(xs)].join('; ');
  const asOf = unique(priced.map((x) => x.price.asOf));
  return {
    ...base,
    priceKnown: true,
    pricePerInstanceHourUsd: cheapest.price.usd,
    maxPricePerInstanceHourUsd: dearest.price.usd,
    hourlyAtMinUsd: round(cheapest.price.usd * minInstances),
    hourlyAtMaxUsd: round(dearest.price.usd * maxInstances),
    monthlyAtMinUsd,
    monthlyAtMaxUsd,
    priceSource: unique(priced.map((x) => x.price.source)),
    priceAsOf: asOf,
    summary: `Estimate (${PRICE_TABLE_NOTE}; prices ${asOf === GIVEN_BY_CALLER ? GIVEN_BY_CALLER : `as of ${asOf}`}): ${pools} in ${region} `
      + `at ${priced.map((x) => `$${x.price.usd}/h (${x.t})`).join(', ')} = $${monthlyAtMinUsd}-$${monthlyAtMaxUsd} per month `
      + `(${HOURS_PER_MONTH} h; ${minInstances} on the cheapest pool, ${cheapest.t}, to ${maxInstances} on the dearest, ${dearest.t})`
      + `${minInstances === 0 ? ', $0 when scaled to zero' : ''}`,
  };
}

/**
 * Packed on `packedInstanceCount` instances of the packed type versus every copy on its own smallest fitting instance of
 * the same accelerator kind: the smallest priced one when one fits, else (not strict) the smallest the instance table
 * has, with its price unknown. `strict` throws on any unknown price instead.
 */
export function buildComparison(subject: string, props: SharedGpuCostProps, strict: boolean): SharedGpuCostComparison {
  const v = new PropValidator(subject);
  const packed = instanceSpecs(props.packedInstanceType);
  const count = props.packedInstanceCount ?? 1;
  v.check(packed !== undefined && packed.accelerators > 0, 'packedInstanceType', props.packedInstanceType, 'an accelerated instance type the instance table knows (e.g. ml.g5.12xlarge)');
  v.atLeast('packedInstanceCount', props.packedInstanceCount, 1);
  v.check(props.components.length > 0, 'components', [], 'at least one component');
  props.components.forEach((c, i) => {
    v.atLeast(`components[${i}].acceleratorMemoryGiB`, c.acceleratorMemoryGiB, 0, { integer: false });
    v.atLeast(`components[${i}].accelerators`, c.accelerators, 1);
    v.atLeast(`components[${i}].copies`, c.copies, 1);
  });
  validatePrices(v, 'hourlyPricesUsd', props.hourlyPricesUsd);
  v.throwIfInvalid();
  const needMemory = props.components.reduce((s, c) => s + c.acceleratorMemoryGiB * (c.copies ?? 1), 0);
  const needDevices = props.components.reduce((s, c) => s + (c.accelerators ?? 1) * (c.copies ?? 1), 0);
  const haveMemory = packed!.totalAcceleratorMemoryGiB * count;
  const haveDevices = packed!.accelerators * count;
  v.check(needMemory <= haveMemory && needDevices <= haveDevices, 'packedInstanceType', props.packedInstanceType,
    `an instance with at least ${needMemory} GiB of accelerator memory on ${needDevices} device(s) for all copies `
    + `(${count === 1 ? 'it has' : `${count} of them have`} ${haveMemory} GiB on ${haveDevices})`);
  v.throwIfInvalid();

  const table = props.priceTable ?? PriceTable.bundled();
  const price = (type: string) => priceOf(table, props.region, type, props.hourlyPricesUsd);
  const packedPrice = strict
    ? price(props.packedInstanceType) ?? tablePrice(subject, table, props.region, props.packedInstanceType)
    : price(props.packedInstanceType);
  const ofKind = knownInstanceSpecs().filter((s) => s.acceleratorKind === packed!.acceleratorKind).sort(compareInstanceSpecs);
  const priced = ofKind.filter((s) => price(s.instanceType) !== undefined);
  const separate: SeparateComponentCost[] = props.components.map((c) => {
    const devices = c.accelerators ?? 1;
    const fits = (s: InstanceSpec) => s.accelerators >= devices && s.acceleratorMemoryGiB * devices >= c.acceleratorMemoryGiB;
    const fit = priced.find(fits) ?? (strict ? undefined : ofKind.find(fits));
    if (!fit) {
      throw new Error(`Invalid ${subject}: components[${c.name}]: no ${strict ? 'priced ' : ''}${packed!.acceleratorKind} instance `
        + `${strict ? `in ${props.region} ` : ''}has ${c.acceleratorMemoryGiB} GiB on ${devices} device(s); `
        + (strict ? `priced there: ${priced.map((s) => s.instanceType).join(', ') || 'none'} (give hourlyPricesUsd for more types)` : 'the instance table has none that large'));
    }
    const copies = c.copies ?? 1;
    const usd = price(fit.instanceType)?.usd;
    return { name: c.name, instanceType: fit.instanceType, copies, hourlyUsd: usd === undefined ? undefined : round(usd * copies) };
  });

  const missingPrices = [...new Set([props.packedInstanceType, ...separate.map((s) => s.instanceType)].filter((t) => price(t) === undefined))].sort();
  const packedHourlyUsd = packedPrice ? round(packedPrice.usd * count) : undefined;
  const separateHourlyUsd = separate.every((s) => s.hourlyUsd !== undefined) ? round(separate.reduce((s, c) => s + c.hourlyUsd!, 0)) : undefined;
  const monthlySavingUsd = packedHourlyUsd !== undefined && separateHourlyUsd !== undefined
    ? round((separateHourlyUsd - packedHourlyUsd) * HOURS_PER_MONTH) : undefined;
  const packedText = `${count === 1 ? 'one' : count} ${props.packedInstanceType}`;
  const separateText = separate.map((s) => `${s.name} ${s.copies} × ${s.instanceType}`).join(', ');
  const verdict = monthlySavingUsd === undefined
    ? `no totals: ${missingPrices.join(', ')} ${missingPrices.length === 1 ? 'is' : 'are'} not in the price table of ${table.asOf} (which ${tableCoverage(table, props.region)}); `
      + `give hourlyPricesUsd: { ${missingPrices.map((t) => `'${t}': <USD>`).join(', ')} }`
    : `${monthlySavingUsd >= 0 ? 'packing saves' : 'packing costs'} $${Math.abs(monthlySavingUsd)} per month (${HOURS_PER_MONTH} h)`;
  return {
    packedInstanceType: props.packedInstanceType,
    packedInstanceCount: count,
    priceKnown: missingPrices.length === 0,
    missingPrices,
    packedHourlyUsd,
    separateHourlyUsd,
    separate,
    monthlySavingUsd,
    priceAsOf: table.asOf,
    summary: `Estimate (${PRICE_TABLE_NOTE}, table of ${table.asOf}): packed on ${packedText}${packedHourlyUsd === undefined ? '' : ` $${packedHourlyUsd}/h`}; `
      + `separately ${separateText}${separateHourlyUsd === undefined ? '' : ` $${separateHourlyUsd}/h`}; ${verdict}`,
  };
}

/** Rounded to a tenth of a cent: the figures are estimates. */
export function round(usd: number): number {
  return Math.round(usd * 1000) / 1000;
}
