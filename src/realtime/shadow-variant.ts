import { ModelSource } from '../core/model-source';
import { ProductionVariantOptions } from '../core/production-variant';

/**
 * A shadow variant: a challenger model that receives a copy of a share of the production variant's requests and whose
 * answers are never returned to callers (https://docs.aws.amazon.com/sagemaker/latest/dg/model-shadow-deployment.html).
 * Its metrics carry its own variant name, so it can be compared with the production variant (see https://github.com/cdk-sagemaker-mcp/cdk-sagemaker-mcp/blob/main/docs/rollouts.md).
 * The initial variant weight is not used: the sampling percentage sets the shadow's share.
 */
export interface ShadowVariantOptions extends ProductionVariantOptions {
  /** The challenger model. */
  readonly model: ModelSource;
  /**
   * The shadow variant's name (1-63 letters, digits, hyphens), different from the production variant's.
   *
   * @default 'Shadow'
   */
  readonly variantName?: string;
  /**
   * The percentage (1-100) of the production variant's requests copied to the shadow.
   *
   * @default 100
   */
  readonly samplingPercentage?: number;
}
