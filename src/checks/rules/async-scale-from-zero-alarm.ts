import { SageMakerMcpCheckLevel } from '../check-level';
import { CheckRule, RuleFinding } from '../private/rule';
import { variantTargets } from '../private/sagemaker-scaling';
import { isPlainObject, literalNumber, literalString, ResourceRef, TemplateView } from '../private/template-view';

const METRIC = 'HasBacklogWithoutCapacity';

/** The EndpointName dimension values of every HasBacklogWithoutCapacity alarm, with the alarm. */
function backlogAlarms(view: TemplateView): Array<{ alarm: ResourceRef; endpointName: unknown }> {
  const out: Array<{ alarm: ResourceRef; endpointName: unknown }> = [];
  for (const alarm of view.ofType('AWS::CloudWatch::Alarm')) {
    const metrics: any[] = [];
    if (literalString(alarm.props.MetricName) === METRIC) metrics.push(alarm.props);
    for (const q of Array.isArray(alarm.props.Metrics) ? alarm.props.Metrics : []) {
      const m = q?.MetricStat?.Metric;
      if (literalString(m?.MetricName) === METRIC) metrics.push(m);
    }
    for (const m of metrics) {
      const dims: any[] = Array.isArray(m.Dimensions) ? m.Dimensions : [];
      out.push({ alarm, endpointName: dims.find((d) => isPlainObject(d) && d.Name === 'EndpointName')?.Value });
    }
  }
  return out;
}

/**
 * Scale-to-zero needs a HasBacklogWithoutCapacity alarm with a step policy to scale out from zero: "you must use step
 * scaling if you want to enable an endpoint to scale out from zero active instances"
 * (https://docs.aws.amazon.com/sagemaker/latest/dg/endpoint-auto-scaling-policy.html,
 * https://docs.aws.amazon.com/sagemaker/latest/dg/async-inference-autoscale.html).
 */
export const asyncScaleFromZeroAlarm: CheckRule = {
  id: 'SMCP-AS2',
  level: SageMakerMcpCheckLevel.ERROR,
  description: 'An async endpoint that scales to 0 has a HasBacklogWithoutCapacity alarm with an action (a step-scaling policy) to scale out from 0.',
  check: (view) => {
    const out: RuleFinding[] = [];
    const alarms = backlogAlarms(view);
    for (const { target, endpoint, config } of variantTargets(view)) {
      if (!endpoint || !config || config.props.AsyncInferenceConfig === undefined) continue;
      if (literalNumber(target.props.MinCapacity) !== 0) continue;
      // An alarm whose endpoint dimension we cannot resolve might be the right one: skip rather than guess.
      const unresolvable = alarms.some((a) => a.endpointName !== undefined && !view.resolveNamed(a.endpointName, 'AWS::SageMaker::Endpoint', 'EndpointName'));
      if (unresolvable) continue;
      const mine = alarms.filter((a) => view.resolveNamed(a.endpointName, 'AWS::SageMaker::Endpoint', 'EndpointName')?.logicalId === endpoint.logicalId);
      if (mine.some((a) => Array.isArray(a.alarm.props.AlarmActions) && a.alarm.props.AlarmActions.length > 0)) continue;
      out.push({
        logicalId: target.logicalId,
        location: 'Properties.MinCapacity',
        message: `ScalableTarget ${target.logicalId} lets async endpoint ${endpoint.logicalId} scale to 0 but ${mine.length ? 'its HasBacklogWithoutCapacity alarm has no AlarmActions' : 'no HasBacklogWithoutCapacity alarm watches it'}: `
          + 'add a CloudWatch alarm on AWS/SageMaker HasBacklogWithoutCapacity (EndpointName dimension, >= 1) whose action is a StepScaling policy '
          + 'on this target (ChangeInCapacity +1), or requests queue forever at 0 instances.',
      });
    }
    return out;
  },
};
