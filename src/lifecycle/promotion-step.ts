import { Token } from 'aws-cdk-lib';

/** Options of `PromotionStep.production()`: the ModelLifeCycle stage a person sets to let a version into production. */
export interface ProductionGateOptions {
  /**
   * The stage (`ModelLifeCycle.Stage`) a version must reach.
   *
   * @default 'Production'
   */
  readonly stage?: string;
  /**
   * The stage status (`ModelLifeCycle.StageStatus`) it must reach in that stage.
   *
   * @default 'Approved'
   */
  readonly stageStatus?: string;
}

/** ModelLifeCycle Stage and StageStatus: `^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$` (API_ModelLifeCycle). */
const STAGE = /^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$/;

/**
 * The step an `ApprovedModelDeployment` plays in a staged rollout across accounts ("Promotion across accounts" in
 * https://github.com/cdk-sagemaker-mcp/cdk-sagemaker-mcp/blob/main/docs/lifecycle.md).
 */
export class PromotionStep {
  /**
   * Deploys each approved version (as without a step) and records the end of its rollout on the version: customer
   * metadata `cdk-sagemaker-mcp:staging-outcome` = deployed, rolled-back or failed (UpdateModelPackage, which the
   * group's cross-account policy allows). Production reads it there.
   */
  public static staging(): PromotionStep {
    return new PromotionStep('staging');
  }

  /**
   * Deploys a version only when its ModelLifeCycle reaches the stage and stage status (a person's gate that
   * SageMaker records, allowed by the stage approval grant), never on its approval alone, and only when staging recorded `deployed` on
   * it (read with DescribeModelPackage when the stage event arrives).
   */
  public static production(options: ProductionGateOptions = {}): PromotionStep {
    const stage = options.stage ?? 'Production';
    const stageStatus = options.stageStatus ?? 'Approved';
    const problems: string[] = [];
    for (const [name, value] of [['stage', stage], ['stageStatus', stageStatus]]) {
      if (!Token.isUnresolved(value) && !STAGE.test(value)) problems.push(`${name}: got '${value}', expected 1-63 letters, digits or hyphens`);
    }
    if (problems.length > 0) throw new Error(`PromotionStep.production: ${problems.join('; ')}`);
    return new PromotionStep('production', stage, stageStatus);
  }

  /** `staging` or `production`. */
  public readonly name: string;
  /**
   * Production: the stage a version must reach.
   * @default - none (staging)
   */
  public readonly stage?: string;
  /**
   * Production: the stage status a version must reach.
   * @default - none (staging)
   */
  public readonly stageStatus?: string;

  private constructor(name: string, stage?: string, stageStatus?: string) {
    this.name = name;
    this.stage = stage;
    this.stageStatus = stageStatus;
  }
}
