/** Model provenance from SageMaker ML Lineage. */
export * from './lineage';
