export * from './endpoint-cost';
