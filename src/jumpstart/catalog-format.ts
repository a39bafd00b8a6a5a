/**
 * The shape of data/jumpstart/catalog.json.gz, written by scripts/generate-jumpstart-catalog.ts and read by
 * catalog.ts. Plain types only (no runtime code), shared by the generator and the library.
 *
 * Everything repeated across versions is stored once in a table and referenced by index.
 */
export const CATALOG_SCHEMA_VERSION = 1;

/** Why a published version is left out of the deployable set. */
export type NotDeployableReason =
  /** Marketplace/proprietary: deployed by model package ARN, not by image + model data. */
  | 'marketplace'
  /** The spec has no image data (the newer spec layout the snapshot's reducer did not read). */
  | 'noImage'
  /** No artifact key. */
  | 'noArtifact'
  /** Not prepacked: needs the SDK's inference script upload, which this catalog does not carry. */
  | 'needsScript';

/** [imageGroups index (-1: use the family's), environment index (optional)] per instance family or full instance type. */
export type VariantTuple = [number] | [number, number];

/**
 * One deployable version:
 * [version, default instance type, instanceSets index, artifact key, gated (1) or not (0),
 *  eulaKeys index (-1: none), environments index (defaults), variantSets index].
 */
export type VersionTuple = [string, string, number, string, 0 | 1, number, number, number];

export interface JumpStartCatalogData {
  readonly schema: number;
  readonly source: string;
  /** region -> DLC ECR account (one per region across every image in the snapshot). */
  readonly accounts: Record<string, string>;
  /** region -> ECR domain, for regions whose domain is not amazonaws.com (China, ISO partitions). */
  readonly domains: Record<string, string>;
  /** Sorted lists of regions. */
  readonly regionSets: string[][];
  /** [repository, tag, regionSets index (the regions the image is published in)]. */
  readonly images: Array<[string, string, number]>;
  /** An image per region: indexes into `images` whose region sets do not overlap. */
  readonly imageGroups: number[][];
  readonly environments: Array<Record<string, string>>;
  readonly instanceSets: string[][];
  /** instance family (`g5`) or full type (`ml.g5.2xlarge`) -> variant. */
  readonly variantSets: Array<Record<string, VariantTuple>>;
  readonly eulaKeys: string[];
  readonly models: Record<string, {
    /** Deployable versions, newest first. */
    versions: VersionTuple[];
    /** Published versions that cannot be deployed from this catalog, by reason. */
    notDeployable: Partial<Record<NotDeployableReason, string[]>>;
  }>;
}
