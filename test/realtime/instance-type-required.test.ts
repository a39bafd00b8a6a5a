import { App, Stack } from 'aws-cdk-lib';
import { HuggingFaceHubModel, RealtimeEndpoint, RealtimeEndpointProps } from '../../src';

describe('RealtimeEndpoint without an instance type', () => {
  test('fails if instanceType is left out, naming the prop and what it expects (not a TypeError)', () => {
    // GIVEN a JavaScript-style call: the types require instanceType, the caller leaves it out
    const stack = new Stack(new App(), 'Hub', { env: { region: 'us-east-1' } });
    const model = HuggingFaceHubModel.of('meta-llama/Llama-3.1-8B-Instruct', { task: 'text-generation', containerVersion: '3.3', parameterBillions: 8 });
    const props = { model } as unknown as RealtimeEndpointProps;

    // WHEN
    let error: unknown;
    try {
      new RealtimeEndpoint(stack, 'Llama', props);
    } catch (e) {
      error = e;
    }

    // THEN
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/instanceType: got none, expected an InstanceType .*defaultInstanceType/);
  });
});
