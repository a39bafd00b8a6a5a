import { SageMakerMcpCheckLevel } from '../check-level';
import { endpointProductionReason } from '../private/production';
import { CheckRule, RuleFinding } from '../private/rule';
import { isPlainObject, TemplateView } from '../private/template-view';

/** The model package a production variant's model is made from (`Containers[].ModelPackageName`), when one is. */
function modelPackageOf(view: TemplateView, endpoint: { props: any }): unknown {
  const config = view.configOfEndpoint(endpoint as any);
  const variants = Array.isArray(config?.props.ProductionVariants) ? config!.props.ProductionVariants.filter(isPlainObject) : [];
  for (const v of variants) {
    const model = view.resolveNamed(v.ModelName, 'AWS::SageMaker::Model', 'ModelName');
    const containers = Array.isArray(model?.props.Containers) ? model!.props.Containers : [];
    const withPackage = containers.find((c: any) => isPlainObject(c) && c.ModelPackageName !== undefined);
    if (withPackage) return withPackage.ModelPackageName;
    if (isPlainObject(model?.props.PrimaryContainer) && model!.props.PrimaryContainer.ModelPackageName !== undefined) {
      return model!.props.PrimaryContainer.ModelPackageName;
    }
  }
  return undefined;
}

const hasPolicy = (config: any) => isPlainObject(config) && (config.BlueGreenUpdatePolicy !== undefined || config.RollingUpdatePolicy !== undefined);

/**
 * A production endpoint whose model is a model package version (`Containers[].ModelPackageName`, e.g. the parameter
 * `ApprovedModelDeployment` sets when a version is approved) changes model on an approval, with no person running the
 * deploy: without an update policy SageMaker moves all traffic at once with no baking period ("If no update policy is
 * specified, SageMaker uses a blue/green deployment strategy with all at once traffic shifting by default",
 * https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_DeploymentConfig.html), so a bad version takes all
 * traffic and nothing rolls it back.
 */
export const approvedDeploymentRollout: CheckRule = {
  id: 'SMCP-LC1',
  level: SageMakerMcpCheckLevel.ERROR,
  description: 'A production endpoint whose model comes from a model package version (deployed on approval) sets a rollout strategy.',
  check: (view) => view.ofType('AWS::SageMaker::Endpoint')
    .map((e) => ({ e, reason: endpointProductionReason(view, e), pkg: modelPackageOf(view, e) }))
    .filter((x) => x.reason !== undefined && x.pkg !== undefined && !hasPolicy(x.e.props.DeploymentConfig))
    .map(({ e, reason }): RuleFinding => ({
      logicalId: e.logicalId,
      location: 'Properties.DeploymentConfig',
      message: `Endpoint ${e.logicalId} is production (${reason}) and serves a model package version, so an approval changes its model; `
        + 'with no rollout the new version takes all traffic at once, with no baking period and no automatic rollback. '
        + 'Set rollout: Rollout.canary(...) or Rollout.linear(...) with rollback alarms, or acknowledge SMCP-LC1 with the reason.',
    })),
};
