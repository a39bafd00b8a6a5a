/**
 * The JumpStart catalog against @cdklabs/generative-ai-cdk-constructs' (GenAI) catalog, side by side:
 * - size on disk (ours: data/jumpstart/catalog.json.gz; GenAI: jumpstart-models.json + the generated jumpstart-model.js
 *   with one static constant per model version),
 * - cold import + first lookup, each in fresh child processes, alternated (node start-up excluded: timed inside),
 * - a later lookup in a warm process (GenAI inflates its whole catalog on every `bind()`; ours inflates once).
 *
 * Ours runs as plain JS (an esbuild bundle of src/jumpstart/catalog.ts into .bench-out/), as GenAI's does, so
 * neither side pays for TypeScript compilation.
 */
import { execFileSync } from 'child_process';
import { mkdirSync, statSync } from 'fs';
import { dirname, join } from 'path';
import { buildSync } from 'esbuild';
import { Bench, BenchRow, interleavedMs, median } from './harness';

const ROOT = join(__dirname, '..');
const GENAI_DIR = dirname(require.resolve('@cdklabs/generative-ai-cdk-constructs/lib/patterns/gen-ai/aws-model-deployment-sagemaker/jumpstart-model.js'));
const GENAI_MODULE = join(GENAI_DIR, 'jumpstart-model.js');
// Two levels below the root, so the bundle's `__dirname/../../data` is the repository's data/ folder.
const OURS_MODULE = join(ROOT, '.bench-out', 'jumpstart', 'catalog.js');
const COLD_RUNS = 5;
const WARM_CALLS = 5;

/** The same two lookups on both sides: Llama 3 8B Instruct 2.2.0 first, then Falcon 40B bf16 2.4.21. */
const LOOKUPS = [
  { id: 'meta-textgeneration-llama-3-8b-instruct', version: '2.2.0', genai: 'META_TEXTGENERATION_LLAMA_3_8B_INSTRUCT_2_2_0' },
  { id: 'huggingface-llm-falcon-40b-bf16', version: '2.4.21', genai: 'HUGGINGFACE_LLM_FALCON_40B_BF16_2_4_21' },
];

function bundleOurs(): void {
  mkdirSync(dirname(OURS_MODULE), { recursive: true });
  buildSync({ entryPoints: [join(ROOT, 'src', 'jumpstart', 'catalog.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: OURS_MODULE, logLevel: 'error' });
}

/** Our lookup: the version, its image for the default instance in us-east-1 and its environment. */
function oursScript(lookup: typeof LOOKUPS[number]): string {
  return `const t0 = process.hrtime.bigint();
const c = require(${JSON.stringify(OURS_MODULE)});
const t1 = process.hrtime.bigint();
const v = c.findVersion(${JSON.stringify(lookup.id)}, ${JSON.stringify(lookup.version)});
const image = c.resolveImage(v, v.defaultInstanceType, 'us-east-1');
if (!image.image || !v.environment) throw new Error('lookup failed');
const t2 = process.hrtime.bigint();
console.log(JSON.stringify({ importMs: Number(t1 - t0) / 1e6, lookupMs: Number(t2 - t1) / 1e6 }));`;
}

function genaiScript(lookup: typeof LOOKUPS[number]): string {
  return `const t0 = process.hrtime.bigint();
const { JumpStartModel } = require(${JSON.stringify(GENAI_MODULE)});
const t1 = process.hrtime.bigint();
const spec = JumpStartModel.of(${JSON.stringify(lookup.genai)}).bind();
if (!spec.instanceAliases || !spec.environment) throw new Error('lookup failed');
const t2 = process.hrtime.bigint();
console.log(JSON.stringify({ importMs: Number(t1 - t0) / 1e6, lookupMs: Number(t2 - t1) / 1e6 }));`;
}

function cold(script: string): { importMs: number; lookupMs: number } {
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}

export const bench: Bench = {
  title: 'JumpStart catalog vs @cdklabs/generative-ai-cdk-constructs',
  async run(): Promise<BenchRow[]> {
    bundleOurs();
    const ourBytes = statSync(join(ROOT, 'data', 'jumpstart', 'catalog.json.gz')).size;
    const genaiBytes = statSync(join(GENAI_DIR, 'jumpstart-models.json')).size + statSync(GENAI_MODULE).size;

    const ours: Array<{ importMs: number; lookupMs: number }> = [];
    const genai: Array<{ importMs: number; lookupMs: number }> = [];
    for (let i = 0; i < COLD_RUNS; i++) {
      ours.push(cold(oursScript(LOOKUPS[0])));
      genai.push(cold(genaiScript(LOOKUPS[0])));
    }
    const coldTotal = (runs: typeof ours) => median(runs.map((r) => r.importMs + r.lookupMs));

    // Warm: both modules loaded and their first lookup done in this process; then time the second model's lookup.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const ourCatalog = require(OURS_MODULE);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { JumpStartModel: GenAiJumpStartModel } = require(GENAI_MODULE);
    const [first, second] = LOOKUPS;
    ourCatalog.findVersion(first.id, first.version);
    GenAiJumpStartModel.of(first.genai).bind();
    const warm = await interleavedMs(
      () => {
        const v = ourCatalog.findVersion(second.id, second.version);
        return ourCatalog.resolveImage(v, v.defaultInstanceType, 'us-east-1');
      },
      () => GenAiJumpStartModel.of(second.genai).bind(),
      WARM_CALLS,
    );

    return [
      { name: 'catalog size on disk', ours: ourBytes, baseline: genaiBytes, unit: 'bytes', baselineLabel: 'GenAI jumpstart-models.json + jumpstart-model.js' },
      {
        name: `cold import + first lookup (fresh process, median of ${COLD_RUNS})`,
        ours: coldTotal(ours),
        baseline: coldTotal(genai),
        unit: 'ms',
        baselineLabel: 'GenAI',
        note: `import ${median(ours.map((r) => r.importMs)).toFixed(1)} vs ${median(genai.map((r) => r.importMs)).toFixed(1)} ms, `
          + `lookup ${median(ours.map((r) => r.lookupMs)).toFixed(1)} vs ${median(genai.map((r) => r.lookupMs)).toFixed(1)} ms`,
      },
      { name: `later lookup, warm process (median of ${WARM_CALLS})`, ours: warm.a, baseline: warm.b, unit: 'ms', baselineLabel: 'GenAI bind() (re-inflates per call)' },
    ];
  },
};
