export { DataCaptureMode } from './data-capture';
export type { DataCaptureOptions } from './data-capture';
export * from './realtime-endpoint';
export * from './realtime-endpoint-props';
export * from './variant-auto-scaling';
export * from './realtime-alarms';
export * from './shadow-variant';
