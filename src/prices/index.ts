export * from './cost-types';
export * from './endpoint-cost';
export * from './price-table';
