import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';

/** Options of `McpToolServer.metricToolCalls`, `metricToolErrors` and `metricToolLatency`. */
export interface McpToolMetricOptions extends cloudwatch.MetricOptions {
  /**
   * One tool's metric, e.g. `invoke_endpoint` (one of the server's `toolNames`).
   * @default - every tool of the server together
   */
  readonly toolName?: string;
}
