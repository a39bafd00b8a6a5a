// Synthesizes one of each construct of the packed library, with a plain lambda.Function granted through every grant
// method, under cdk-nag AwsSolutions and SageMakerMcpChecks as policy-validation plugins. Run by synth.sh from a folder
// whose node_modules hold the aws-cdk-lib version under test (and cdk-nag, constructs, the packed library).
// Prints the aws-cdk-lib version, then "clean" or every problem (a synth error, a plugin that failed to run, an
// unacknowledged finding), and exits non-zero on any.
const { App, Stack, Validations } = require('aws-cdk-lib');
const iam = require('aws-cdk-lib/aws-iam');
const lambda = require('aws-cdk-lib/aws-lambda');
const { AwsSolutionsChecks } = require('cdk-nag');
const lib = require('cdk-sagemaker-mcp');

const cdkVersion = require('aws-cdk-lib/package.json').version;
const app = new App({ outdir: process.argv[2], context: { 'aws:cdk:disable-creation-stack-traces': true } });
Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new lib.SageMakerMcpChecks());
const stack = new Stack(app, 'OneOfEach', { env: { account: '123456789012', region: 'us-east-1' } });

// The user's function: its own role with no managed policy, so every finding on it comes from a grant.
const role = new iam.Role(stack, 'ToolRole', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
const tool = new lambda.Function(stack, 'Tool', {
  runtime: lambda.Runtime.NODEJS_22_X, handler: 'index.handler', code: lambda.Code.fromInline('exports.handler=async()=>1'), role,
});
// The user's own choices, not the library's: say so the way a user would.
Validations.of(tool).acknowledge({ id: 'AwsSolutions-L1', reason: 'The user picks the runtime.' });

const image = lib.ContainerImage.fromDlc('huggingface-pytorch-inference', '2.1.0-transformers4.37.0-cpu-py310-ubuntu22.04');
const realtime = new lib.RealtimeEndpoint(stack, 'Realtime', {
  model: lib.ModelSource.fromContainer(image, { environment: { HF_MODEL_ID: 'distilbert-base-uncased' } }),
  instanceType: lib.InstanceType.ML_M5_XLARGE,
});
realtime.grantInvoke(tool);

const asyncEndpoint = new lib.AsyncEndpoint(stack, 'Async', {
  model: lib.ModelSource.fromContainer(image, { environment: { HF_MODEL_ID: 'facebook/bart-large-cnn' } }),
  instanceType: lib.InstanceType.ML_M5_XLARGE,
});
asyncEndpoint.bindToFunction(tool);

const shared = new lib.SharedGpuEndpoint(stack, 'Shared', { instanceType: lib.InstanceType.ML_G5_12XLARGE });
const component = shared.addInferenceComponent('Chat', {
  model: lib.JumpStartModel.of('huggingface-llm-mistral-7b-instruct', { version: '3.5.0' }),
});
component.grantInvoke(tool);
shared.grantInvoke(tool);

const recordId = lib.Feature.string('user_id');
const eventTime = lib.Feature.string('event_time');
const group = new lib.FeatureGroup(stack, 'Features', {
  features: [recordId, eventTime, lib.Feature.integral('calls')], recordIdentifier: recordId, eventTime,
  onlineStore: {}, offlineStore: {},
});
group.grantReadOnline(tool);
group.grantWriteOnline(tool);
group.grantQueryOffline(tool);

const pipelineRole = new iam.Role(stack, 'PipelineRole', { assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com') });
const pipeline = new lib.TrainingPipeline(stack, 'Pipeline', {
  role: pipelineRole,
  definition: lib.PipelineDefinition.fromObject({ Version: '2020-12-01', Parameters: [], Steps: [{ Name: 'Wait', Type: 'Fail', Arguments: { ErrorMessage: 'x' } }] }),
});
pipeline.grantStartExecution(tool);
pipeline.grantReadExecutions(tool);
const router = new lib.PipelineEventRouter(stack, 'Router', { pipelines: [pipeline] });
router.grantReadResults(tool);

new lib.McpToolServer(stack, 'Mcp', {
  realtimeEndpoints: [{ endpoint: realtime }],
  asyncEndpoints: [{ endpoint: asyncEndpoint }],
  inferenceComponents: [{ component }],
  featureGroups: [{ featureGroup: group, allowWrites: true }],
  pipelines: [{ pipeline }],
  trainingResults: router,
});

console.log(`aws-cdk-lib ${cdkVersion}`);
const fs = require('fs');
const path = require('path');
const reportFile = path.join(app.outdir, 'policy-validation-report.json');
fs.rmSync(reportFile, { force: true });
let thrown;
try {
  app.synth();
} catch (e) {
  thrown = e;
}
// Some releases print the report and return instead of throwing: the report file is the verdict either way.
const problems = [];
if (fs.existsSync(reportFile)) {
  for (const plugin of JSON.parse(fs.readFileSync(reportFile, 'utf8')).pluginReports ?? []) {
    const { pluginName, status, metadata } = plugin.summary ?? {};
    if (status !== 'failure') continue;
    if (metadata && metadata.error) problems.push(`${pluginName}: ${metadata.error}`);
    for (const v of plugin.violations ?? []) {
      for (const r of v.violatingResources ?? [{}]) problems.push(`${pluginName}: ${v.ruleName} at ${r.constructPath ?? r.resourceLogicalId ?? '?'}`);
    }
  }
}
if (thrown && problems.length === 0) problems.push(`synth failed: ${String((thrown && thrown.message) || thrown).split('\n')[0]}`);
if (problems.length === 0) {
  console.log('clean: synthesized, no unacknowledged finding (AwsSolutions + SageMakerMcpChecks)');
} else {
  console.log(`${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
  process.exitCode = 1;
}
