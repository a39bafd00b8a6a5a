/**
 * SageMaker Pipelines: start executions with a correlation id and read their results. The pipeline router's logic
 * (./events) is the bundled handler's, reached through `cdk-sagemaker-mcp-runtime/internal/lambda`.
 */
export * from './pipelines';
