/** Async inference: submit jobs and read their results (the result recorder's logic is `internal/lambda`'s). */
export * from './jobs';
