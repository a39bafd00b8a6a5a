export * from './pipeline-definition';
export * from './training-pipeline';
export * from './quality-gate';
export * from './training-role';
export * from './pipeline-event-router';
