import { SageMakerMcpCheckLevel } from '../check-level';
import { pipelineStatusRules, targetsOf } from '../private/pipeline-events';
import { CheckRule, RuleFinding } from '../private/rule';
import { isPlainObject, literalString } from '../private/template-view';

/** JSON paths that still carry `detail.pipelineExecutionDescription` (where the correlation id travels). */
const KEEPS_DESCRIPTION = ['$', '$.detail', '$.detail.pipelineExecutionDescription'];

/** Why a target drops the description, or undefined when it keeps it (or we cannot tell). */
function dropsDescription(target: any): string | undefined {
  if (target.Input !== undefined) return 'a constant Input';
  if (target.InputPath !== undefined) {
    const path = literalString(target.InputPath);
    return path !== undefined && !KEEPS_DESCRIPTION.includes(path) ? `InputPath ${path}` : undefined;
  }
  const transformer = target.InputTransformer;
  if (!isPlainObject(transformer)) return undefined;
  const map = transformer.InputPathsMap;
  if (map !== undefined && !isPlainObject(map)) return undefined;
  const paths = Object.values(map ?? {}).map(literalString);
  if (paths.some((p) => p === undefined)) return undefined;
  return paths.some((p) => KEEPS_DESCRIPTION.includes(p!)) ? undefined : 'an InputTransformer whose InputPathsMap omits $.detail.pipelineExecutionDescription';
}

/** The correlation id is embedded in the execution description: a target that drops it cannot route the result. */
export const pipelineRuleCorrelation: CheckRule = {
  id: 'SMCP-PL2',
  level: SageMakerMcpCheckLevel.ERROR,
  description: 'Targets of a pipeline status rule receive detail.pipelineExecutionDescription (the correlation id).',
  check: (view) => {
    const out: RuleFinding[] = [];
    for (const rule of pipelineStatusRules(view)) {
      for (const target of targetsOf(rule)) {
        const why = dropsDescription(target);
        if (!why) continue;
        out.push({
          logicalId: rule.logicalId,
          location: 'Properties.Targets',
          message: `EventBridge rule ${rule.logicalId} target ${target.Id} gets ${why}, so it cannot read the correlation id in `
            + 'detail.pipelineExecutionDescription: pass the whole event, $.detail, or map $.detail.pipelineExecutionDescription.',
        });
      }
    }
    return out;
  },
};
