/**
 * The hosting price table the constructs' `costEstimate` reads (`PriceTable.fromFile` in src/prices/price-table.ts),
 * built from AWS's own price data for `AmazonSageMaker`:
 * - a bulk **offer file** (https://docs.aws.amazon.com/awsaccountbilling/latest/aboutv2/reading-an-offer.html: top-level
 *   `offerCode`, `version`, `publicationDate`, `products` keyed by SKU with `productFamily` and `attributes`, and
 *   `terms.OnDemand` keyed by SKU, then by offer term, with `priceDimensions` whose `pricePerUnit.USD` is the price), e.g.
 *   https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/AmazonSageMaker/current/index.json;
 * - or the **Price List Query API** `GetProducts`
 *   (https://docs.aws.amazon.com/aws-cost-management/latest/APIReference/API_pricing_GetProducts.html), whose `PriceList`
 *   holds one JSON string per product (`product`, `terms`, `publicationDate`) and whose `NextToken` pages on.
 *
 * Only on-demand real-time inference (hosting) instance rows are kept: usage type `<REGION CODE>-Host:ml.<family>.<size>`
 * (training `-Train:`, notebooks `-Notebk:`, batch transform and the rest are dropped), priced per hour, in USD, above 0.
 * The table is dated with the data's publication date.
 */
import type * as Pricing from '@aws-sdk/client-pricing';
import { boundedClient, PageGuard } from '../core/bounded';
import { withDeadline } from '../core/deadline';

/** The `format` of a price table file; `PriceTable.fromFile` refuses any other. */
export const PRICE_TABLE_FORMAT = 'cdk-sagemaker-mcp/hosting-prices@1';
/** AWS's public bulk offer file of every region's SageMaker prices. */
export const SAGEMAKER_OFFER_URL = 'https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/AmazonSageMaker/current/index.json';

/** One instance type's on-demand hosting price in one region. */
export interface HostingPriceRow {
  /** USD per instance-hour. */
  readonly usd: number;
  /** The Price List usage type, e.g. `USE1-Host:ml.m5.xlarge`. */
  readonly usagetype: string;
  /** The Price List product SKU. */
  readonly sku: string;
}

/** What `cdk-sagemaker-mcp prices` writes (and `PriceTable.fromFile` reads). */
export interface HostingPriceTable {
  readonly format: typeof PRICE_TABLE_FORMAT;
  /** Where the prices come from (the offer file's URL or the Query API), with the offer's version when it has one. */
  readonly source: string;
  /** The data's publication date as AWS gives it (ISO 8601). */
  readonly publicationDate: string;
  /** `publicationDate`'s day, YYYY-MM-DD: the date estimates quote. */
  readonly asOf: string;
  /** region code → instance type → price. */
  readonly regions: Record<string, Record<string, HostingPriceRow>>;
}

/** The price data is not what the documented format says (each problem names where). */
export class PriceDataError extends Error {
  public readonly name = 'PriceDataError';
  constructor(public readonly problems: string[], what: string) {
    super(`${what} is not AWS Price List data for AmazonSageMaker: ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n`
      + problems.map((p) => `  - ${p}`).join('\n'));
  }
}

/** `<REGION CODE>-Host:ml.<family>.<size>`: a real-time inference instance-hour (not `-Host:ml.…-Spot`, not serverless). */
const HOSTING_USAGETYPE = /^(?:[A-Z]{2,4}\d?-)?Host:(ml\.[a-z0-9-]+\.[a-z0-9-]+)$/;

export interface PriceFilter {
  /**
   * Region codes to keep (e.g. `['us-east-1']`); a region with no hosting row is an error.
   * @default - every region the data has
   */
  readonly regions?: readonly string[];
}

type Json = Record<string, unknown>;
const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * A Price List price: a plain decimal string such as "0.1150000000" (`pricePerUnit.USD` of
 * https://docs.aws.amazon.com/awsaccountbilling/latest/aboutv2/reading-an-offer.html). `Number()` alone would read "0x10"
 * as 16, "0b11" as 3, "" as 0 and "1e999" as Infinity, so only digits with an optional fraction pass.
 */
const DECIMAL_PRICE = /^\d+(?:\.\d+)?$/;

/** The USD price per hour of an `OnDemand` entry (sku → offer term → priceDimensions), or why there is none. */
function onDemandHourlyUsd(terms: unknown): number | string {
  if (!isObject(terms)) return 'no OnDemand term';
  const dims = Object.values(terms).flatMap((term) => (isObject(term) && isObject(term.priceDimensions) ? Object.values(term.priceDimensions) : []));
  const hourly = dims.filter((d): d is Json => isObject(d) && /^hrs?$/i.test(String(d.unit ?? 'Hrs')));
  const prices = new Set<number>();
  for (const d of hourly) {
    const usd = (d.pricePerUnit as Json | undefined)?.USD;
    if (typeof usd !== 'string' || !DECIMAL_PRICE.test(usd)) {
      return `pricePerUnit.USD: got ${JSON.stringify(usd)}, expected a decimal price such as "0.1150000000"`;
    }
    prices.add(Number(usd));
  }
  if (prices.size !== 1) return `${prices.size === 0 ? 'no' : 'more than one'} hourly USD price dimension`;
  return [...prices][0];
}

/** One product of the price data with its on-demand terms, as the readers of each source hand them over. */
export interface ProductRow {
  readonly sku: string;
  readonly productFamily?: unknown;
  readonly attributes: Json;
  readonly onDemand: unknown;
  readonly where: string;
}

/** Keeps the hosting rows of `products`; conflicting prices for one region and type are a problem. */
function hostingRows(products: ProductRow[], problems: string[], filter: PriceFilter): Record<string, Record<string, HostingPriceRow>> {
  const regions: Record<string, Record<string, HostingPriceRow>> = {};
  const seenRegions = new Set<string>();
  for (const p of products) {
    const usagetype = p.attributes.usagetype;
    if (typeof usagetype !== 'string') {
      problems.push(`${p.where}.attributes.usagetype: got ${JSON.stringify(usagetype)}, expected a string such as "USE1-Host:ml.m5.xlarge"`);
      continue;
    }
    const match = HOSTING_USAGETYPE.exec(usagetype);
    if (!match) continue;
    const region = p.attributes.regionCode;
    if (typeof region !== 'string' || !/^[a-z]{2}(-[a-z]+)+-\d+$/.test(region)) {
      problems.push(`${p.where}.attributes.regionCode: got ${JSON.stringify(region)}, expected a region code such as "us-east-1"`);
      continue;
    }
    seenRegions.add(region);
    if (filter.regions && !filter.regions.includes(region)) continue;
    const usd = onDemandHourlyUsd(p.onDemand);
    if (typeof usd === 'string') {
      problems.push(`terms.OnDemand["${p.sku}"] (${usagetype}): ${usd}`);
      continue;
    }
    if (usd <= 0) continue;
    const instanceType = match[1];
    const seen = regions[region]?.[instanceType];
    if (seen && seen.usd !== usd) {
      problems.push(`${region} ${instanceType}: two hosting prices (SKU ${seen.sku} $${seen.usd}/h, SKU ${p.sku} $${usd}/h)`);
      continue;
    }
    (regions[region] ??= {})[instanceType] = { usd, usagetype, sku: p.sku };
  }
  for (const region of filter.regions ?? []) {
    if (!regions[region]) {
      problems.push(`--region ${region}: no on-demand hosting (-Host:ml.*) row for it; the data has hosting rows for `
        + `${[...seenRegions].sort().join(', ') || 'no region at all'}`);
    }
  }
  return sortRegions(regions);
}

type Regions = Record<string, Record<string, HostingPriceRow>>;

function sortRegions(regions: Regions): Regions {
  const sorted = (rows: Record<string, HostingPriceRow>) => Object.fromEntries(Object.keys(rows).sort().map((t) => [t, rows[t]]));
  return Object.fromEntries(Object.keys(regions).sort().map((r) => [r, sorted(regions[r])]));
}

function checkDate(problems: string[], where: string, value: unknown): string | undefined {
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(Date.parse(value))) return value;
  problems.push(`${where}: got ${JSON.stringify(value)}, expected an ISO 8601 date such as "2026-11-20T22:01:56Z"`);
  return undefined;
}

/**
 * The hosting price table of a bulk offer file (parsed JSON). Throws `PriceDataError` listing every problem when the
 * data does not follow the documented format, has no hosting row, or lacks a region asked for.
 */
export function pricesFromOfferFile(offer: unknown, filter: PriceFilter = {}, what = 'the offer file'): HostingPriceTable {
  const problems: string[] = [];
  if (!isObject(offer)) throw new PriceDataError([`got ${Array.isArray(offer) ? 'an array' : typeof offer}, expected a JSON object`], what);
  if (offer.offerCode !== undefined && offer.offerCode !== 'AmazonSageMaker') {
    problems.push(`offerCode: got ${JSON.stringify(offer.offerCode)}, expected "AmazonSageMaker"`);
  }
  const publicationDate = checkDate(problems, 'publicationDate', offer.publicationDate);
  if (!isObject(offer.products)) {
    problems.push(`products: got ${JSON.stringify(offer.products)?.slice(0, 40)}, expected an object of SKU -> { productFamily, attributes }`);
  }
  const onDemand = isObject(offer.terms) ? offer.terms.OnDemand : undefined;
  if (!isObject(onDemand)) problems.push('terms.OnDemand: missing, expected an object of SKU -> offer term -> { priceDimensions }');
  if (problems.length > 0) throw new PriceDataError(problems, what);
  const products: ProductRow[] = [];
  for (const [sku, product] of Object.entries(offer.products as Json)) {
    if (!isObject(product) || !isObject(product.attributes)) {
      problems.push(`products["${sku}"]: expected an object with "attributes"`);
      continue;
    }
    products.push({ sku, productFamily: product.productFamily, attributes: product.attributes, onDemand: (onDemand as Json)[sku], where: `products["${sku}"]` });
  }
  const regions = hostingRows(products, problems, filter);
  if (problems.length === 0 && Object.keys(regions).length === 0) problems.push('products: no on-demand hosting (usagetype <REGION>-Host:ml.*) row');
  if (problems.length > 0) throw new PriceDataError(problems, what);
  const version = typeof offer.version === 'string' ? `, version ${offer.version}` : '';
  return table(`AWS Price List offer file AmazonSageMaker${version} (${SAGEMAKER_OFFER_URL})`, publicationDate!, regions);
}

function table(source: string, publicationDate: string, regions: HostingPriceTable['regions']): HostingPriceTable {
  return { format: PRICE_TABLE_FORMAT, source, publicationDate, asOf: new Date(publicationDate).toISOString().slice(0, 10), regions };
}

/** The `PriceList` items of GetProducts pages (each a JSON string, or the SDK's wrapped string), as one table. */
export function pricesFromPriceList(items: readonly unknown[], filter: PriceFilter = {}, what = 'the GetProducts PriceList'): HostingPriceTable {
  const problems: string[] = [];
  const products: ProductRow[] = [];
  let latest: string | undefined;
  items.forEach((raw, i) => {
    let item: unknown;
    try {
      item = JSON.parse(String(raw));
    } catch {
      problems.push(`PriceList[${i}]: not a JSON string`);
      return;
    }
    const product = isObject(item) ? item.product : undefined;
    if (!isObject(item) || !isObject(product) || !isObject(product.attributes) || typeof product.sku !== 'string') {
      problems.push(`PriceList[${i}]: expected { product: { sku, attributes }, terms, publicationDate }`);
      return;
    }
    const date = checkDate(problems, `PriceList[${i}].publicationDate`, item.publicationDate);
    if (date && (!latest || Date.parse(date) > Date.parse(latest))) latest = date;
    // One product per item: terms.OnDemand is keyed by offer term (`<sku>.<offerTermCode>`), no SKU level.
    const onDemand = isObject(item.terms) ? item.terms.OnDemand : undefined;
    products.push({ sku: product.sku, productFamily: product.productFamily, attributes: product.attributes, onDemand, where: `PriceList[${i}].product` });
  });
  const regions = hostingRows(products, problems, filter);
  if (problems.length === 0 && Object.keys(regions).length === 0) problems.push('no on-demand hosting (usagetype <REGION>-Host:ml.*) product');
  if (problems.length > 0) throw new PriceDataError(problems, what);
  return table('AWS Price List Query API GetProducts, service code AmazonSageMaker (https://docs.aws.amazon.com/aws-cost-management/latest/APIReference/API_pricing_GetProducts.html)', latest!, regions);
}

/**
 * The table of `products` already read from a source: their hosting rows (every problem together, as `PriceDataError`),
 * dated `publicationDate`.
 */
export function hostingPriceTable(
  products: ProductRow[],
  filter: PriceFilter,
  from: { readonly source: string; readonly publicationDate?: string; readonly what: string },
): HostingPriceTable {
  const problems: string[] = [];
  const publicationDate = checkDate(problems, 'publicationDate', from.publicationDate);
  const regions = hostingRows(products, problems, filter);
  if (problems.length === 0 && Object.keys(regions).length === 0) problems.push('no on-demand hosting (usagetype <REGION>-Host:ml.*) product');
  if (problems.length > 0) throw new PriceDataError(problems, from.what);
  return table(from.source, publicationDate!, regions);
}

export interface PricesFromApiOptions extends PriceFilter {
  /**
   * A Pricing client of your own (the caller then owns its timeouts).
   * @default - a bounded client in `pricingRegion`
   */
  readonly client?: Pricing.PricingClient;
  /**
   * The region of the Price List Query API endpoint (it answers in a few regions only, us-east-1 among them).
   * @default 'us-east-1'
   */
  readonly pricingRegion?: string;
  /** @default 60 */
  readonly maxPages?: number;
  /** Products a page (GetProducts MaxResults, 1-100). @default 100 */
  readonly pageSize?: number;
  /** @default 120000 */
  readonly deadlineMs?: number;
}

/**
 * The hosting price table from `GetProducts` (needs `pricing:GetProducts`): service code AmazonSageMaker, products whose
 * usage type contains `-Host:ml.` (and the regions asked for), every page up to `maxPages`. A table cut short by the
 * page cap or a repeated token is refused rather than returned incomplete.
 */
export async function pricesFromApi(options: PricesFromApiOptions = {}): Promise<HostingPriceTable> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sdk = require('@aws-sdk/client-pricing') as typeof Pricing;
  const client = options.client ?? boundedClient(sdk.PricingClient, { region: options.pricingRegion ?? 'us-east-1', maxAttempts: 5 });
  const guard = new PageGuard('GetProducts AmazonSageMaker', options.maxPages ?? 60);
  const filters: Pricing.Filter[] = [{ Type: 'CONTAINS', Field: 'usagetype', Value: '-Host:ml.' }];
  if (options.regions?.length === 1) filters.push({ Type: 'TERM_MATCH', Field: 'regionCode', Value: options.regions[0] });
  try {
    const items = await withDeadline('GetProducts AmazonSageMaker', options.deadlineMs ?? 120_000, async () => {
      const all: unknown[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new sdk.GetProductsCommand({ ServiceCode: 'AmazonSageMaker', Filters: filters, FormatVersion: 'aws_v1', MaxResults: options.pageSize ?? 100, NextToken: token }));
        all.push(...(page.PriceList ?? []));
        token = guard.next(page.NextToken);
      } while (token);
      return all;
    });
    if (guard.truncated) {
      throw new PriceDataError([`stopped after ${guard.pagesRead} pages (${guard.stoppedBecause}): raise maxPages, or use an offer file`], 'the GetProducts answer');
    }
    return pricesFromPriceList(items, options);
  } finally {
    if (!options.client) client.destroy();
  }
}
