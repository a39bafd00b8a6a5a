export { ServerlessEndpoint } from './serverless-endpoint';
export type { ServerlessEndpointProps } from './serverless-endpoint';
export * from './serverless-scaling-props';
