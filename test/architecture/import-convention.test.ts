import { App, Stack } from 'aws-cdk-lib';
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
