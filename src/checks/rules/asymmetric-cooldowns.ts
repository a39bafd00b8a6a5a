import { SageMakerMcpCheckLevel } from '../check-level';
import { CheckRule, RuleFinding } from '../private/rule';
import { dimensionOfPolicy } from '../private/sagemaker-scaling';
import { literalNumber, literalString } from '../private/template-view';

/**
 * Target tracking with asymmetric cooldowns (ScaleOutCooldown 60, ScaleInCooldown 300): scale out fast, scale in slowly
 * (https://docs.aws.amazon.com/sagemaker/latest/dg/endpoint-auto-scaling-prerequisites.html).
 */
export const asymmetricCooldowns: CheckRule = {
  id: 'SMCP-RT2',
  level: SageMakerMcpCheckLevel.WARNING,
  description: 'SageMaker target-tracking policies set ScaleOutCooldown below ScaleInCooldown (e.g. 60 s and 300 s).',
  check: (view) => {
    const out: RuleFinding[] = [];
    for (const policy of view.ofType('AWS::ApplicationAutoScaling::ScalingPolicy')) {
      if (literalString(policy.props.PolicyType) !== 'TargetTrackingScaling') continue;
      if (!dimensionOfPolicy(view, policy)?.startsWith('sagemaker:')) continue;
      const config = policy.props.TargetTrackingScalingPolicyConfiguration ?? {};
      const scaleOut = config.ScaleOutCooldown;
      const scaleIn = config.ScaleInCooldown;
      // A token cooldown is unknown until deploy: skip rather than guess.
      const isToken = (v: unknown) => v !== undefined && literalNumber(v) === undefined;
      if (isToken(scaleOut) || isToken(scaleIn)) continue;
      if (scaleOut !== undefined && scaleIn !== undefined && literalNumber(scaleOut)! < literalNumber(scaleIn)!) continue;
      out.push({
        logicalId: policy.logicalId,
        location: 'Properties.TargetTrackingScalingPolicyConfiguration',
        message: `Target-tracking policy ${policy.logicalId} has ScaleOutCooldown ${scaleOut ?? '(default)'} and ScaleInCooldown ${scaleIn ?? '(default)'}: `
          + 'set ScaleOutCooldown below ScaleInCooldown (e.g. 60 and 300) so the endpoint scales out fast and in slowly.',
      });
    }
    return out;
  },
};
