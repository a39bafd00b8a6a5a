/**
 * What a JumpStart model id and its container say about the model: payload family, parameter count and precision.
 * Internal (not part of the jsii API); JumpStartModel exposes the results.
 */

/** Weight precision; decides how much accelerator memory the weights take. */
export enum JumpStartPrecision {
  /** 16-bit floats (fp16 or bf16): 2 bytes per parameter. */
  FP16 = 'fp16',
  /** 8-bit floats: 1 byte per parameter. */
  FP8 = 'fp8',
  /** 8-bit integers (bitsandbytes, EETQ, SmoothQuant): 1 byte per parameter. */
  INT8 = 'int8',
  /** 4-bit quantization (GPTQ, AWQ, bitsandbytes-nf4): half a byte per parameter. */
  INT4 = 'int4',
}

/** The payload family hint for the runtime's request builders. */
export function deriveModelFamily(modelId: string, imageRepository?: string): string {
  const id = modelId.toLowerCase();
  if (/stable-diffusion|diffusion/.test(id)) return 'stable-diffusion';
  if (/txt2img|imagegeneration/.test(id)) return 'text-to-image';
  if (/llama-?3/.test(id)) return 'llama3';
  if (/llama-2|codellama|llama-guard-7b/.test(id)) return 'llama2';
  if (/mistral|mixtral/.test(id)) return 'mistral';
  if (/falcon/.test(id)) return 'falcon';
  if (imageRepository?.includes('tgi')) return 'tgi';
  if (imageRepository === 'djl-inference') return 'lmi';
  return 'huggingface';
}

/** Mixture-of-experts totals that `NxMb` would overstate (not every expert layer is duplicated). */
const MOE_TOTALS: Record<string, number> = { '8x7b': 46.7, '8x22b': 141 };
/** Decimal sizes whose dash reads like a version separator elsewhere (`llama-3-8b` is 8B, not 3.8B). */
const DECIMAL_SIZES: Record<string, number> = { '0-5b': 0.5, '1-5b': 1.5, '3-6b': 3.6, '10-7b': 10.7 };

/**
 * Parameters, in billions, named in a model id (`-70b`, `-8b`, `-8x7b`, `-7b1`, `-460m`, `-1-5b`), or undefined.
 */
export function parameterBillions(modelId: string): number | undefined {
  const id = modelId.toLowerCase();
  const moe = /(?:^|-)(\d+)x(\d+)b(?=-|$)/.exec(id);
  if (moe) return MOE_TOTALS[`${moe[1]}x${moe[2]}b`] ?? Number(moe[1]) * Number(moe[2]) * 0.85;
  for (const [token, billions] of Object.entries(DECIMAL_SIZES)) {
    if (new RegExp(`-${token}(?=-|$)`).test(id)) return billions;
  }
  const billions = /(?:^|-)(\d+)b(\d)?(?=-|$)/.exec(id);
  if (billions) return Number(billions[1]) + (billions[2] ? Number(billions[2]) / 10 : 0);
  const millions = /(?:^|-)(\d+)m(?=-|$)/.exec(id);
  if (millions) return Number(millions[1]) / 1000;
  return undefined;
}

/** The precision a model runs at by default: from its id, then its container environment; else 16-bit. */
export function defaultPrecision(modelId: string, environment: Record<string, string>): JumpStartPrecision {
  const id = modelId.toLowerCase();
  if (/(?:^|-)(gptq|awq|int4|4bit)(?=-|$)/.test(id)) return JumpStartPrecision.INT4;
  if (/(?:^|-)fp8(?=-|$)/.test(id)) return JumpStartPrecision.FP8;
  if (/(?:^|-)int8(?=-|$)/.test(id)) return JumpStartPrecision.INT8;
  const quantize = (environment.HF_MODEL_QUANTIZE ?? environment.OPTION_QUANTIZE ?? '').toLowerCase();
  if (/gptq|awq|nf4|fp4|bitsandbytes4/.test(quantize)) return JumpStartPrecision.INT4;
  if (/fp8/.test(quantize)) return JumpStartPrecision.FP8;
  if (/bitsandbytes|eetq|smoothquant|int8/.test(quantize)) return JumpStartPrecision.INT8;
  return JumpStartPrecision.FP16;
}
