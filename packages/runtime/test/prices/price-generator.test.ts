import { mkdtempSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { PricingClient } from '@aws-sdk/client-pricing';
import { OFFER_HOSTING_TABLE, OFFER_PRODUCTS, OFFER_PUBLICATION_DATE, PricingServer, sageMakerOfferFile, startPricingServer } from '@cdk-sagemaker-mcp/test-stand-ins/price-list';
import { captureOutput } from '../support/captured-output';
import { main } from 'cdk-sagemaker-mcp-runtime/cli';
import { PRICE_TABLE_FORMAT, PriceDataError, pricesFromApi, pricesFromOfferFile } from 'cdk-sagemaker-mcp-runtime/prices';

const HOSTING = OFFER_HOSTING_TABLE;

describe('pricesFromOfferFile', () => {
  test('keeps only on-demand hosting instance rows (not training, notebooks, batch, serverless, storage), per region, dated by the offer', () => {
    const table = pricesFromOfferFile(sageMakerOfferFile());

    expect(table).toEqual({
      format: PRICE_TABLE_FORMAT,
      source: expect.stringContaining('AWS Price List offer file AmazonSageMaker, version 20261120220156'),
      publicationDate: OFFER_PUBLICATION_DATE,
      asOf: '2026-11-20',
      regions: HOSTING,
    });
    expect(OFFER_PRODUCTS.map((p) => p.productFamily)).toEqual(expect.arrayContaining(['ML Instance', 'Serverless Inference', 'Storage']));
  });

  test('--region keeps that region; a region without hosting rows is an error naming the ones there are', () => {
    expect(Object.keys(pricesFromOfferFile(sageMakerOfferFile(), { regions: ['eu-west-1'] }).regions)).toEqual(['eu-west-1']);
    expect(() => pricesFromOfferFile(sageMakerOfferFile(), { regions: ['ap-south-1'] }))
      .toThrow('--region ap-south-1: no on-demand hosting (-Host:ml.*) row for it; the data has hosting rows for eu-west-1, us-east-1');
  });

  test('fails on a malformed file with every problem, and on a file with no hosting row', () => {
    expect(() => pricesFromOfferFile([])).toThrow(new PriceDataError(['got an array, expected a JSON object'], 'the offer file'));
    expect(() => pricesFromOfferFile({ offerCode: 'AmazonEC2', publicationDate: 'yesterday', products: [] })).toThrow(
      'the offer file is not AWS Price List data for AmazonSageMaker: 4 problems:\n'
      + '  - offerCode: got "AmazonEC2", expected "AmazonSageMaker"\n'
      + '  - publicationDate: got "yesterday", expected an ISO 8601 date such as "2026-11-20T22:01:56Z"\n'
      + '  - products: got [], expected an object of SKU -> { productFamily, attributes }\n'
      + '  - terms.OnDemand: missing, expected an object of SKU -> offer term -> { priceDimensions }');
    const noPrice = sageMakerOfferFile();
    delete noPrice.terms.OnDemand.H1M5XL;
    expect(() => pricesFromOfferFile(noPrice)).toThrow('terms.OnDemand["H1M5XL"] (USE1-Host:ml.m5.xlarge): no OnDemand term');
    expect(() => pricesFromOfferFile(sageMakerOfferFile(OFFER_PRODUCTS.filter((p) => !p.usagetype.includes('-Host:ml.')))))
      .toThrow('products: no on-demand hosting (usagetype <REGION>-Host:ml.*) row');
  });
});

describe('prices are decimals', () => {
  /** The test offer with the m5.xlarge hosting price written as `usd`. */
  const withPrice = (usd: string) => sageMakerOfferFile(OFFER_PRODUCTS.map((p) => (p.sku === 'H1M5XL' ? { ...p, usd } : p)));

  test.each([
    ['hexadecimal', '0x10'],
    ['binary', '0b11'],
    ['octal', '0o7'],
    ['empty', ''],
    ['not a number', 'abc'],
    ['exponent', '1e999'],
    ['negative', '-0.23'],
    ['padded', ' 0.23'],
  ])('fails on a %s price (%j), naming the SKU and the value', (_kind, usd) => {
    expect(() => pricesFromOfferFile(withPrice(usd)))
      .toThrow(`terms.OnDemand["H1M5XL"] (USE1-Host:ml.m5.xlarge): pricePerUnit.USD: got ${JSON.stringify(usd)}, expected a decimal price such as "0.1150000000"`);
  });

  test('a zero price (a free-tier row) is left out; a plain decimal is read as written', () => {
    expect(pricesFromOfferFile(withPrice('0.0000000000')).regions['us-east-1']['ml.m5.xlarge']).toBeUndefined();
    expect(pricesFromOfferFile(withPrice('12')).regions['us-east-1']['ml.m5.xlarge'].usd).toBe(12);
  });

  test('the CLI exits 2 on an empty price instead of dropping the row', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'prices-')), 'index.json');
    writeFileSync(file, JSON.stringify(withPrice('')));
    const err: string[] = [];
    jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    jest.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
    try {
      expect(await main(['prices', '--offer-file', file])).toBe(2);
    } finally {
      jest.restoreAllMocks();
    }
    expect(err.join('')).toContain('pricePerUnit.USD: got "", expected a decimal price');
  });
});

describe('pricesFromApi (GetProducts through the Pricing stand-in)', () => {
  let server: PricingServer;
  let client: PricingClient;
  beforeAll(async () => {
    server = await startPricingServer();
    client = new PricingClient({ endpoint: server.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' } });
  });
  afterAll(async () => {
    client.destroy();
    await server.stop();
  });

  test('follows NextToken over every page and builds the same table as the offer file', async () => {
    server.requests.length = 0;
    const table = await pricesFromApi({ client, pageSize: 2 });

    expect(table.regions).toEqual(HOSTING);
    expect(table).toMatchObject({ asOf: '2026-11-20', publicationDate: OFFER_PUBLICATION_DATE, source: expect.stringContaining('GetProducts') });
    // 5 hosting-instance products (+1 storage row whose usagetype has no "-Host:ml.") at 2 a page: 3 pages.
    expect(server.requests.map((r) => r.NextToken === undefined)).toEqual([true, false, false]);
    expect(server.requests[0]).toMatchObject({ ServiceCode: 'AmazonSageMaker', FormatVersion: 'aws_v1', MaxResults: 2, Filters: [{ Type: 'CONTAINS', Field: 'usagetype', Value: '-Host:ml.' }] });
  });

  test('one region is filtered at the API', async () => {
    server.requests.length = 0;
    const table = await pricesFromApi({ client, regions: ['eu-west-1'] });
    expect(table.regions).toEqual({ 'eu-west-1': HOSTING['eu-west-1'] });
    expect(server.requests[0].Filters).toContainEqual({ Type: 'TERM_MATCH', Field: 'regionCode', Value: 'eu-west-1' });
  });

  test('fails if pagination does not end (a repeated token) rather than return a partial table', async () => {
    const stuck = await startPricingServer(OFFER_PRODUCTS, { neverEnds: true });
    const c = new PricingClient({ endpoint: stuck.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' } });
    try {
      await expect(pricesFromApi({ client: c, pageSize: 1 })).rejects.toThrow('stopped after 2 pages (repeated-token): raise maxPages, or use an offer file');
    } finally {
      c.destroy();
      await stuck.stop();
    }
  });
});

describe('cdk-sagemaker-mcp prices', () => {
  const dir = mkdtempSync(join(tmpdir(), 'prices-'));
  const { out, err } = captureOutput();

  test('--offer-file writes the table to stdout', async () => {
    const file = join(dir, 'index.json');
    writeFileSync(file, JSON.stringify(sageMakerOfferFile()));

    expect(await main(['prices', '--offer-file', file, '--region', 'us-east-1'])).toBe(0);

    expect(JSON.parse(out.join('')).regions).toEqual({ 'us-east-1': HOSTING['us-east-1'] });
    expect(err.join('')).toBe('cdk-sagemaker-mcp prices: 4 hosting prices in 1 regions, as of 2026-11-20\n');
  });

  test('fails with exit 2 on a file that is not JSON or not an offer, and on bad arguments', async () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, '{"products":');
    expect(await main(['prices', '--offer-file', file])).toBe(2);
    expect(err.join('')).toContain(`offer file '${file}' is not AWS Price List data for AmazonSageMaker: 1 problem:\n  - not JSON`);
    expect(out).toEqual([]);
    expect(await main(['prices'])).toBe(2);
    expect(err.join('')).toContain('give exactly one of --offer-file <file>, --from-api and --from-bulk');
  });

  test.each([
    [['--offer-file'], '--offer-file needs a value'],
    [['--from-api', '--pages', '3'], "unknown option '--pages'"],
    [['--from-api', '--max-pages', '0'], "--max-pages: got '0', expected a positive integer"],
    [['--from-api', '--offer-file', 'o.json'], 'give exactly one of'],
    [['--from-api', 'extra'], 'unexpected argument'],
  ])('arguments %j exit 2 with "%s"', async (args, message) => {
    expect(await main(['prices', ...args])).toBe(2);
    expect(err.join('')).toContain(message);
    expect(out).toEqual([]);
  });

  test('regions may repeat and be comma-separated', async () => {
    const file = join(dir, 'regions.json');
    writeFileSync(file, JSON.stringify(sageMakerOfferFile()));
    expect(await main(['prices', '--offer-file', file, '--region', 'us-east-1,', '--region', 'eu-west-1'])).toBe(0);
    expect(Object.keys(JSON.parse(out.join('')).regions)).toEqual(['eu-west-1', 'us-east-1']);
  });
});
