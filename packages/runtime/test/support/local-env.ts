/**
 * Every local AWS stand-in the MCP tools talk to, started together, plus the server configuration pointing at them:
 * SageMaker runtime, control plane, Feature Store runtime, dynalite (job + results tables) and s3rver (async bucket).
 */
import { CreateTableCommand, DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { FeatureStoreRuntimeServer, startFeatureStoreRuntimeServer } from '@cdk-sagemaker-mcp/test-stand-ins/featurestore-runtime-server';
import { clientConfig, LOCAL_CREDENTIALS, LocalService, s3ClientConfig, startDynalite, startS3rver } from '@cdk-sagemaker-mcp/test-stand-ins/local-aws';
import { SageMakerControlServer, startSageMakerControlServer } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-control-server';
import { SageMakerRuntimeServer, startSageMakerRuntimeServer } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { userKeyedSchema } from './feature-schemas';
import type { SageMakerMcpServerConfig } from 'cdk-sagemaker-mcp-runtime/mcp';

export const BUCKET = 'mcp-async-bucket';
export const JOB_TABLE = 'mcp-async-jobs';
export const RESULTS_TABLE = 'mcp-training-results';
export const USERS_SCHEMA = userKeyedSchema('users', { name: 'calls', type: 'Integral' }, { name: 'score', type: 'Fractional' });

export interface LocalEnv {
  readonly runtime: SageMakerRuntimeServer;
  readonly control: SageMakerControlServer;
  readonly featureStore: FeatureStoreRuntimeServer;
  readonly dynalite: LocalService;
  readonly s3rver: LocalService;
  readonly dynamodb: DynamoDBClient;
  readonly s3: S3Client;
  readonly config: SageMakerMcpServerConfig;
  stop(): Promise<void>;
}

/**
 * `config` as the JSON a user writes for the CLI. The AWS SDK marks a credentials object it has used with a `$source`
 * field, which the CLI (rightly) refuses as unknown, so the credentials are written afresh.
 */
export function cliConfigJson(config: SageMakerMcpServerConfig): string {
  const credentials = config.credentials && { accessKeyId: config.credentials.accessKeyId, secretAccessKey: config.credentials.secretAccessKey };
  return JSON.stringify({ ...config, credentials });
}

export async function startLocalEnv(): Promise<LocalEnv> {
  const [runtime, control, featureStore, dynalite, s3rver] = await Promise.all([
    startSageMakerRuntimeServer({ asyncOutputPath: `s3://${BUCKET}/outputs`, asyncFailurePath: `s3://${BUCKET}/failures` }),
    startSageMakerControlServer(),
    startFeatureStoreRuntimeServer(),
    startDynalite(),
    startS3rver([BUCKET]),
  ]);
  const dynamodb = new DynamoDBClient(clientConfig(dynalite));
  const s3 = new S3Client(s3ClientConfig(s3rver));
  await dynamodb.send(new CreateTableCommand({
    TableName: JOB_TABLE,
    AttributeDefinitions: [{ AttributeName: 'inferenceId', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'inferenceId', KeyType: 'HASH' }],
    BillingMode: 'PAY_PER_REQUEST',
  }));
  await dynamodb.send(new CreateTableCommand({
    TableName: RESULTS_TABLE,
    AttributeDefinitions: [{ AttributeName: 'executionArn', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'executionArn', KeyType: 'HASH' }],
    BillingMode: 'PAY_PER_REQUEST',
  }));
  featureStore.createGroup({ name: 'users', recordIdentifier: 'user_id', eventTime: 'event_time', eventTimeType: 'String' });
  featureStore.putRecord('users', { user_id: 'u1', event_time: '2024-01-01T00:00:00.000Z', calls: '3', score: '0.75' });
  control.addPipeline('churn-training');
  control.setEndpoint('churn-xgb', {
    EndpointName: 'churn-xgb',
    EndpointArn: 'arn:aws:sagemaker:us-east-1:123456789012:endpoint/churn-xgb',
    EndpointConfigName: 'churn-xgb-config',
    EndpointStatus: 'InService',
    CreationTime: 1_700_000_000,
    LastModifiedTime: 1_700_000_100,
    ProductionVariants: [{ VariantName: 'AllTraffic', CurrentInstanceCount: 1, DesiredInstanceCount: 1, CurrentWeight: 1 }],
  });

  const config: SageMakerMcpServerConfig = {
    serverName: 'sagemaker-local',
    region: 'us-east-1',
    credentials: LOCAL_CREDENTIALS,
    handleKey: 'local-test-handle-key',
    endpoints: {
      sagemakerRuntime: runtime.endpoint,
      sagemaker: control.endpoint,
      featureStoreRuntime: featureStore.endpoint,
      dynamodb: dynalite.endpoint,
      s3: s3rver.endpoint,
    },
    realtimeEndpoints: [
      { name: 'churn-xgb', description: 'XGBoost churn classifier: one CSV row of 4 features -> churn probability' },
      { name: 'shared-llm', description: 'Shared GPU endpoint', inferenceComponents: ['llama3-8b'], modelFamily: 'llama3' },
    ],
    asyncEndpoints: [
      { name: 'doc-summarizer', inputBucket: BUCKET, inputPrefix: 'inputs/', jobTableName: JOB_TABLE },
      { name: 'batch-scorer', inputBucket: BUCKET },
    ],
    featureGroups: [{ schema: USERS_SCHEMA, allowWrites: true, description: 'per-user usage features' }],
    pipelines: [{ name: 'churn-training', parameters: ['MaxRounds'], description: 'retrains the churn model' }],
    trainingResultsTable: RESULTS_TABLE,
    modelProvenance: true,
    // Keep failing tests fast: the runtime retries transient errors with backoff inside this deadline.
    invokeDeadlineMs: 10_000,
  };

  return {
    runtime,
    control,
    featureStore,
    dynalite,
    s3rver,
    dynamodb,
    s3,
    config,
    async stop() {
      dynamodb.destroy();
      s3.destroy();
      await Promise.all([runtime.stop(), control.stop(), featureStore.stop(), dynalite.stop(), s3rver.stop()]);
    },
  };
}

/** Writes what SageMaker would write when an async job completes. */
export async function completeAsyncOutput(env: LocalEnv, key: string, body: unknown): Promise<void> {
  await env.s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: JSON.stringify(body), ContentType: 'application/json' }));
}

/** Writes the job item the async result recorder would write. */
export async function recordAsyncJob(env: LocalEnv, inferenceId: string, outputLocation: string): Promise<void> {
  await env.dynamodb.send(new PutItemCommand({
    TableName: JOB_TABLE,
    Item: {
      inferenceId: { S: inferenceId },
      status: { S: 'Completed' },
      outputLocation: { S: outputLocation },
      completedAt: { S: '2024-01-01T00:00:10.000Z' },
      eventTimeMs: { N: '1704067210000' },
    },
  }));
}

/** Writes the result item the pipeline router would write. */
export async function recordTrainingResult(env: LocalEnv, executionArn: string, fields: Record<string, string>): Promise<void> {
  const item: Record<string, { S: string }> = { executionArn: { S: executionArn } };
  for (const [k, v] of Object.entries(fields)) item[k] = { S: v };
  await env.dynamodb.send(new PutItemCommand({ TableName: RESULTS_TABLE, Item: item }));
}
