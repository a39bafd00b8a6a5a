/**
 * The image catalog (data/images/catalog.json.gz): its size, the cold load (read + inflate + parse, once per
 * process), and a warm lookup (compose the tag and pick the region's registry) per call.
 * Baselines: the uncompressed catalog JSON (size), and a Map lookup of a precomputed URI (the floor for any lookup).
 * The cold load is an absolute figure.
 */
import { readFileSync, statSync } from 'fs';
import { gunzipSync } from 'zlib';
import { Bench, BenchRow } from './harness';
import { composeImage, IMAGE_CATALOG_PATH, loadImageCatalog } from '../src/private/images/catalog';
import { imageUriIn } from '../src/private/images/registry';
import { PropValidator } from '../src/private/validation';

const CALLS = 20_000;
const REQUESTS = [
  { image: 'huggingface-llm' as const, version: '3.3', region: 'us-east-1' },
  { image: 'pytorch' as const, version: '2.6', processor: 'gpu', region: 'eu-west-1' },
  { image: 'huggingface' as const, version: '4.51', processor: 'cpu', baseFramework: 'pytorch2.6', region: 'cn-north-1' },
  { image: 'xgboost' as const, version: '1.7-1', region: 'ap-south-1' },
];

function perCallMicros(fn: (i: number) => unknown): number {
  for (let i = 0; i < 1000; i++) fn(i);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) fn(i);
  return Number(process.hrtime.bigint() - t0) / 1e3 / CALLS;
}

export const bench: Bench = {
  title: 'Image catalog: size, cold load, warm lookup',
  async run(): Promise<BenchRow[]> {
    const gz = statSync(IMAGE_CATALOG_PATH).size;
    const json = gunzipSync(readFileSync(IMAGE_CATALOG_PATH)).length;
    const t0 = process.hrtime.bigint();
    loadImageCatalog();
    const coldMs = Number(process.hrtime.bigint() - t0) / 1e6;
    const lookup = (i: number) => {
      const r = REQUESTS[i % REQUESTS.length];
      const image = composeImage(r, new PropValidator('bench'));
      return imageUriIn(image!, r.region);
    };
    const precomputed = new Map(REQUESTS.map((_, i) => [i, lookup(i)]));
    return [
      { name: 'catalog size', ours: gz, baseline: json, unit: 'bytes', baselineLabel: 'the same catalog uncompressed' },
      { name: 'cold load (read + gunzip + parse, once per process)', ours: coldMs, baseline: coldMs, unit: 'ms', baselineLabel: 'itself', note: 'absolute figure' },
      {
        name: 'warm lookup (compose tag + region registry)',
        ours: perCallMicros(lookup),
        baseline: perCallMicros((i) => precomputed.get(i % REQUESTS.length)),
        unit: 'µs/call',
        baselineLabel: 'Map.get of a precomputed URI',
      },
    ];
  },
};
