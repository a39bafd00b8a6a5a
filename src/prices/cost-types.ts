import { PriceTable } from './price-table';

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
   * @default - the price table's price for the type and region
   */
  readonly hourlyPriceUsd?: number;
  /**
   * The price table to look prices up in, e.g. a `PriceTable` read from the file `cdk-sagemaker-mcp prices` writes
   * from AWS's Price List.
   * @default - the bundled table, `PriceTable.bundled()` (empty in this release: see https://github.com/cdk-sagemaker-mcp/cdk-sagemaker-mcp/blob/main/docs/cost.md)
   */
  readonly priceTable?: PriceTable;
}

/** Options of the endpoint constructs' cost estimate and cost comparison methods. */
export interface CostEstimateOptions {
  /**
   * The region whose prices apply.
   * @default - the stack's region (an error asks for this option when the stack's region is unresolved)
   */
  readonly region?: string;
  /**
   * Your prices per instance-hour in USD by instance type, e.g. `{ 'ml.g5.2xlarge': 1.5 }` (a negotiated rate, or a
   * price the bundled table lacks); they take precedence over the table.
   * @default - the price table only
   */
  readonly hourlyPricesUsd?: { [instanceType: string]: number };
  /**
   * The price table to look prices up in, e.g. a `PriceTable` read from the file `cdk-sagemaker-mcp prices` writes
   * from AWS's Price List.
   * @default - the bundled table, `PriceTable.bundled()` (empty in this release: see https://github.com/cdk-sagemaker-mcp/cdk-sagemaker-mcp/blob/main/docs/cost.md)
   */
  readonly priceTable?: PriceTable;
  /**
   * Serverless Inference: your price in USD per second of compute at the endpoint's memory size (on-demand requests are
   * billed by the millisecond of compute, by memory size, and by the data processed:
   * https://docs.aws.amazon.com/sagemaker/latest/dg/serverless-endpoints.html).
   * @default - the bundled price table (which has no serverless prices yet: the estimate then says the price is unknown)
   */
  readonly serverlessComputePerSecondUsd?: number;
  /**
   * Serverless Inference: your price in USD per hour of one unit of provisioned concurrency at the endpoint's memory
   * size (billed "based on the memory configured, duration provisioned, and the amount of concurrency enabled").
   * @default - the bundled price table (which has no serverless prices yet: the estimate then says the price is unknown)
   */
  readonly provisionedConcurrencyPerHourUsd?: number;
}

/**
 * What an endpoint costs, the same shape for every kind (the cost estimate of RealtimeEndpoint, AsyncEndpoint,
 * SharedGpuEndpoint and ServerlessEndpoint): instance-based variants in `variants` (one per production variant),
 * Serverless Inference in `serverless`; the totals add up what is known. An estimate, not a bill.
 */
export interface EndpointCostEstimate {
  /** The region whose prices apply. */
  readonly region: string;
  /** One estimate per instance-based production variant (empty for a serverless endpoint). */
  readonly variants: VariantCostEstimate[];
  /**
   * A serverless endpoint's provisioned concurrency and per-request compute.
   * @default - no value for instance-based endpoints
   */
  readonly serverless?: ServerlessCostEstimate;
  /** Whether every price the totals need is known. */
  readonly priceKnown: boolean;
  /**
   * USD per month (730 hours) at the fewest instances (and provisioned concurrency): the floor you pay with no traffic.
   * @default - no value when a price is unknown
   */
  readonly monthlyAtMinUsd?: number;
  /**
   * USD per month (730 hours) at the most instances (and provisioned concurrency), before per-request compute.
   * @default - no value when a price is unknown
   */
  readonly monthlyAtMaxUsd?: number;
  /** Whether the floor is 0 with no traffic (every variant scales to zero, or serverless without provisioned concurrency). */
  readonly scalesToZero: boolean;
  /** One line per variant (or the serverless line), saying what the numbers are or which price is missing. */
  readonly summary: string;
}

/** A serverless endpoint's cost: provisioned concurrency by the hour, and compute per second of each request. */
export interface ServerlessCostEstimate {
  /** The memory size the prices are for, MiB. */
  readonly memorySizeInMb: number;
  /** The fewest units of provisioned concurrency (its autoscaling floor, or the provisioned concurrency; 0 without). */
  readonly minProvisionedConcurrency: number;
  /** The most units of provisioned concurrency (its autoscaling ceiling, or the provisioned concurrency; 0 without). */
  readonly maxProvisionedConcurrency: number;
  /** Whether the prices the estimate needs are known. */
  readonly priceKnown: boolean;
  /**
   * USD per hour of one unit of provisioned concurrency.
   * @default - no value when unknown, or without provisioned concurrency
   */
  readonly provisionedConcurrencyPerHourUsd?: number;
  /**
   * USD per month (730 hours) of provisioned concurrency at its fewest units.
   * @default - no value when the price is unknown
   */
  readonly monthlyAtMinUsd?: number;
  /**
   * USD per month (730 hours) of provisioned concurrency at its most units.
   * @default - no value when the price is unknown
   */
  readonly monthlyAtMaxUsd?: number;
  /**
   * USD per second of compute of a request (the per-request model: multiply by the requests' total duration).
   * @default - no value when the price is unknown
   */
  readonly computePerSecondUsd?: number;
  /** Where the prices come from: "given by caller" or "not in the price table". */
  readonly priceSource: string;
  /** One line saying what the numbers are, or which price is missing and how to give it. */
  readonly summary: string;
}

/**
 * What an endpoint (or one production variant) costs at its minimum and maximum capacity: an estimate, not a bill.
 * When the price is unknown, the USD figures have no value and `summary` says which price is missing
 * and how to give it.
 */
export interface VariantCostEstimate {
  /**
   * The production variant the estimate is for.
   * @default - not a variant's estimate (`EndpointCost.estimate`, async and shared-GPU endpoints)
   */
  readonly variantName?: string;
  /** The instance type (with instance pools, the priority-1 pool's). */
  readonly instanceType: string;
  /**
   * The instance pools' types, highest priority first. The estimate is then a range over the pools: the figures at
   * the fewest instances are all instances on the cheapest pool, those at the most instances all on the dearest.
   * @default - none for a variant with one instance type
   */
  readonly instancePoolTypes?: string[];
  readonly region: string;
  readonly minInstances: number;
  readonly maxInstances: number;
  /** Whether the price of an instance-hour is known (from the table or given); the USD figures have no value otherwise. */
  readonly priceKnown: boolean;
  /**
   * On-demand price of one instance-hour, USD (with instance pools, the cheapest pool's).
   * @default - no value when the price is unknown
   */
  readonly pricePerInstanceHourUsd?: number;
  /**
   * With instance pools, the on-demand price of one instance-hour of the dearest pool, USD.
   * @default - none for a variant with one instance type, or when a price is unknown
   */
  readonly maxPricePerInstanceHourUsd?: number;
  /**
   * USD per hour at the fewest instances (0 when the endpoint scales to zero).
   * @default - no value when the price is unknown
   */
  readonly hourlyAtMinUsd?: number;
  /**
   * USD per hour at the most instances.
   * @default - no value when the price is unknown
   */
  readonly hourlyAtMaxUsd?: number;
  /**
   * USD per month (730 hours) at the fewest instances: the floor you pay with no traffic.
   * @default - no value when the price is unknown
   */
  readonly monthlyAtMinUsd?: number;
  /**
   * USD per month (730 hours) at the most instances: the ceiling.
   * @default - no value when the price is unknown
   */
  readonly monthlyAtMaxUsd?: number;
  /** Whether the endpoint scales to zero (fewest instances 0): the floor is then 0. */
  readonly scalesToZero: boolean;
  /** Where the price comes from: a URL of the price table's source, "given by caller", or "not in the price table". */
  readonly priceSource: string;
  /** The date of the price (YYYY-MM-DD or YYYY-MM); when unknown, the date of the table that lacks it. */
  readonly priceAsOf: string;
  /** One line saying what the numbers are (or which price is missing), e.g. for a CDK annotation or a stack output. */
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

/** Inputs of `EndpointCost`'s shared-GPU comparison. */
export interface SharedGpuCostProps {
  /** The components sharing the instance. */
  readonly components: GpuComponentNeed[];
  /** The instance type they are packed on. */
  readonly packedInstanceType: string;
  /**
   * How many packed instances the components share.
   * @default 1
   */
  readonly packedInstanceCount?: number;
  /** The region. */
  readonly region: string;
  /**
   * Prices per instance-hour in USD by instance type; they take precedence over the bundled table.
   * @default - the price table only
   */
  readonly hourlyPricesUsd?: { [instanceType: string]: number };
  /**
   * The price table to look prices up in, e.g. a `PriceTable` read from the file `cdk-sagemaker-mcp prices` writes
   * from AWS's Price List.
   * @default - the bundled table, `PriceTable.bundled()` (empty in this release: see https://github.com/cdk-sagemaker-mcp/cdk-sagemaker-mcp/blob/main/docs/cost.md)
   */
  readonly priceTable?: PriceTable;
}

/** Where one component would run on its own. */
export interface SeparateComponentCost {
  readonly name: string;
  /** The smallest instance type (of the packed type's accelerator kind; a priced one when one fits) one copy fits on. */
  readonly instanceType: string;
  readonly copies: number;
  /**
   * USD per hour for all copies on their own instances.
   * @default - no value when the instance type's price is unknown
   */
  readonly hourlyUsd?: number;
}

/** Packed on the shared instances versus each component on its own smallest fitting instance. */
export interface SharedGpuCostComparison {
  readonly packedInstanceType: string;
  /** How many packed instances the comparison counts. */
  readonly packedInstanceCount: number;
  /** Whether every price the comparison needs is known; the USD totals have no value otherwise. */
  readonly priceKnown: boolean;
  /** The instance types whose price is unknown (empty when every price is known). */
  readonly missingPrices: string[];
  /**
   * USD per hour of the packed instances.
   * @default - no value when the packed type's price is unknown
   */
  readonly packedHourlyUsd?: number;
  /**
   * USD per hour with every copy on its own instance.
   * @default - no value when a price is unknown
   */
  readonly separateHourlyUsd?: number;
  readonly separate: SeparateComponentCost[];
  /**
   * `separate` − `packed`, per month (730 h); negative when packing costs more.
   * @default - no value when a price is unknown
   */
  readonly monthlySavingUsd?: number;
  /** The price table's date. */
  readonly priceAsOf: string;
  readonly summary: string;
}
