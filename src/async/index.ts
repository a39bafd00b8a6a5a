export * from './async-endpoint';
export * from './async-scaling-props';
