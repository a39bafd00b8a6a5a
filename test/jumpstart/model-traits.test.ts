import { defaultPrecision, deriveModelFamily, JumpStartPrecision, parameterBillions } from '../../src/jumpstart/model-traits';
import { acceleratorsNeeded, memoryRequirement, minimumFittingInstance } from '../../src/jumpstart/sizing';
import { instanceSpecs } from '../../src/private/instance-table';

describe('parameterBillions', () => {
  test.each([
    ['meta-textgeneration-llama-3-8b-instruct', 8],
    ['meta-textgeneration-llama-3-70b', 70],
    ['meta-textgeneration-llama-3-2-1b', 1],
    ['huggingface-llm-gemma-2-9b', 9],
    ['huggingface-llm-qwen2-5-72b-instruct', 72],
    ['huggingface-llm-qwen2-5-7b-instruct', 7],
    ['huggingface-llm-qwen2-1-5b', 1.5],
    ['deepseek-llm-r1-distill-qwen-1-5b', 1.5],
    ['huggingface-llm-nousresearch-nous-hermes-2-solar-10-7b', 10.7],
    ['huggingface-llm-yi-1-5-34b', 34],
    ['huggingface-textgeneration1-bloom-7b1', 7.1],
    ['huggingface-llm-mixtral-8x7b-instruct', 46.7],
    ['huggingface-llm-mixtral-8x22B', 141],
    ['huggingface-llm-huggingfaceh4-zephyr-orpo-141b-a35b-v01', 141],
    ['huggingface-llm-eleutherai-pythia-160m-deduped', 0.16],
    ['meta-textgeneration-llama-3-1-405b-instruct-fp8', 405],
  ])('%s -> %d B', (id, billions) => {
    expect(parameterBillions(id)).toBe(billions);
  });

  test('ids without a size give undefined', () => {
    expect(parameterBillions('huggingface-llm-starcoder')).toBeUndefined();
    expect(parameterBillions('huggingface-spc-bert-base-cased')).toBeUndefined();
  });
});

describe('defaultPrecision', () => {
  test('from the id, then the environment, else FP16', () => {
    expect(defaultPrecision('huggingface-llm-mistral-7b-openorca-gptq', {})).toBe(JumpStartPrecision.INT4);
    expect(defaultPrecision('meta-textgeneration-llama-3-1-405b-fp8', {})).toBe(JumpStartPrecision.FP8);
    expect(defaultPrecision('x-7b', { HF_MODEL_QUANTIZE: 'awq' })).toBe(JumpStartPrecision.INT4);
    expect(defaultPrecision('x-7b', { HF_MODEL_QUANTIZE: 'bitsandbytes' })).toBe(JumpStartPrecision.INT8);
    expect(defaultPrecision('x-7b', { OPTION_QUANTIZE: 'fp8' })).toBe(JumpStartPrecision.FP8);
    expect(defaultPrecision('huggingface-llm-falcon-40b-bf16', {})).toBe(JumpStartPrecision.FP16);
  });
});

describe('deriveModelFamily', () => {
  test.each([
    ['meta-textgeneration-llama-3-8b-instruct', 'djl-inference', 'llama3'],
    ['huggingface-llm-llama3-8b-sealionv21-instruct', 'huggingface-pytorch-tgi-inference', 'llama3'],
    ['meta-textgeneration-llama-2-7b-f', 'djl-inference', 'llama2'],
    ['huggingface-llm-mixtral-8x7b', 'huggingface-pytorch-tgi-inference', 'mistral'],
    ['huggingface-llm-falcon-40b-bf16', 'huggingface-pytorch-tgi-inference', 'falcon'],
    ['model-txt2img-stabilityai-stable-diffusion-v2-1-base', 'stabilityai-pytorch-inference', 'stable-diffusion'],
    ['huggingface-txt2img-black-forest-labs-flux-1-schnell', 'huggingface-pytorch-inference', 'text-to-image'],
    ['huggingface-llm-gemma-7b', 'huggingface-pytorch-tgi-inference', 'tgi'],
    ['huggingface-llm-qwen2-7b', 'djl-inference', 'lmi'],
    ['huggingface-spc-bert-base-cased', 'huggingface-pytorch-inference', 'huggingface'],
  ])('%s on %s -> %s', (id, repo, family) => {
    expect(deriveModelFamily(id, repo)).toBe(family);
  });
});

describe('sizing', () => {
  test('required memory: parameters x effective bytes + 7 GiB', () => {
    expect(memoryRequirement('llama3', 8, JumpStartPrecision.FP16)!.requiredGiB).toBe(24.6);
    expect(memoryRequirement('llama3', 70, JumpStartPrecision.INT4)!.requiredGiB).toBe(98);
    expect(memoryRequirement('stable-diffusion', undefined, JumpStartPrecision.FP16)!.requiredGiB).toBe(12);
    expect(memoryRequirement('huggingface', undefined, JumpStartPrecision.FP16)).toBeUndefined();
  });

  test('a tested default instance caps the estimate at its precision, not at a larger one', () => {
    const tested = { instanceType: 'ml.g5.4xlarge', precision: JumpStartPrecision.FP16 };
    expect(memoryRequirement('llama3', 8, JumpStartPrecision.FP16, tested)!.requiredGiB).toBe(24);
    const testedAt4Bit = { instanceType: 'ml.g5.2xlarge', precision: JumpStartPrecision.INT4 };
    expect(memoryRequirement('llama3', 8, JumpStartPrecision.FP16, testedAt4Bit)!.requiredGiB).toBe(24.6);
  });

  test('the minimum instance comes from the supported list, else from the table', () => {
    const req = memoryRequirement('llama3', 8, JumpStartPrecision.FP16)!;
    expect(minimumFittingInstance(req, ['ml.g5.2xlarge', 'ml.g5.48xlarge', 'ml.g5.12xlarge'])).toEqual({ instanceType: 'ml.g5.12xlarge', supported: true });
    expect(minimumFittingInstance(req, ['ml.g5.2xlarge'])).toEqual({ instanceType: 'ml.g6e.xlarge', supported: false });
  });

  test('accelerators needed on a multi-GPU instance', () => {
    const req = memoryRequirement('llama3', 8, JumpStartPrecision.FP16)!;
    expect(acceleratorsNeeded(instanceSpecs('ml.g5.12xlarge')!, req)).toBe(2);
    expect(acceleratorsNeeded(instanceSpecs('ml.p4de.24xlarge')!, req)).toBe(1);
    expect(acceleratorsNeeded(instanceSpecs('ml.m5.xlarge')!, req)).toBeUndefined();
  });
});
