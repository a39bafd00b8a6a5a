/**
 * The hosting price table from AWS's public Price List **bulk files**, which need no credentials:
 * service index → the service's region index → one price list file per region, as
 * https://docs.aws.amazon.com/awsaccountbilling/latest/aboutv2/using-the-aws-price-list-bulk-api-fetching-price-list-files-manually.html
 * describes. Both index files give their URLs relative to the host ("The relative URL for the service regional price list
 * file", https://docs.aws.amazon.com/awsaccountbilling/latest/aboutv2/service-region-index-file-for-service.html), and
 * they point to dated versions (`/offers/v1.0/aws/AmazonSageMaker/<version>/<region>/index.json`).
 *
 * A region file can be hundreds of MB (parsing one whole takes several times its size in memory), so it is read as a
 * stream of JSON tokens: only the hosting products and their on-demand terms are ever assembled, and what is kept grows
 * with the number of hosting SKUs, not with the file's size.
 */
import { Readable } from 'stream';
import { HostingPriceTable, PriceDataError, PriceFilter, ProductRow, hostingPriceTable } from './prices';
import { withDeadline } from '../core/deadline';

/** The host of AWS's public price list files. */
export const BULK_PRICING_URL = 'https://pricing.us-east-1.amazonaws.com';
/** The service index: every service's offer code and the relative URL of its region index. */
export const BULK_SERVICE_INDEX_PATH = '/offers/v1.0/aws/index.json';
const OFFER_CODE = 'AmazonSageMaker';
/** An index file larger than this is not an index (the region files are streamed, whatever their size). */
const MAX_INDEX_BYTES = 16 * 1024 * 1024;

export interface PricesFromBulkOptions extends PriceFilter {
  /**
   * Where the price list files are served (a mirror, or a stand-in in tests).
   * @default BULK_PRICING_URL
   */
  readonly baseUrl?: string;
  /**
   * The whole run's deadline, downloads included.
   * @default 600000 (10 minutes)
   */
  readonly deadlineMs?: number;
}

type Json = Record<string, unknown>;
const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * The on-demand hosting price table of the regions asked for (default: every region the region index lists), read from
 * the bulk files with no credentials. Throws `PriceDataError` listing every problem when a file is missing or does not
 * follow the documented format, or when one region and instance type has more than one hosting SKU (it never picks one).
 */
export async function pricesFromBulk(options: PricesFromBulkOptions = {}): Promise<HostingPriceTable> {
  const base = (options.baseUrl ?? BULK_PRICING_URL).replace(/\/+$/, '');
  return withDeadline('AWS Price List bulk files', options.deadlineMs ?? 600_000, async (signal) => {
    const serviceIndexUrl = `${base}${BULK_SERVICE_INDEX_PATH}`;
    const serviceIndex = await fetchJson(serviceIndexUrl, signal);
    const offer = isObject(serviceIndex) && isObject(serviceIndex.offers) ? serviceIndex.offers[OFFER_CODE] : undefined;
    const regionIndexPath = isObject(offer) ? offer.currentRegionIndexUrl : undefined;
    if (typeof regionIndexPath !== 'string' || !regionIndexPath.startsWith('/')) {
      throw new PriceDataError([`offers.${OFFER_CODE}.currentRegionIndexUrl: got ${JSON.stringify(regionIndexPath)}, expected a path such as "/offers/v1.0/aws/${OFFER_CODE}/current/region_index.json"`], serviceIndexUrl);
    }
    const regionIndexUrl = `${base}${regionIndexPath}`;
    const regionIndex = await fetchJson(regionIndexUrl, signal);
    const listed = isObject(regionIndex) && isObject(regionIndex.regions) ? regionIndex.regions : undefined;
    if (!listed) throw new PriceDataError(['regions: missing, expected an object of region code -> { regionCode, currentVersionUrl }'], regionIndexUrl);
    const wanted = options.regions ?? Object.keys(listed).sort();
    const missing = wanted.filter((r) => !isObject(listed[r]) || typeof (listed[r] as Json).currentVersionUrl !== 'string');
    if (missing.length > 0) {
      throw new PriceDataError(missing.map((r) => `--region ${r}: not in the region index, which lists ${Object.keys(listed).sort().join(', ')}`), regionIndexUrl);
    }

    const products: ProductRow[] = [];
    const problems: string[] = [];
    const versions = new Set<string>();
    let latest: string | undefined;
    for (const region of wanted) {
      const url = `${base}${(listed[region] as Json).currentVersionUrl as string}`;
      const file = await scanRegionFile(url, signal);
      if (file.offerCode !== undefined && file.offerCode !== OFFER_CODE) problems.push(`${url}: offerCode is ${JSON.stringify(file.offerCode)}, expected "${OFFER_CODE}"`);
      if (typeof file.version === 'string') versions.add(file.version);
      if (typeof file.publicationDate === 'string' && (!latest || Date.parse(file.publicationDate) > Date.parse(latest))) latest = file.publicationDate;
      problems.push(...duplicateHostingSkus(file.products, url));
      products.push(...file.products);
    }
    if (problems.length > 0) throw new PriceDataError(problems, 'the bulk price list files');
    const version = versions.size === 1 ? `, version ${[...versions][0]}` : '';
    return hostingPriceTable(products, options, {
      source: `AWS Price List bulk files ${OFFER_CODE}${version} (${serviceIndexUrl})`,
      publicationDate: latest,
      what: 'the bulk price list files',
    });
  });
}

/** A JSON file of bounded size (the two index files). */
async function fetchJson(url: string, signal: AbortSignal): Promise<unknown> {
  const response = await get(url, signal);
  const length = Number(response.headers.get('content-length') ?? 0);
  if (length > MAX_INDEX_BYTES) throw new PriceDataError([`${length} bytes, more than an index file holds (${MAX_INDEX_BYTES})`], url);
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new PriceDataError([`not JSON: ${(err as Error).message}`], url);
  }
}

async function get(url: string, signal: AbortSignal): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { signal });
  } catch (err) {
    if (signal.aborted) throw err;
    throw new Error(`cannot read ${url}: ${(err as Error).message}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`cannot read ${url}: HTTP ${response.status} ${response.statusText}`);
  }
  return response;
}

/**
 * A product that may be a real-time hosting instance (the rule AWS's attributes allow): family "ML Instance", a
 * `-Host:ml.` usage type, and, where the product says which, `platoinstancetype` "Hosting" (async inference, batch,
 * training and free-tier rows carry other values). `hostingPriceTable` applies the exact usage-type rule after.
 */
function isHostingCandidate(product: Json): boolean {
  const attributes = isObject(product.attributes) ? product.attributes : {};
  const usagetype = attributes.usagetype;
  if (product.productFamily !== 'ML Instance' || typeof usagetype !== 'string' || !/(^|-)Host:ml\./.test(usagetype)) return false;
  return attributes.platoinstancetype === undefined || attributes.platoinstancetype === 'Hosting';
}

/** More than one hosting SKU for one region and instance type: AWS says nothing of which is right, so none is picked. */
function duplicateHostingSkus(products: readonly ProductRow[], url: string): string[] {
  const bySlot = new Map<string, ProductRow[]>();
  for (const p of products) {
    const slot = `${String(p.attributes.regionCode)} ${String(p.attributes.usagetype).replace(/^.*Host:/, '')}`;
    bySlot.set(slot, [...(bySlot.get(slot) ?? []), p]);
  }
  return [...bySlot].filter(([, rows]) => rows.length > 1).map(([slot, rows]) => `${url}: ${slot} has ${rows.length} hosting SKUs (`
    + rows.map((p) => `${p.sku}: operation ${JSON.stringify(p.attributes.operation)}, platoinstancetype ${JSON.stringify(p.attributes.platoinstancetype)}`).join('; ')
    + '): refusing to pick one');
}

interface RegionFile {
  readonly offerCode?: unknown;
  readonly version?: unknown;
  readonly publicationDate?: unknown;
  readonly products: ProductRow[];
}

/**
 * Reads one region's price list file as a stream: a scanner that follows only the nesting of the JSON (objects, arrays,
 * strings and their escapes, https://www.rfc-editor.org/rfc/rfc8259) cuts out each `products.<sku>` and each
 * `terms.OnDemand.<sku>` value, and `JSON.parse` reads that one small piece. The root's own strings (offerCode, version,
 * publicationDate) are kept. A term whose product has not been seen yet (the documented layout lists products first)
 * is kept until it is; a term of a product that is not a hosting candidate is skipped unread.
 */
async function scanRegionFile(url: string, signal: AbortSignal): Promise<RegionFile> {
  const response = await get(url, signal);
  const body = Readable.fromWeb(response.body as import('stream/web').ReadableStream);
  body.setEncoding('utf8');

  const top: Record<string, unknown> = {};
  const candidates = new Map<string, Json>();
  const rejected = new Set<string>();
  const terms = new Map<string, unknown>();

  const path: string[] = []; // the key of each open container below the root
  const isObjectAt: boolean[] = []; // whether each open container is an object
  let expectKey = false;
  let key: string | undefined;
  let inString = false;
  let escaped = false;
  let text = ''; // the string being read, outside a piece
  // A piece being cut out: its depth, whether it is kept, what it is for, and its text so far.
  let piece: { depth: number; keep: boolean; onDone: (value: unknown) => void; parts: string[] } | undefined;

  const pieceAt = (at: readonly string[]): { keep: boolean; onDone: (value: unknown) => void } | undefined => {
    const [a, b, c] = at;
    if (at.length === 2 && a === 'products') {
      return { keep: true, onDone: (v) => { if (isObject(v) && isHostingCandidate(v)) candidates.set(b, v); else rejected.add(b); } };
    }
    if (at.length === 3 && a === 'terms' && b === 'OnDemand') return { keep: !rejected.has(c), onDone: (v) => terms.set(c, v) };
    return undefined;
  };

  for await (const chunk of body as AsyncIterable<string>) {
    let start = 0; // where the open piece's text starts in this chunk
    for (let i = 0; i < chunk.length; i++) {
      const ch = chunk[i];
      if (inString) {
        if (escaped) {
          escaped = false;
        } else if (ch === '\\') {
          escaped = true;
        } else if (ch === '"') {
          inString = false;
          if (piece) continue;
          if (expectKey) key = text;
          else if (isObjectAt.length === 1 && key !== undefined) top[key] = text;
        } else if (!piece) {
          text += ch;
        }
        continue;
      }
      switch (ch) {
        case '"':
          inString = true;
          text = '';
          break;
        case '{':
        case '[': {
          const found = !piece && isObjectAt.length > 0 ? pieceAt([...path, key ?? '']) : undefined;
          if (found) {
            piece = { depth: isObjectAt.length, ...found, parts: [] };
            start = i;
          }
          if (isObjectAt.length > 0) path.push(key ?? '');
          isObjectAt.push(ch === '{');
          expectKey = ch === '{';
          key = undefined;
          break;
        }
        case '}':
        case ']':
          isObjectAt.pop();
          path.pop();
          if (piece && isObjectAt.length === piece.depth) {
            if (piece.keep) piece.onDone(JSON.parse(piece.parts.join('') + chunk.slice(start, i + 1)));
            piece = undefined;
          }
          break;
        case ',':
          expectKey = isObjectAt[isObjectAt.length - 1] === true;
          break;
        case ':':
          expectKey = false;
          break;
        default:
      }
    }
    if (piece?.keep) piece.parts.push(chunk.slice(start));
  }
  const products: ProductRow[] = [...candidates].map(([sku, product]) => ({
    sku,
    productFamily: product.productFamily,
    attributes: product.attributes as Json,
    onDemand: terms.get(sku),
    where: `${url} products["${sku}"]`,
  }));
  return { offerCode: top.offerCode, version: top.version, publicationDate: top.publicationDate, products };
}
