import { SageMakerMcpCheckLevel } from '../check-level';
import { CheckRule, RuleFinding } from '../private/rule';
import { literalNumber, literalString } from '../private/template-view';

const INVOCATION_METRICS = ['SageMakerVariantInvocationsPerInstance'];

/** An invocations-per-instance target has no datapoints at 0 instances, so it can never scale out from 0. */
export const invocationsTargetMinCapacity: CheckRule = {
  id: 'SMCP-RT3',
  level: SageMakerMcpCheckLevel.ERROR,
  description: 'A SageMakerVariantInvocationsPerInstance target-tracking policy needs a scalable target with MinCapacity >= 1.',
  check: (view) => {
    const out: RuleFinding[] = [];
    for (const policy of view.ofType('AWS::ApplicationAutoScaling::ScalingPolicy')) {
      const metric = literalString(policy.props.TargetTrackingScalingPolicyConfiguration?.PredefinedMetricSpecification?.PredefinedMetricType);
      if (!metric || !INVOCATION_METRICS.includes(metric)) continue;
      const target = view.targetOfPolicy(policy);
      const min = literalNumber(target?.props.MinCapacity);
      if (!target || min === undefined || min >= 1) continue;
      out.push({
        logicalId: target.logicalId,
        location: 'Properties.MinCapacity',
        message: `ScalableTarget ${target.logicalId} has MinCapacity ${min} but policy ${policy.logicalId} tracks ${metric}, which has no datapoints `
          + 'at 0 instances, so it can never scale out again: set MinCapacity >= 1, or (async endpoints) track ApproximateBacklogSizePerInstance '
          + 'and add a HasBacklogWithoutCapacity step-scaling policy.',
      });
    }
    return out;
  },
};
