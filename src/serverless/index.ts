export { ServerlessEndpoint } from './serverless-endpoint';
export type { IServerlessEndpoint, ServerlessEndpointProps } from './serverless-endpoint';
export * from './serverless-scaling-props';
