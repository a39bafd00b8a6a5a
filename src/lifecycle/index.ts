export * from './model-package-group';
export * from './approved-model-deployment';
