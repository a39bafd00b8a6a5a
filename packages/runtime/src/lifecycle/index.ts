/**
 * Model lifecycle: SageMaker Model Registry events and model package versions. The approved-model deployment handler's
 * logic (./approved-deployment, ./deployment-report) is the bundled handler's, reached through
 * `cdk-sagemaker-mcp-runtime/internal/lambda`.
 */
export * from './lifecycle-events';
export * from './model-versions';
