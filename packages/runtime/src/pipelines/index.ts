/** SageMaker Pipelines: start executions with a correlation id, and the pipeline router's logic. */
export * from './pipelines';
export * from './events';
