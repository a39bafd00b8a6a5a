/**
 * `JumpStartModel.defaultInstanceType` is the least costly instance type the model's JumpStart spec supports that fits
 * the model at its precision: fewest accelerators, then G-family GPUs before P-family ones, then the smallest, then
 * JumpStart's own default between equals (docs/jumpstart.md, "Default instance type").
 */
import { InstanceType } from '../../src/core/instance-type';
import { JumpStartModel, JumpStartPrecision } from '../../src/jumpstart';
import { instanceSpecs } from '../../src/private/instance-table';

test.each([
  // id, version, JumpStart's default, the least costly that fits, why
  ['huggingface-llm-mistral-7b-instruct', '3.5.0', 'ml.g5.12xlarge', 'ml.g5.2xlarge'], // one A10G (24 GiB) holds 22.5 GiB
  ['huggingface-llm-falcon-40b-instruct-bf16', '2.3.22', 'ml.g5.48xlarge', 'ml.g5.12xlarge'], // 4 GPUs, not 8
  ['model-txt2img-stabilityai-stable-diffusion-v2-1-base', '2.0.20', 'ml.p3.2xlarge', 'ml.g4dn.4xlarge'], // a T4 before a V100
  ['meta-textgeneration-llama-3-70b-instruct', '2.2.0', 'ml.p4d.24xlarge', 'ml.g5.48xlarge'], // 8 A10G before 8 A100
  ['meta-textgeneration-llama-3-8b-instruct', '2.2.0', 'ml.g5.12xlarge', 'ml.g5.12xlarge'], // 24.6 GiB at fp16: one A10G is short
  ['meta-textgeneration-llama-3-2-1b', '1.0.6', 'ml.g6.xlarge', 'ml.g6.xlarge'], // equal to ml.g5.xlarge: JumpStart's choice stays
  ['huggingface-asr-whisper-large', '3.0.20', 'ml.g5.2xlarge', 'ml.g5.2xlarge'], // size unknown: JumpStart's default
])('%s@%s: JumpStart says %s, the least costly that fits is %s', (id, version, catalogDefault, expected) => {
  const model = JumpStartModel.of(id, { version, acceptEula: true });
  expect(model.catalogDefaultInstanceType.name).toBe(catalogDefault);
  expect(model.defaultInstanceType.name).toBe(expected);
  expect(model.supportedInstanceTypes).toContain(expected);
  expect(model.fitsInstanceType(model.defaultInstanceType)).toBe(true);
});

test('the precision moves the default: Llama 3 8B at int4 fits one A10G', () => {
  const model = JumpStartModel.of('meta-textgeneration-llama-3-8b-instruct', { version: '2.2.0', acceptEula: true, precision: JumpStartPrecision.INT4 });
  expect(model.defaultInstanceType.name).toBe('ml.g5.2xlarge');
});

test('across the catalog, no supported type that fits has fewer accelerators than the default', () => {
  const problems: string[] = [];
  for (const id of JumpStartModel.modelIds()) {
    const model = JumpStartModel.of(id, { acceptEula: true });
    const chosen = instanceSpecs(model.defaultInstanceType.name);
    if (!model.supportedInstanceTypes.includes(model.defaultInstanceType.name)) problems.push(`${id}: ${model.defaultInstanceType.name} not supported`);
    if (!chosen || model.resourceRequirements.minAcceleratorMemoryGiB === undefined) continue;
    const fewer = model.supportedInstanceTypes.filter((t) => {
      const spec = instanceSpecs(t);
      return spec && spec.accelerators < chosen.accelerators && model.fitsInstanceType(InstanceType.of(t));
    });
    if (fewer.length > 0) problems.push(`${id}: ${model.defaultInstanceType.name}, but ${fewer.join(', ')} fit with fewer accelerators`);
  }
  expect(problems).toEqual([]);
});
