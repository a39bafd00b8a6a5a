import { isPlainObject, ResourceRef, TemplateView } from './template-view';

export const PIPELINE_STATUS_DETAIL_TYPE = 'SageMaker Model Building Pipeline Execution Status Change';

function asList(v: unknown): unknown[] {
  return Array.isArray(v) ? v : v === undefined ? [] : [v];
}

/**
 * EventBridge rules whose pattern matches SageMaker pipeline execution status events: source `aws.sagemaker` and
 * a detail-type that is absent (matches every SageMaker event) or names the pipeline status change.
 */
export function pipelineStatusRules(view: TemplateView): ResourceRef[] {
  return view.ofType('AWS::Events::Rule').filter((rule) => {
    let pattern = rule.props.EventPattern;
    if (typeof pattern === 'string') {
      try {
        pattern = JSON.parse(pattern);
      } catch {
        return false;
      }
    }
    if (!isPlainObject(pattern)) return false;
    if (!asList(pattern.source).includes('aws.sagemaker')) return false;
    const detailTypes = asList(pattern['detail-type']);
    return detailTypes.length === 0 || detailTypes.includes(PIPELINE_STATUS_DETAIL_TYPE);
  });
}

/** The rule's targets as objects (an unresolvable Targets list gives none). */
export function targetsOf(rule: ResourceRef): any[] {
  return Array.isArray(rule.props.Targets) ? rule.props.Targets.filter(isPlainObject) : [];
}
