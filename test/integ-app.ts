/**
 * Shared set-up for the `test/*.integ.ts` apps (projen's `integ:<name>:snapshot` / `:assert` tasks): what keeps their
 * committed snapshots byte-identical from one machine and one run to the next. Not named `*.integ.ts`, so projen does
 * not take it for an integration test.
 */
import { App, Stack, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { SageMakerMcpChecks } from '../src/checks';

/** The region every integ stack is pinned to: the DLC and JumpStart images live in regional registries. */
export const INTEG_REGION = 'us-east-1';

/**
 * An App whose cloud assembly holds no absolute paths and nothing that changes between runs, checked by cdk-nag
 * AwsSolutions and SageMakerMcpChecks: an unacknowledged finding fails synthesis. A clean run leaves
 * validation-report.json with no plugin reports (CDK lists only plugins with violations or suppressions); the
 * acknowledgements are in each stack's metadata.json. Call it before building any construct: acknowledgements made
 * while the stack is built record a trace too.
 */
export function integApp(): App {
  // The CLI asks the app to write timing counters into the output directory; they differ on every run and would make
  // the snapshot assertion fail, so these apps do not write them.
  delete process.env.CDK_PERF_COUNTERS_FILE;
  // cdk-nag acknowledgements (Validations.acknowledge) record a call-stack trace with absolute paths whatever the
  // context says; with no frames to capture they record none, keeping the snapshot machine-independent.
  Error.stackTraceLimit = 0;

  // Both keys: construct-creation traces and metadata traces embed absolute paths.
  const app = new App({ context: { 'aws:cdk:disable-creation-stack-traces': true, 'aws:cdk:disable-stack-trace': true } });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new SageMakerMcpChecks());
  return app;
}

/**
 * A stack pinned to `INTEG_REGION`. Without `account` it is account-agnostic, so it deploys to any account and its
 * snapshot does not depend on who synthesized it; pass a literal account only for an example that cannot take a token.
 */
export function integStack(app: App, id: string, account?: string): Stack {
  return new Stack(app, id, { env: { region: INTEG_REGION, account } });
}

/** Synthesizes the app; an unacknowledged cdk-nag or SageMakerMcpChecks finding throws here. */
export function synthIntegApp(app: App): void {
  // Set again in case something between integApp() and here raised it (synth-time acknowledgements record traces too).
  Error.stackTraceLimit = 0;
  app.synth();
}
