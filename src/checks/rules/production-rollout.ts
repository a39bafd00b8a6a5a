import { SageMakerMcpCheckLevel } from '../check-level';
import { componentProductionReason, endpointProductionReason } from '../private/production';
import { CheckRule, RuleFinding } from '../private/rule';
import { isPlainObject, TemplateView } from '../private/template-view';

/** The production endpoints and inference components, with their DeploymentConfig. */
function productionFleets(view: TemplateView): Array<{ logicalId: string; kind: string; reason: string; deploymentConfig: any }> {
  const endpoints = view.ofType('AWS::SageMaker::Endpoint')
    .map((e) => ({ logicalId: e.logicalId, kind: 'Endpoint', reason: endpointProductionReason(view, e), deploymentConfig: e.props.DeploymentConfig }));
  const components = view.ofType('AWS::SageMaker::InferenceComponent')
    .map((c) => ({ logicalId: c.logicalId, kind: 'Inference component', reason: componentProductionReason(view, c), deploymentConfig: c.props.DeploymentConfig }));
  return [...endpoints, ...components].filter((x): x is typeof x & { reason: string } => x.reason !== undefined);
}

function hasPolicy(config: any): boolean {
  return isPlainObject(config) && (config.BlueGreenUpdatePolicy !== undefined || config.RollingUpdatePolicy !== undefined);
}

/**
 * Without an update policy, SageMaker updates an endpoint blue/green, all at once, with no baking period ("If no update
 * policy is specified, SageMaker uses a blue/green deployment strategy with all at once traffic shifting by default",
 * https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_DeploymentConfig.html): a bad model takes all traffic.
 */
export const productionRollout: CheckRule = {
  id: 'SMCP-RO1',
  level: SageMakerMcpCheckLevel.WARNING,
  description: 'A production endpoint (>= 2 instances, or autoscaled to >= 2) or inference component (>= 2 copies) sets a rollout strategy (DeploymentConfig update policy).',
  check: (view) => productionFleets(view)
    .filter((f) => !hasPolicy(f.deploymentConfig))
    .map((f): RuleFinding => ({
      logicalId: f.logicalId,
      location: 'Properties.DeploymentConfig',
      message: `${f.kind} ${f.logicalId} is production (${f.reason}) but has no rollout strategy: an update moves all traffic to the new model at once, `
        + 'with no baking period and no automatic rollback. Set a rollout (rollout: Rollout.canary(...) / Rollout.rolling(...), or '
        + 'DeploymentConfig.BlueGreenUpdatePolicy / RollingUpdatePolicy), or acknowledge SMCP-RO1 with the reason.',
    })),
};

/**
 * "If you do not have any CloudWatch alarms set up to monitor your endpoint, then the auto-rollback functionality does
 * not work during your deployment" (https://docs.aws.amazon.com/sagemaker/latest/dg/deployment-guardrails-configuration.html).
 */
export const productionRollbackAlarms: CheckRule = {
  id: 'SMCP-RO2',
  level: SageMakerMcpCheckLevel.WARNING,
  description: 'The rollout of a production endpoint or inference component names rollback alarms (DeploymentConfig.AutoRollbackConfiguration).',
  check: (view) => productionFleets(view)
    .filter((f) => hasPolicy(f.deploymentConfig))
    .filter((f) => {
      const alarms = f.deploymentConfig.AutoRollbackConfiguration?.Alarms;
      return !(Array.isArray(alarms) ? alarms.length > 0 : alarms !== undefined);
    })
    .map((f): RuleFinding => ({
      logicalId: f.logicalId,
      location: 'Properties.DeploymentConfig.AutoRollbackConfiguration',
      message: `${f.kind} ${f.logicalId} is production (${f.reason}) and has a rollout, but no rollback alarms: its baking periods watch nothing, `
        + 'so a bad model is never rolled back automatically. Name 1-10 alarms (autoRollbackOn, or DeploymentConfig.AutoRollbackConfiguration.Alarms) '
        + 'on the model\'s latency and errors, or acknowledge SMCP-RO2 with the reason.',
    })),
};
