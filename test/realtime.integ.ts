/**
 * Integration stack for the realtime capability: the example endpoint (TGI DLC, S3-prefix weights, autoscaled, alarms).
 * Region-pinned (the DLC image lives in a regional registry) but account-agnostic, so it deploys to any account and its
 * committed snapshot does not depend on who synthesized it. Deploying needs the model weights under
 * s3://mcp-model-artifacts-<account>/llama-3-8b-instruct/ and ml.g5.2xlarge quota in us-east-1.
 */
import { App, Stack } from 'aws-cdk-lib';
import { addRealtimeExample } from '../examples/realtime';

// The CLI asks the app to write timing counters into the output directory; they differ on every run and would make
// the snapshot assertion fail, so this app does not write them.
delete process.env.CDK_PERF_COUNTERS_FILE;

// Both keys: construct-creation traces and metadata traces (e.g. cdk-nag acknowledgements) embed absolute paths.
const app = new App({ context: { 'aws:cdk:disable-creation-stack-traces': true, 'aws:cdk:disable-stack-trace': true } });
const stack = new Stack(app, 'CdkSageMakerMcpRealtimeInteg', { env: { region: 'us-east-1' } });
addRealtimeExample(stack);
// cdk-nag acknowledgements (Validations.acknowledge) record a call-stack trace with absolute paths whatever the context
// says; with no frames to capture they record none, keeping the snapshot machine-independent.
Error.stackTraceLimit = 0;
app.synth();
