/**
 * The CloudWatch metrics the bundled handlers write (embedded metric format, through Powertools Metrics in
 * ../lambda/metrics.ts) and the constructs read (`McpToolServer.metricToolCalls`, `AsyncResultsStore`/`PipelineEventRouter`
 * record metrics, `SageMakerMcpDashboard`). docs/operations.md lists them. Plain constants (mirrored into the construct
 * library's src/private/contract.generated.ts), so the construct library never loads Powertools.
 *
 * Every record carries the `service` dimension (Powertools' service name), set to the function's own name
 * (AWS_LAMBDA_FUNCTION_NAME at run time, `function.functionName` in the constructs): one server's or recorder's
 * metrics graph together, and no record carries a caller identity or an argument value.
 */
export const METRICS_NAMESPACE = 'SageMakerMcp';

export const METRIC_DIMENSIONS = {
  /** The function's name (Powertools' `service` dimension). */
  SERVICE: 'service',
  /** The MCP tool's name, e.g. `invoke_endpoint`. */
  TOOL_NAME: 'ToolName',
  /** A failed tool call's `errorName`, e.g. `ModelError`, `ThrottlingException`, `InvalidArguments`, `DeadlineExceeded`. */
  ERROR_NAME: 'ErrorName',
} as const;

export const MCP_METRICS = {
  /** One per tool call (Count), by [service, ToolName] and [service]. */
  TOOL_CALLS: 'ToolCalls',
  /** 1 for a call answered with an error, 0 otherwise (Count), by [service, ToolName] and [service]; failed calls also by [service, ToolName, ErrorName] (a second record). */
  TOOL_ERRORS: 'ToolErrors',
  /** From the call reaching the tool to its answer (Milliseconds), by [service, ToolName] and [service]. */
  TOOL_LATENCY: 'ToolLatency',
} as const;

/** What the async result recorder and the pipeline router did with each message or event (Count, by [service]). */
export const RECORD_METRICS = {
  /** Written to the results table. */
  RECORDED: 'ResultsRecorded',
  /** Already recorded (a duplicate or older delivery): nothing changed. */
  DUPLICATE: 'ResultsDuplicate',
  /** Could not be recorded (malformed, from a foreign source, or a failed write): retried, then dead-lettered. */
  REFUSED: 'ResultsRefused',
} as const;
