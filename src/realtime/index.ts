export * from './data-capture';
export * from './realtime-endpoint';
