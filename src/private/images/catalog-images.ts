import { composeImage, ComposedImage, huggingfaceBaseFrameworks, ImageRequest, RequestPropNames } from './catalog';
import { ImageKey } from './catalog-format';
import {
  CatalogImageVersionOptions,
  FrameworkImageOptions,
  HuggingFaceImageOptions,
  HuggingFaceTeiImageOptions,
  ImageProcessor,
} from '../../images/image-options';
import { PropValidator } from '../validation';

/** A catalog image composed at the call (version errors surface there); the region is picked at bind. */
export interface CatalogImageSpec {
  /** `ContainerImage.huggingfaceTgi`, for messages. */
  readonly subject: string;
  readonly image: ComposedImage;
}

function compose(subject: string, req: ImageRequest, names?: RequestPropNames): CatalogImageSpec {
  const v = new PropValidator(subject);
  const image = composeImage(req, v, names);
  v.throwIfInvalid();
  return { subject, image: image! };
}

export function versionOnlyImage(method: string, image: ImageKey, options: CatalogImageVersionOptions): CatalogImageSpec {
  return compose(`ContainerImage.${method}`, { image, version: options.version });
}

export function teiImage(options: HuggingFaceTeiImageOptions): CatalogImageSpec {
  const cpu = options.processor === ImageProcessor.CPU;
  return compose('ContainerImage.huggingfaceTei', { image: cpu ? 'huggingface-tei-cpu' : 'huggingface-tei', version: options.version });
}

export function transformersImage(options: HuggingFaceImageOptions): CatalogImageSpec {
  const subject = 'ContainerImage.huggingface';
  if (options.pytorchVersion !== undefined && options.tensorflowVersion !== undefined) {
    throw new Error(`Invalid ${subject}: tensorflowVersion: got '${options.tensorflowVersion}', expected nothing when pytorchVersion is set`);
  }
  let base: string | undefined;
  let baseProp = 'pytorchVersion';
  if (options.tensorflowVersion !== undefined) {
    base = `tensorflow${options.tensorflowVersion}`;
    baseProp = 'tensorflowVersion';
  } else if (options.pytorchVersion !== undefined) {
    base = `pytorch${options.pytorchVersion}`;
  } else {
    base = onlyPytorchBase(options.version);
  }
  return compose(subject, {
    image: 'huggingface',
    version: options.version,
    baseFramework: base,
    processor: options.processor ?? ImageProcessor.GPU,
    pythonVersion: options.pythonVersion,
  }, { baseFramework: baseProp });
}

/** The version's single `pytorchX.Y.Z` base, if it has exactly one (else undefined, and compose lists the choices). */
function onlyPytorchBase(version: string): string | undefined {
  const pytorch = (huggingfaceBaseFrameworks(version) ?? []).filter((b) => b.startsWith('pytorch'));
  return pytorch.length === 1 ? pytorch[0] : undefined;
}

export function simpleImage(method: string, image: ImageKey, version: string): CatalogImageSpec {
  return compose(`ContainerImage.${method}`, { image, version });
}

export function frameworkImage(method: string, image: ImageKey, options: FrameworkImageOptions): CatalogImageSpec {
  return compose(`ContainerImage.${method}`, {
    image, version: options.version, processor: options.processor, pythonVersion: options.pythonVersion,
  });
}
