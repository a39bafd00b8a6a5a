/**
 * Pre-warming a multi-model endpoint: "The first request against a given model takes longer because the model has to
 * be downloaded from Amazon S3 and loaded into memory ... subsequent calls finish faster"
 * (https://docs.aws.amazon.com/sagemaker/latest/dg/invoke-multi-model-endpoint.html). `prewarmTargetModels` sends one
 * request per target model, one model at a time, and reports how long each first load took, so that a deployment
 * step (or a scheduled job) can pay the cold starts before users do and see which models are slow or fail to load.
 */
import { invokeEndpoint, InvokeOptions } from './invoke';
import { ModelInvocationError } from '../core/errors';

export interface PrewarmInput {
  readonly endpointName: string;
  /** The target models to load (paths relative to the endpoint's S3 prefix). */
  readonly targetModels: readonly string[];
  /** A request every model accepts (e.g. one CSV row), sent to each. */
  readonly body: Uint8Array | string;
  readonly contentType: string;
  readonly accept?: string;
}

export interface PrewarmOptions extends InvokeOptions {
  /**
   * Count a model error (the container answered, with an error status) as loaded: the model was downloaded and ran,
   * only the sample request was not to its liking. @default true
   */
  readonly modelErrorMeansLoaded?: boolean;
  /** Clock in milliseconds (tests pass a fake one). @default performance.now */
  readonly now?: () => number;
}

/** What pre-warming one target model found. */
export interface PrewarmReport {
  readonly targetModel: string;
  /** True when SageMaker loaded the model and the container answered. */
  readonly loaded: boolean;
  /** Wall time of the first request, load included, in milliseconds. */
  readonly firstLoadMs: number;
  /** HTTP attempts, retries included (a model still loading can answer 429/503 and be retried). */
  readonly attempts?: number;
  /** The error's name and message when the model did not load (or answered with an error). */
  readonly error?: string;
}

/**
 * Invokes each target model once, in order, and reports each one's first-load latency. Never throws for one model's
 * failure (the report says so); a caller abort stops the loop and rethrows.
 */
export async function prewarmTargetModels(input: PrewarmInput, options: PrewarmOptions = {}): Promise<PrewarmReport[]> {
  const { modelErrorMeansLoaded = true, now = () => performance.now(), ...invokeOptions } = options;
  const reports: PrewarmReport[] = [];
  for (const targetModel of input.targetModels) {
    const started = now();
    try {
      const out = await invokeEndpoint({
        endpointName: input.endpointName,
        targetModel,
        body: input.body,
        contentType: input.contentType,
        accept: input.accept,
      }, invokeOptions);
      reports.push({ targetModel, loaded: true, firstLoadMs: now() - started, attempts: out.attempts });
    } catch (err) {
      if (options.signal?.aborted) throw err;
      const e = err as Error & { attempts?: number };
      const loaded = modelErrorMeansLoaded && err instanceof ModelInvocationError;
      reports.push({ targetModel, loaded, firstLoadMs: now() - started, attempts: e.attempts, error: `${e.name}: ${e.message}` });
    }
  }
  return reports;
}
