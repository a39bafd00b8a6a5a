/**
 * The seam between McpToolServer (construct side) and the MCP runtime: every construct kind the server accepts is
 * built into one server, the spec it wrote into the function's environment is read back from the synthesized template
 * and parsed by the runtime's own parser, and every field the runtime reads must be there (the field lists are typed
 * against the contract's interfaces: a field added to the contract fails to compile here until it is listed, and then
 * fails the test until the construct produces it). The async timeouts then travel through a real MCP session to
 * InvokeEndpointAsync. The runtime's zod schemas (packages/runtime/src/contract) parse the spec and the env the other
 * constructs wrote for their functions (async endpoint, result recorder, pipeline router), key by key.
 */
import { createServer, Server } from 'http';
import { AddressInfo } from 'net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { App, Duration, Size, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { z } from 'zod';
import { specTextOf } from './spec-of';
import { addFeatureStoreExample } from '../../examples/feature-store';
import { addJumpStartExample } from '../../examples/jumpstart';
import { addLifecycleExample } from '../../examples/lifecycle';
import { addPipelinesExample } from '../../examples/pipelines';
import { addRealtimeExample } from '../../examples/realtime';
import { addSharedGpuExample } from '../../examples/shared-gpu';
import { BUCKET, JOB_TABLE, LocalEnv, startLocalEnv } from '../../packages/runtime/test/support/local-env';
import { AsyncEndpoint, AsyncWorkload } from '../../src/async';
import { ContainerImage, InstanceType, ModelData, ModelFamily, ModelSource, MultiModelSource } from '../../src/core';
import { McpToolServer } from '../../src/mcp';
import { RealtimeEndpoint } from '../../src/realtime';
import { ServerlessEndpoint } from '../../src/serverless';
import { InferenceComponent } from '../../src/shared-gpu';
import { accepted } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import {
  ASYNC_ENV, AsyncEndpointEnvSchema, FeatureGroupSchema, MCP_ENV, McpAsyncEndpointSpec, McpDeploymentSpec, McpFeatureGroupSpec,
  McpModelPackageGroupSpec, McpPipelineSpec, McpRealtimeEndpointSpec, McpServerSpec, McpServerSpecSchema, PipelineRouterEnvSchema,
  RESULTS_QUEUE_URL_ENV, ResultRecorderEnvSchema, toolNamesForSpec,
} from 'cdk-sagemaker-mcp-runtime/internal/contract';
import { createSageMakerMcpHandler, mcpServerConfigFromEnv } from 'cdk-sagemaker-mcp-runtime/mcp';

/** Every field of T, optional ones included: the compiler refuses a missing or an unknown one. */
type AllFields<T> = { readonly [K in keyof Required<T>]: true };
const SERVER: AllFields<McpServerSpec> = {
  serverName: true,
  realtimeEndpoints: true,
  asyncEndpoints: true,
  featureGroups: true,
  pipelines: true,
  trainingResultsTable: true,
  modelProvenance: true,
  handleTtlSeconds: true,
  maxEventTimeSkewSeconds: true,
  modelPackageGroups: true,
  deployments: true,
};
const REALTIME: AllFields<McpRealtimeEndpointSpec> = {
  name: true, description: true, inferenceComponents: true, modelFamily: true, componentModelFamilies: true, targetModels: true, openAiRoute: true,
};
const ASYNC: AllFields<McpAsyncEndpointSpec> = {
  name: true, description: true, inputBucket: true, inputPrefix: true, jobTableName: true, invocationTimeoutSeconds: true, requestTtlSeconds: true,
};
const FEATURE_GROUP: AllFields<McpFeatureGroupSpec> = { schema: true, description: true, allowWrites: true };
const SCHEMA: AllFields<FeatureGroupSchema> = {
  featureGroupName: true, recordIdentifier: true, eventTime: true, features: true, onlineStorageType: true,
};
const PIPELINE: AllFields<McpPipelineSpec> = { name: true, description: true, parameters: true };
const MODEL_PACKAGE_GROUP: AllFields<McpModelPackageGroupSpec> = { name: true, description: true };
const DEPLOYMENT: AllFields<McpDeploymentSpec> = { endpointName: true, description: true };

/** Fields of `fields` that no item of `items` carries (undefined counts as missing: JSON drops it). */
function missing(fields: object, items: readonly object[]): string[] {
  return Object.keys(fields).filter((f) => !items.some((item) => (item as Record<string, unknown>)[f] !== undefined));
}

/** A synthesized value with CloudFormation references turned into stable placeholders (what the deploy substitutes). */
function resolveForTest(value: unknown): string {
  if (typeof value === 'string') return value;
  const v = value as Record<string, any>;
  if (v.Ref) return `<ref:${v.Ref}>`;
  if (v['Fn::GetAtt']) return `<att:${v['Fn::GetAtt'].join('.')}>`;
  if (v['Fn::Join']) return (v['Fn::Join'][1] as unknown[]).map(resolveForTest).join(v['Fn::Join'][0]);
  throw new Error(`unexpected intrinsic in the spec: ${JSON.stringify(value)}`);
}

/** Every kind built once for the file: each describe only reads the stack, its template and the spec. */
let allKinds: ReturnType<typeof buildAllKinds> | undefined;
const builtOnce = () => (allKinds ??= buildAllKinds());

function buildAllKinds() {
  const app = new App();
  const stack = new Stack(app, 'Seam', { env: { account: '123456789012', region: 'us-east-1' } });
  const realtime = addRealtimeExample(stack);
  const jumpStart = addJumpStartExample(stack);
  const sharedGpu = addSharedGpuExample(stack);
  const components = sharedGpu.node.findAll().filter((c): c is InferenceComponent => c instanceof InferenceComponent);
  const featureGroup = addFeatureStoreExample(stack);
  const pipelines = addPipelinesExample(stack);
  const lifecycle = addLifecycleExample(stack);
  // An async endpoint whose jobs may run 30 minutes: the finding was that the tool submitted with 900 s.
  const asyncEndpoint = new AsyncEndpoint(stack, 'LongJobs', {
    model: ModelSource.fromContainer(ContainerImage.fromDlc('huggingface-pytorch-inference', '2.1.0-transformers4.37.0-cpu-py310-ubuntu22.04')),
    instanceType: InstanceType.ML_M5_XLARGE,
    invocation: { workload: AsyncWorkload.CPU_PROCESSING, invocationTimeout: Duration.minutes(30), requestTtl: Duration.hours(2) },
  });
  // A serverless endpoint is invoked like a realtime one; a multi-model endpoint adds its allow-listed target models.
  const models = s3.Bucket.fromBucketName(stack, 'Models', 'seam-models');
  const serverless = new ServerlessEndpoint(stack, 'Serverless', {
    model: ModelSource.fromContainer(ContainerImage.sklearn('1.2-1'), { modelData: ModelData.fromBucket(models, 'churn/model.tar.gz') }),
    memorySize: Size.gibibytes(2),
    maxConcurrency: 5,
  });
  const multiModel = MultiModelSource.fromBucket(ContainerImage.sklearn('1.2-1'), models, 'tenants/', { targetModels: ['a.tar.gz', 'b.tar.gz'] });
  const mme = new RealtimeEndpoint(stack, 'MultiModel', { model: multiModel, instanceType: InstanceType.ML_M5_LARGE });
  const server = new McpToolServer(stack, 'Mcp', {
    serverName: 'seam',
    realtimeEndpoints: [
      { endpoint: realtime, description: 'chat', modelFamily: ModelFamily.LLAMA3, openAiRoute: true },
      { endpoint: jumpStart, description: 'mistral from JumpStart', modelFamily: ModelFamily.MISTRAL },
      { endpoint: mme, description: 'one churn model per tenant', targetModels: multiModel.targetModels },
    ],
    serverlessEndpoints: [{ endpoint: serverless, description: 'churn, serverless' }],
    inferenceComponents: components.map((inferenceComponent) => ({ inferenceComponent, description: 'shared', modelFamily: ModelFamily.TGI })),
    asyncEndpoints: [{ endpoint: asyncEndpoint, description: 'long jobs' }],
    featureGroups: [{ featureGroup, allowWrites: true, description: 'users' }],
    pipelines: [{ pipeline: pipelines.pipeline, description: 'retrain' }],
    trainingResults: pipelines.router,
    modelProvenance: true,
    modelPackageGroups: [{ modelPackageGroup: lifecycle.group, description: 'churn classifiers' }],
    deployments: [{ endpoint: lifecycle.endpoint, description: 'churn, canary on approval' }],
    handleTtl: Duration.days(2),
    maxEventTimeSkew: Duration.minutes(2),
  });
  const template = Template.fromStack(stack).toJSON();
  const fnId = stack.resolve((server.serverFunction.node.defaultChild as any).logicalId);
  const env: Record<string, unknown> = template.Resources[fnId].Properties.Environment.Variables;
  // The spec as the template writes it into the spec secret, unpacked (CloudFormation resolves its names at deploy time).
  const specText = specTextOf(template, fnId, resolveForTest);
  return { stack, server, asyncEndpoint, pipelines, env, specText, serverless, mme };
}

describe('construct -> runtime spec', () => {
  const built = builtOnce();
  const spec = mcpServerConfigFromEnv({ [MCP_ENV.SPEC]: built.specText }) as McpServerSpec;

  test('the runtime parses what the construct wrote and registers the tools the construct announced', () => {
    expect(toolNamesForSpec(spec)).toEqual(built.server.toolNames);
  });

  test('every field of every spec section is produced', () => {
    expect({
      server: missing(SERVER, [spec]),
      realtime: missing(REALTIME, spec.realtimeEndpoints!),
      async: missing(ASYNC, spec.asyncEndpoints!),
      featureGroup: missing(FEATURE_GROUP, spec.featureGroups!),
      schema: missing(SCHEMA, spec.featureGroups!.map((g) => g.schema)),
      pipeline: missing(PIPELINE, spec.pipelines!),
      modelPackageGroup: missing(MODEL_PACKAGE_GROUP, spec.modelPackageGroups!),
      deployment: missing(DEPLOYMENT, spec.deployments!),
    }).toEqual({ server: [], realtime: [], async: [], featureGroup: [], schema: [], pipeline: [], modelPackageGroup: [], deployment: [] });
  });

  test('the async entry carries the endpoint\'s own timeouts, table and bucket, as its runtimeEnvironment states them', () => {
    const runtimeEnv = built.stack.resolve(built.asyncEndpoint.runtimeEnvironment);
    const entry = spec.asyncEndpoints![0];
    expect(entry.invocationTimeoutSeconds).toBe(1800);
    expect(entry.requestTtlSeconds).toBe(7200);
    expect(String(entry.invocationTimeoutSeconds)).toBe(runtimeEnv[ASYNC_ENV.INVOCATION_TIMEOUT_SECONDS]);
    expect(String(entry.requestTtlSeconds)).toBe(runtimeEnv[ASYNC_ENV.REQUEST_TTL_SECONDS]);
    expect(entry.jobTableName).toBe(resolveForTest(runtimeEnv[ASYNC_ENV.JOB_TABLE_NAME]));
    expect(entry.inputBucket).toBe(resolveForTest(runtimeEnv[ASYNC_ENV.INPUT_BUCKET]));
    expect(entry.inputPrefix).toBe(runtimeEnv[ASYNC_ENV.INPUT_PREFIX]);
    expect(spec.handleTtlSeconds).toBe(2 * 86400);
    expect(spec.maxEventTimeSkewSeconds).toBe(120);
    expect(spec.trainingResultsTable).toBe(resolveForTest(built.stack.resolve(built.pipelines.router.resultsTable.tableName)));
  });

  test('a serverless endpoint is an ordinary entry; a multi-model endpoint carries its target models', () => {
    const byName = (e: unknown) => spec.realtimeEndpoints!.find((x) => x.name === resolveForTest(built.stack.resolve(e)));
    expect(byName(built.serverless.endpointName)).toEqual({ name: expect.any(String), description: 'churn, serverless' });
    expect(byName(built.mme.endpointName)).toMatchObject({ targetModels: ['a.tar.gz', 'b.tar.gz'] });
  });

  test('the detector works: a spec that drops a field is reported', () => {
    const { invocationTimeoutSeconds: _dropped, ...withoutTimeout } = spec.asyncEndpoints![0];
    expect(missing(ASYNC, [withoutTimeout])).toEqual(['invocationTimeoutSeconds']);
  });
});

/** The env a synthesized function was given, intrinsics resolved to placeholders. */
function functionEnv(stack: Stack, fn: unknown): Record<string, string> {
  const template = Template.fromStack(stack).toJSON();
  const id = stack.resolve(((fn as { node: { defaultChild: unknown } }).node.defaultChild as any).logicalId);
  const vars: Record<string, unknown> = template.Resources[id].Properties.Environment.Variables;
  // AWS_NODEJS_CONNECTION_REUSE_ENABLED is aws-cdk-lib's own setting for Node.js functions, not part of the contract.
  return Object.fromEntries(Object.entries(vars).filter(([k]) => !k.startsWith('AWS_')).map(([k, v]) => [k, resolveForTest(v)]));
}

/** Parses `value` with `schema` strictly (no unknown key) and lists every key of the schema the value lacks. */
function parseStrict(schema: z.ZodObject, value: unknown): { parsed: Record<string, unknown>; absent: string[] } {
  const parsed = schema.strict().parse(value) as Record<string, unknown>;
  return { parsed, absent: Object.keys(schema.shape).filter((k) => parsed[k] === undefined) };
}

describe('construct -> runtime: every contract parsed with the runtime\'s zod schema', () => {
  const built = builtOnce();

  test('the MCP spec parses strictly, every section and field present (the seam kinds: realtime, JumpStart, shared-GPU with components, async with a job table, feature group read/write, pipeline, event router)', () => {
    const { parsed, absent } = parseStrict(McpServerSpecSchema, JSON.parse(built.specText));
    expect(absent).toEqual([]);
    const spec = parsed as McpServerSpec;
    expect(spec.realtimeEndpoints!.some((e) => e.inferenceComponents?.length)).toBe(true);
    expect(spec.featureGroups!.some((g) => g.allowWrites)).toBe(true);
  });

  test('the async endpoint\'s runtimeEnvironment parses, with and without a job table', () => {
    const withTable = built.stack.resolve(built.asyncEndpoint.runtimeEnvironment);
    const env = Object.fromEntries(Object.entries(withTable).map(([k, v]) => [k, resolveForTest(v)]));
    expect(parseStrict(AsyncEndpointEnvSchema, env).absent).toEqual([]);
    const app = new App();
    const stack = new Stack(app, 'NoTable', { env: { account: '123456789012', region: 'us-east-1' } });
    const noTable = new AsyncEndpoint(stack, 'NoTable', {
      model: ModelSource.fromContainer(ContainerImage.fromDlc('huggingface-pytorch-inference', '2.1.0-transformers4.37.0-cpu-py310-ubuntu22.04')),
      instanceType: InstanceType.ML_M5_XLARGE,
      invocation: { workload: AsyncWorkload.CPU_PROCESSING },
      results: { enabled: false },
    });
    const bare = Object.fromEntries(Object.entries(stack.resolve(noTable.runtimeEnvironment)).map(([k, v]) => [k, resolveForTest(v)]));
    expect(parseStrict(AsyncEndpointEnvSchema, bare).absent).toEqual([ASYNC_ENV.JOB_TABLE_NAME]);
  });

  test('the result recorder\'s and the pipeline router\'s env parse strictly, every key present', () => {
    const recorder = built.asyncEndpoint.node.findAll().find((c) => c.constructor.name === 'ResultRecorderFunction');
    expect(recorder).toBeDefined();
    expect(parseStrict(ResultRecorderEnvSchema, functionEnv(built.stack, recorder)).absent).toEqual([]);
    const router = built.pipelines.router.node.findAll().find((c) => c.constructor.name === 'PipelineRouterFunction');
    expect(router).toBeDefined();
    // The example router sends no results to a queue: the one optional key is the only one absent.
    expect(parseStrict(PipelineRouterEnvSchema, functionEnv(built.stack, router)).absent).toEqual([RESULTS_QUEUE_URL_ENV]);
  });

  test('the detector works: a spec missing a required field or carrying an unknown one fails to parse, naming the field', () => {
    const spec = JSON.parse(built.specText);
    const { inputBucket: _dropped, ...broken } = spec.asyncEndpoints[0];
    expect(() => parseStrict(McpServerSpecSchema, { ...spec, asyncEndpoints: [broken] })).toThrow(/asyncEndpoints.*inputBucket|inputBucket/s);
    const { handleTtlSeconds: _ttl, ...withoutTtl } = spec;
    expect(parseStrict(McpServerSpecSchema, withoutTtl).absent).toEqual(['handleTtlSeconds']);
    expect(() => parseStrict(McpServerSpecSchema, { ...spec, realtimeEndpoint: [] })).toThrow(/realtimeEndpoint/);
  });
});

describe('through an MCP session: the endpoint\'s 30-minute timeout reaches InvokeEndpointAsync', () => {
  let local: LocalEnv;
  let http: Server;
  let client: Client;

  beforeAll(async () => {
    const built = builtOnce();
    const spec = mcpServerConfigFromEnv({ [MCP_ENV.SPEC]: built.specText });
    local = await startLocalEnv();
    // The synthesized async entry, with the deploy-time names mapped to the local bucket, table and endpoint.
    const asyncEntry = { ...spec.asyncEndpoints![0], name: 'doc-summarizer', inputBucket: BUCKET, jobTableName: JOB_TABLE };
    const config = { ...local.config, asyncEndpoints: [asyncEntry] };
    http = createServer(toNodeHandler(createSageMakerMcpHandler(config)));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
    client = new Client({ name: 'seam-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`)));
  });

  afterAll(async () => {
    await client?.close();
    await new Promise<void>((resolve) => (http ? http.close(() => resolve()) : resolve()));
    await local?.stop();
  });

  test('start_async_inference without a timeout submits with the endpoint\'s 1800 s and 7200 s, not the 900 s default', async () => {
    local.runtime.script('doc-summarizer', accepted({ inferenceId: 'seam-1' }));
    const result = await client.callTool({ name: 'start_async_inference', arguments: { endpointName: 'doc-summarizer', payload: { format: 'text', text: 'x' } } });
    expect(result.isError).toBeFalsy();
    const [request] = local.runtime.requestsFor('doc-summarizer');
    expect(request.headers['x-amzn-sagemaker-invocationtimeoutseconds']).toBe('1800');
    expect(request.headers['x-amzn-sagemaker-requestttlseconds']).toBe('7200');
  });
});
