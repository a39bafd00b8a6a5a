/**
 * Internal: the latency and 5xx-rate alarms of a realtime endpoint's variant (`RealtimeEndpoint.addAlarms`).
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import { ISageMakerEndpoint } from '../../core/endpoint-base';
import { addAlarmActions } from '../../private/encryption';
import { PropValidator } from '../../private/validation';
import { RealtimeEndpointAlarmOptions, RealtimeEndpointAlarms } from '../realtime-alarms';

/**
 * Adds the alarms `options` asks for on `variantName` under `scope`: p99 model latency above a threshold, and/or the 5xx
 * share of requests above a percentage. Both treat missing data (no traffic) as not breaching.
 */
export function addVariantAlarms(
  scope: Construct, endpoint: ISageMakerEndpoint, variantName: string, options: RealtimeEndpointAlarmOptions,
  alarmActions: cloudwatch.IAlarmAction[] | undefined,
): RealtimeEndpointAlarms {
  const period = options.period ?? Duration.minutes(5);
  const evaluationPeriods = options.evaluationPeriods ?? 3;
  let modelLatencyP99: cloudwatch.Alarm | undefined;
  let invocation5XXRate: cloudwatch.Alarm | undefined;
  if (options.modelLatencyP99Threshold) {
    // Sub-millisecond thresholds are meaningful: ModelLatency is published in microseconds.
    const thresholdMs = options.modelLatencyP99Threshold.toMilliseconds({ integral: false });
    modelLatencyP99 = new cloudwatch.Alarm(scope, 'ModelLatencyP99', {
      alarmDescription: `p99 ModelLatency of variant ${variantName} above ${thresholdMs} ms`,
      metric: endpoint.metricModelLatency({ variantName, statistic: 'p99', period }),
      threshold: thresholdMs * 1000,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  }
  if (options.invocation5XXRateThreshold !== undefined) {
    invocation5XXRate = new cloudwatch.Alarm(scope, 'Invocation5XXRate', {
      alarmDescription: `Share of 5xx responses of variant ${variantName} above ${options.invocation5XXRateThreshold}%`,
      metric: new cloudwatch.MathExpression({
        expression: 'IF(invocations > 0, 100 * errors / invocations, 0)',
        usingMetrics: {
          errors: endpoint.metricInvocation5XXErrors({ variantName, period }),
          invocations: endpoint.metricInvocations({ variantName, period }),
        },
        label: '5xx rate (%)',
        period,
      }),
      threshold: options.invocation5XXRateThreshold,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  }
  addAlarmActions(alarmActions, modelLatencyP99, invocation5XXRate);
  return { modelLatencyP99, invocation5XXRate };
}

/** Records every problem with the alarm options. */
export function validateAlarms(v: PropValidator, prefix: string, options: RealtimeEndpointAlarmOptions): void {
  v.range(`${prefix}invocation5XXRateThreshold`, options.invocation5XXRateThreshold, 0, 100, { integer: false, unit: 'percent' });
  v.atLeast(`${prefix}evaluationPeriods`, options.evaluationPeriods, 1);
  if (options.modelLatencyP99Threshold && !options.modelLatencyP99Threshold.isUnresolved()) {
    const ms = options.modelLatencyP99Threshold.toMilliseconds({ integral: false });
    v.check(Number.isFinite(ms) && ms >= 0.001, `${prefix}modelLatencyP99Threshold`, `${ms} ms`,
      'at least 1 microsecond (ModelLatency is published in whole microseconds)');
  }
  v.check(options.modelLatencyP99Threshold !== undefined || options.invocation5XXRateThreshold !== undefined,
    `${prefix}modelLatencyP99Threshold/invocation5XXRateThreshold`, undefined, 'at least one threshold');
}
