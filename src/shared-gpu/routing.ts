import { PropValidator } from '../private/validation';

/** Options of prefix-aware routing. */
export interface PrefixAwareRoutingOptions {
  /** How many leading characters of a request identify its prefix (1024-65536). */
  readonly prefixLength: number;
  /** Outstanding requests on a copy above which a request goes elsewhere even when the prefix matches (1-1024). */
  readonly concurrencyThreshold: number;
}

/**
 * How a shared-GPU endpoint spreads requests over the copies of an inference component (`RoutingConfig`).
 */
export class SharedGpuRouting {
  /** Each request goes to the copy with the fewest requests in flight: the right default for LLMs, whose latency varies. */
  public static readonly LEAST_OUTSTANDING_REQUESTS = new SharedGpuRouting('LEAST_OUTSTANDING_REQUESTS');

  /** Each request goes to a random copy. */
  public static readonly RANDOM = new SharedGpuRouting('RANDOM');

  /**
   * Requests that share a prefix go to the same copy, so its KV cache is reused, unless that copy is busier than
   * the concurrency threshold.
   */
  public static prefixAware(options: PrefixAwareRoutingOptions): SharedGpuRouting {
    new PropValidator('SharedGpuRouting.prefixAware')
      .range('prefixLength', options.prefixLength, 1024, 65536)
      .range('concurrencyThreshold', options.concurrencyThreshold, 1, 1024)
      .throwIfInvalid();
    return new SharedGpuRouting('PREFIX_AWARE', options);
  }

  /** The `RoutingStrategy` value. */
  public readonly strategy: string;

  /**
   * The prefix-aware settings.
   *
   * @default - none (only PREFIX_AWARE has them)
   */
  public readonly prefixAwareOptions?: PrefixAwareRoutingOptions;

  private constructor(strategy: string, prefixAwareOptions?: PrefixAwareRoutingOptions) {
    this.strategy = strategy;
    this.prefixAwareOptions = prefixAwareOptions;
  }
}
