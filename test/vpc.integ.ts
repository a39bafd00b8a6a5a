/**
 * Integration stack: the MCP stack in a VPC with no way to the internet (no internet or NAT gateway, only isolated
 * subnets), reaching AWS through `SageMakerVpcEndpoints`. A realtime chat model and a per-tenant multi-model endpoint
 * (both network-isolated, artifacts from S3), an async document processor with its result recorder, the pipeline
 * results router (of the examples' training pipeline) and the MCP tool server all run in the isolated subnets; the feature group is reached through the
 * Feature Store runtime endpoint. test/network/no-internet.test.ts checks the template has no path out.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { integApp, integStack, synthIntegApp } from './integ-app';
import { addFeatureStoreExample } from '../examples/feature-store';
import { operationsFor } from '../examples/operations';
import { addPipelinesExample } from '../examples/pipelines';
import { AsyncEndpoint, AsyncWorkload } from '../src/async';
import { SageMakerMcpChecks } from '../src/checks';
import { ContainerImage, InstanceType, ModelData, ModelFamily, ModelSource, MultiModelSource } from '../src/core';
import { McpToolServer } from '../src/mcp';
import { SageMakerVpcEndpoints, SageMakerVpcEndpointService } from '../src/network';
import { createEncryptedLogGroup, createKey } from '../src/private/encryption';
import { RealtimeEndpoint } from '../src/realtime';

export function addIsolatedMcpStack(stack: Stack): McpToolServer {
  const ops = operationsFor(stack);
  const vpc = new ec2.Vpc(stack, 'Vpc', {
    maxAzs: 2,
    natGateways: 0,
    subnetConfiguration: [{ name: 'isolated', subnetType: ec2.SubnetType.PRIVATE_ISOLATED, cidrMask: 24 }],
  });
  // Flow logs into a KMS-encrypted log group (Control Tower CT.CLOUDWATCH.PR.3).
  const flowLogs = createEncryptedLogGroup(stack, 'FlowLogs', {
    key: createKey(stack, 'FlowLogsKey', 'Encrypts the flow logs of the isolated VPC'), retention: ops.logRetention,
  });
  vpc.addFlowLog('All', { destination: ec2.FlowLogDestination.toCloudWatchLogs(flowLogs) });
  // SNS too: the async endpoint's notifications may be published from the VPC (docs/reliability.md, "Unconfirmed").
  new SageMakerVpcEndpoints(stack, 'AwsEndpoints', { vpc, services: [...SageMakerVpcEndpointService.all(), SageMakerVpcEndpointService.SNS] });
  const network = { vpc, enableNetworkIsolation: true };
  const artifacts = s3.Bucket.fromBucketName(stack, 'Artifacts', `mcp-model-artifacts-${stack.account}`);

  const chat = new RealtimeEndpoint(stack, 'Chat', {
    ...network,
    model: ModelSource.fromContainer(
      ContainerImage.fromDlc('huggingface-pytorch-tgi-inference', '2.7.0-tgi3.3.6-gpu-py311-cu124-ubuntu22.04'),
      { modelData: ModelData.fromBucket(artifacts, 'llama-3-8b-instruct/'), environment: { HF_MODEL_ID: '/opt/ml/model' }, modelFamily: ModelFamily.LLAMA3 },
    ),
    instanceType: InstanceType.ML_G5_2XLARGE,
    modelDataDownloadTimeout: Duration.minutes(20),
    containerStartupHealthCheckTimeout: Duration.minutes(15),
  });

  const tenants = MultiModelSource.fromBucket(ContainerImage.xgboost('1.7-1'), artifacts, 'tenants/churn/', { targetModels: ['acme.tar.gz', 'globex.tar.gz'] });
  const perTenant = new RealtimeEndpoint(stack, 'TenantChurn', { ...network, model: tenants, instanceType: InstanceType.ML_M5_LARGE });

  const docs = new AsyncEndpoint(stack, 'DocProcessor', {
    ...network,
    // The weights come from S3: an isolated container cannot download from the Hugging Face Hub.
    model: ModelSource.fromContainer(
      ContainerImage.fromDlc('huggingface-pytorch-inference', '2.1.0-transformers4.37.0-cpu-py310-ubuntu22.04'),
      { modelData: ModelData.fromBucket(artifacts, 'bart-large-cnn/model.tar.gz'), environment: { HF_TASK: 'summarization' } },
    ),
    instanceType: InstanceType.ML_M5_XLARGE,
    invocation: { workload: AsyncWorkload.CPU_PROCESSING },
    autoScaling: { minCapacity: 0, maxCapacity: 2 },
    alarmActions: ops.alarmActions,
    logRetention: ops.logRetention,
    storage: { serverAccessLogsBucket: ops.accessLogsBucket },
  });
  SageMakerMcpChecks.acknowledge(docs, 'SMCP-RO1', 'Scales from zero: an update usually finds 0 or 1 instance, so a canary or '
    + 'rolling batch has nothing to split, and SageMaker\'s default all-at-once blue/green update is what a rollout would do.');

  const featureGroup = addFeatureStoreExample(stack);
  const pipelines = addPipelinesExample(stack, { vpc });

  return new McpToolServer(stack, 'McpToolServer', {
    vpc,
    realtimeEndpoints: [
      { endpoint: chat, modelFamily: ModelFamily.LLAMA3, description: 'Llama 3 8B Instruct chat (TGI): use a prompt payload' },
      { endpoint: perTenant, targetModels: tenants.targetModels, description: 'Churn probability per tenant (XGBoost): csv rows' },
    ],
    asyncEndpoints: [{ endpoint: docs, description: 'Summarizes long documents (BART): json payload {"inputs": "<text>"}' }],
    featureGroups: [{ featureGroup, description: 'Per-user MCP usage features' }],
    pipelines: [{ pipeline: pipelines.pipeline, description: 'Retrains the churn classifier' }],
    trainingResults: pipelines.router,
    alarmActions: ops.alarmActions,
    logRetention: ops.logRetention,
  });
}

const app = integApp();
addIsolatedMcpStack(integStack(app, 'CdkSageMakerMcpVpcInteg'));
synthIntegApp(app);
