export * from './async-endpoint-options';
export * from './async-endpoint-props';
export * from './async-endpoint';
export * from './async-scaling-props';
