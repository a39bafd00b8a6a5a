export * from './serverless-endpoint';
export * from './serverless-scaling-props';
