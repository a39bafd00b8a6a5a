import { SageMakerRuntimeClient } from '@aws-sdk/client-sagemaker-runtime';
import { ok, SageMakerRuntimeServer, start } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { MODEL_FAMILIES } from 'cdk-sagemaker-mcp-runtime/internal/contract';
import {
  csvBody, csvCodec, csvField, csvLine, csvLines, jsonBody, jsonCodec, parseCsv, rawCodec, createRuntimeClient, invokeEndpoint,
  familyOfModelId,
  llama3MessagesPayload,
  llama3Prompt,
  llama3PromptPayload,
  mistralPayload,
  openAiCompletionPayload,
  parseClassification,
  parseGeneratedText,
  payloadForFamily,
  tgiPayload,
} from 'cdk-sagemaker-mcp-runtime/invoke';

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

describe('codecs', () => {
  test('a feature vector is one text/csv line with RFC 4180 quoting', () => {
    expect(csvLine([1, 2.5, -3, 'plain', 'a,b', 'say "hi"', 'two\nlines', null, undefined, true])).toBe(
      '1,2.5,-3,plain,"a,b","say ""hi""","two\nlines",,,true');
    expect(csvLines([[1, 2], [3, 4]])).toBe('1,2\n3,4');
    const encoded = csvBody([0.1, 'x']);
    expect(encoded.contentType).toBe('text/csv');
    expect(text(encoded.body)).toBe('0.1,x');
  });

  test('fails if a CSV feature is not a finite number', () => {
    expect(() => csvField(Number.NaN)).toThrow('CSV feature value NaN is not a finite number');
    expect(() => csvLine([1, Infinity])).toThrow('Infinity');
  });

  test('CSV parsing round-trips quoting and reads model output as numbers', () => {
    const rows = [['a,b', 'say "hi"', ''], ['two\nlines', '3']];
    expect(parseCsv(csvLines(rows))).toEqual(rows);
    expect(parseCsv('1,2\r\n3,4\r\n')).toEqual([['1', '2'], ['3', '4']]);
    expect(csvCodec.decode(Buffer.from('0.87\n'))).toEqual([[0.87]]);
    expect(csvCodec.decode(Buffer.from('0.1,0.9\n0.3,0.7'))).toEqual([[0.1, 0.9], [0.3, 0.7]]);
  });

  test('JSON and raw codecs carry their content type', () => {
    expect(jsonBody({ a: [1] })).toEqual({ body: new TextEncoder().encode('{"a":[1]}'), contentType: 'application/json' });
    expect(jsonCodec.decode(Buffer.from('{"x":true}'))).toEqual({ x: true });
    const png = rawCodec('image/png');
    const bytes = new Uint8Array([137, 80, 78, 71]);
    expect(png.encode(bytes)).toEqual({ body: bytes, contentType: 'image/png' });
    expect(rawCodec().encode('abc').contentType).toBe('application/octet-stream');
    expect(png.decode(bytes)).toBe(bytes);
  });
});

describe('payload builders', () => {
  test('TGI: inputs + parameters with return_full_text false', () => {
    expect(tgiPayload('Hi', { maxNewTokens: 64, temperature: 0.2, topP: 0.9, stop: ['\n'], extra: { seed: 1 } })).toEqual({
      inputs: 'Hi',
      parameters: { return_full_text: false, max_new_tokens: 64, temperature: 0.2, top_p: 0.9, stop: ['\n'], seed: 1 },
    });
  });

  test('Llama 3: Messages API body with a system message first', () => {
    expect(llama3MessagesPayload('What is 2+2?', { system: 'Be terse.', maxNewTokens: 16, temperature: 0 })).toEqual({
      messages: [{ role: 'system', content: 'Be terse.' }, { role: 'user', content: 'What is 2+2?' }],
      max_tokens: 16,
      temperature: 0,
    });
  });

  test('Llama 3: chat template for prompt-only containers', () => {
    expect(llama3Prompt('Hi', 'Sys')).toBe(
      '<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nSys<|eot_id|>'
      + '<|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n');
    expect(llama3PromptPayload('Hi', { maxNewTokens: 8 }).parameters).toEqual({ return_full_text: false, max_new_tokens: 8 });
  });

  test('Mistral: [INST] markers, system text inside the instruction', () => {
    expect(mistralPayload('Summarise this', { system: 'You are brief.', maxNewTokens: 32 })).toEqual({
      inputs: '[INST] You are brief.\n\nSummarise this [/INST]',
      parameters: { return_full_text: false, max_new_tokens: 32 },
    });
  });

  test('payloadForFamily picks the shape and JSON content type', () => {
    expect(JSON.parse(text(payloadForFamily('llama3', 'x').body))).toEqual({ messages: [{ role: 'user', content: 'x' }] });
    expect(JSON.parse(text(payloadForFamily('mistral', 'x').body)).inputs).toBe('[INST] x [/INST]');
    expect(JSON.parse(text(payloadForFamily('falcon', 'x').body)).inputs).toBe('x');
    expect(payloadForFamily('tgi', 'x').contentType).toBe('application/json');
    expect(JSON.parse(text(payloadForFamily('openai', 'x').body))).toEqual({ prompt: 'x' });
  });

  test('every family of the contract (the list the constructs and the tool schema take) builds a JSON body', () => {
    for (const family of MODEL_FAMILIES) expect(JSON.parse(text(payloadForFamily(family, 'x').body))).toBeInstanceOf(Object);
  });

  test('openai (vLLM on SageMaker): the completions body of AWS\'s quick start, system text before the prompt', () => {
    // https://github.com/aws/model-hosting-container-standards/blob/main/docs/sagemaker/01_quickstart.md sends
    // {"prompt": ..., "max_tokens": 100, "temperature": 0.7} and reads result['choices'][0]['text'].
    expect(openAiCompletionPayload('What is the capital of France?', { maxNewTokens: 100, temperature: 0.7, topP: 0.9, stop: ['\n'], system: 'Be brief.' })).toEqual({
      prompt: 'Be brief.\n\nWhat is the capital of France?', max_tokens: 100, temperature: 0.7, top_p: 0.9, stop: ['\n'],
    });
    expect(parseGeneratedText({ id: 'cmpl-1', object: 'text_completion', choices: [{ index: 0, text: ' Paris.', finish_reason: 'stop' }] })).toBe(' Paris.');
  });

  test.each([
    ['meta-textgeneration-llama-3-8b-instruct', 'llama3'],
    ['meta-textgeneration-llama-3-1-70b', 'llama3'],
    ['meta-textgeneration-llama-3-2-1b-instruct', 'llama3'],
    ['huggingface-llm-mistral-7b-instruct', 'mistral'],
    ['huggingface-llm-mixtral-8x7b-instruct', 'mistral'],
    ['huggingface-llm-falcon-7b-instruct-bf16', 'falcon'],
    ['huggingface-llm-zephyr-7b-beta', 'tgi'],
    ['meta-textgeneration-llama-2-7b', undefined],
    ['xgboost-classification-model', undefined],
  ])('familyOfModelId(%s) = %s', (modelId, family) => {
    expect(familyOfModelId(modelId)).toBe(family);
  });
});

describe('output parsers', () => {
  test('text classification: flat, nested (all scores), single and labels/probabilities forms', () => {
    expect(parseClassification([{ label: 'POSITIVE', score: 0.98 }])).toEqual({ label: 'POSITIVE', score: 0.98, scores: [{ label: 'POSITIVE', score: 0.98 }] });
    const all = parseClassification([[{ label: 'a', score: 0.1 }, { label: 'b', score: 0.7 }, { label: 'c', score: 0.2 }]]);
    expect(all.label).toBe('b');
    expect(all.scores.map((s) => s.label)).toEqual(['b', 'c', 'a']);
    expect(parseClassification({ label: 'x', score: 0.5 }).label).toBe('x');
    expect(parseClassification({ labels: ['neg', 'pos'], probabilities: [0.3, 0.7], predicted_label: 'pos' })).toMatchObject({ label: 'pos', score: 0.7 });
  });

  test('fails if classification output has no label/score shape', () => {
    expect(() => parseClassification({ generated_text: 'x' })).toThrow('Unrecognised text-classification output: expected [{label, score}] or {labels, probabilities}, got {"generated_text":"x"}');
    expect(() => parseClassification([])).toThrow('Unrecognised text-classification output');
  });

  test('generation output: TGI array/object, generation, Messages API and completions forms', () => {
    expect(parseGeneratedText([{ generated_text: 'a' }])).toBe('a');
    expect(parseGeneratedText({ generated_text: 'b' })).toBe('b');
    expect(parseGeneratedText({ generation: 'c' })).toBe('c');
    expect(parseGeneratedText([{ generation: 'd' }])).toBe('d');
    expect(parseGeneratedText({ choices: [{ message: { role: 'assistant', content: 'e' } }] })).toBe('e');
    expect(parseGeneratedText({ choices: [{ text: 'f' }] })).toBe('f');
  });

  test('fails if generation output has no text', () => {
    expect(() => parseGeneratedText({ outputs: 1 })).toThrow('Unrecognised generation output: expected generated_text, generation or choices, got {"outputs":1}');
  });
});

describe('builders and parsers through the real SDK and the local runtime', () => {
  let sm: SageMakerRuntimeServer;
  let client: SageMakerRuntimeClient;
  beforeAll(async () => {
    sm = await start();
    client = createRuntimeClient(sm.clientConfig());
  });
  afterAll(async () => {
    client.destroy();
    await sm.stop();
  });

  test('a CSV feature vector reaches the container byte for byte with text/csv', async () => {
    // GIVEN an XGBoost-style endpoint answering one score
    sm.script('xgb', ok('0.87', { contentType: 'text/csv' }));
    // WHEN
    const result = await invokeEndpoint({ endpointName: 'xgb', ...csvBody([5.1, 3.5, 'a "b"']) }, { client });
    // THEN
    expect(csvCodec.decode(result.body)).toEqual([[0.87]]);
    const [request] = sm.requestsFor('xgb');
    expect(request.headers['content-type']).toBe('text/csv');
    expect(request.bodyText).toBe('5.1,3.5,"a ""b"""');
  });

  test('a Llama 3 Messages API call round-trips to generated text', async () => {
    sm.script('llama', ok({ choices: [{ index: 0, message: { role: 'assistant', content: '4' } }] }));
    const result = await invokeEndpoint({ endpointName: 'llama', ...payloadForFamily(familyOfModelId('meta-textgeneration-llama-3-8b-instruct')!, 'What is 2+2?', { maxNewTokens: 4 }) }, { client });
    expect(parseGeneratedText(result.json())).toBe('4');
    expect(JSON.parse(sm.requestsFor('llama')[0].bodyText)).toEqual({ messages: [{ role: 'user', content: 'What is 2+2?' }], max_tokens: 4 });
  });
});
