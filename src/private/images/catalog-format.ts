/**
 * The shape of data/images/catalog.json.gz, written by scripts/generate-image-catalog.ts and read by catalog.ts.
 * Plain types only (no runtime code), shared by the generator and the library.
 *
 * Each image is the inference scope of one of the SageMaker Python SDK's `image_uri_config/*.json` tables
 * (https://github.com/aws/sagemaker-python-sdk), kept in the SDK's own shape and field names so the SDK's composition
 * rules (`sagemaker.image_uris.retrieve`) apply unchanged; only the region -> account tables (`registries`), which
 * repeat across almost every version, are stored once in `registries` and referenced by index.
 */
export const IMAGE_CATALOG_SCHEMA_VERSION = 1;

/** The images of the catalog: the table file name, without `.json`. */
export const IMAGE_KEYS = [
  'huggingface-llm',
  'huggingface-tei',
  'huggingface-tei-cpu',
  'huggingface-vllm',
  'djl-lmi',
  'huggingface',
  'xgboost',
  'sklearn',
  'pytorch',
  'tensorflow',
] as const;
export type ImageKey = typeof IMAGE_KEYS[number];

/** One version's image (for `huggingface`: one base framework of a version). */
export interface ImageVersionConfig {
  readonly repository: string;
  /** Index into `ImageCatalogData.registries`. */
  readonly registries: number;
  readonly processors?: string[];
  readonly py_versions?: string[];
  readonly tag_prefix?: string;
  /** processor -> container version suffix (`cu124-ubuntu22.04`). */
  readonly container_version?: Record<string, string>;
}

/** A `huggingface` version: base framework aliases and one image per base framework (`pytorch2.6.0`). */
export interface BaseFrameworkVersionConfig {
  readonly version_aliases?: Record<string, string>;
  readonly [baseFramework: string]: ImageVersionConfig | Record<string, string> | undefined;
}

/** The inference scope of one table. */
export interface ImageTable {
  readonly processors?: string[];
  readonly version_aliases?: Record<string, string>;
  readonly versions: Record<string, ImageVersionConfig | BaseFrameworkVersionConfig>;
}

export interface ImageCatalogData {
  readonly schema: number;
  readonly source: string;
  /** Distinct region -> ECR account tables. */
  readonly registries: Array<Record<string, string>>;
  readonly images: Record<ImageKey, ImageTable>;
}
