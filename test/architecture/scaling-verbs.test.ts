import { App, Size, Stack } from 'aws-cdk-lib';
import * as lib from '../../src';
import { SageMakerEndpointBase } from '../../src/core';

/**
 * One scaling verb per capacity kind, the same on every endpoint class the library exports (as
 * import-convention.test.ts walks the `from*` methods): `autoScaleInstanceCount` where instances scale (realtime, async,
 * shared-GPU's managed instance scaling), `autoScaleProvisionedConcurrency` on serverless, `autoScaleCopyCount` on
 * inference components. Each returns what it scaled and refuses a second call on the same target.
 */

const VERBS = ['autoScaleInstanceCount', 'autoScaleProvisionedConcurrency'] as const;
const ENV = { account: '123456789012', region: 'us-east-1' };
const IMAGE = lib.ContainerImage.fromImageUri('763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-inference:2.1-cpu-py310');

type Verb = (props?: object) => unknown;
const ENDPOINT_CLASSES = Object.entries(lib)
  .filter(([name, value]) => typeof value === 'function' && value.prototype instanceof SageMakerEndpointBase && !name.endsWith('Base'))
  .map(([name, value]) => [name, value as unknown as new (...args: unknown[]) => Record<string, Verb>] as const);

/** The props each kind needs, and the verb's props for a valid first call. */
const KINDS: Record<string, { props: object; verb: typeof VERBS[number]; verbProps: object }> = {
  RealtimeEndpoint: { props: { model: lib.ModelSource.fromContainer(IMAGE), instanceType: lib.InstanceType.ML_M5_XLARGE }, verb: 'autoScaleInstanceCount', verbProps: {} },
  AsyncEndpoint: { props: { model: lib.ModelSource.fromContainer(IMAGE), instanceType: lib.InstanceType.ML_M5_XLARGE }, verb: 'autoScaleInstanceCount', verbProps: {} },
  SharedGpuEndpoint: { props: { instanceType: lib.InstanceType.ML_G5_12XLARGE }, verb: 'autoScaleInstanceCount', verbProps: { minCapacity: 1, maxCapacity: 2 } },
  ServerlessEndpoint: {
    props: { model: lib.ModelSource.fromContainer(IMAGE), memorySize: Size.gibibytes(2), maxConcurrency: 4, provisionedConcurrency: 1 },
    verb: 'autoScaleProvisionedConcurrency',
    verbProps: { maxCapacity: 2 },
  },
};

test('the walk finds every endpoint kind, and each is listed here with its verb', () => {
  expect(ENDPOINT_CLASSES.map(([name]) => name).sort()).toEqual(Object.keys(KINDS).sort());
});

describe.each(ENDPOINT_CLASSES)('%s', (name, cls) => {
  const kind = KINDS[name];

  test('has exactly one scaling verb, and no other scaling method or field', () => {
    expect(VERBS.filter((v) => typeof cls.prototype[v] === 'function')).toEqual([kind.verb]);
    const legacy = ['autoScaleVariant', 'autoScale', 'scalableInstanceCount', 'scalableProvisionedConcurrency'];
    const stack = new Stack(new App(), 'Stack', { env: ENV });
    const endpoint = new cls(stack, 'Endpoint', kind.props);
    expect(legacy.filter((m) => m in endpoint)).toEqual([]);
  });

  test('the verb returns what it scaled, and a second call is a synth error naming it', () => {
    const stack = new Stack(new App(), 'Stack', { env: ENV });
    const endpoint = new cls(stack, 'Endpoint', kind.props);
    expect(endpoint[kind.verb](kind.verbProps)).toBeDefined();
    expect(() => endpoint[kind.verb](kind.verbProps)).toThrow(new RegExp(`${kind.verb}: got a second call`));
  });
});

test('InferenceComponent scales with autoScaleCopyCount, once', () => {
  const stack = new Stack(new App(), 'Stack', { env: ENV });
  const shared = new lib.SharedGpuEndpoint(stack, 'Shared', { instanceType: lib.InstanceType.ML_G5_12XLARGE });
  const ic = shared.addInferenceComponent('Chat', { model: lib.ModelSource.fromContainer(IMAGE), acceleratorCount: 1, minMemory: Size.mebibytes(1024) });
  expect(['autoScale', 'scalableCopyCount'].filter((m) => m in ic)).toEqual([]);
  const props = { target: lib.CopyScalingTarget.invocationsPerCopy(5) };
  expect(ic.autoScaleCopyCount(props)).toBeInstanceOf(lib.ScalableCopyCount);
  expect(() => ic.autoScaleCopyCount(props)).toThrow(/autoScaleCopyCount: got a second call/);
});

describe.each(ENDPOINT_CLASSES)('%s.costEstimate', (name, cls) => {
  test('returns the one EndpointCostEstimate shape every kind shares', () => {
    const stack = new Stack(new App(), 'Stack', { env: ENV });
    const endpoint = new cls(stack, 'Endpoint', KINDS[name].props);
    const estimate = endpoint.costEstimate() as Record<string, unknown>;
    expect(Array.isArray(estimate)).toBe(false);
    expect(Object.keys(estimate)).toEqual(expect.arrayContaining(['region', 'variants', 'priceKnown', 'scalesToZero', 'summary']));
    expect(Array.isArray(estimate.variants)).toBe(true);
  });
});
