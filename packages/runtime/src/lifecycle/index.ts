export * from './lifecycle-events';
export * from './approved-deployment';
export * from './deployment-report';
export * from './model-versions';
