/** Feature Store: typed online reads and writes, batch reads, and Athena queries of the offline store. */
export * from './features';
export * from './write';
export * from './offline-query';
