import {
  BaseFrameworkVersionConfig,
  IMAGE_CATALOG_SCHEMA_VERSION,
  ImageCatalogData,
  ImageKey,
  ImageVersionConfig,
} from './catalog-format';
import { BundledCatalog, dataFile } from '../bundled-catalog';
import { PropValidator } from '../validation';

/**
 * Lookups over the generated image catalog (data/images/catalog.json.gz, read once by the shared loader of
 * src/private/bundled-catalog.ts). Internal: not part of the jsii API.
 */
const CATALOG = new BundledCatalog<ImageCatalogData>(
  'Image catalog', dataFile('images', 'catalog.json.gz'), IMAGE_CATALOG_SCHEMA_VERSION, 'images:catalog');

export const IMAGE_CATALOG_PATH = CATALOG.path;

export function loadImageCatalog(): ImageCatalogData {
  return CATALOG.load();
}

/** What to look up: the arguments of the SDK's `image_uris.retrieve` that the inference images use. */
export interface ImageRequest {
  readonly image: ImageKey;
  /** A version or a version alias (`3.3`, `latest`). */
  readonly version: string;
  /** `cpu`, `gpu`, ...; may be omitted when the image has one processor or none. */
  readonly processor?: string;
  readonly pythonVersion?: string;
  /** `huggingface` only: `pytorch2.6` / `pytorch2.6.0` / `tensorflow2.11`. */
  readonly baseFramework?: string;
}

/** An image without its region: the registry account is picked per region from `registries`. */
export interface ComposedImage {
  readonly repository: string;
  readonly tag: string;
  /** region -> ECR account of the regions the image is published in. */
  readonly registries: Readonly<Record<string, string>>;
}

/** Prop names, so a message names the option the caller knows (`version`, `processor`, `pytorchVersion`). */
export interface RequestPropNames {
  readonly version?: string;
  readonly processor?: string;
  readonly pythonVersion?: string;
  readonly baseFramework?: string;
}

/**
 * The repository and tag of an image, composed the way the SageMaker Python SDK's `sagemaker.image_uris.retrieve`
 * does (https://github.com/aws/sagemaker-python-sdk/blob/master/src/sagemaker/image_uris.py):
 * - the version may be an alias (`version_aliases`), resolved for the table lookup; a table with a single version
 *   serves it whatever is asked, unless an alias is asked;
 * - `huggingface`: the base framework (`pytorch2.6`) is resolved through the version's own aliases;
 * - the Python version defaults to the only one listed, and is required when several are;
 * - processors come from the table, else from the version; the only one is the default;
 * - `container_version[processor]` when the version has one;
 * - the tag is `{tag_prefix}-{processor}-{py_version}-{container_version}` without the parts that are empty, where
 *   tag_prefix is the version's `tag_prefix`, else the version AS ASKED (an alias such as `2.6` gives `2.6-gpu-py312`,
 *   a tag the DLC registries publish too), and for `huggingface` `{pt_or_tf_version}-transformers{version as asked}`.
 *
 * Adds a problem to `v` and returns undefined when an argument is not in the table.
 */
export function composeImage(req: ImageRequest, v: PropValidator, names: RequestPropNames = {}): ComposedImage | undefined {
  const table = loadImageCatalog().images[req.image];
  const aliases = table.version_aliases ?? {};
  const available = Object.keys(table.versions);
  let version = req.version;
  if (available.length === 1 && !(version in aliases)) {
    version = available[0];
  } else if (!available.includes(version) && !(version in aliases)) {
    v.oneOf(names.version ?? 'version', version, [...available, ...Object.keys(aliases)]);
    return undefined;
  }
  const entry = table.versions[aliases[version] ?? version];
  let config: ImageVersionConfig;
  let ptOrTfVersion: string | undefined;
  if (req.image === 'huggingface') {
    const bases = entry as BaseFrameworkVersionConfig;
    const baseNames = Object.keys(bases).filter((k) => k !== 'version_aliases');
    const base = req.baseFramework;
    const full = base === undefined ? undefined : bases.version_aliases?.[base] ?? base;
    if (base === undefined || full === undefined || !baseNames.includes(full)) {
      const offered = [...Object.keys(bases.version_aliases ?? {}), ...baseNames];
      v.add(`${names.baseFramework ?? 'baseFramework'}: got '${base ?? 'nothing'}', expected one of the base frameworks of `
        + `transformers ${version}: ${offered.join(', ')}`);
      return undefined;
    }
    config = bases[full] as ImageVersionConfig;
    ptOrTfVersion = /^(?:pytorch|tensorflow)(.*)$/.exec(base)![1];
  } else {
    config = entry as ImageVersionConfig;
  }

  const pys = config.py_versions ?? [];
  let py: string | undefined;
  if (pys.length === 1 && req.pythonVersion === undefined) {
    py = pys[0];
  } else if (pys.length > 0) {
    if (req.pythonVersion === undefined || !pys.includes(req.pythonVersion)) {
      v.add(`${names.pythonVersion ?? 'pythonVersion'}: got '${req.pythonVersion ?? 'nothing'}', expected one of the Python `
        + `versions of ${req.image} ${version}: ${pys.join(', ')}`);
      return undefined;
    }
    py = req.pythonVersion;
  }

  const processors = table.processors ?? config.processors ?? [];
  let processor: string | undefined;
  if (processors.length > 0) {
    processor = req.processor ?? (processors.length === 1 ? processors[0] : undefined);
    if (processor === undefined || !processors.includes(processor)) {
      v.add(`${names.processor ?? 'processor'}: got '${req.processor ?? 'nothing'}', expected one of the processors of `
        + `${req.image} ${version}: ${processors.join(', ')}`);
      return undefined;
    }
  }
  const containerVersion = config.container_version && processor ? config.container_version[processor] : undefined;
  const tagPrefix = ptOrTfVersion !== undefined ? `${ptOrTfVersion}-transformers${version}` : config.tag_prefix ?? version;
  const tag = [tagPrefix, processor, py, containerVersion].filter((x) => x).join('-');
  return { repository: config.repository, tag, registries: loadImageCatalog().registries[config.registries] };
}

/** The versions and aliases of an image, as the table lists them. */
export function imageVersions(image: ImageKey): { versions: string[]; aliases: Record<string, string> } {
  const table = loadImageCatalog().images[image];
  return { versions: Object.keys(table.versions), aliases: { ...(table.version_aliases ?? {}) } };
}

/**
 * The newest version of an image: the SDK's `_get_latest_versions` (the largest version string, compared as text),
 * which it uses when no version is asked for TGI and TEI.
 */
export function latestVersion(image: ImageKey): string {
  return [...Object.keys(loadImageCatalog().images[image].versions)].sort().reverse()[0];
}

/** The base frameworks (`pytorch2.6.0`) of a transformers version or alias, or undefined for an unknown version. */
export function huggingfaceBaseFrameworks(version: string): string[] | undefined {
  const table = loadImageCatalog().images.huggingface;
  const entry = table.versions[table.version_aliases?.[version] ?? version] as BaseFrameworkVersionConfig | undefined;
  return entry && Object.keys(entry).filter((k) => k !== 'version_aliases');
}
