/**
 * "Clear errors" at synth: every construct of the library refuses bad props with a message that names the prop, the
 * value it got and what is expected. One row per case: the construct, a GIVEN that builds it with one bad input
 * (anything thrown while constructing OR synthesizing counts), and three regexes the message must match. A row whose
 * message misses a part fails here: the row stays, the owner fixes the message.
 */
import { App, Duration, Size, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { AsyncEndpoint, AsyncNotificationTopic } from '../../src/async';
import { ContainerImage, InstanceType, ModelData, ModelFamily, ModelSource } from '../../src/core';
import { Feature, FeatureGroup, FeatureGroupThroughput, OnlineStoreStorageType } from '../../src/features';
import { JumpStartModel } from '../../src/jumpstart';
import { McpToolServer } from '../../src/mcp';
import { PipelineDefinition, PipelineEventRouter, PipelineParameterType, TrainingPipeline } from '../../src/pipelines';
import { RealtimeEndpoint } from '../../src/realtime';
import { CopyScalingTarget, SharedGpuEndpoint, SharedGpuScaleInStrategy } from '../../src/shared-gpu';

const ENV = { account: '123456789012', region: 'us-east-1' };
const IMAGE_URI = '763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-inference:2.1.0-cpu-py310';
const model = () => ModelSource.fromContainer(ContainerImage.fromImageUri(IMAGE_URI));

const realtime = (stack: Stack, props: Record<string, unknown> = {}) =>
  new RealtimeEndpoint(stack, 'Ep', { model: model(), instanceType: InstanceType.ML_M5_LARGE, ...props } as any);
const asyncEp = (stack: Stack, props: Record<string, unknown> = {}) =>
  new AsyncEndpoint(stack, 'Async', { model: model(), instanceType: InstanceType.ML_M5_XLARGE, ...props } as any);
const sharedGpu = (stack: Stack, props: Record<string, unknown> = {}) =>
  new SharedGpuEndpoint(stack, 'Shared', { instanceType: InstanceType.ML_G5_12XLARGE, ...props } as any);
const component = (stack: Stack, props: Record<string, unknown> = {}) =>
  sharedGpu(stack).addInferenceComponent('Ic', { model: model(), acceleratorCount: 1, minMemory: Size.mebibytes(4096), ...props } as any);

const userId = () => Feature.text('user_id');
const eventTime = () => Feature.text('event_time');
const featureGroup = (stack: Stack, props: Record<string, unknown> = {}) => {
  const id = userId();
  const et = eventTime();
  return new FeatureGroup(stack, 'Fg', { features: [id, et, Feature.integral('clicks')], recordIdentifier: id, eventTime: et, ...props } as any);
};

const definition = () => PipelineDefinition.fromObject({
  Version: '2020-12-01',
  Parameters: [{ Name: 'InputDataUri', Type: 'String', DefaultValue: 's3://b/k/' }],
  Steps: [{ Name: 'Train', Type: 'Training', Arguments: {} }],
});
const pipelineRole = (stack: Stack) => new iam.Role(stack, 'PipelineRole', { assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com') });
const pipeline = (stack: Stack, props: Record<string, unknown> = {}) =>
  new TrainingPipeline(stack, 'Pipeline', { definition: definition(), role: pipelineRole(stack), ...props } as any);

const mcpServer = (stack: Stack, props: Record<string, unknown> = {}) =>
  new McpToolServer(stack, 'Mcp', { realtimeEndpoints: [{ endpoint: realtime(stack) }], ...props } as any);

type Row = readonly [
  construct: string, badInput: string, build: (stack: Stack) => unknown, prop: RegExp, value: RegExp, expected: RegExp,
];

const rows: Row[] = [
  // -- RealtimeEndpoint
  ['RealtimeEndpoint', 'endpointName with an underscore', (s) => realtime(s, { endpointName: 'chat_bot' }), /endpointName/, /'chat_bot'/, /letters, digits or hyphens/],
  ['RealtimeEndpoint', 'endpointName of 64 characters', (s) => realtime(s, { endpointName: 'a'.repeat(64) }), /endpointName/, /'a{64}'/, /at most 63 characters/],
  ['RealtimeEndpoint', 'initialInstanceCount 0', (s) => realtime(s, { initialInstanceCount: 0 }), /initialInstanceCount/, /got 0\b/, /integer >= 1/],
  ['RealtimeEndpoint', 'initialVariantWeight -1', (s) => realtime(s, { initialVariantWeight: -1 }), /initialVariantWeight/, /got -1\b/, />= 0/],
  ['RealtimeEndpoint', 'volumeSize 1 TiB', (s) => realtime(s, { volumeSize: Size.gibibytes(1024) }), /volumeSize/, /got 1024\b/, /between 1 and 512 GB/],
  ['RealtimeEndpoint', 'modelDataDownloadTimeout 30 s', (s) => realtime(s, { modelDataDownloadTimeout: Duration.seconds(30) }), /modelDataDownloadTimeout/, /got 30\b/, /between 60 and 3600 seconds/],
  ['RealtimeEndpoint', 'containerStartupHealthCheckTimeout 2 h', (s) => realtime(s, { containerStartupHealthCheckTimeout: Duration.hours(2) }), /containerStartupHealthCheckTimeout/, /got 7200\b/, /between 60 and 3600 seconds/],
  ['RealtimeEndpoint', 'dataCapture.samplingPercentage 150', (s) => realtime(s, { dataCapture: { samplingPercentage: 150 } }), /dataCapture\.samplingPercentage/, /got 150\b/, /between 0 and 100 percent/],
  ['RealtimeEndpoint', 'dataCapture.prefix with slashes', (s) => realtime(s, { dataCapture: { prefix: '/captures/' } }), /dataCapture\.prefix/, /'\/captures\/'/, /without a leading or trailing slash/],
  ['RealtimeEndpoint', 'dataCapture.jsonContentTypes empty', (s) => realtime(s, { dataCapture: { jsonContentTypes: [] } }), /dataCapture\.jsonContentTypes/, /got \[\]/, /between 1 and 10 content types/],
  ['RealtimeEndpoint', 'autoScaling.maxCapacity 0', (s) => realtime(s, { autoScaling: { maxCapacity: 0 } }), /autoScaling\.maxCapacity/, /got 0\b/, /integer >= 1/],
  ['RealtimeEndpoint', 'autoScaling maxCapacity below minCapacity', (s) => realtime(s, { autoScaling: { minCapacity: 5, maxCapacity: 2 } }), /autoScaling\.maxCapacity/, /got 2\b/, /at least minCapacity \(5\)/],
  ['RealtimeEndpoint', 'autoScaling.targetInvocationsPerInstance 0', (s) => realtime(s, { autoScaling: { targetInvocationsPerInstance: 0 } }), /autoScaling\.targetInvocationsPerInstance/, /got 0\b/, /a number > 0/],
  ['RealtimeEndpoint', 'autoScaling.scaleInCooldown 1.5 s', (s) => realtime(s, { autoScaling: { scaleInCooldown: Duration.millis(1500) } }), /autoScaling\.scaleInCooldown/, /1\.5|1500/, /whole number of seconds/],
  ['RealtimeEndpoint', 'alarms.invocation5XXRateThreshold 120', (s) => realtime(s, { alarms: { invocation5XXRateThreshold: 120 } }), /alarms\.invocation5XXRateThreshold/, /got 120\b/, /between 0 and 100 percent/],
  ['RealtimeEndpoint', 'alarms.evaluationPeriods 0', (s) => realtime(s, { alarms: { invocation5XXRateThreshold: 1, evaluationPeriods: 0 } }), /alarms\.evaluationPeriods/, /got 0\b/, /integer >= 1/],
  ['RealtimeEndpoint', 'alarms without a threshold', (s) => realtime(s, { alarms: {} }), /alarms\.modelLatencyP99Threshold\/invocation5XXRateThreshold/, /got nothing/, /at least one threshold/],
  ['RealtimeEndpoint', 'addVariant with a name in use', (s) => realtime(s).addVariant('AllTraffic', { instanceType: InstanceType.ML_M5_LARGE }), /variantName/, /'AllTraffic'/, /not already used by another variant/],
  ['RealtimeEndpoint', 'autoScaleInstanceCount of an unknown variant', (s) => realtime(s).autoScaleInstanceCount({ variantName: 'Canary' }), /variantName/, /'Canary'/, /one of this endpoint's variants \(AllTraffic\)/],
  ['RealtimeEndpoint', 'every variant weighted 0', (s) => realtime(s, { initialVariantWeight: 0 }), /initialVariantWeight/, /\[0\]/, /at least one variant with a weight > 0/],
  ['RealtimeEndpoint', '11 production variants', (s) => {
    const ep = realtime(s);
    for (let i = 1; i <= 10; i++) ep.addVariant(`V${i}`, { instanceType: InstanceType.ML_M5_LARGE });
  }, /production variants/, /got 11\b/, /between 1 and 10 variants/],

  // -- AsyncEndpoint
  ['AsyncEndpoint', 'endpointName with a dot', (s) => asyncEp(s, { endpointName: 'doc.processor' }), /endpointName/, /'doc\.processor'/, /letters, digits or hyphens/],
  ['AsyncEndpoint', 'invocation.maxConcurrentInvocationsPerInstance 0', (s) => asyncEp(s, { invocation: { maxConcurrentInvocationsPerInstance: 0 } }), /invocation\.maxConcurrentInvocationsPerInstance/, /got 0\b/, /between 1 and 1000/],
  ['AsyncEndpoint', 'invocation.invocationTimeout 2 h', (s) => asyncEp(s, { invocation: { invocationTimeout: Duration.hours(2) } }), /invocation\.invocationTimeout/, /got 7200\b/, /between 1 and 3600 seconds/],
  ['AsyncEndpoint', 'invocation.requestTtl under twice the timeout', (s) => asyncEp(s, { invocation: { invocationTimeout: Duration.minutes(10), requestTtl: Duration.minutes(15) } }), /invocation\.requestTtl/, /got 900\b/, /at least 2 x 600 = 1200 seconds/],
  ['AsyncEndpoint', "storage.inputPrefix without a trailing '/'", (s) => asyncEp(s, { storage: { inputPrefix: 'inputs' } }), /storage\.inputPrefix/, /'inputs'/, /ending with '\/'/],
  ['AsyncEndpoint', 'storage.outputPrefix inside the input prefix', (s) => asyncEp(s, { storage: { inputPrefix: 'data/', outputPrefix: 'data/out/' } }), /storage\.outputPrefix/, /'data\/out\/'/, /does not overlap storage\.inputPrefix/],
  ['AsyncEndpoint', 'storage.outputExpiration of 36 hours', (s) => asyncEp(s, { storage: { outputExpiration: Duration.hours(36) } }), /storage\.outputExpiration/, /36 hours|1 day 12 hours|1\.5 days/, /whole number of days, at least 1/],
  ['AsyncEndpoint', 'alarms.oldestRequestAgeThreshold 0', (s) => asyncEp(s, { alarms: { oldestRequestAgeThreshold: Duration.seconds(0) } }), /alarms\.oldestRequestAgeThreshold/, /0 (seconds|minutes|millis)/, /a duration > 0/],
  ['AsyncEndpoint', 'notifications.includeInferenceResponseIn twice the same topic', (s) => asyncEp(s, { notifications: { includeInferenceResponseIn: [AsyncNotificationTopic.SUCCESS, AsyncNotificationTopic.SUCCESS] } }), /notifications\.includeInferenceResponseIn/, /SUCCESS_NOTIFICATION_TOPIC.*SUCCESS_NOTIFICATION_TOPIC/, /each topic at most once/],
  ['AsyncEndpoint', 'autoScaling.maxCapacity 0', (s) => asyncEp(s, { autoScaling: { maxCapacity: 0 } }), /autoScaling\.maxCapacity/, /got 0\b/, /integer >= 1/],

  // -- SharedGpuEndpoint
  ['SharedGpuEndpoint', 'variantName with a space', (s) => sharedGpu(s, { variantName: 'all traffic' }), /variantName/, /'all traffic'/, /letters, digits or hyphens/],
  ['SharedGpuEndpoint', 'initialInstanceCount 0', (s) => sharedGpu(s, { initialInstanceCount: 0 }), /initialInstanceCount/, /got 0\b/, /integer >= 1/],
  ['SharedGpuEndpoint', 'instanceScaling min above max', (s) => sharedGpu(s, { instanceScaling: { minCapacity: 3, maxCapacity: 2 } }), /instanceScaling\.minCapacity/, /got 3\b/, /at most instanceScaling\.maxCapacity \(2\)/],
  ['SharedGpuEndpoint', 'instanceScaling.scaleInCooldown 2 minutes', (s) => sharedGpu(s, { instanceScaling: { minCapacity: 0, maxCapacity: 2, scaleInStrategy: SharedGpuScaleInStrategy.IDLE_RELEASE, scaleInCooldown: Duration.minutes(2) } }), /instanceScaling\.scaleInCooldown/, /2 minutes/, /whole minutes between 5 minutes and 1 day/],
  ['SharedGpuEndpoint', 'instanceScaling.scaleInMaximumStepSize 500', (s) => sharedGpu(s, { instanceScaling: { minCapacity: 0, maxCapacity: 2, scaleInStrategy: SharedGpuScaleInStrategy.IDLE_RELEASE, scaleInMaximumStepSize: 500 } }), /instanceScaling\.scaleInMaximumStepSize/, /got 500\b/, /between 1 and 100/],
  ['SharedGpuEndpoint', 'scale-in settings without a strategy', (s) => sharedGpu(s, { instanceScaling: { minCapacity: 0, maxCapacity: 2, scaleInCooldown: Duration.minutes(10) } }), /instanceScaling\.scaleInStrategy/, /got nothing/, /IDLE_RELEASE or CONSOLIDATION/],

  // -- InferenceComponent
  ['InferenceComponent', 'componentName with an underscore', (s) => component(s, { componentName: 'chat_llama' }), /componentName/, /'chat_llama'/, /letters, digits or hyphens/],
  ['InferenceComponent', 'acceleratorCount 0 on a GPU instance', (s) => component(s, { acceleratorCount: 0 }), /acceleratorCount/, /got 0\b/, /integer >= 1/],
  ['InferenceComponent', 'acceleratorCount 8 on a 4-GPU instance', (s) => component(s, { acceleratorCount: 8 }), /acceleratorCount/, /got 8\b/, /at most 4/],
  ['InferenceComponent', 'no minMemory for a container model', (s) => component(s, { minMemory: undefined }), /minMemory/, /got nothing/, /whole number of MiB >= 128/],
  ['InferenceComponent', 'minMemory 64 MiB', (s) => component(s, { minMemory: Size.mebibytes(64) }), /minMemory/, /got 64 MiB/, /whole number of MiB >= 128/],
  ['InferenceComponent', 'maxMemory below minMemory', (s) => component(s, { maxMemory: Size.mebibytes(1024) }), /maxMemory/, /got 1024 MiB/, /at least minMemory \(4096 MiB\)/],
  ['InferenceComponent', 'cpuCores 0.1', (s) => component(s, { cpuCores: 0.1 }), /cpuCores/, /got 0\.1\b/, /number >= 0\.25/],
  ['InferenceComponent', 'copies 0', (s) => component(s, { copies: 0 }), /copies/, /got 0\b/, /integer >= 1/],
  ['InferenceComponent', 'autoScaleCopyCount minCapacity above maxCapacity', (s) => component(s).autoScaleCopyCount({ minCapacity: 3, maxCapacity: 1, target: CopyScalingTarget.invocationsPerCopy(5) }), /maxCapacity/, /got 1\b/, /at least minCapacity \(3\)/],
  ['InferenceComponent', 'autoScaleCopyCount called twice', (s) => {
    const ic = component(s);
    ic.autoScaleCopyCount({ minCapacity: 1, maxCapacity: 2, target: CopyScalingTarget.invocationsPerCopy(5) });
    ic.autoScaleCopyCount({ minCapacity: 1, maxCapacity: 2, target: CopyScalingTarget.invocationsPerCopy(5) });
  }, /autoScaleCopyCount/, /a second call/, /one call per scalable target/],

  // -- JumpStartModel
  ['JumpStartModel', 'unknown model id', () => JumpStartModel.of('meta-textgeneration-llama-9-unknown'), /modelId/, /'meta-textgeneration-llama-9-unknown'/, /a JumpStart model id in the catalog/],
  ['JumpStartModel', 'unknown version', () => JumpStartModel.of('huggingface-llm-mistral-7b-instruct', { version: '0.0.1' }), /version/, /'0\.0\.1'/, /expected a published version of huggingface-llm-mistral-7b-instruct; versions that deploy: 3\.5\.0/],
  ['JumpStartModel', 'EULA model without acceptEula', (s) => sharedGpu(s).addInferenceComponent('Chat', { model: JumpStartModel.of('meta-textgeneration-llama-3-8b-instruct', { version: '2.2.0' }) }), /acceptEula/, /got nothing|got false/, /expected true/],
  ['JumpStartModel', 'instance type too small', (s) => realtime(s, { model: JumpStartModel.of('huggingface-llm-mistral-7b-instruct', { version: '3.5.0' }), instanceType: InstanceType.ML_M5_LARGE }), /instanceType/, /'ml\.m5\.large'/, /expected (one of the instance types|at least .* GiB|an instance family)/],

  // -- FeatureGroup / Feature
  ['FeatureGroup', 'featureGroupName with a space', (s) => featureGroup(s, { featureGroupName: 'user features' }), /featureGroupName/, /'user features'/, /letters|pattern/],
  ['FeatureGroup', 'feature name with a dot', (s) => {
    const id = userId();
    const et = eventTime();
    return new FeatureGroup(s, 'Fg', { features: [id, et, Feature.integral('clicks.7d')], recordIdentifier: id, eventTime: et });
  }, /features\[2\]\.name/, /'clicks\.7d'/, /letters|pattern/],
  ['FeatureGroup', 'reserved feature name', (s) => {
    const id = userId();
    const et = eventTime();
    return new FeatureGroup(s, 'Fg', { features: [id, et, Feature.text('write_time')], recordIdentifier: id, eventTime: et });
  }, /features\[2\]\.name/, /'write_time'/, /not a reserved name/],
  ['FeatureGroup', 'two features with one name', (s) => {
    const id = userId();
    const et = eventTime();
    return new FeatureGroup(s, 'Fg', { features: [id, et, Feature.integral('clicks'), Feature.fractional('clicks')], recordIdentifier: id, eventTime: et });
  }, /features\[3\]\.name/, /'clicks'/, /a name not used by another feature/],
  ['FeatureGroup', 'recordIdentifier not among the features', (s) => featureGroup(s, { recordIdentifier: Feature.text('account_id') }), /recordIdentifier/, /'account_id'/, /one of the features \(user_id, event_time, clicks\)/],
  ['FeatureGroup', 'eventTime of type Integral', (s) => {
    const id = userId();
    const et = Feature.integral('event_time');
    return new FeatureGroup(s, 'Fg', { features: [id, et], recordIdentifier: id, eventTime: et });
  }, /eventTime/, /event_time \(Integral\)/, /a String or Fractional feature/],
  ['FeatureGroup', 'description of 129 characters', (s) => featureGroup(s, { description: 'd'.repeat(129) }), /description/, /129 characters/, /at most 128 characters/],
  ['FeatureGroup', 'both stores disabled', (s) => featureGroup(s, { onlineStore: { enabled: false }, offlineStore: { enabled: false } }), /onlineStore\.enabled\/offlineStore\.enabled/, /false\/false/, /at least one store enabled/],
  ['FeatureGroup', 'onlineStore.ttl of half a second', (s) => featureGroup(s, { onlineStore: { ttl: Duration.millis(500) } }), /onlineStore\.ttl/, /500 millis|0\.5 seconds/, /whole number of seconds, at least 1 second/],
  ['FeatureGroup', 'offlineStore.databaseName in capitals', (s) => featureGroup(s, { offlineStore: { databaseName: 'Features-DB' } }), /offlineStore\.databaseName/, /'Features-DB'/, /lower-case letters, digits or underscores/],
  ['FeatureGroup', 'provisioned read capacity above 10,000,000', (s) => featureGroup(s, { throughput: FeatureGroupThroughput.provisioned({ readCapacityUnits: 20_000_000, writeCapacityUnits: 5 }) }), /throughput\.readCapacityUnits/, /got 20000000\b/, /between 0 and 10000000/],
  ['FeatureGroup', 'provisioned throughput with an InMemory online store', (s) => featureGroup(s, { onlineStore: { storageType: OnlineStoreStorageType.IN_MEMORY }, throughput: FeatureGroupThroughput.provisioned({ readCapacityUnits: 5, writeCapacityUnits: 5 }) }), /throughput/, /Provisioned/, /InMemory|Standard|OnDemand/],

  // -- TrainingPipeline / PipelineDefinition / PipelineEventRouter
  ['TrainingPipeline', 'pipelineName with a space', (s) => pipeline(s, { pipelineName: 'churn training' }), /pipelineName/, /'churn training'/, /letters|pattern/],
  ['TrainingPipeline', 'maxParallelExecutionSteps 0', (s) => pipeline(s, { maxParallelExecutionSteps: 0 }), /maxParallelExecutionSteps/, /got 0\b/, /integer >= 1/],
  ['TrainingPipeline', 'a parameter the definition does not declare', (s) => pipeline(s, { parameters: [{ name: 'Epochs', type: PipelineParameterType.INTEGER }] }), /parameters\[Epochs\]/, /'Epochs'/, /a parameter the definition declares \(InputDataUri\)/],
  ['TrainingPipeline', 'a parameter with another type', (s) => pipeline(s, { parameters: [{ name: 'InputDataUri', type: PipelineParameterType.INTEGER }] }), /parameters\[InputDataUri\]\.type/, /Integer/, /String, the type the definition declares/],
  ['TrainingPipeline', 'description of 4,000 characters', (s) => pipeline(s, { description: 'd'.repeat(4000) }), /description/, /4000 characters/, /at most \d+ characters/],
  // GAP: aws-cdk-lib's Arn.split throws first ("ARNs must start with "arn:" and have at least 6 components:
  // churn-training"), before the construct's own check, so the prop is not named and the value is not quoted.
  ['TrainingPipeline', 'fromPipelineArn with a name', (s) => TrainingPipeline.fromPipelineArn(s, 'Imported', 'churn-training'), /pipelineArn/, /'churn-training'/, /arn:<partition>:sagemaker:<region>:<account>:pipeline\/<name>/],
  // GAP: the message describes the value ("got text that is not JSON (<parse error>)") without showing any of it.
  ['PipelineDefinition', 'text that is not JSON', () => PipelineDefinition.fromJsonString('{"Version": "2020-12-01",'), /definition/, /\{"Version": "2020-12-01",/, /a JSON pipeline definition/],
  ['PipelineDefinition', 'a definition without steps', (s) => pipeline(s, { definition: PipelineDefinition.fromObject({ Version: '2020-12-01', Steps: [] }) }), /definition\.Steps/, /0 steps/, /a non-empty list of steps/],
  ['PipelineDefinition', 'a parameter of an unknown type', (s) => pipeline(s, { definition: PipelineDefinition.fromObject({ Version: '2020-12-01', Parameters: [{ Name: 'X', Type: 'Text' }], Steps: [{ Name: 'T', Type: 'Training' }] }) }), /definition\.Parameters\[0\]\.Type/, /'Text'/, /one of String, Integer, Float, Boolean/],
  ['PipelineEventRouter', 'retryAttempts 5', (s) => new PipelineEventRouter(s, 'Router', { retryAttempts: 5 }), /retryAttempts/, /got 5\b/, /between 0 and 2/],
  ['PipelineEventRouter', 'resultTtl 10 minutes', (s) => new PipelineEventRouter(s, 'Router', { resultTtl: Duration.minutes(10) }), /resultTtl/, /10 minutes/, /between 1 hour and 3650 days/],
  ['PipelineEventRouter', 'an empty pipelines list', (s) => new PipelineEventRouter(s, 'Router', { pipelines: [] }), /pipelines/, /got \[\]/, /at least one pipeline/],
  ['PipelineEventRouter', 'an empty statuses list', (s) => new PipelineEventRouter(s, 'Router', { statuses: [] }), /statuses/, /got \[\]/, /at least one status/],

  // -- McpToolServer
  ['McpToolServer', 'timeout 30 s (below the invoke deadline)', (s) => mcpServer(s, { timeout: Duration.seconds(30) }), /timeout/, /got 30\b/, /between 75 and 900 seconds/],
  ['McpToolServer', 'reservedConcurrentExecutions 0', (s) => mcpServer(s, { reservedConcurrentExecutions: 0 }), /reservedConcurrentExecutions/, /got 0\b/, /an integer >= 1/],
  ['McpToolServer', 'memorySize 64 MiB', (s) => mcpServer(s, { memorySize: Size.mebibytes(64) }), /memorySize/, /got 64\b/, /between 128 and 10240 MiB/],
  ['ModelFamily', 'an unknown model family', () => ModelFamily.of('gpt'), /ModelFamily\.of/, /"gpt"/, /one of 'tgi', 'llama3', 'mistral', 'falcon', 'openai'/],
  ['McpToolServer', 'nothing to expose', (s) => new McpToolServer(s, 'Mcp', {}), /props/, /no endpoints, components, async endpoints, feature groups or pipelines/, /at least one thing to expose/],

  // -- InstanceType / ModelData / ContainerImage
  ['InstanceType', "a name without 'ml.'", () => InstanceType.of('g5.2xlarge'), /instanceType/, /'g5\.2xlarge'/, /starting with 'ml\.'/],
  ['ModelData', 'fromBucket with a .zip key', (s) => ModelData.fromBucket(s3.Bucket.fromBucketName(s, 'B', 'artifacts'), 'model.zip'), /ModelData\.fromBucket key/, /'model\.zip'/, /'\.tar\.gz' object or an uncompressed prefix ending in '\/'/],
  ['ModelData', 'fromAsset with a .zip file', () => ModelData.fromAsset('model.zip'), /ModelData\.fromAsset path/, /'model\.zip'/, /a '\.tar\.gz' file/],
  ['ContainerImage', 'fromImageUri with a Docker Hub image', () => ContainerImage.fromImageUri('docker.io/library/nginx:latest'), /ContainerImage\.fromImageUri/, /'docker\.io\/library\/nginx:latest'/, /an ECR image URI/],
  ['ContainerImage', 'fromDlc in a region without a DLC registry', () => {
    const stack = new Stack(new App(), 'Elsewhere', { env: { account: '123456789012', region: 'xx-nowhere-1' } });
    return new RealtimeEndpoint(stack, 'Ep', { model: ModelSource.fromContainer(ContainerImage.fromDlc('pytorch-inference', '2.1.0-cpu-py310')), instanceType: InstanceType.ML_M5_LARGE });
  }, /region/, /'xx-nowhere-1'/, /expected one of .*us-east-1/],
];

/** The message of whatever constructing or synthesizing throws; undefined when nothing does. */
function errorOf(build: (stack: Stack) => unknown): string | undefined {
  const app = new App();
  const stack = new Stack(app, 'BadInputs', { env: ENV });
  try {
    build(stack);
    app.synth();
  } catch (e) {
    return (e as Error).message;
  }
  return undefined;
}

test('the table covers at least 40 cases over every construct', () => {
  expect(rows.length).toBeGreaterThanOrEqual(40);
  expect(new Set(rows.map(([construct]) => construct))).toEqual(new Set([
    'RealtimeEndpoint', 'AsyncEndpoint', 'SharedGpuEndpoint', 'InferenceComponent', 'JumpStartModel', 'FeatureGroup',
    'TrainingPipeline', 'PipelineDefinition', 'PipelineEventRouter', 'McpToolServer', 'InstanceType', 'ModelData', 'ContainerImage', 'ModelFamily',
  ]));
});

const cases = rows.map(([construct, badInput, build, prop, value, expected]) => ({ construct, badInput, build, prop, value, expected }));

describe.each(cases)('$construct: fails if $badInput', ({ build, prop, value, expected }) => {
  let message: string | undefined;
  beforeAll(() => {
    message = errorOf(build);
  });

  test('fails at synth', () => {
    expect(message).toBeDefined();
  });
  test('the message names the prop', () => {
    expect(message).toMatch(prop);
  });
  test('the message shows the value received', () => {
    expect(message).toMatch(value);
  });
  test('the message says what is expected', () => {
    expect(message).toMatch(expected);
  });
});
