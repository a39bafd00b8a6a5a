import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { McpToolMetricOptions } from './mcp-tool-metric-options';
import { MCP_METRICS, METRIC_DIMENSIONS as D, METRICS_NAMESPACE } from '../private/contract.generated';

/**
 * One of the metrics the bundled server writes per tool call (embedded metric format, namespace `SageMakerMcp`,
 * dimension `service` = the function's name, plus `ToolName` for one tool): https://github.com/cdk-sagemaker-mcp/cdk-sagemaker-mcp/blob/main/docs/operations.md.
 */
export function toolMetric(
  fn: lambda.IFunction, metricName: string, statistic: string, options: McpToolMetricOptions = {}, extra: Record<string, string> = {},
): cloudwatch.Metric {
  const { toolName, ...metricOptions } = options;
  return new cloudwatch.Metric({
    namespace: METRICS_NAMESPACE,
    metricName,
    dimensionsMap: { [D.SERVICE]: fn.functionName, ...(toolName !== undefined ? { [D.TOOL_NAME]: toolName } : {}), ...extra },
    statistic,
    period: Duration.minutes(5),
    ...metricOptions,
  });
}


export const TOOL_METRIC_NAMES = MCP_METRICS;
