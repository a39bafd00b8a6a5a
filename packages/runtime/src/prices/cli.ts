/**
 * `cdk-sagemaker-mcp prices`: writes the hosting price table (./prices) to stdout, for `PriceTable.fromFile`:
 *
 *   cdk-sagemaker-mcp prices --offer-file index.json [--region us-east-1 ...] > prices.json
 *   cdk-sagemaker-mcp prices --from-api [--region us-east-1 ...] [--max-pages 60] > prices.json
 *   cdk-sagemaker-mcp prices --from-bulk [--region us-east-1 ...] [--bulk-url <mirror>] > prices.json
 *
 * `--offer-file` reads a bulk offer file you downloaded (e.g. SAGEMAKER_OFFER_URL); `--from-api` calls the Price List
 * Query API with the usual AWS credentials (pricing:GetProducts); `--from-bulk` reads AWS's public bulk price list files
 * (no credentials), streaming each region's file. A malformed file or answer exits 2 with each problem.
 */
import { readFileSync } from 'fs';
import { resolve } from 'path';
import { parseArgs } from 'util';
import { pricesFromBulk } from './bulk';
import { HostingPriceTable, PriceDataError, pricesFromApi, pricesFromOfferFile, SAGEMAKER_OFFER_URL } from './prices';
import { cliArgsProblem } from '../core/cli-args';

export const PRICES_USAGE = `  cdk-sagemaker-mcp prices (--offer-file <file> | --from-api | --from-bulk) [--region <code> ...] [--max-pages <n>] [--bulk-url <url>] > prices.json
    (a bulk offer file such as ${SAGEMAKER_OFFER_URL})`;

export interface PricesCliOptions {
  readonly offerFile?: string;
  readonly fromApi: boolean;
  readonly fromBulk?: boolean;
  readonly bulkUrl?: string;
  readonly regions?: string[];
  readonly maxPages?: number;
}

/** Parses the arguments after `prices` with Node's `util.parseArgs`; throws with the usage on anything unknown. */
export function parsePricesArgs(argv: readonly string[]): PricesCliOptions {
  let values: { 'offer-file'?: string; 'from-api'?: boolean; 'from-bulk'?: boolean; 'bulk-url'?: string; 'region'?: string[]; 'max-pages'?: string };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        'offer-file': { type: 'string' },
        'from-api': { type: 'boolean' },
        'from-bulk': { type: 'boolean' },
        'bulk-url': { type: 'string' },
        'region': { type: 'string', multiple: true },
        'max-pages': { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new Error(`${cliArgsProblem(err)}\nUsage:\n${PRICES_USAGE}`);
  }
  const offerFile = values['offer-file'];
  const fromApi = values['from-api'] ?? false;
  const fromBulk = values['from-bulk'] ?? false;
  if (values['bulk-url'] !== undefined && !fromBulk) throw new Error(`--bulk-url goes with --from-bulk\nUsage:\n${PRICES_USAGE}`);
  let maxPages: number | undefined;
  if (values['max-pages'] !== undefined) {
    maxPages = Number(values['max-pages']);
    if (!Number.isInteger(maxPages) || maxPages < 1) throw new Error(`--max-pages: got '${values['max-pages']}', expected a positive integer`);
  }
  const regions = (values.region ?? []).flatMap((r) => r.split(',')).map((r) => r.trim()).filter(Boolean);
  if ([offerFile !== undefined, fromApi, fromBulk].filter(Boolean).length !== 1) {
    throw new Error(`give exactly one of --offer-file <file>, --from-api and --from-bulk\nUsage:\n${PRICES_USAGE}`);
  }
  return { offerFile, fromApi, regions: regions.length ? regions : undefined, maxPages, ...(fromBulk ? { fromBulk, bulkUrl: values['bulk-url'] } : {}) };
}

/** Reads and converts an offer file; errors name the file. */
export function priceTableFromOfferFile(path: string, regions?: readonly string[]): HostingPriceTable {
  let text: string;
  try {
    text = readFileSync(resolve(path), 'utf8');
  } catch (err) {
    throw new Error(`cannot read offer file '${path}': ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new PriceDataError([`not JSON: ${(err as Error).message}`], `offer file '${path}'`);
  }
  return pricesFromOfferFile(parsed, { regions }, `offer file '${path}'`);
}

/** `prices` itself: the table on stdout, a one-line summary on stderr; 0, or 2 with the problems on stderr. */
export async function pricesMain(argv: readonly string[]): Promise<number> {
  try {
    const options = parsePricesArgs(argv);
    const table = options.offerFile !== undefined ? priceTableFromOfferFile(options.offerFile, options.regions)
      : options.fromBulk ? await pricesFromBulk({ regions: options.regions, baseUrl: options.bulkUrl })
        : await pricesFromApi({ regions: options.regions, maxPages: options.maxPages });
    process.stdout.write(`${JSON.stringify(table, undefined, 2)}\n`);
    const rows = Object.values(table.regions).reduce((n, r) => n + Object.keys(r).length, 0);
    process.stderr.write(`cdk-sagemaker-mcp prices: ${rows} hosting prices in ${Object.keys(table.regions).length} regions, as of ${table.asOf}\n`);
    return 0;
  } catch (err) {
    process.stderr.write(`cdk-sagemaker-mcp prices: ${(err as Error).message}\n`);
    return 2;
  }
}
