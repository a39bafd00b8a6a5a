/**
 * `pricesFromBulk` and `cdk-sagemaker-mcp prices --from-bulk` against a stand-in of AWS's public bulk price list files
 * (packages/test-stand-ins/src/price-bulk-files.ts): index → region index → dated region files, no credentials, each region file
 * streamed.
 */
import { BulkFilesServer, BULK_VERSION, startBulkFilesServer } from '@cdk-sagemaker-mcp/test-stand-ins/price-bulk-files';
import { OFFER_HOSTING_TABLE } from '@cdk-sagemaker-mcp/test-stand-ins/price-list';
import { captureOutput } from '../support/captured-output';
import { main } from 'cdk-sagemaker-mcp-runtime/cli';
import { PriceDataError, pricesFromBulk, PRICE_TABLE_FORMAT } from 'cdk-sagemaker-mcp-runtime/prices';

let files: BulkFilesServer;
beforeAll(async () => { files = await startBulkFilesServer(); });
afterAll(() => files.stop());
beforeEach(() => { files.requests.length = 0; });

describe('pricesFromBulk', () => {
  test('follows the relative URLs of both indexes to the dated region files and keeps only on-demand hosting rows', async () => {
    const table = await pricesFromBulk({ baseUrl: files.url, regions: ['us-east-1', 'eu-west-1'] });

    expect(table.format).toBe(PRICE_TABLE_FORMAT);
    expect(table.asOf).toBe('2026-11-20');
    expect(table.source).toBe(`AWS Price List bulk files AmazonSageMaker, version ${BULK_VERSION} (${files.url}/offers/v1.0/aws/index.json)`);
    // Training, notebook, batch, serverless, storage, async inference and the free-tier row are not hosting prices.
    expect(table.regions).toEqual(OFFER_HOSTING_TABLE);
    expect(files.requests).toEqual([
      '/offers/v1.0/aws/index.json',
      '/offers/v1.0/aws/AmazonSageMaker/current/region_index.json',
      `/offers/v1.0/aws/AmazonSageMaker/${BULK_VERSION}/us-east-1/index.json`,
      `/offers/v1.0/aws/AmazonSageMaker/${BULK_VERSION}/eu-west-1/index.json`,
    ]);
  });

  test('refuses a region and instance type with two hosting SKUs, naming both, instead of picking one', async () => {
    const err = await pricesFromBulk({ baseUrl: files.url, regions: ['ap-northeast-2'] }).catch((e) => e);
    expect(err).toBeInstanceOf(PriceDataError);
    expect(err.message).toContain('ap-northeast-2 ml.m5.xlarge has 2 hosting SKUs (K1M5XL: operation "RunInstance", platoinstancetype "Hosting"; '
      + 'K2M5XL: operation "RunInstance:0002", platoinstancetype "Hosting"): refusing to pick one');
  });

  test('a region the index does not list, and a missing file, are errors that say where', async () => {
    await expect(pricesFromBulk({ baseUrl: files.url, regions: ['xx-nowhere-1'] }))
      .rejects.toThrow(/--region xx-nowhere-1: not in the region index, which lists ap-northeast-2, eu-west-1, us-east-1/);
    await expect(pricesFromBulk({ baseUrl: `${files.url}/mirror` })).rejects.toThrow(/cannot read .*\/mirror\/offers\/v1\.0\/aws\/index\.json: HTTP 404/);
  });
});

describe('prices --from-bulk', () => {
  const { out, err } = captureOutput();

  test('writes the table of the regions asked for', async () => {
    expect(await main(['prices', '--from-bulk', '--bulk-url', files.url, '--region', 'eu-west-1'])).toBe(0);
    expect(JSON.parse(out.join('')).regions).toEqual({ 'eu-west-1': { 'ml.m5.xlarge': { usd: 0.258, usagetype: 'EU-Host:ml.m5.xlarge', sku: 'H2M5XL' } } });
    expect(err.join('')).toBe('cdk-sagemaker-mcp prices: 1 hosting prices in 1 regions, as of 2026-11-20\n');
  });

  test('--bulk-url goes with --from-bulk only', async () => {
    expect(await main(['prices', '--from-api', '--bulk-url', files.url])).toBe(2);
    expect(err.join('')).toContain('--bulk-url goes with --from-bulk');
  });
});
