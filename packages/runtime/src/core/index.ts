/** The runtime's core: its errors, the retry strategy and the bounds every AWS call sits inside. */
export * from './errors';
export * from './retry';
export * from './bounded';
export * from './deadline';
