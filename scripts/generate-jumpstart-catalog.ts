/* eslint-disable no-console */
/**
 * Regenerates data/jumpstart/catalog.json.gz from the JumpStart model-version snapshot.
 *
 *   npx ts-node --transpile-only scripts/generate-jumpstart-catalog.ts [snapshot.json.gz] [out.json.gz]
 *
 * The snapshot (default ../shared/data/jumpstart/model-versions.json.gz) is only read here: the build and the
 * tests use the committed catalog, so a fresh clone never needs it. The output format is `JumpStartCatalogData`
 * in src/jumpstart/catalog-format.ts: every repeated thing (image, environment, instance list, variant map)
 * is stored once in a table and referenced by index, and an image is stored as repository + tag + the regions
 * it exists in, so a region's URI is derived from the region -> ECR account table instead of being repeated.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'fs';
import { dirname, join, resolve } from 'path';
import { gunzipSync, gzipSync } from 'zlib';
import {
  CATALOG_SCHEMA_VERSION,
  JumpStartCatalogData,
  NotDeployableReason,
  VariantTuple,
  VersionTuple,
} from '../src/jumpstart/catalog-format';

interface SnapshotEntry {
  readonly modelId: string;
  readonly version: string;
  readonly defaultInstanceType: string;
  readonly instanceTypes: string[];
  readonly artifactKey?: string;
  readonly prepackedArtifactKey?: string;
  readonly gatedBucket?: boolean;
  readonly requiresEula?: string;
  readonly environment?: Record<string, string | number | boolean>;
  readonly instanceVariants?: Array<{ instanceType: string; imageUri?: string; environment?: Record<string, string | number | boolean> }>;
  readonly instanceAliases?: Array<{ region: string; aliases: Record<string, string> }>;
  readonly modelPackageArns?: Record<string, string>;
}

const ROOT = resolve(__dirname, '..');
const SNAPSHOT = resolve(process.argv[2] ?? join(ROOT, '..', 'shared', 'data', 'jumpstart', 'model-versions.json.gz'));
const OUT = resolve(process.argv[3] ?? join(ROOT, 'data', 'jumpstart', 'catalog.json.gz'));
const MAX_BYTES = 1024 * 1024;
// The domain is amazonaws.com, amazonaws.com.cn in China, and others in the ISO partitions.
const IMAGE_URI = /^(\d{12})\.dkr\.ecr\.([a-z0-9-]+)\.([a-z0-9.]+)\/([^:@]+):(.+)$/;
const DEFAULT_DOMAIN = 'amazonaws.com';
// Variants for the SDK's local mode, not for endpoints.
const LOCAL_VARIANTS = new Set(['local', 'local_gpu']);
// The container reads the model from /opt/ml/model and the script from the prepacked artifact.
const SUBMIT_DIRECTORY = 'SAGEMAKER_SUBMIT_DIRECTORY';

/** Stores each distinct value once; returns its index. */
class Table<T> {
  public readonly values: T[] = [];
  private readonly index = new Map<string, number>();
  public add(value: T): number {
    const key = JSON.stringify(value);
    let i = this.index.get(key);
    if (i === undefined) {
      i = this.values.length;
      this.values.push(value);
      this.index.set(key, i);
    }
    return i;
  }
}

function main() {
  if (!existsSync(SNAPSHOT)) {
    throw new Error(`Snapshot not found: ${SNAPSHOT}. Pass its path as the first argument.`);
  }
  const entries: SnapshotEntry[] = JSON.parse(gunzipSync(readFileSync(SNAPSHOT)).toString('utf8'));

  const accounts: Record<string, string> = {};
  const domains: Record<string, string> = {};
  const regionSets = new Table<string[]>();
  const images = new Table<[string, string, number]>();
  const imageGroups = new Table<number[]>();
  const environments = new Table<Record<string, string>>();
  const instanceSets = new Table<string[]>();
  const variantSets = new Table<Record<string, VariantTuple>>();
  const eulaKeys = new Table<string>();
  const models: JumpStartCatalogData['models'] = {};
  const stats: Record<string, number> = { versions: 0, deployable: 0 };

  for (const entry of entries) {
    stats.versions++;
    const model = (models[entry.modelId] ??= { versions: [], notDeployable: {} });
    const reason = notDeployableReason(entry);
    if (reason) {
      (model.notDeployable[reason] ??= []).push(entry.version);
      stats[reason] = (stats[reason] ?? 0) + 1;
      continue;
    }

    // alias name -> image group: an alias may name a different tag in a few regions, so a group is a list of images
    // with disjoint region sets.
    const aliasImages = new Map<string, number>();
    const aliasRegions = new Map<string, Map<string, string[]>>();
    for (const { region, aliases } of entry.instanceAliases ?? []) {
      for (const [alias, uri] of Object.entries(aliases)) {
        const m = IMAGE_URI.exec(uri);
        if (!m || m[2] !== region) {
          throw new Error(`${entry.modelId}@${entry.version}: unexpected image URI for ${region}: ${uri}`);
        }
        const [, account, , domain, repo, tag] = m;
        if ((accounts[region] ?? account) !== account || (domains[region] ?? domain) !== domain) {
          throw new Error(`${region} has two DLC registries: ${accounts[region]}.${domains[region]} and ${account}.${domain}`);
        }
        accounts[region] = account;
        domains[region] = domain;
        const byImage = aliasRegions.get(alias) ?? new Map<string, string[]>();
        aliasRegions.set(alias, byImage);
        const repoTag = `${repo}:${tag}`;
        byImage.set(repoTag, [...(byImage.get(repoTag) ?? []), region]);
      }
    }
    for (const [alias, byImage] of aliasRegions) {
      const group = [...byImage].map(([repoTag, regions]) => {
        const colon = repoTag.indexOf(':');
        return images.add([repoTag.slice(0, colon), repoTag.slice(colon + 1), regionSets.add([...regions].sort())]);
      });
      aliasImages.set(alias, imageGroups.add(group.sort((a, b) => a - b)));
    }

    const variants: Record<string, VariantTuple> = {};
    for (const variant of entry.instanceVariants ?? []) {
      if (LOCAL_VARIANTS.has(variant.instanceType)) continue;
      let image = -1;
      if (variant.imageUri) {
        const found = aliasImages.get(variant.imageUri.replace(/^\$/, ''));
        if (found === undefined) throw new Error(`${entry.modelId}@${entry.version}: unknown alias ${variant.imageUri}`);
        image = found;
      }
      const env = variant.environment && Object.keys(variant.environment).length > 0
        ? environments.add(stringValues(variant.environment)) : -1;
      if (image === -1 && env === -1) continue;
      variants[variant.instanceType] = env === -1 ? [image] : [image, env];
    }

    const prepacked = entry.prepackedArtifactKey !== undefined;
    const environment = stringValues(entry.environment ?? {});
    if (prepacked) delete environment[SUBMIT_DIRECTORY];

    const tuple: VersionTuple = [
      entry.version,
      entry.defaultInstanceType,
      instanceSets.add([...entry.instanceTypes].sort()),
      (entry.prepackedArtifactKey ?? entry.artifactKey)!,
      entry.gatedBucket ? 1 : 0,
      entry.requiresEula ? eulaKeys.add(entry.requiresEula) : -1,
      environments.add(environment),
      variantSets.add(variants),
    ];
    model.versions.push(tuple);
    stats.deployable++;
  }

  const catalog: JumpStartCatalogData = {
    schema: CATALOG_SCHEMA_VERSION,
    source: 'SageMaker JumpStart models_manifest.json + specs, us-east-1 content bucket, snapshot taken 2026-07-31',
    accounts: sortKeys(accounts),
    domains: sortKeys(Object.fromEntries(Object.entries(domains).filter(([, d]) => d !== DEFAULT_DOMAIN))),
    regionSets: regionSets.values,
    images: images.values,
    imageGroups: imageGroups.values,
    environments: environments.values,
    instanceSets: instanceSets.values,
    variantSets: variantSets.values,
    eulaKeys: eulaKeys.values,
    models,
  };
  for (const [id, model] of Object.entries(models)) {
    if (model.versions.length === 0) throw new Error(`${id} has no deployable version: ${JSON.stringify(model.notDeployable)}`);
  }

  const json = JSON.stringify(catalog);
  const gz = gzipSync(json, { level: 9 });
  if (gz.length > MAX_BYTES) throw new Error(`catalog is ${gz.length} bytes gzipped, over the ${MAX_BYTES} byte budget`);
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, gz);
  console.log(JSON.stringify({
    out: OUT,
    models: Object.keys(models).length,
    ...stats,
    regions: Object.keys(accounts).length,
    images: images.values.length,
    imageGroups: imageGroups.values.length,
    environments: environments.values.length,
    variantSets: variantSets.values.length,
    jsonBytes: json.length,
    gzipBytes: gz.length,
  }, undefined, 2));
}

/** Why a snapshot entry cannot become an AWS::SageMaker::Model from image + model data, if it cannot. */
function notDeployableReason(entry: SnapshotEntry): NotDeployableReason | undefined {
  if (entry.modelPackageArns) return 'marketplace';
  if (!(entry.instanceVariants ?? []).some((v) => v.imageUri)) return 'noImage';
  if (!entry.prepackedArtifactKey && !entry.artifactKey) return 'noArtifact';
  // Without a prepacked artifact the SDK uploads an inference script (hosting_script_key) that the snapshot lacks.
  if (!entry.prepackedArtifactKey && entry.environment?.SAGEMAKER_PROGRAM) return 'needsScript';
  return undefined;
}

function stringValues(env: Record<string, string | number | boolean>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)]));
}

function sortKeys<T>(o: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
}

main();
