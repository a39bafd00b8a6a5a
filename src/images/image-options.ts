/** The processor an image is built for. */
export enum ImageProcessor {
  /** CPU instances (`ml.c*`, `ml.m*`, `ml.r*`, ...). */
  CPU = 'cpu',
  /** NVIDIA GPU instances (`ml.g*`, `ml.p*`). */
  GPU = 'gpu',
}

/** Options of a catalog image that only has a version (TGI, vLLM, DJL LMI). */
export interface CatalogImageVersionOptions {
  /**
   * The container version, or one of its aliases (TGI `3.3` is `3.3.6`; DJL LMI `latest`). Unknown versions fail at
   * synth with the versions that exist.
   */
  readonly version: string;
}

/** Options of the Hugging Face TEI image of `ContainerImage`. */
export interface HuggingFaceTeiImageOptions {
  /** The Text Embeddings Inference version or alias (`1.8` is `1.8.2`). */
  readonly version: string;
  /**
   * GPU (repository `tei`) or CPU (repository `tei-cpu`).
   *
   * @default ImageProcessor.GPU
   */
  readonly processor?: ImageProcessor;
}

/** Options of `ContainerImage.huggingface` (Hugging Face transformers inference). */
export interface HuggingFaceImageOptions {
  /** The transformers version or alias (`4.51` is `4.51.3`). */
  readonly version: string;
  /**
   * The PyTorch version of the image (`2.6`, `2.6.0`), as the version's base framework aliases list it.
   *
   * @default - the version's only PyTorch image (an error lists the choices when it has several or none)
   */
  readonly pytorchVersion?: string;
  /**
   * The TensorFlow version of the image (`2.11`), for the versions that have TensorFlow images.
   *
   * @default - PyTorch (see the PyTorch version)
   */
  readonly tensorflowVersion?: string;
  /**
   * CPU or GPU.
   *
   * @default ImageProcessor.GPU
   */
  readonly processor?: ImageProcessor;
  /**
   * The Python version (`py312`), when the image has several.
   *
   * @default - the image's only Python version
   */
  readonly pythonVersion?: string;
}

/** Options of `ContainerImage.pytorch` and `ContainerImage.tensorflow` (framework inference images). */
export interface FrameworkImageOptions {
  /** The framework version or alias (`2.6` gives the `2.6-...` tag, `2.6.0` the `2.6.0-...` tag, as the SageMaker Python SDK does). */
  readonly version: string;
  /** CPU or GPU. */
  readonly processor: ImageProcessor;
  /**
   * The Python version (`py312`), required when the version lists several (PyTorch 1.4 to 1.8: `py3`, `py36`).
   *
   * @default - the version's only Python version (or none in the tag when it lists none)
   */
  readonly pythonVersion?: string;
}
