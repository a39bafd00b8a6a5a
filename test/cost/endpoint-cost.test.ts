import { EndpointCost } from '../../src/cost';
import { HOSTING_PRICES, PRICE_TABLE_DATE } from '../../src/cost/private/hosting-prices';

describe('the price table', () => {
  test('every row is dated and names an https source that states the figure', () => {
    expect(PRICE_TABLE_DATE).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const [region, rows] of Object.entries(HOSTING_PRICES)) {
      for (const [type, [usd, source]] of Object.entries(rows)) {
        expect([region, type, usd > 0]).toEqual([region, type, true]);
        expect(source.url).toMatch(/^https:\/\//);
        expect(source.asOf).toMatch(/^\d{4}-\d{2}(-\d{2})?$/);
        expect(source.quote).toContain(type);
        expect(source.quote).toContain(`$${usd}`);
      }
    }
  });
});

describe('EndpointCost.estimate', () => {
  test('hourly and monthly at min and max from the table, labelled an estimate with its source and date', () => {
    const e = EndpointCost.estimate({ instanceType: 'ml.m5.xlarge', region: 'us-east-1', minInstances: 1, maxInstances: 4 });
    expect(e).toMatchObject({ pricePerInstanceHourUsd: 0.269, hourlyAtMinUsd: 0.269, hourlyAtMaxUsd: 1.076, scalesToZero: false, priceAsOf: '2025-10' });
    expect(e.monthlyAtMinUsd).toBeCloseTo(0.269 * EndpointCost.HOURS_PER_MONTH, 3);
    expect(e.monthlyAtMaxUsd).toBeCloseTo(0.269 * 4 * 730, 3);
    expect(e.summary).toMatch(/^Estimate \(on-demand .* as of 2025-10, https:\/\/.*\): 1-4 × ml\.m5\.xlarge in us-east-1 at \$0\.269\/h = \$196\.37-\$785\.48 per month \(730 h\)$/);
  });

  test('a scale-to-zero endpoint has a floor of 0; a caller-given price is used and labelled as such', () => {
    const e = EndpointCost.estimate({ instanceType: 'ml.g5.xlarge', region: 'eu-west-1', minInstances: 0, maxInstances: 2, hourlyPriceUsd: 1.5 });
    expect(e).toMatchObject({ hourlyAtMinUsd: 0, monthlyAtMinUsd: 0, hourlyAtMaxUsd: 3, monthlyAtMaxUsd: 2190, scalesToZero: true, priceSource: 'given by caller' });
    expect(e.summary).toContain('$0 when scaled to zero');
  });

  test('fails if the region or the type is not in the table, listing what is', () => {
    expect(() => EndpointCost.estimate({ instanceType: 'ml.m5.xlarge', region: 'xx-nowhere-1', minInstances: 1, maxInstances: 1 }))
      .toThrow(`Invalid EndpointCost.estimate: region: got 'xx-nowhere-1', expected a region the price table (${PRICE_TABLE_DATE}) covers: us-east-1 (or give the price per instance-hour yourself)`);
    expect(() => EndpointCost.estimate({ instanceType: 'ml.x9.huge', region: 'us-east-1', minInstances: 1, maxInstances: 1 }))
      .toThrow("instanceType: got 'ml.x9.huge', expected an instance type the price table (2026-05-13) has for us-east-1: ml.m5.xlarge");
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
    expect(() => EndpointCost.compareSharedGpu({ packedInstanceType: 'ml.g5.12xlarge', region: 'us-east-1', components: [{ name: 'a', acceleratorMemoryGiB: 1 }] }))
      .toThrow("instanceType: got 'ml.g5.12xlarge', expected an instance type the price table (2026-05-13) has for us-east-1: ml.m5.xlarge");
    expect(() => EndpointCost.compareSharedGpu({ packedInstanceType: 'ml.g5.12xlarge', region: 'us-east-1', hourlyPricesUsd: { 'ml.g5.12xlarge': 5 }, components: [{ name: 'a', acceleratorMemoryGiB: 40 }] }))
      .toThrow('components[a]: no priced nvidia-gpu instance in us-east-1 has 40 GiB on 1 device(s); priced there: ml.g5.12xlarge (give hourlyPricesUsd for more types)');
  });
});
