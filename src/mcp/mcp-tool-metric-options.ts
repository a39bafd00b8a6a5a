import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';

/** Options of the tool call, tool error and tool latency metrics of `McpToolServer`. */
export interface McpToolMetricOptions extends cloudwatch.MetricOptions {
  /**
   * One tool's metric, e.g. `invoke_endpoint` (one of the server's tool names).
   * @default - every tool of the server together
   */
  readonly toolName?: string;
}
