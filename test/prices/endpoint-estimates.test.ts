import { App, Size, Stack } from 'aws-cdk-lib';
import { AsyncEndpoint } from '../../src/async';
import { ContainerImage, InstanceType, ModelSource } from '../../src/core';
import { EndpointCost, PriceTable } from '../../src/prices';
import { PRICE_TABLE_DATE } from '../../src/prices/private/hosting-prices';
import { RealtimeEndpoint } from '../../src/realtime';
import { ServerlessEndpoint } from '../../src/serverless';
import { SharedGpuEndpoint } from '../../src/shared-gpu';
import { sageMakerOfferFile } from '@cdk-sagemaker-mcp/test-stand-ins/price-list';
import { pricesFromOfferFile } from 'cdk-sagemaker-mcp-runtime/prices';

const ENV = { account: '123456789012', region: 'us-east-1' };
const model = () => ModelSource.fromContainer(ContainerImage.fromImageUri('123456789012.dkr.ecr.us-east-1.amazonaws.com/chat:1'));
const stack = (env: { account?: string; region?: string } | undefined = ENV) => new Stack(new App(), 'Cost', { env });
// A table the generator built from an offer file made to AWS's format (packages/test-stand-ins/src/price-list.ts).
const TABLE = PriceTable.fromJson(pricesFromOfferFile(sageMakerOfferFile()));
const priceTable = TABLE;
const M5 = TABLE.hourlyPriceUsd('us-east-1', 'ml.m5.xlarge')!;

describe('RealtimeEndpoint.costEstimate', () => {
  test('one estimate per variant: an autoscaled one over its scaling range, a fixed one at its initial count', () => {
    const endpoint = new RealtimeEndpoint(stack(), 'Chat', { model: model(), instanceType: InstanceType.ML_M5_XLARGE, autoScaling: { minCapacity: 2, maxCapacity: 5 } });
    endpoint.addVariant('Fixed', { instanceType: InstanceType.ML_M5_XLARGE, initialInstanceCount: 3 });

    const estimate = endpoint.costEstimate({ priceTable });
    const [scaled, fixed] = estimate.variants;
    expect(estimate.monthlyAtMaxUsd).toBeCloseTo(scaled.monthlyAtMaxUsd! + fixed.monthlyAtMaxUsd!, 2);
    expect(estimate.summary.split('\n')).toEqual([`AllTraffic: ${scaled.summary}`, `Fixed: ${fixed.summary}`]);

    expect(scaled).toEqual({ ...EndpointCost.estimate({ instanceType: 'ml.m5.xlarge', region: 'us-east-1', minInstances: 2, maxInstances: 5, priceTable }), variantName: 'AllTraffic' });
    expect(scaled).toMatchObject({ priceAsOf: '2026-11-20', priceSource: expect.stringMatching(/^AWS Price List offer file AmazonSageMaker.*, usagetype USE1-Host:ml\.m5\.xlarge$/) });
    expect([scaled.minInstances, scaled.maxInstances]).toEqual([2, 5]);
    expect(fixed).toMatchObject({ variantName: 'Fixed', minInstances: 3, maxInstances: 3, priceKnown: true, scalesToZero: false });
    expect(fixed.monthlyAtMinUsd).toBeCloseTo(M5 * 3 * EndpointCost.HOURS_PER_MONTH, 3);
    expect(fixed.monthlyAtMaxUsd).toBe(fixed.monthlyAtMinUsd);
    expect(fixed.summary).toMatch(/^Estimate \(on-demand .*\): 3-3 × ml\.m5\.xlarge in us-east-1 at \$[\d.]+\/h = /);
  });

  test('a price the table lacks: no figures, priceKnown false, a summary naming the type and how to give its price', () => {
    const endpoint = new RealtimeEndpoint(stack(), 'Chat', { model: model(), instanceType: InstanceType.of('ml.g5.4xlarge'), autoScaling: { maxCapacity: 4 } });

    const [e] = endpoint.costEstimate({ priceTable }).variants;

    expect(e).toMatchObject({ instanceType: 'ml.g5.4xlarge', minInstances: 1, maxInstances: 4, priceKnown: false, priceSource: 'not in the price table', priceAsOf: '2026-11-20' });
    expect(e.hourlyAtMaxUsd).toBeUndefined();
    expect(e.monthlyAtMinUsd).toBeUndefined();
    expect(e.summary).toBe('No estimate for 1-4 × ml.g5.4xlarge in us-east-1: its price is not in the price table of 2026-11-20 (which has for us-east-1: '
      + "ml.g5.12xlarge, ml.g5.2xlarge, ml.g5.xlarge, ml.m5.xlarge); give it as hourlyPricesUsd: { 'ml.g5.4xlarge': <USD per instance-hour> }");
  });

  test('the bundled table is the default: empty, so every price is unknown and the summary says how to get a table', () => {
    const endpoint = new RealtimeEndpoint(stack(), 'Chat', { model: model(), instanceType: InstanceType.ML_M5_XLARGE });

    const [e] = endpoint.costEstimate().variants;

    expect(e).toMatchObject({ priceKnown: false, priceSource: 'not in the price table', priceAsOf: PRICE_TABLE_DATE });
    expect(e.summary).toContain('(which is empty: build one with cdk-sagemaker-mcp prices and pass it as priceTable: PriceTable.fromFile(...))');
  });

  test('a caller-supplied price and region are used, and labelled as given', () => {
    const endpoint = new RealtimeEndpoint(stack(), 'Chat', { model: model(), instanceType: InstanceType.ML_G5_2XLARGE, autoScaling: { maxCapacity: 4 } });

    const [e] = endpoint.costEstimate({ region: 'eu-west-1', hourlyPricesUsd: { 'ml.g5.2xlarge': 2 } }).variants;

    expect(e).toMatchObject({ region: 'eu-west-1', priceKnown: true, priceSource: 'given by caller', hourlyAtMinUsd: 2, hourlyAtMaxUsd: 8, monthlyAtMaxUsd: 8 * 730 });
  });

  test('an environment-agnostic stack: an error asks for the region; a negative price is refused', () => {
    const endpoint = new RealtimeEndpoint(stack({}), 'Chat', { model: model(), instanceType: InstanceType.ML_M5_XLARGE });

    expect(() => endpoint.costEstimate()).toThrow("Invalid RealtimeEndpoint 'Chat' costEstimate: 1 problem:\n  - region: got the stack's region, which is unresolved "
      + "(an environment-agnostic stack), expected a region such as 'us-east-1' to look prices up in: give it as the region option ({ region: 'us-east-1' })");
    expect(endpoint.costEstimate({ region: 'us-east-1', priceTable }).priceKnown).toBe(true);
    expect(() => endpoint.costEstimate({ region: 'us-east-1', hourlyPricesUsd: { 'ml.m5.xlarge': -1 } }))
      .toThrow("hourlyPricesUsd['ml.m5.xlarge']: got -1, expected a number >= 0");
  });
});

describe('AsyncEndpoint.costEstimate', () => {
  const asyncEndpoint = (autoScaling?: { minCapacity?: number; maxCapacity?: number }) =>
    new AsyncEndpoint(stack(), 'Docs', { model: model(), instanceType: InstanceType.ML_M5_XLARGE, autoScaling, results: { enabled: false } });

  test('scaling to zero: the floor is $0, the ceiling the scaling maximum', () => {
    const e = asyncEndpoint({ minCapacity: 0, maxCapacity: 4 }).costEstimate({ priceTable }).variants[0];

    expect(e).toMatchObject({ minInstances: 0, maxInstances: 4, scalesToZero: true, hourlyAtMinUsd: 0, monthlyAtMinUsd: 0, priceKnown: true });
    expect(e.monthlyAtMaxUsd).toBeCloseTo(M5 * 4 * 730, 3);
    expect(e.summary).toContain('$0 when scaled to zero');
  });

  test('without autoscaling: the initial instance count, min = max', () => {
    expect(asyncEndpoint().costEstimate({ priceTable }).variants[0])
      .toMatchObject({ minInstances: 1, maxInstances: 1, scalesToZero: false, hourlyAtMinUsd: M5, hourlyAtMaxUsd: M5 });
  });
});

describe('SharedGpuEndpoint', () => {
  const shared = (s: Stack = stack()) => {
    const endpoint = new SharedGpuEndpoint(s, 'Shared', {
      instanceType: InstanceType.ML_G5_12XLARGE,
      instanceScaling: { minCapacity: 0, maxCapacity: 2 },
    });
    endpoint.addInferenceComponent('Big', { model: model(), acceleratorCount: 2, minMemory: Size.gibibytes(64), copies: 1 });
    endpoint.addInferenceComponent('Small', { model: model(), acceleratorCount: 1, minMemory: Size.gibibytes(16), copies: 2 });
    return endpoint;
  };

  test('costEstimate: the instances over managed instance scaling, floor 0', () => {
    const e = shared().costEstimate({ hourlyPricesUsd: { 'ml.g5.12xlarge': 7 } }).variants[0];

    expect(e).toMatchObject({ instanceType: 'ml.g5.12xlarge', minInstances: 0, maxInstances: 2, scalesToZero: true, hourlyAtMinUsd: 0, hourlyAtMaxUsd: 14 });
    expect(shared(stack()).costEstimate().priceKnown).toBe(false);
    expect(shared(stack()).costEstimate({ priceTable }).variants[0]).toMatchObject({ priceKnown: true, hourlyAtMaxUsd: 2 * TABLE.hourlyPriceUsd('us-east-1', 'ml.g5.12xlarge')! });
  });

  test('costComparison: packed vs each copy on its own smallest instance with the devices it reserves', () => {
    const prices = { 'ml.g5.12xlarge': 7, 'ml.g5.xlarge': 1.5 };

    const c = shared().costComparison({ hourlyPricesUsd: prices });

    // Big reserves 2 A10G (2 × 24 GiB): the smallest g5 with 2 devices is the 4-GPU 12xlarge; Small's 2 copies take a g5.xlarge each.
    expect(c.separate).toEqual([
      { name: 'Big', instanceType: 'ml.g5.12xlarge', copies: 1, hourlyUsd: 7 },
      { name: 'Small', instanceType: 'ml.g5.xlarge', copies: 2, hourlyUsd: 3 },
    ]);
    expect(c).toMatchObject({ packedInstanceCount: 1, packedHourlyUsd: 7, separateHourlyUsd: 10, monthlySavingUsd: 3 * 730, priceKnown: true });
    expect(c.missingPrices).toEqual([]);
    expect(c).toEqual(EndpointCost.compareSharedGpu({
      packedInstanceType: 'ml.g5.12xlarge',
      region: 'us-east-1',
      hourlyPricesUsd: prices,
      components: [{ name: 'Big', accelerators: 2, acceleratorMemoryGiB: 48 }, { name: 'Small', accelerators: 1, acceleratorMemoryGiB: 24, copies: 2 }],
    }));
  });

  test('costComparison with prices the table lacks: the smallest fitting types, no totals, the missing prices listed', () => {
    const c = shared().costComparison();

    expect(c.separate.map((s) => [s.instanceType, s.hourlyUsd])).toEqual([['ml.g5.12xlarge', undefined], ['ml.g5.xlarge', undefined]]);
    expect(c).toMatchObject({ priceKnown: false, missingPrices: ['ml.g5.12xlarge', 'ml.g5.xlarge'], priceAsOf: PRICE_TABLE_DATE });
    expect(c.monthlySavingUsd).toBeUndefined();
    expect(c.summary).toContain('no totals: ml.g5.12xlarge, ml.g5.xlarge are not in the price table');
    expect(c.summary).toContain("give hourlyPricesUsd: { 'ml.g5.12xlarge': <USD>, 'ml.g5.xlarge': <USD> }");
  });

  test('costComparison on an environment-agnostic stack asks for the region', () => {
    expect(() => shared(stack({})).costComparison()).toThrow("Invalid SharedGpuEndpoint 'Shared' costComparison: 1 problem:\n  - region: got the stack's region");
    expect(shared(stack({})).costComparison({ region: 'us-east-1' }).packedInstanceType).toBe('ml.g5.12xlarge');
  });
});

describe('ServerlessEndpoint.costEstimate', () => {
  const serverless = (props: { provisionedConcurrency?: number; autoScaling?: { minCapacity?: number; maxCapacity?: number } } = {}) =>
    new ServerlessEndpoint(stack(), 'Churn', { model: model(), memorySize: Size.gibibytes(2), maxConcurrency: 10, ...props });

  test('the same shape as the instance-based kinds: no variants, the serverless line, and which prices to give', () => {
    const e = serverless({ provisionedConcurrency: 2, autoScaling: { minCapacity: 1, maxCapacity: 4 } }).costEstimate();

    expect(e).toMatchObject({ region: 'us-east-1', variants: [], priceKnown: false, scalesToZero: false });
    expect(e.serverless).toMatchObject({ memorySizeInMb: 2048, minProvisionedConcurrency: 1, maxProvisionedConcurrency: 4, priceKnown: false });
    expect(e.summary).toMatch(/has no serverless prices; give them as \{ provisionedConcurrencyPerHourUsd: <USD per unit-hour>, serverlessComputePerSecondUsd: <USD per second> \}/);
  });

  test('given prices: provisioned concurrency by the hour over its range, compute per second of each request', () => {
    const e = serverless({ provisionedConcurrency: 2, autoScaling: { minCapacity: 1, maxCapacity: 4 } })
      .costEstimate({ provisionedConcurrencyPerHourUsd: 0.1, serverlessComputePerSecondUsd: 0.00004 });

    expect(e.serverless).toMatchObject({
      priceKnown: true, provisionedConcurrencyPerHourUsd: 0.1, monthlyAtMinUsd: 73, monthlyAtMaxUsd: 292, computePerSecondUsd: 0.00004,
    });
    expect([e.priceKnown, e.monthlyAtMinUsd, e.monthlyAtMaxUsd]).toEqual([true, 73, 292]);
  });

  test('on demand (no provisioned concurrency): the floor is $0 and only the compute price is needed', () => {
    const e = serverless().costEstimate({ serverlessComputePerSecondUsd: 0.00004 });

    expect(e).toMatchObject({ priceKnown: true, scalesToZero: true, monthlyAtMinUsd: 0, monthlyAtMaxUsd: 0 });
    expect(e.serverless!.summary).toBe('Estimate (prices given by caller): Serverless Inference 2048 MiB in us-east-1: $0.00004 per second of request compute');
  });

  test('fails on a negative price, naming the option', () => {
    expect(() => serverless().costEstimate({ serverlessComputePerSecondUsd: -1 })).toThrow(/serverlessComputePerSecondUsd: got -1/);
  });
});
