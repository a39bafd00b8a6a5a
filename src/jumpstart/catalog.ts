import { CATALOG_SCHEMA_VERSION, JumpStartCatalogData, NotDeployableReason, VersionTuple } from './catalog-format';
import { BundledCatalog, dataFile } from '../private/bundled-catalog';

/**
 * Lookups over the generated JumpStart catalog (data/jumpstart/catalog.json.gz, read once by the shared loader of
 * src/private/bundled-catalog.ts). Internal: not part of the jsii API.
 */
const CATALOG = new BundledCatalog<JumpStartCatalogData>(
  'JumpStart catalog', dataFile('jumpstart', 'catalog.json.gz'), CATALOG_SCHEMA_VERSION, 'jumpstart:catalog');

export const CATALOG_PATH = CATALOG.path;

export function loadCatalog(): JumpStartCatalogData {
  return CATALOG.load();
}

/** How many times the catalog file has been read and inflated in this process (tests and benchmarks). */
export function catalogLoadCount(): number {
  return CATALOG.loadCount;
}

/** A deployable version, decoded. */
export interface CatalogVersion {
  readonly modelId: string;
  readonly version: string;
  readonly defaultInstanceType: string;
  readonly supportedInstanceTypes: string[];
  readonly artifactKey: string;
  readonly gated: boolean;
  readonly eulaKey?: string;
  readonly environment: Record<string, string>;
  /** instance family or full type -> [imageGroups index (-1: none), environments index?] */
  readonly variants: Record<string, [number] | [number, number]>;
}

export interface CatalogModel {
  readonly modelId: string;
  /** Deployable version strings, newest first. */
  readonly versions: string[];
  readonly notDeployable: Partial<Record<NotDeployableReason, string[]>>;
}

export function modelIds(): string[] {
  return Object.keys(loadCatalog().models);
}

export function findModel(modelId: string): CatalogModel | undefined {
  const entry = Object.prototype.hasOwnProperty.call(loadCatalog().models, modelId) ? loadCatalog().models[modelId] : undefined;
  if (!entry) return undefined;
  return { modelId, versions: entry.versions.map((v) => v[0]), notDeployable: entry.notDeployable };
}

/** The deployable version `version` of a model (newest when undefined), or undefined. */
export function findVersion(modelId: string, version?: string): CatalogVersion | undefined {
  const data = loadCatalog();
  const entry = data.models[modelId];
  const tuple = version === undefined ? entry?.versions[0] : entry?.versions.find((v) => v[0] === version);
  return tuple ? decode(data, modelId, tuple) : undefined;
}

function decode(data: JumpStartCatalogData, modelId: string, t: VersionTuple): CatalogVersion {
  const [version, defaultInstanceType, instanceSet, artifactKey, gated, eula, env, variantSet] = t;
  return {
    modelId,
    version,
    defaultInstanceType,
    supportedInstanceTypes: data.instanceSets[instanceSet],
    artifactKey,
    gated: gated === 1,
    eulaKey: eula >= 0 ? data.eulaKeys[eula] : undefined,
    environment: data.environments[env],
    variants: data.variantSets[variantSet],
  };
}

/** An image of a version for one instance type and region. */
export interface ResolvedImage {
  readonly account: string;
  readonly repository: string;
  readonly tag: string;
  readonly uri: string;
}

export type ImageResolution =
  | { readonly image: ResolvedImage }
  | { readonly error: 'noVariant' }
  | { readonly error: 'notInRegion'; readonly regions: string[] };

/** `variants[instanceType]`, then `variants[family]` (the SDK's order); the image is then picked for the region. */
export function resolveImage(v: CatalogVersion, instanceType: string, region: string): ImageResolution {
  const family = instanceType.split('.')[1];
  const exact = v.variants[instanceType];
  const group = exact && exact[0] >= 0 ? exact[0] : v.variants[family]?.[0];
  if (group === undefined || group < 0) return { error: 'noVariant' };
  return imageInRegion(group, region);
}

/** Every distinct image group a version uses, over all instance families. */
export function imageGroupsOf(v: CatalogVersion): number[] {
  return [...new Set(Object.values(v.variants).map((x) => x[0]).filter((g) => g >= 0))];
}

export function imageInRegion(group: number, region: string): ImageResolution {
  const data = loadCatalog();
  const regions: string[] = [];
  for (const i of data.imageGroups[group]) {
    const [repository, tag, regionSet] = data.images[i];
    const inRegions = data.regionSets[regionSet];
    if (inRegions.includes(region)) {
      const account = data.accounts[region];
      const domain = data.domains[region] ?? 'amazonaws.com';
      return { image: { account, repository, tag, uri: `${account}.dkr.ecr.${region}.${domain}/${repository}:${tag}` } };
    }
    regions.push(...inRegions);
  }
  return { error: 'notInRegion', regions: [...new Set(regions)].sort() };
}

/** Family environment, then the exact instance type's (the SDK's order: the more specific wins). */
export function variantEnvironment(v: CatalogVersion, instanceType: string): Record<string, string> {
  const data = loadCatalog();
  const family = instanceType.split('.')[1];
  const envOf = (key: string) => {
    const idx = v.variants[key]?.[1];
    return idx === undefined ? {} : data.environments[idx];
  };
  return { ...envOf(family), ...envOf(instanceType) };
}

/** The DLC registry account the catalog holds for each region. */
export function catalogAccounts(): Record<string, string> {
  return { ...loadCatalog().accounts };
}
