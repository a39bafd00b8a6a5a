/**
 * Embedded-metric-format records of the bundled handlers, written to stdout with Powertools Metrics
 * (https://docs.powertools.aws.dev/lambda/typescript/latest/features/metrics/): CloudWatch Logs turns each record into
 * metrics with no PutMetricData call (https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Embedded_Metric_Format_Specification.html).
 * Names and dimensions: ../contract/metrics.ts. Only the handlers of this folder use it: the runtime's root entry and
 * the construct library never load Powertools.
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { MCP_METRICS, METRIC_DIMENSIONS as D, METRICS_NAMESPACE, RECORD_METRICS } from '../contract/metrics';
import type { ToolCallOutcome } from '../mcp/tools/context';

/** The `service` dimension: the function's name (the construct's `functionName`), or a fixed name off Lambda. */
function serviceName(): string {
  return process.env.AWS_LAMBDA_FUNCTION_NAME || 'sagemaker-mcp-local';
}

let shared: Metrics | undefined;

/**
 * One Powertools instance per container (building one costs more than a record): each record is added and published
 * synchronously, with no await in between, so concurrent invocations' records never mix; publishing clears the
 * dimensions and metrics it wrote.
 */
function metrics(): Metrics {
  shared ??= new Metrics({ namespace: METRICS_NAMESPACE, serviceName: serviceName() });
  return shared;
}

/** One tool call: calls, errors (0 or 1) and latency by tool and for the whole server; a failure also by its errorName. */
export function emitToolCall(outcome: ToolCallOutcome): void {
  const call = metrics();
  call.addDimension(D.TOOL_NAME, outcome.tool);
  call.addDimensions({});
  call.addMetric(MCP_METRICS.TOOL_CALLS, MetricUnit.Count, 1);
  call.addMetric(MCP_METRICS.TOOL_ERRORS, MetricUnit.Count, outcome.ok ? 0 : 1);
  call.addMetric(MCP_METRICS.TOOL_LATENCY, MetricUnit.Milliseconds, outcome.durationMs);
  call.publishStoredMetrics();
  if (outcome.ok) return;
  const failure = metrics();
  failure.addDimension(D.TOOL_NAME, outcome.tool);
  failure.addDimension(D.ERROR_NAME, outcome.errorName ?? 'Error');
  failure.addMetric(MCP_METRICS.TOOL_ERRORS, MetricUnit.Count, 1);
  failure.publishStoredMetrics();
}

export type RecordOutcome = 'recorded' | 'duplicate' | 'refused';

const RECORD_METRIC: Record<RecordOutcome, string> = {
  recorded: RECORD_METRICS.RECORDED,
  duplicate: RECORD_METRICS.DUPLICATE,
  refused: RECORD_METRICS.REFUSED,
};

/** What one recorder invocation did: a count per outcome (zeros included, so each graph has data). */
export function emitRecordOutcomes(counts: Partial<Record<RecordOutcome, number>>): void {
  const m = metrics();
  for (const outcome of Object.keys(RECORD_METRIC) as RecordOutcome[]) m.addMetric(RECORD_METRIC[outcome], MetricUnit.Count, counts[outcome] ?? 0);
  m.publishStoredMetrics();
}
