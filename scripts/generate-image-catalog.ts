/* eslint-disable no-console */
/**
 * Regenerates data/images/catalog.json.gz from the SageMaker Python SDK's image URI tables.
 *
 *   npx ts-node --transpile-only scripts/generate-image-catalog.ts [tables-dir] [out.json.gz]
 *
 * The tables (default ../shared/data/image-uris/, a copy of the SDK's `image_uri_config/*.json`,
 * https://github.com/aws/sagemaker-python-sdk) are only read here: the build and the tests use the committed catalog.
 * The output format is `ImageCatalogData` in src/private/images/catalog-format.ts: the inference scope of each table,
 * in the SDK's shape, with the region -> account tables stored once and referenced by index.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'fs';
import { dirname, join, resolve } from 'path';
import { gzipSync } from 'zlib';
import {
  IMAGE_CATALOG_SCHEMA_VERSION,
  IMAGE_KEYS,
  ImageCatalogData,
  ImageKey,
  ImageTable,
  ImageVersionConfig,
} from '../src/private/images/catalog-format';

type Raw = Record<string, any>;

const ROOT = resolve(__dirname, '..');
const MAX_BYTES = 64 * 1024;
const VERSION_KEYS = new Set(['repository', 'registries', 'processors', 'py_versions', 'tag_prefix', 'container_version']);
const TABLE_KEYS = new Set(['processors', 'version_aliases', 'versions', 'scope']);

/** Builds the catalog from a directory of tables; exported for the generator test. */
export function buildImageCatalog(dir: string, source: string): ImageCatalogData {
  const registries: Array<Record<string, string>> = [];
  const registryIndex = new Map<string, number>();
  const addRegistries = (r: Record<string, string>): number => {
    const sorted = Object.fromEntries(Object.entries(r).sort(([a], [b]) => a.localeCompare(b)));
    const key = JSON.stringify(sorted);
    let i = registryIndex.get(key);
    if (i === undefined) {
      i = registries.length;
      registries.push(sorted);
      registryIndex.set(key, i);
    }
    return i;
  };

  const versionConfig = (where: string, raw: Raw): ImageVersionConfig => {
    for (const k of Object.keys(raw)) {
      if (!VERSION_KEYS.has(k)) throw new Error(`${where}: unexpected key '${k}' (the composition rules do not handle it)`);
    }
    if (typeof raw.repository !== 'string' || typeof raw.registries !== 'object') {
      throw new Error(`${where}: expected 'repository' and 'registries'`);
    }
    return { ...raw, registries: addRegistries(raw.registries) } as ImageVersionConfig;
  };

  const images = {} as Record<ImageKey, ImageTable>;
  for (const key of IMAGE_KEYS) {
    const file = join(dir, `${key}.json`);
    if (!existsSync(file)) throw new Error(`${file} not found: pass the tables' directory as the first argument`);
    const raw: Raw = JSON.parse(readFileSync(file, 'utf8'));
    // A table with a top-level `scope` list serves those scopes as is; others hold one table per scope.
    const scoped: Raw = raw.scope ? raw : raw.inference;
    if (!scoped || (raw.scope && !raw.scope.includes('inference'))) throw new Error(`${file}: no inference scope`);
    for (const k of Object.keys(scoped)) if (!TABLE_KEYS.has(k)) throw new Error(`${file}: unexpected key '${k}'`);
    const versions: ImageTable['versions'] = {};
    for (const [version, vc] of Object.entries<Raw>(scoped.versions)) {
      const where = `${key}@${version}`;
      if (key === 'huggingface') {
        const bases: Raw = {};
        for (const [base, bc] of Object.entries<Raw>(vc)) {
          bases[base] = base === 'version_aliases' ? bc : versionConfig(`${where} ${base}`, bc);
        }
        versions[version] = bases;
      } else {
        versions[version] = versionConfig(where, vc);
      }
    }
    images[key] = {
      ...(scoped.processors ? { processors: scoped.processors } : {}),
      ...(scoped.version_aliases ? { version_aliases: scoped.version_aliases } : {}),
      versions,
    };
  }
  return { schema: IMAGE_CATALOG_SCHEMA_VERSION, source, registries, images };
}

function main() {
  const dir = resolve(process.argv[2] ?? join(ROOT, '..', 'shared', 'data', 'image-uris'));
  const out = resolve(process.argv[3] ?? join(ROOT, 'data', 'images', 'catalog.json.gz'));
  const catalog = buildImageCatalog(dir, 'SageMaker Python SDK image_uri_config tables (inference scopes), '
    + 'aws/sagemaker-python-sdk commit a24812666d25');
  const json = JSON.stringify(catalog);
  const gz = gzipSync(json, { level: 9 });
  if (gz.length > MAX_BYTES) throw new Error(`catalog is ${gz.length} bytes gzipped, over the ${MAX_BYTES} byte budget`);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, gz);
  console.log(JSON.stringify({
    out,
    images: Object.fromEntries(Object.entries(catalog.images).map(([k, t]) => [k, Object.keys(t.versions).length])),
    registries: catalog.registries.length,
    jsonBytes: json.length,
    gzipBytes: gz.length,
  }, undefined, 2));
}

if (require.main === module) main();
