export * from './model-package-group';
export * from './approved-model-deployment';
export * from './promotion-step';
export * from './model-promotion-source';
