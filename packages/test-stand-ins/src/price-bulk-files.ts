/**
 * A stand-in of AWS's public Price List bulk files for AmazonSageMaker, served over HTTP on 127.0.0.1, as
 * https://docs.aws.amazon.com/awsaccountbilling/latest/aboutv2/using-the-aws-price-list-bulk-api-fetching-price-list-files-manually.html
 * and the pages it links describe them:
 * - the service index `/offers/v1.0/aws/index.json` (`offers.<code>.currentRegionIndexUrl`, relative);
 * - the service's region index (`regions.<code>.currentVersionUrl`: "The relative URL for the service regional price list
 *   file", https://docs.aws.amazon.com/awsaccountbilling/latest/aboutv2/service-region-index-file-for-service.html),
 *   pointing to dated versions `/offers/v1.0/aws/AmazonSageMaker/<version>/<region>/index.json`;
 * - each region's price list file, in the offer-file shape of packages/test-stand-ins/src/price-list.ts.
 * No authentication (the files are public); anything else is 404; only GET. `filler` adds that many non-hosting
 * products (and their terms) to a region's file, written as a stream, to make a file larger than a process may hold.
 */
import { createServer, ServerResponse } from 'http';
import { AddressInfo } from 'net';
import { attributes, OFFER_PRODUCTS, OFFER_PUBLICATION_DATE, OfferProduct, onDemand } from './price-list';

export const BULK_VERSION = '20261120220156';
const SERVICE_INDEX = '/offers/v1.0/aws/index.json';
const REGION_INDEX = '/offers/v1.0/aws/AmazonSageMaker/current/region_index.json';

/** Rows the bulk files carry besides the offer's: what a region file holds that is not a hosting price. */
export const BULK_EXTRA_PRODUCTS: Array<OfferProduct & { platoinstancetype?: string; operation?: string }> = [
  // Async inference bills the same instance-hour under its own usage type (seen at the same price as Host).
  { sku: 'A1G5XL', productFamily: 'ML Instance', usagetype: 'USE1-AsyncInf:ml.g5.xlarge', regionCode: 'us-east-1', instanceType: 'ml.g5.xlarge', usd: '1.4080000000', platoinstancetype: 'AsyncInf' },
  // A free-tier hosting row: a Host usage type at $0, told apart only by its platoinstancetype (the name is assumed).
  { sku: 'F1M5XL', productFamily: 'ML Instance', usagetype: 'USE1-Host:ml.m5.xlarge', regionCode: 'us-east-1', instanceType: 'ml.m5.xlarge', usd: '0.0000000000', platoinstancetype: 'Hosting-Free' },
  // A third region where one type has two hosting SKUs that differ only in `operation`: nothing says which is right.
  { sku: 'K1M5XL', productFamily: 'ML Instance', usagetype: 'APN2-Host:ml.m5.xlarge', regionCode: 'ap-northeast-2', instanceType: 'ml.m5.xlarge', usd: '0.2700000000', platoinstancetype: 'Hosting', operation: 'RunInstance' },
  { sku: 'K2M5XL', productFamily: 'ML Instance', usagetype: 'APN2-Host:ml.m5.xlarge', regionCode: 'ap-northeast-2', instanceType: 'ml.m5.xlarge', usd: '0.2700000000', platoinstancetype: 'Hosting', operation: 'RunInstance:0002' },
];

export interface BulkFilesServer {
  readonly url: string;
  /** Every path requested, in order. */
  readonly requests: string[];
  /** Bytes of region files written so far. */
  readonly regionFileBytes: number;
  stop(): Promise<void>;
}

export interface BulkFilesOptions {
  /** Non-hosting products added to each region's file. @default 0 */
  readonly filler?: number;
}

type Product = OfferProduct & { platoinstancetype?: string; operation?: string };

function productEntry(p: Product) {
  const attrs: Record<string, string> = { ...attributes(p), ...(p.operation ? { operation: p.operation } : {}) };
  if (p.platoinstancetype) attrs.platoinstancetype = p.platoinstancetype;
  return { sku: p.sku, productFamily: p.productFamily, attributes: attrs };
}

export async function startBulkFilesServer(options: BulkFilesOptions = {}): Promise<BulkFilesServer> {
  const products: Product[] = [...OFFER_PRODUCTS, ...BULK_EXTRA_PRODUCTS];
  const regions = [...new Set(products.map((p) => p.regionCode))].sort();
  const requests: string[] = [];
  let regionFileBytes = 0;
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    requests.push(path);
    if (req.method !== 'GET') return send(res, 405, { message: 'Method Not Allowed' });
    if (path === SERVICE_INDEX) {
      return send(res, 200, {
        formatVersion: 'v1.0',
        disclaimer: 'This pricing list is for informational purposes only.',
        publicationDate: OFFER_PUBLICATION_DATE,
        offers: {
          AmazonEC2: { offerCode: 'AmazonEC2', currentVersionUrl: '/offers/v1.0/aws/AmazonEC2/current/index.json', currentRegionIndexUrl: '/offers/v1.0/aws/AmazonEC2/current/region_index.json' },
          AmazonSageMaker: { offerCode: 'AmazonSageMaker', currentVersionUrl: '/offers/v1.0/aws/AmazonSageMaker/current/index.json', currentRegionIndexUrl: REGION_INDEX },
        },
      });
    }
    if (path === REGION_INDEX) {
      return send(res, 200, {
        formatVersion: 'v1.0',
        disclaimer: 'This pricing list is for informational purposes only.',
        publicationDate: OFFER_PUBLICATION_DATE,
        regions: Object.fromEntries(regions.map((r) => [r, { regionCode: r, currentVersionUrl: `/offers/v1.0/aws/AmazonSageMaker/${BULK_VERSION}/${r}/index.json` }])),
      });
    }
    const region = new RegExp(`^/offers/v1\\.0/aws/AmazonSageMaker/${BULK_VERSION}/([a-z0-9-]+)/index\\.json$`).exec(path)?.[1];
    if (region && regions.includes(region)) {
      return void streamRegionFile(res, products.filter((p) => p.regionCode === region), options.filler ?? 0, (n) => { regionFileBytes += n; });
    }
    return send(res, 404, { message: `no such file: ${path}` });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get regionFileBytes() { return regionFileBytes; },
    stop: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** The region file, written piece by piece (products first, as AWS's files list them), with `filler` extra products. */
async function streamRegionFile(res: ServerResponse, products: Product[], filler: number, count: (bytes: number) => void): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/json' });
  const write = (chunk: string) => (count(Buffer.byteLength(chunk)), res.write(chunk) ? Promise.resolve() : new Promise<void>((resolve) => res.once('drain', () => resolve())));
  const fillers = function* (): Generator<Product> {
    for (let i = 0; i < filler; i++) {
      yield { sku: `FILL${i}`, productFamily: 'ML Instance', usagetype: `USE1-Train:ml.m5.${i % 2 ? 'xlarge' : 'large'}`, regionCode: products[0].regionCode, instanceType: 'ml.m5.xlarge', component: 'Training', usd: '0.2300000000', platoinstancetype: 'Training' };
    }
  };
  await write(`{"formatVersion":"v1.0","disclaimer":"This pricing list is for informational purposes only.","offerCode":"AmazonSageMaker","version":"${BULK_VERSION}","publicationDate":"${OFFER_PUBLICATION_DATE}","products":{`);
  let first = true;
  for (const p of [...products, ...fillers()]) {
    await write(`${first ? '' : ','}${JSON.stringify(p.sku)}:${JSON.stringify(productEntry(p))}`);
    first = false;
  }
  await write('},"terms":{"OnDemand":{');
  first = true;
  for (const p of [...products, ...fillers()]) {
    await write(`${first ? '' : ','}${JSON.stringify(p.sku)}:${JSON.stringify(onDemand(p))}`);
    first = false;
  }
  count(3);
  res.end('}}}');
}
