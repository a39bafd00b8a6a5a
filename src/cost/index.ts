export * from './cost-types';
export * from './endpoint-cost';
