/**
 * One of each construct that has grant methods, in a fresh app, and a user's plain `lambda.Function` to grant to: what
 * a user who follows docs/<capability>.md builds. Shared by the grant tests (cdk-nag cleanliness, returned Grants).
 */
import { App, Size, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { AsyncEndpoint } from '../../src/async';
import { ContainerImage, InstanceType, ModelSource } from '../../src/core';
import { Feature, FeatureGroup } from '../../src/features';
import { McpToolServer } from '../../src/mcp';
import { PipelineDefinition, PipelineEventRouter, TrainingPipeline } from '../../src/pipelines';
import { RealtimeEndpoint } from '../../src/realtime';
import { SharedGpuEndpoint } from '../../src/shared-gpu';

export const ENV = { account: '123456789012', region: 'us-east-1' };

const IMAGE = ContainerImage.fromDlc('huggingface-pytorch-inference', '2.1.0-transformers4.37.0-cpu-py310-ubuntu22.04');

export interface GrantScene {
  readonly app: App;
  readonly stack: Stack;
  /** The user's function. */
  readonly fn: lambda.Function;
}

export function scene(): GrantScene {
  const app = new App({ context: { 'aws:cdk:disable-creation-stack-traces': true } });
  const stack = new Stack(app, 'Grants', { env: ENV });
  // The user's role has no managed policy (AwsSolutions-IAM4 would be the user's own finding): whatever its policy
  // holds comes from the grants under test.
  const role = new iam.Role(stack, 'UserToolRole', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
  const fn = new lambda.Function(stack, 'UserTool', {
    runtime: lambda.Runtime.NODEJS_22_X,
    handler: 'index.handler',
    code: lambda.Code.fromInline('exports.handler = async () => ({})'),
    role,
  });
  // The user's own choice, acknowledged as a user would: not caused by the library.
  Validations.of(fn).acknowledge({ id: 'AwsSolutions-L1', reason: 'Test user: the runtime is the user\'s choice.' });
  return { app, stack, fn };
}

export const realtime = (stack: Stack) => new RealtimeEndpoint(stack, 'Realtime', {
  model: ModelSource.fromContainer(IMAGE, { environment: { HF_MODEL_ID: 'distilbert-base-uncased' } }),
  instanceType: InstanceType.ML_M5_XLARGE,
});

export const asyncEndpoint = (stack: Stack) => new AsyncEndpoint(stack, 'Async', {
  model: ModelSource.fromContainer(IMAGE, { environment: { HF_MODEL_ID: 'facebook/bart-large-cnn' } }),
  instanceType: InstanceType.ML_M5_XLARGE,
});

export function sharedGpu(stack: Stack) {
  const endpoint = new SharedGpuEndpoint(stack, 'Shared', { instanceType: InstanceType.ML_G5_12XLARGE });
  const component = endpoint.addInferenceComponent('Chat', {
    model: ModelSource.fromContainer(IMAGE, { environment: { HF_MODEL_ID: 'distilbert-base-uncased' } }),
    acceleratorCount: 1,
    minMemory: Size.mebibytes(4096),
  });
  return { endpoint, component };
}

export function featureGroup(stack: Stack): FeatureGroup {
  const recordIdentifier = Feature.text('user_id');
  const eventTime = Feature.text('event_time');
  return new FeatureGroup(stack, 'Features', {
    features: [recordIdentifier, eventTime, Feature.integral('calls')],
    recordIdentifier,
    eventTime,
  });
}

export function athenaResults(stack: Stack): s3.Bucket {
  return new s3.Bucket(stack, 'AthenaResults', {
    encryption: s3.BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    serverAccessLogsPrefix: 'access-logs/',
  });
}

export function pipeline(stack: Stack): TrainingPipeline {
  return new TrainingPipeline(stack, 'Pipeline', {
    role: new iam.Role(stack, 'PipelineRole', { assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com') }),
    definition: PipelineDefinition.fromObject({ Version: '2020-12-01', Parameters: [], Steps: [{ Name: 'Stop', Type: 'Fail', Arguments: { ErrorMessage: 'stop' } }] }),
  });
}

export const router = (stack: Stack, p: TrainingPipeline) => new PipelineEventRouter(stack, 'Router', { pipelines: [p] });

export const mcpServer = (stack: Stack) => new McpToolServer(stack, 'Mcp', { realtimeEndpoints: [{ endpoint: realtime(stack) }] });

/** Every public grant method, applied to `grantee`, returning the Grant it returned. */
export const GRANT_METHODS: Record<string, (stack: Stack, grantee: iam.IGrantable) => iam.Grant> = {
  'RealtimeEndpoint.grantInvoke': (stack, g) => realtime(stack).grantInvoke(g),
  'RealtimeEndpoint.grantInvokeTargetModels': (stack, g) => realtime(stack).grantInvokeTargetModels(g, ['acme.tar.gz', 'globex.tar.gz']),
  'RealtimeEndpoint.grant': (stack, g) => realtime(stack).grant(g, 'sagemaker:DescribeEndpoint'),
  'SharedGpuEndpoint.grantInvoke': (stack, g) => sharedGpu(stack).endpoint.grantInvoke(g),
  'InferenceComponent.grantInvoke': (stack, g) => sharedGpu(stack).component.grantInvoke(g),
  'AsyncEndpoint.grantInvoke': (stack, g) => asyncEndpoint(stack).grantInvoke(g),
  'AsyncEndpoint.grantSubmit': (stack, g) => asyncEndpoint(stack).grantSubmit(g),
  'AsyncEndpoint.grantReadResults': (stack, g) => asyncEndpoint(stack).grantReadResults(g),
  'FeatureGroup.grantReadOnline': (stack, g) => featureGroup(stack).grantReadOnline(g),
  'FeatureGroup.grantWriteOnline': (stack, g) => featureGroup(stack).grantWriteOnline(g),
  'FeatureGroup.grantGetRecord': (stack, g) => featureGroup(stack).grantGetRecord(g),
  'FeatureGroup.grantPutRecord': (stack, g) => featureGroup(stack).grantPutRecord(g),
  'FeatureGroup.grantQueryOffline': (stack, g) => featureGroup(stack).grantQueryOffline(g),
  'FeatureGroup.grantQueryOffline (results bucket)': (stack, g) => featureGroup(stack).grantQueryOffline(g, { resultsBucket: athenaResults(stack) }),
  'TrainingPipeline.grantStartExecution': (stack, g) => pipeline(stack).grantStartExecution(g),
  'TrainingPipeline.grantReadExecutions': (stack, g) => pipeline(stack).grantReadExecutions(g),
  'PipelineEventRouter.grantReadResults': (stack, g) => router(stack, pipeline(stack)).grantReadResults(g),
  'PipelineEventRouter.grantReadResultsByExecution': (stack, g) => router(stack, pipeline(stack)).grantReadResultsByExecution(g),
  'McpToolServer.grantInvokeUrl': (stack, g) => mcpServer(stack).grantInvokeUrl(g),
};
