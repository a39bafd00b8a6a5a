export * from './pipeline-definition';
export * from './training-pipeline';
export * from './pipeline-event-router';
