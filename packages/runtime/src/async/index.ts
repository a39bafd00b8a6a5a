/** Async inference: submit jobs, read their results, and the result recorder's logic. */
export * from './jobs';
