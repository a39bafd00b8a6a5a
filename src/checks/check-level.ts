/** How serious a SageMakerMcpChecks finding is. */
export enum SageMakerMcpCheckLevel {
  /** Fails synthesis (plugin mode) or adds an error annotation (aspect mode). */
  ERROR = 'error',
  /** Reported, but does not fail synthesis on its own. */
  WARNING = 'warning',
}
