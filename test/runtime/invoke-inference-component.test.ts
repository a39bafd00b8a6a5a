import { SageMakerRuntimeClient } from '@aws-sdk/client-sagemaker-runtime';
import { App, Size, Stack } from 'aws-cdk-lib';
import { InstanceType } from '../../src/core';
import { JumpStartModel } from '../../src/jumpstart/jumpstart-model';
import { InferenceComponent, SharedGpuEndpoint } from '../../src/shared-gpu';
import { fail, ok, SageMakerRuntimeServer, start } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { EndpointValidationError } from 'cdk-sagemaker-mcp-runtime/core';
import { familyOfModelId, ModelFamily, payloadForFamily, createRuntimeClient, invokeEndpoint } from 'cdk-sagemaker-mcp-runtime/invoke';

const ENDPOINT = 'mcp-shared-gpu-endpoint';
const IC_HEADER = 'x-amzn-sagemaker-inference-component';

/** A shared endpoint with Llama 3 70B and Mistral 7B as components of one ml.p4d.24xlarge (as in docs/shared-gpu.md). */
function sharedEndpoint(): { llama: InferenceComponent; mistral: InferenceComponent } {
  const stack = new Stack(new App(), 'Stack', { env: { account: '123456789012', region: 'us-east-1' } });
  const endpoint = new SharedGpuEndpoint(stack, 'Shared', { instanceType: InstanceType.ML_P4D_24XLARGE, endpointName: ENDPOINT });
  const llama = endpoint.addInferenceComponent('Llama', {
    model: JumpStartModel.of('meta-textgeneration-llama-3-70b-instruct', { version: '2.2.0', acceptEula: true }),
    componentName: 'mcp-llama3-70b',
    acceleratorCount: 4,
    minMemory: Size.mebibytes(180_000),
  });
  const mistral = endpoint.addInferenceComponent('Mistral', {
    model: JumpStartModel.of('huggingface-llm-mistral-7b-instruct', { version: '3.5.0' }),
    componentName: 'mcp-mistral-7b',
  });
  return { llama, mistral };
}

// One local runtime for the file (a real SDK client, no retries), forgotten before each test.
let sm: SageMakerRuntimeServer;
let client: SageMakerRuntimeClient;
let components: ReturnType<typeof sharedEndpoint>;
beforeAll(async () => {
  sm = await start();
  client = createRuntimeClient(sm.clientConfig({ retry: { maxAttempts: 1 } }));
  components = sharedEndpoint();
});
afterAll(async () => {
  client.destroy();
  await sm.stop();
});
beforeEach(() => sm.clear());

describe('invokeEndpoint with inferenceComponentName (real SDK client, local runtime)', () => {
  test('sends X-Amzn-SageMaker-Inference-Component with the component name', async () => {
    // GIVEN
    sm.script(ENDPOINT, ok({ choices: [{ message: { role: 'assistant', content: 'hi' } }] }));
    const { llama } = components;

    // WHEN
    const result = await invokeEndpoint({
      endpointName: ENDPOINT,
      inferenceComponentName: llama.inferenceComponentName,
      ...payloadForFamily(llama.modelFamily!.name as ModelFamily, 'Say hi', { maxNewTokens: 256 }),
    }, { client });

    // THEN
    const [request] = sm.requestsFor(ENDPOINT, 'invoke');
    expect(request.headers[IC_HEADER]).toBe('mcp-llama3-70b');
    expect(request.path).toBe(`/endpoints/${ENDPOINT}/invocations`);
    expect(result.json()).toEqual({ choices: [{ message: { role: 'assistant', content: 'hi' } }] });
  });

  test('the header is absent when no component is named', async () => {
    sm.script(ENDPOINT, ok('plain'));
    await invokeEndpoint({ endpointName: ENDPOINT, body: '{}', contentType: 'application/json' }, { client });
    expect(sm.requestsFor(ENDPOINT)[0].headers[IC_HEADER]).toBeUndefined();
  });

  test('a shared endpoint refusing a call without a component surfaces as EndpointValidationError', async () => {
    // GIVEN: what SageMaker answers on an IC endpoint when the header is missing
    sm.setDefault(ENDPOINT, (req) => req.headers[IC_HEADER]
      ? ok('{}', { contentType: 'application/json' })
      : fail('ValidationError', { message: 'Inference Component Name header is required for endpoints to which you plan to deploy inference components.' }));

    // WHEN / THEN
    await expect(invokeEndpoint({ endpointName: ENDPOINT, body: '{}', contentType: 'application/json' }, { client }))
      .rejects.toBeInstanceOf(EndpointValidationError);
    await expect(invokeEndpoint({ endpointName: ENDPOINT, inferenceComponentName: 'mcp-mistral-7b', body: '{}', contentType: 'application/json' }, { client }))
      .resolves.toMatchObject({ contentType: 'application/json' });
  });
});

describe('JumpStart payload builders follow the component model\'s family', () => {
  test('each component carries the family its JumpStart model id implies', () => {
    expect(components.llama.modelFamily?.name).toBe('llama3');
    expect(components.llama.modelFamily?.name).toBe(familyOfModelId('meta-textgeneration-llama-3-70b-instruct'));
    expect(components.mistral.modelFamily?.name).toBe('mistral');
    expect(components.mistral.modelFamily?.name).toBe(familyOfModelId('huggingface-llm-mistral-7b-instruct'));
  });

  test('Llama 3 gets a Messages API body, Mistral an [INST] prompt, each routed to its component', async () => {
    // GIVEN
    sm.setDefault(ENDPOINT, ok({ generated_text: 'ok' }));

    // WHEN
    for (const ic of [components.llama, components.mistral]) {
      await invokeEndpoint({
        endpointName: ENDPOINT,
        inferenceComponentName: ic.inferenceComponentName,
        ...payloadForFamily(ic.modelFamily!.name as ModelFamily, 'Summarize the ticket', { maxNewTokens: 128, system: 'Be brief.' }),
      }, { client });
    }

    // THEN
    const [toLlama, toMistral] = sm.requestsFor(ENDPOINT);
    expect(toLlama.headers[IC_HEADER]).toBe('mcp-llama3-70b');
    expect(toLlama.headers['content-type']).toBe('application/json');
    expect(JSON.parse(toLlama.bodyText)).toEqual({
      messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Summarize the ticket' }],
      max_tokens: 128,
    });
    expect(toMistral.headers[IC_HEADER]).toBe('mcp-mistral-7b');
    expect(JSON.parse(toMistral.bodyText)).toEqual({
      inputs: '[INST] Be brief.\n\nSummarize the ticket [/INST]',
      parameters: { return_full_text: false, max_new_tokens: 128 },
    });
  });
});
