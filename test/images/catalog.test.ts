/**
 * The committed image catalog (data/images/catalog.json.gz) against the SageMaker Python SDK's composition rules.
 *
 * `sdkRetrieve` below is an independent transcription of `sagemaker.image_uris.retrieve` for the inference scopes
 * (https://github.com/aws/sagemaker-python-sdk/blob/master/src/sagemaker/image_uris.py): it reads tables in the SDK's
 * raw shape (registries inline), takes an instance type as the SDK does (not a processor), and takes the host domain
 * from aws-cdk-lib's region facts rather than the library's partition table.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { RegionInfo } from 'aws-cdk-lib/region-info';
import { buildImageCatalog } from '../../scripts/generate-image-catalog';
import { composeImage, loadImageCatalog } from '../../src/private/images/catalog';
import { IMAGE_KEYS, ImageCatalogData, ImageKey } from '../../src/private/images/catalog-format';
import { imageUriIn } from '../../src/private/images/registry';
import { PropValidator } from '../../src/private/validation';

type Raw = Record<string, any>;
const FIXTURES = join(__dirname, '..', 'fixtures', 'image-uris');
const readFixture = (key: string): Raw => JSON.parse(readFileSync(join(FIXTURES, `${key}.json`), 'utf8'));
const INSTANCE_FOR: Record<string, string> = { cpu: 'ml.m5.xlarge', gpu: 'ml.g5.2xlarge' };

/** The catalog's tables back in the SDK's shape: each `registries` index replaced by its region -> account table. */
function rehydrate(data: ImageCatalogData): Record<ImageKey, Raw> {
  const fix = (vc: Raw): Raw => ({ ...vc, registries: data.registries[vc.registries] });
  return Object.fromEntries(IMAGE_KEYS.map((key) => {
    const t = data.images[key];
    const versions = Object.fromEntries(Object.entries(t.versions).map(([v, vc]: [string, Raw]) => [v, key === 'huggingface'
      ? Object.fromEntries(Object.entries(vc).map(([b, bc]) => [b, b === 'version_aliases' ? bc : fix(bc as Raw)]))
      : fix(vc)]));
    return [key, { ...t, versions }];
  })) as unknown as Record<ImageKey, Raw>;
}

/** The inference scope of a raw SDK table file. */
function inferenceScope(raw: Raw): Raw {
  return raw.scope ? { processors: raw.processors, version_aliases: raw.version_aliases, versions: raw.versions } : raw.inference;
}

/** `_processor(instance_type, available)`: family in the list, inf*, trn*, g/p -> gpu, else cpu. */
function sdkProcessor(instanceType: string, available: string[] | undefined): string | undefined {
  if (!available || available.length === 0) return undefined;
  const family = instanceType.split('.')[1];
  const p = available.includes(family) ? family : family.startsWith('inf') ? 'inf' : family.startsWith('trn') ? 'trn'
    : 'gp'.includes(family[0]) ? 'gpu' : 'cpu';
  if (!available.includes(p)) throw new Error(`Unsupported processor: ${p}`);
  return p;
}

function sdkRetrieve(framework: ImageKey, config: Raw, region: string, version: string,
  opts: { instanceType: string; pyVersion?: string; baseFrameworkVersion?: string }): string {
  const available = Object.keys(config.versions);
  const aliases: Record<string, string> = config.version_aliases ?? {};
  if (available.length === 1 && !(version in aliases)) version = available[0];
  else if (![...available, ...Object.keys(aliases)].includes(version)) throw new Error(`Unsupported version: ${version}`);
  let vc: Raw = config.versions[aliases[version] ?? version];
  if (framework === 'huggingface') {
    const full = vc.version_aliases?.[opts.baseFrameworkVersion!] ?? opts.baseFrameworkVersion;
    vc = vc[full];
  }
  const pys: string[] = vc.py_versions ?? [];
  const py = pys.length === 0 ? undefined : opts.pyVersion ?? (pys.length === 1 ? pys[0] : undefined);
  if (pys.length > 0 && !pys.includes(py!)) throw new Error(`Unsupported Python version: ${py}`);
  const registry = vc.registries[region];
  if (!registry) throw new Error(`Unsupported region: ${region}`);
  const hostname = `ecr.${region}.${RegionInfo.get(region).domainSuffix}`;
  const processor = sdkProcessor(opts.instanceType, config.processors ?? vc.processors);
  const containerVersion = vc.container_version ? vc.container_version[processor!] : undefined;
  const tagPrefix = framework === 'huggingface'
    ? `${/^(pytorch|tensorflow)(.*)$/.exec(opts.baseFrameworkVersion!)![2]}-transformers${version}`
    : vc.tag_prefix ?? version;
  const tag = [tagPrefix, processor, py, containerVersion].filter((x) => x).join('-');
  return `${registry}.dkr.${hostname}/${vc.repository}:${tag}`;
}

/** Every (image, version or alias, base framework, Python version, processor) the catalog offers. */
function* requests(tables: Record<ImageKey, Raw>) {
  for (const image of IMAGE_KEYS) {
    const t = tables[image];
    for (const version of [...Object.keys(t.versions), ...Object.keys(t.version_aliases ?? {})]) {
      const entry = t.versions[t.version_aliases?.[version] ?? version];
      const bases: Array<string | undefined> = image === 'huggingface'
        ? [...Object.keys(entry.version_aliases ?? {}), ...Object.keys(entry).filter((k) => k !== 'version_aliases')]
        : [undefined];
      for (const base of bases) {
        const vc = base === undefined ? entry : entry[entry.version_aliases?.[base] ?? base];
        for (const py of (vc.py_versions?.length ?? 0) > 1 ? vc.py_versions : [undefined]) {
          for (const processor of t.processors ?? vc.processors ?? [undefined]) {
            const regions = Object.keys(vc.registries);
            yield { image, version, base, py: py as string | undefined, processor: processor as string | undefined, regions };
          }
        }
      }
    }
  }
}

function libraryUri(r: { image: ImageKey; version: string; base?: string; py?: string; processor?: string }, region: string) {
  const v = new PropValidator('test');
  const composed = composeImage({ image: r.image, version: r.version, baseFramework: r.base, pythonVersion: r.py, processor: r.processor }, v);
  v.throwIfInvalid();
  return imageUriIn(composed!, region);
}

describe('image catalog', () => {
  const tables = rehydrate(loadImageCatalog());

  test('every (image, version, region, processor) entry resolves to the URI the SDK composes', () => {
    let walked = 0;
    const mismatches: string[] = [];
    for (const r of requests(tables)) {
      for (const region of r.regions) {
        const expected = sdkRetrieve(r.image, tables[r.image], region, r.version,
          { instanceType: INSTANCE_FOR[r.processor ?? 'cpu'], pyVersion: r.py, baseFrameworkVersion: r.base });
        const got = libraryUri(r, region);
        if (got !== expected) mismatches.push(`${JSON.stringify({ ...r, regions: undefined, region })}: ${got} != ${expected}`);
        walked++;
      }
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
    // Every image and every region of the tables took part.
    expect(walked).toBeGreaterThan(10_000);
    console.log(`walked ${walked} (image, version, region, processor) entries`);
  });

  test('the catalog holds every version of the raw SDK table fixtures, unchanged', () => {
    for (const key of IMAGE_KEYS) {
      const raw = inferenceScope(readFixture(key));
      for (const [version, vc] of Object.entries(raw.versions)) {
        expect({ key, version, vc: tables[key].versions[version] }).toEqual({ key, version, vc });
      }
      for (const [alias, target] of Object.entries(raw.version_aliases ?? {})) {
        expect({ key, alias, target: tables[key].version_aliases?.[alias] }).toEqual({ key, alias, target });
      }
      expect(tables[key].processors).toEqual(raw.processors);
    }
  });

  test('the fixture tables, composed the SDK way, give the URIs the library resolves', () => {
    let n = 0;
    const fixtureTables = Object.fromEntries(IMAGE_KEYS.map((k) => [k, inferenceScope(readFixture(k))])) as Record<ImageKey, Raw>;
    for (const r of requests(fixtureTables)) {
      for (const region of r.regions) {
        expect(libraryUri(r, region)).toBe(sdkRetrieve(r.image, fixtureTables[r.image], region, r.version,
          { instanceType: INSTANCE_FOR[r.processor ?? 'cpu'], pyVersion: r.py, baseFrameworkVersion: r.base }));
        n++;
      }
    }
    expect(n).toBeGreaterThan(1000);
  });

  test('regenerating from the fixture tables gives the committed entries for those versions', () => {
    const fromFixture = rehydrate(buildImageCatalog(FIXTURES, 'fixture'));
    for (const key of IMAGE_KEYS) {
      for (const [version, vc] of Object.entries(fromFixture[key].versions)) {
        expect({ key, version, vc: tables[key].versions[version] }).toEqual({ key, version, vc });
      }
      for (const [alias, target] of Object.entries(fromFixture[key].version_aliases ?? {})) {
        expect(tables[key].version_aliases?.[alias]).toBe(target);
      }
    }
  });

  test('known URIs, spelled out', () => {
    const uri = (image: ImageKey, version: string, region: string, extra: { processor?: string; base?: string; py?: string } = {}) =>
      libraryUri({ image, version, ...extra }, region);
    expect(uri('huggingface-llm', '3.3', 'us-east-1'))
      .toBe('763104351884.dkr.ecr.us-east-1.amazonaws.com/huggingface-pytorch-tgi-inference:2.7.0-tgi3.3.6-gpu-py311-cu124-ubuntu22.04');
    expect(uri('xgboost', '1.7-1', 'us-west-2')).toBe('246618743249.dkr.ecr.us-west-2.amazonaws.com/sagemaker-xgboost:1.7-1');
    expect(uri('pytorch', '2.6', 'cn-north-1', { processor: 'gpu' }))
      .toBe('727897471807.dkr.ecr.cn-north-1.amazonaws.com.cn/pytorch-inference:2.6-gpu-py312');
    expect(uri('tensorflow', '2.19.0', 'eu-west-1', { processor: 'cpu' }))
      .toBe('763104351884.dkr.ecr.eu-west-1.amazonaws.com/tensorflow-inference:2.19.0-cpu');
    expect(uri('huggingface', '4.51', 'us-east-1', { processor: 'gpu', base: 'pytorch2.6' }))
      .toBe('763104351884.dkr.ecr.us-east-1.amazonaws.com/huggingface-pytorch-inference:2.6-transformers4.51-gpu-py312-cu124-ubuntu22.04');
  });
});
