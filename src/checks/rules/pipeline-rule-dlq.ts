import { SageMakerMcpCheckLevel } from '../check-level';
import { pipelineStatusRules, targetsOf } from '../private/pipeline-events';
import { CheckRule, RuleFinding } from '../private/rule';
import { isAbsent } from '../private/template-view';

/** A pipeline status event that a target fails to take is lost unless the target has a dead-letter queue. */
export const pipelineRuleDlq: CheckRule = {
  id: 'SMCP-PL1',
  level: SageMakerMcpCheckLevel.ERROR,
  description: 'Every target of an EventBridge rule on SageMaker pipeline status events has a DeadLetterConfig.',
  check: (view) => {
    const out: RuleFinding[] = [];
    for (const rule of pipelineStatusRules(view)) {
      const missing = targetsOf(rule).filter((t) => isAbsent(t.DeadLetterConfig?.Arn));
      if (missing.length === 0) continue;
      out.push({
        logicalId: rule.logicalId,
        location: 'Properties.Targets',
        message: `EventBridge rule ${rule.logicalId} routes SageMaker pipeline status events to target(s) ${missing.map((t) => t.Id).join(', ')} `
          + 'without a DeadLetterConfig: give each target an SQS dead-letter queue so a failed delivery does not lose a pipeline result.',
      });
    }
    return out;
  },
};
