import { HOSTING_PRICES, PRICE_TABLE_DATE, PRICE_TABLE_NOTE } from './private/hosting-prices';
import { compareInstanceSpecs, instanceSpecs, knownInstanceSpecs } from '../core/instance-specs';
import { PropValidator } from '../core/validation';

/** Hours in a month for monthly figures (365 × 24 / 12, the AWS Pricing Calculator's month). */
export const HOURS_PER_MONTH = 730;

/** Inputs of `EndpointCost.estimate`. */
export interface EndpointCostProps {
  /** The instance type, e.g. `ml.g5.xlarge`. */
  readonly instanceType: string;
  /** The region, e.g. `us-east-1`. */
  readonly region: string;
  /** Instances when the endpoint is idle (0 when it scales to zero). */
  readonly minInstances: number;
  /** Instances at most (the autoscaling maximum). */
  readonly maxInstances: number;
  /**
   * Your price per instance-hour in USD (a negotiated rate, or a row the table lacks).
   * @default - the bundled price table's price for the type and region
   */
  readonly hourlyPriceUsd?: number;
}

/** What an endpoint costs at its minimum and maximum capacity: an estimate, not a bill. */
export interface EndpointCostEstimate {
  readonly instanceType: string;
  readonly region: string;
  readonly minInstances: number;
  readonly maxInstances: number;
  /** On-demand price of one instance-hour, USD. */
  readonly pricePerInstanceHourUsd: number;
  /** USD per hour at `minInstances` (0 when the endpoint scales to zero). */
  readonly hourlyAtMinUsd: number;
  /** USD per hour at `maxInstances`. */
  readonly hourlyAtMaxUsd: number;
  /** USD per month (730 hours) at `minInstances`: the floor you pay with no traffic. */
  readonly monthlyAtMinUsd: number;
  /** USD per month (730 hours) at `maxInstances`: the ceiling. */
  readonly monthlyAtMaxUsd: number;
  /** Whether the endpoint scales to zero (`minInstances` 0): the floor is then 0. */
  readonly scalesToZero: boolean;
  /** Where the price comes from: a URL of the price table, or "given by caller". */
  readonly priceSource: string;
  /** The date of the price (YYYY-MM-DD or YYYY-MM). */
  readonly priceAsOf: string;
  /** One line saying what the numbers are, e.g. for a CDK annotation or a stack output. */
  readonly summary: string;
}

/** A component of a shared-GPU endpoint, as plain data. */
export interface GpuComponentNeed {
  /** The component's name (for the result). */
  readonly name: string;
  /** Accelerator memory one copy needs, GiB. */
  readonly acceleratorMemoryGiB: number;
  /**
   * Accelerator devices one copy uses.
   * @default 1
   */
  readonly accelerators?: number;
  /**
   * Copies of the component.
   * @default 1
   */
  readonly copies?: number;
}

/** Inputs of `EndpointCost.compareSharedGpu`. */
export interface SharedGpuCostProps {
  /** The components sharing the instance. */
  readonly components: GpuComponentNeed[];
  /** The instance type they are packed on. */
  readonly packedInstanceType: string;
  /** The region. */
  readonly region: string;
  /**
   * Prices per instance-hour in USD by instance type; they take precedence over the bundled table.
   * @default - the bundled table only
   */
  readonly hourlyPricesUsd?: { [instanceType: string]: number };
}

/** Where one component would run on its own. */
export interface SeparateComponentCost {
  readonly name: string;
  /** The smallest priced instance type (of the packed type's accelerator kind) one copy fits on. */
  readonly instanceType: string;
  readonly copies: number;
  /** USD per hour for all copies on their own instances. */
  readonly hourlyUsd: number;
}

/** Packed on one instance versus each component on its own smallest fitting instance. */
export interface SharedGpuCostComparison {
  readonly packedInstanceType: string;
  /** USD per hour of one packed instance. */
  readonly packedHourlyUsd: number;
  /** USD per hour with every copy on its own instance. */
  readonly separateHourlyUsd: number;
  readonly separate: SeparateComponentCost[];
  /** `separate` − `packed`, per month (730 h); negative when packing costs more. */
  readonly monthlySavingUsd: number;
  readonly summary: string;
}

/** Estimates of what endpoints cost, from a dated price table (on-demand, real-time inference). */
export class EndpointCost {
  /** The date of the bundled price table. */
  public static readonly PRICE_TABLE_DATE = PRICE_TABLE_DATE;

  /**
   * Hourly and monthly cost at the minimum and maximum instance counts. Throws when the price is unknown, listing the
   * regions and instance types the table has.
   */
  public static estimate(props: EndpointCostProps): EndpointCostEstimate {
    const v = new PropValidator('EndpointCost.estimate');
    v.atLeast('minInstances', props.minInstances, 0);
    v.atLeast('maxInstances', props.maxInstances, 1);
    if (Number.isInteger(props.minInstances) && Number.isInteger(props.maxInstances)) {
      v.check(props.maxInstances >= props.minInstances, 'maxInstances', props.maxInstances, `at least minInstances (${props.minInstances})`);
    }
    if (props.hourlyPriceUsd !== undefined) v.atLeast('hourlyPriceUsd', props.hourlyPriceUsd, 0, { integer: false });
    v.throwIfInvalid();
    const price = props.hourlyPriceUsd !== undefined
      ? { usd: props.hourlyPriceUsd, source: 'given by caller', asOf: 'given by caller' }
      : tablePrice('EndpointCost.estimate', props.region, props.instanceType);
    const hourlyAtMinUsd = round(price.usd * props.minInstances);
    const hourlyAtMaxUsd = round(price.usd * props.maxInstances);
    const monthlyAtMinUsd = round(price.usd * props.minInstances * HOURS_PER_MONTH);
    const monthlyAtMaxUsd = round(price.usd * props.maxInstances * HOURS_PER_MONTH);
    return {
      instanceType: props.instanceType,
      region: props.region,
      minInstances: props.minInstances,
      maxInstances: props.maxInstances,
      pricePerInstanceHourUsd: price.usd,
      hourlyAtMinUsd,
      hourlyAtMaxUsd,
      monthlyAtMinUsd,
      monthlyAtMaxUsd,
      scalesToZero: props.minInstances === 0,
      priceSource: price.source,
      priceAsOf: price.asOf,
      summary: `Estimate (${PRICE_TABLE_NOTE}; price ${price.asOf === 'given by caller' ? 'given by caller' : `as of ${price.asOf}, ${price.source}`}): `
        + `${props.minInstances}-${props.maxInstances} × ${props.instanceType} in ${props.region} at $${price.usd}/h = `
        + `$${monthlyAtMinUsd}-$${monthlyAtMaxUsd} per month (${HOURS_PER_MONTH} h)${props.minInstances === 0 ? ', $0 when scaled to zero' : ''}`,
    };
  }

  /**
   * What packing the components on one `packedInstanceType` saves against running every copy on its own smallest
   * fitting instance (same accelerator kind, by accelerator memory then size; hardware from the instance table).
   */
  public static compareSharedGpu(props: SharedGpuCostProps): SharedGpuCostComparison {
    const subject = 'EndpointCost.compareSharedGpu';
    const v = new PropValidator(subject);
    const packed = instanceSpecs(props.packedInstanceType);
    v.check(packed !== undefined && packed.accelerators > 0, 'packedInstanceType', props.packedInstanceType, 'an accelerated instance type the instance table knows (e.g. ml.g5.12xlarge)');
    v.check(props.components.length > 0, 'components', [], 'at least one component');
    props.components.forEach((c, i) => {
      v.atLeast(`components[${i}].acceleratorMemoryGiB`, c.acceleratorMemoryGiB, 0, { integer: false });
      v.atLeast(`components[${i}].accelerators`, c.accelerators, 1);
      v.atLeast(`components[${i}].copies`, c.copies, 1);
    });
    v.throwIfInvalid();
    const needMemory = props.components.reduce((s, c) => s + c.acceleratorMemoryGiB * (c.copies ?? 1), 0);
    const needDevices = props.components.reduce((s, c) => s + (c.accelerators ?? 1) * (c.copies ?? 1), 0);
    v.check(needMemory <= packed!.totalAcceleratorMemoryGiB && needDevices <= packed!.accelerators, 'packedInstanceType', props.packedInstanceType,
      `an instance with at least ${needMemory} GiB of accelerator memory on ${needDevices} device(s) for all copies (it has ${packed!.totalAcceleratorMemoryGiB} GiB on ${packed!.accelerators})`);
    v.throwIfInvalid();

    const priceOf = (type: string) => props.hourlyPricesUsd?.[type] ?? HOSTING_PRICES[props.region]?.[type]?.[0];
    const packedPrice = props.hourlyPricesUsd?.[props.packedInstanceType] ?? tablePrice(subject, props.region, props.packedInstanceType).usd;
    const candidates = knownInstanceSpecs()
      .filter((s) => s.acceleratorKind === packed!.acceleratorKind && priceOf(s.instanceType) !== undefined)
      .sort(compareInstanceSpecs);
    const separate = props.components.map((c) => {
      const devices = c.accelerators ?? 1;
      const fit = candidates.find((s) => s.accelerators >= devices && s.acceleratorMemoryGiB * devices >= c.acceleratorMemoryGiB);
      if (!fit) {
        throw new Error(`Invalid ${subject}: components[${c.name}]: no priced ${packed!.acceleratorKind} instance in ${props.region} has ${c.acceleratorMemoryGiB} GiB on ${devices} device(s); `
          + `priced there: ${candidates.map((s) => s.instanceType).join(', ') || 'none'} (give hourlyPricesUsd for more types)`);
      }
      const copies = c.copies ?? 1;
      return { name: c.name, instanceType: fit.instanceType, copies, hourlyUsd: round(priceOf(fit.instanceType)! * copies) };
    });
    const separateHourlyUsd = round(separate.reduce((s, c) => s + c.hourlyUsd, 0));
    const monthlySavingUsd = round((separateHourlyUsd - packedPrice) * HOURS_PER_MONTH);
    return {
      packedInstanceType: props.packedInstanceType,
      packedHourlyUsd: packedPrice,
      separateHourlyUsd,
      separate,
      monthlySavingUsd,
      summary: `Estimate (${PRICE_TABLE_NOTE}, table of ${PRICE_TABLE_DATE}): packed on one ${props.packedInstanceType} $${packedPrice}/h; `
        + `separately ${separate.map((s) => `${s.name} ${s.copies} × ${s.instanceType}`).join(', ')} $${separateHourlyUsd}/h; `
        + `${monthlySavingUsd >= 0 ? 'packing saves' : 'packing costs'} $${Math.abs(monthlySavingUsd)} per month (${HOURS_PER_MONTH} h)`,
    };
  }

  private constructor() {}
}

function tablePrice(subject: string, region: string, instanceType: string): { usd: number; source: string; asOf: string } {
  const inRegion = HOSTING_PRICES[region];
  if (!inRegion) {
    throw new Error(`Invalid ${subject}: region: got '${region}', expected a region the price table (${PRICE_TABLE_DATE}) covers: `
      + `${Object.keys(HOSTING_PRICES).sort().join(', ')} (or give the price per instance-hour yourself)`);
  }
  const row = inRegion[instanceType];
  if (!row) {
    throw new Error(`Invalid ${subject}: instanceType: got '${instanceType}', expected an instance type the price table (${PRICE_TABLE_DATE}) `
      + `has for ${region}: ${Object.keys(inRegion).sort().join(', ')} (or give the price per instance-hour yourself)`);
  }
  return { usd: row[0], source: row[1].url, asOf: row[1].asOf };
}

/** Rounded to a tenth of a cent: the figures are estimates. */
function round(usd: number): number {
  return Math.round(usd * 1000) / 1000;
}
