import { mkdtempSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { EndpointCost, PriceTable } from '../../src/prices';
import { BUNDLED_PRICES, PRICE_TABLE_DATE } from '../../src/prices/private/hosting-prices';
import { sageMakerOfferFile } from '@cdk-sagemaker-mcp/test-stand-ins/price-list';
import { pricesFromOfferFile } from 'cdk-sagemaker-mcp-runtime/prices';

const dir = mkdtempSync(join(tmpdir(), 'price-table-'));
/** The generator's output for the test offer file, written where `PriceTable.fromFile` reads it. */
function generatedFile(): string {
  const file = join(dir, 'prices.json');
  writeFileSync(file, JSON.stringify(pricesFromOfferFile(sageMakerOfferFile()), undefined, 2));
  return file;
}
const priceTable = PriceTable.fromFile(generatedFile());

describe('the price table', () => {
  test('the bundled table holds only rows read from AWS\'s Price List (a hosting usage type each), dated; today it is empty', () => {
    expect(PRICE_TABLE_DATE).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const bundled = PriceTable.bundled();
    for (const region of bundled.regions) {
      for (const type of bundled.instanceTypes(region)) expect(bundled.usageType(region, type)).toMatch(new RegExp(`^[A-Z0-9]+-Host:${type.replace(/\./g, '\\.')}$`));
    }
    expect(BUNDLED_PRICES.regions).toEqual({});
    expect(bundled.hourlyPriceUsd('us-east-1', 'ml.m5.xlarge')).toBeUndefined();
  });

  test('fromFile reads what cdk-sagemaker-mcp prices writes', () => {
    expect(priceTable.asOf).toBe('2026-11-20');
    expect(priceTable.regions).toEqual(['eu-west-1', 'us-east-1']);
    expect(priceTable.hourlyPriceUsd('us-east-1', 'ml.m5.xlarge')).toBe(0.23);
    expect(priceTable.usageType('eu-west-1', 'ml.m5.xlarge')).toBe('EU-Host:ml.m5.xlarge');
  });

  test('fails if the file is missing, not JSON, or not a price table, naming each problem', () => {
    expect(() => PriceTable.fromFile(join(dir, 'nope.json'))).toThrow(`Invalid PriceTable.fromFile: path: got '${join(dir, 'nope.json')}', expected a readable file`);
    writeFileSync(join(dir, 'bad.json'), '{');
    expect(() => PriceTable.fromFile(join(dir, 'bad.json'))).toThrow('is not JSON');
    expect(() => PriceTable.fromJson(sageMakerOfferFile())).toThrow('Invalid PriceTable.fromJson: 4 problems:\n'
      + "  - format: got undefined, expected 'cdk-sagemaker-mcp/hosting-prices@1' (the output of cdk-sagemaker-mcp prices)\n"
      + '  - source: got undefined, expected where the prices come from\n'
      + '  - asOf: got undefined, expected a date YYYY-MM-DD\n'
      + '  - regions: got undefined, expected region -> instance type -> { usd, usagetype }');
    expect(() => PriceTable.fromJson({ ...pricesFromOfferFile(sageMakerOfferFile()), regions: { 'us-east-1': { 'ml.m5.xlarge': { usd: -1 } } } }))
      .toThrow("regions['us-east-1']['ml.m5.xlarge']: got { usd: -1, usagetype: undefined }, expected { usd: <finite number of USD per hour > 0>, usagetype: '<REGION>-Host:ml.m5.xlarge' }");
  });

  test.each([
    ['an overflowing number (JSON.parse reads it as Infinity)', '1e999', 'Infinity'],
    ['zero', '0', '0'],
    ['a string', '"0.23"', '"0.23"'],
  ])('fromFile fails on a row whose usd is %s, naming the region, the type and the value', (_kind, written, shown) => {
    const file = join(dir, 'not-a-price.json');
    const good = JSON.stringify(pricesFromOfferFile(sageMakerOfferFile()));
    // Written as text: 1e999 cannot be produced by JSON.stringify.
    writeFileSync(file, good.replace('"usd":0.258,', `"usd":${written},`));
    expect(() => PriceTable.fromFile(file)).toThrow(`Invalid PriceTable.fromFile '${file}': 1 problem:\n`
      + `  - regions['eu-west-1']['ml.m5.xlarge']: got { usd: ${shown}, usagetype: "EU-Host:ml.m5.xlarge" }, `
      + "expected { usd: <finite number of USD per hour > 0>, usagetype: '<REGION>-Host:ml.m5.xlarge' }");
  });
});

describe('EndpointCost.estimate', () => {
  test('hourly and monthly at min and max from the table, labelled an estimate with its source and date', () => {
    const e = EndpointCost.estimate({ instanceType: 'ml.m5.xlarge', region: 'us-east-1', minInstances: 1, maxInstances: 4, priceTable });
    expect(e).toMatchObject({ pricePerInstanceHourUsd: 0.23, hourlyAtMinUsd: 0.23, hourlyAtMaxUsd: 0.92, scalesToZero: false, priceAsOf: '2026-11-20' });
    expect(e.monthlyAtMinUsd).toBeCloseTo(0.23 * EndpointCost.HOURS_PER_MONTH, 3);
    expect(e.monthlyAtMaxUsd).toBeCloseTo(0.23 * 4 * 730, 3);
    expect(e.summary).toMatch(/^Estimate \(on-demand .* as of 2026-11-20, AWS Price List offer file AmazonSageMaker.*usagetype USE1-Host:ml\.m5\.xlarge\): 1-4 × ml\.m5\.xlarge in us-east-1 at \$0\.23\/h = \$167\.9-\$671\.6 per month \(730 h\)$/);
  });

  test('a scale-to-zero endpoint has a floor of 0; a caller-given price is used and labelled as such', () => {
    const e = EndpointCost.estimate({ instanceType: 'ml.g5.xlarge', region: 'eu-west-1', minInstances: 0, maxInstances: 2, hourlyPriceUsd: 1.5 });
    expect(e).toMatchObject({ hourlyAtMinUsd: 0, monthlyAtMinUsd: 0, hourlyAtMaxUsd: 3, monthlyAtMaxUsd: 2190, scalesToZero: true, priceSource: 'given by caller' });
    expect(e.summary).toContain('$0 when scaled to zero');
  });

  test('fails if the region or the type is not in the table, listing what is', () => {
    expect(() => EndpointCost.estimate({ instanceType: 'ml.m5.xlarge', region: 'xx-nowhere-1', minInstances: 1, maxInstances: 1, priceTable }))
      .toThrow("Invalid EndpointCost.estimate: region: got 'xx-nowhere-1', expected a region the price table (2026-11-20) covers: eu-west-1, us-east-1 (or give the price per instance-hour yourself)");
    expect(() => EndpointCost.estimate({ instanceType: 'ml.x9.huge', region: 'us-east-1', minInstances: 1, maxInstances: 1, priceTable }))
      .toThrow("instanceType: got 'ml.x9.huge', expected an instance type the price table (2026-11-20) has for us-east-1: ml.g5.12xlarge, ml.g5.2xlarge, ml.g5.xlarge, ml.m5.xlarge");
    expect(() => EndpointCost.estimate({ instanceType: 'ml.m5.xlarge', region: 'us-east-1', minInstances: 1, maxInstances: 1 }))
      .toThrow(`region: got 'us-east-1', expected a region the price table (${PRICE_TABLE_DATE}) covers: it covers none, being empty (build one with cdk-sagemaker-mcp prices`);
  });

  test('fails on impossible capacities, naming each prop', () => {
    expect(() => EndpointCost.estimate({ instanceType: 'ml.m5.xlarge', region: 'us-east-1', minInstances: 3, maxInstances: 2 }))
      .toThrow('maxInstances: got 2, expected at least minInstances (3)');
    expect(() => EndpointCost.estimate({ instanceType: 'ml.m5.xlarge', region: 'us-east-1', minInstances: -1, maxInstances: 0, hourlyPriceUsd: -2 }))
      .toThrow(/3 problems:\n {2}- minInstances: got -1, expected an integer >= 0\n {2}- maxInstances: got 0, expected an integer >= 1\n {2}- hourlyPriceUsd: got -2/);
  });
});

describe('EndpointCost.compareSharedGpu', () => {
  const prices = { 'ml.g5.xlarge': 1.0, 'ml.g5.2xlarge': 1.2, 'ml.g5.12xlarge': 5.0, 'ml.g6.xlarge': 0.9 };

  test('packed on one 4-GPU instance vs each copy on its smallest fitting priced instance', () => {
    const c = EndpointCost.compareSharedGpu({
      packedInstanceType: 'ml.g5.12xlarge',
      region: 'us-east-1',
      hourlyPricesUsd: prices,
      components: [{ name: 'llm', acceleratorMemoryGiB: 20 }, { name: 'embedder', acceleratorMemoryGiB: 4 }, { name: 'reranker', acceleratorMemoryGiB: 30, accelerators: 2 }],
    });
    // ml.g5.xlarge and ml.g6.xlarge tie on hardware (24 GiB, 1 GPU, 16 GiB host): the name order picks g5.
    expect(c.separate).toEqual([
      { name: 'llm', instanceType: 'ml.g5.xlarge', copies: 1, hourlyUsd: 1 },
      { name: 'embedder', instanceType: 'ml.g5.xlarge', copies: 1, hourlyUsd: 1 },
      { name: 'reranker', instanceType: 'ml.g5.12xlarge', copies: 1, hourlyUsd: 5 },
    ]);
    expect(c).toMatchObject({ packedHourlyUsd: 5, separateHourlyUsd: 7, monthlySavingUsd: 1460 });
    expect(c.summary).toContain('packing saves $1460 per month (730 h)');
  });

  test('fails if the components do not fit the packed instance, or a type is unknown or unpriced', () => {
    expect(() => EndpointCost.compareSharedGpu({ packedInstanceType: 'ml.g5.xlarge', region: 'us-east-1', hourlyPricesUsd: prices, components: [{ name: 'a', acceleratorMemoryGiB: 20, copies: 2 }] }))
      .toThrow("packedInstanceType: got 'ml.g5.xlarge', expected an instance with at least 40 GiB of accelerator memory on 2 device(s) for all copies (it has 24 GiB on 1)");
    expect(() => EndpointCost.compareSharedGpu({ packedInstanceType: 'ml.m5.xlarge', region: 'us-east-1', components: [{ name: 'a', acceleratorMemoryGiB: 1 }] }))
      .toThrow("packedInstanceType: got 'ml.m5.xlarge', expected an accelerated instance type the instance table knows");
    expect(() => EndpointCost.compareSharedGpu({ packedInstanceType: 'ml.g5.48xlarge', region: 'us-east-1', components: [{ name: 'a', acceleratorMemoryGiB: 1 }], priceTable }))
      .toThrow("instanceType: got 'ml.g5.48xlarge', expected an instance type the price table (2026-11-20) has for us-east-1: ml.g5.12xlarge, ml.g5.2xlarge, ml.g5.xlarge, ml.m5.xlarge");
    expect(() => EndpointCost.compareSharedGpu({ packedInstanceType: 'ml.g5.12xlarge', region: 'us-east-1', hourlyPricesUsd: { 'ml.g5.12xlarge': 5 }, components: [{ name: 'a', acceleratorMemoryGiB: 40 }] }))
      .toThrow('components[a]: no priced nvidia-gpu instance in us-east-1 has 40 GiB on 1 device(s); priced there: ml.g5.12xlarge (give hourlyPricesUsd for more types)');
  });
});
