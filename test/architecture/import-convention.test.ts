import { existsSync, readFileSync } from 'fs';
import { join } from 'path';
import { App, Size, Stack } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as lib from '../../src';
import { SageMakerEndpointBase } from '../../src/core';

/**
 * Every endpoint kind the library exports imports the same three ways: `fromEndpointName`, `fromEndpointArn` and
 * `from<Kind>Attributes` (e.g. `RealtimeEndpoint.fromRealtimeEndpointAttributes`). The walk covers every exported
 * class built on SageMakerEndpointBase, so a new kind cannot skip them.
 */

type Importer = (scope: Stack, id: string, arg: unknown) => { endpointName: string };

const ENDPOINT_CLASSES = Object.entries(lib)
  .filter(([name, value]) => typeof value === 'function' && value.prototype instanceof SageMakerEndpointBase && !name.endsWith('Base'))
  .map(([name, value]) => [name, value as unknown as Record<string, Importer>] as const);

test('the walk finds the endpoint kinds (JumpStart models deploy on these; any new kind is walked too)', () => {
  expect(ENDPOINT_CLASSES.map(([name]) => name).sort()).toEqual(expect.arrayContaining(['AsyncEndpoint', 'RealtimeEndpoint', 'SharedGpuEndpoint']));
});

describe.each(ENDPOINT_CLASSES)('%s', (name, cls) => {
  const methods = ['fromEndpointName', 'fromEndpointArn', `from${name}Attributes`];

  test(`has ${methods.join(', ')}`, () => {
    expect(methods.filter((m) => typeof cls[m] !== 'function')).toEqual([]);
  });

  test('each of them imports the endpoint named', () => {
    const stack = new Stack(new App(), 'Stack', { env: { account: '123456789012', region: 'us-east-1' } });
    const arn = 'arn:aws:sagemaker:us-east-1:123456789012:endpoint/tools-endpoint';
    const attrs = { endpointName: 'tools-endpoint', bucket: s3.Bucket.fromBucketName(stack, 'Bucket', 'async-io') };
    const imports = [cls.fromEndpointName(stack, 'ByName', 'tools-endpoint'), cls.fromEndpointArn(stack, 'ByArn', arn), cls[methods[2]](stack, 'ByAttrs', attrs)];
    expect(imports.map((i) => stack.resolve(i.endpointName))).toEqual(['tools-endpoint', 'tools-endpoint', 'tools-endpoint']);
  });
});

// The return types live in the .jsii assembly (`npx projen compile`; a todo on a fresh clone without one).
const assemblyPath = join(__dirname, '..', '..', '.jsii');
const typedCheck = 'every from* of every kind returns that kind\'s own interface (I<Kind>), per the .jsii assembly';
if (!existsSync(assemblyPath)) {test.todo(typedCheck);} else {
  test(typedCheck, () => {
    type Method = { name: string; static?: boolean; returns?: { type: { fqn?: string } } };
    const types = (JSON.parse(readFileSync(assemblyPath, 'utf8')) as { types: Record<string, { methods?: Method[] }> }).types;
    const returns = ENDPOINT_CLASSES.flatMap(([name]) => (types[`cdk-sagemaker-mcp.${name}`].methods ?? [])
      .filter((m) => m.static && /^from[A-Z]/.test(m.name))
      .map((m) => ({ method: `${name}.${m.name}`, returns: m.returns?.type.fqn })));
    expect(returns.length).toBeGreaterThanOrEqual(ENDPOINT_CLASSES.length * 3);
    const wrong = returns.filter((r) => r.returns !== `cdk-sagemaker-mcp.I${r.method.split('.')[0]}`);
    expect(wrong).toEqual([]);
  });
}

test('every import of a shared-GPU endpoint is an ISharedGpuEndpoint: components can be added to one imported by ARN', () => {
  const stack = new Stack(new App(), 'Stack', { env: { account: '123456789012', region: 'us-east-1' } });
  const endpoint = lib.SharedGpuEndpoint.fromEndpointArn(stack, 'ByArn', 'arn:aws:sagemaker:us-east-1:123456789012:endpoint/shared');
  const image = lib.ContainerImage.fromImageUri('123456789012.dkr.ecr.us-east-1.amazonaws.com/chat:1');
  const component = new lib.InferenceComponent(stack, 'Chat', { endpoint, model: lib.ModelSource.fromContainer(image), acceleratorCount: 1, minMemory: Size.mebibytes(1024) });
  expect(stack.resolve(component.endpointName)).toBe('shared');
  expect(stack.resolve(endpoint.variantName)).toBe('AllTraffic');
});

test('an async endpoint imported by name or ARN is an IAsyncEndpoint: backlog metrics by name, and no bucket to guess', () => {
  const stack = new Stack(new App(), 'Stack', { env: { account: '123456789012', region: 'us-east-1' } });
  const endpoint = lib.AsyncEndpoint.fromEndpointArn(stack, 'ByArn', 'arn:aws:sagemaker:us-east-1:123456789012:endpoint/doc-async');
  expect(endpoint.metricApproximateBacklogSize().dimensions).toEqual({ EndpointName: 'doc-async' });
  expect(endpoint.bucket).toBeUndefined();
});

test('the unreleased deprecated alias SharedGpuEndpoint.fromEndpointAttributes is gone', () => {
  expect('fromEndpointAttributes' in lib.SharedGpuEndpoint).toBe(false);
});
