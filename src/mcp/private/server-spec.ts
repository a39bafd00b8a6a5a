import { Stack, Token } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct, IConstruct } from 'constructs';
import { grantStopOfRead } from './task-grants';
import { AsyncEndpoint } from '../../async/async-endpoint';
import { ASYNC_ENV, McpServerSpec } from '../../private/contract.generated';
import { IAM_ACTION, iamActionsFor } from '../../private/iam-actions';
import { OpenAiRouteSupport, openAiRouteSupportOf } from '../../private/openai-route';
import { PropValidator, TARGET_MODEL_EXPECTED, TARGET_MODEL_PATTERN } from '../../private/validation';
import { RealtimeEndpoint } from '../../realtime/realtime-endpoint';
import { ServerlessEndpoint } from '../../serverless/serverless-endpoint';
import { SharedGpuEndpoint } from '../../shared-gpu/shared-gpu-endpoint';
import { McpToolServerProps } from '../mcp-tool-server-props';

// What an McpToolServer exposes, as the spec its handler reads (MCP_SERVER_SPEC) and as grants on its function.


interface SharedEndpointSpec {
  name: string;
  description?: string;
  inferenceComponents: string[];
  componentModelFamilies: Array<{ component: string; modelFamily: string }>;
  openAiRoute?: boolean;
}

/**
 * Whether `invoke_endpoint` sends chat-shaped calls to this entry through the OpenAI-compatible route: as the entry
 * says, else when AWS lists the model's container as serving it (vLLM, SGLang). Never for a multi-model entry (the route
 * takes no target model).
 */
function usesOpenAiRoute(entry: { openAiRoute?: boolean; targetModels?: string[] }, construct: IConstruct): boolean {
  if (entry.targetModels?.length) return false;
  return entry.openAiRoute ?? openAiRouteSupportOf(construct) === OpenAiRouteSupport.LISTED;
}

export function buildServerSpec(props: McpToolServerProps, v: PropValidator): McpServerSpec {
  (props.realtimeEndpoints ?? []).forEach((e, i) => {
    const kind = e.endpoint instanceof ServerlessEndpoint ? 'serverlessEndpoints'
      : e.endpoint instanceof AsyncEndpoint ? 'asyncEndpoints'
        : e.endpoint instanceof SharedGpuEndpoint ? 'inferenceComponents (one entry per component)' : undefined;
    if (kind) v.add(`realtimeEndpoints[${i}].endpoint: got the ${e.endpoint.constructor.name} '${e.endpoint.node.path}', expected a realtime endpoint: give it under ${kind}`);
  });
  (props.serverlessEndpoints ?? []).forEach((e, i) => {
    v.check(!(e.endpoint instanceof RealtimeEndpoint || e.endpoint instanceof AsyncEndpoint || e.endpoint instanceof SharedGpuEndpoint),
      `serverlessEndpoints[${i}].endpoint`, `the ${e.endpoint.constructor.name} '${e.endpoint.node.path}'`, 'a serverless endpoint (a ServerlessEndpoint or an import of one)');
  });
  const entries = [
    ...(props.realtimeEndpoints ?? []).map((e, i) => ({ prop: `realtimeEndpoints[${i}]`, e })),
    ...(props.serverlessEndpoints ?? []).map((e, i) => ({ prop: `serverlessEndpoints[${i}]`, e: { ...e, targetModels: undefined as string[] | undefined } })),
  ];
  // The runtime invokes realtime and serverless endpoints alike (InvokeEndpoint), so both land in its invoke list.
  const realtime = entries.map(({ prop, e }) => {
    for (const t of e.targetModels ?? []) {
      v.pattern(`${prop}.targetModels`, t, TARGET_MODEL_PATTERN, TARGET_MODEL_EXPECTED);
    }
    const targetModels = e.targetModels && e.targetModels.length > 0 ? [...e.targetModels] : undefined;
    // The entry's family, else the endpoint's own.
    const modelFamily = (e.modelFamily ?? e.endpoint.modelFamily)?.name;
    // Left out unless true: the spec shares Lambda's 4 KB of environment with everything else.
    const openAiRoute = usesOpenAiRoute(e, e.endpoint) || undefined;
    return { name: e.endpoint.endpointName, description: e.description, modelFamily, targetModels, openAiRoute };
  });
  const byEndpoint = new Map<string, SharedEndpointSpec>();
  (props.inferenceComponents ?? []).forEach((c) => {
    const first = !byEndpoint.has(c.inferenceComponent.endpointName);
    const entry: SharedEndpointSpec = byEndpoint.get(c.inferenceComponent.endpointName)
      ?? { name: c.inferenceComponent.endpointName, inferenceComponents: [], componentModelFamilies: [] };
    entry.inferenceComponents.push(c.inferenceComponent.inferenceComponentName);
    // The entry's flag covers all its components: set only when every one serves the route.
    const route = usesOpenAiRoute(c, c.inferenceComponent);
    entry.openAiRoute = (first || entry.openAiRoute === true) && route ? true : undefined;
    const family = (c.modelFamily ?? c.inferenceComponent.modelFamily)?.name;
    if (family) entry.componentModelFamilies.push({ component: c.inferenceComponent.inferenceComponentName, modelFamily: family });
    if (c.description) entry.description = [entry.description, `${c.inferenceComponent.inferenceComponentName}: ${c.description}`].filter(Boolean).join('; ');
    byEndpoint.set(c.inferenceComponent.endpointName, entry);
  });
  const asyncEndpoints = (props.asyncEndpoints ?? []).flatMap((a, i) => {
    if (!a.endpoint.bucket) {
      v.add(`asyncEndpoints[${i}].endpoint: got '${a.endpoint.endpointName}' imported by name or ARN (no bucket known), expected an async `
        + 'endpoint with its bucket and prefixes: import it with AsyncEndpoint.fromAsyncEndpointAttributes');
      return [];
    }
    const bucket = a.endpoint.bucket;
    // The endpoint's own submission defaults (e.g. a 30-minute invocationTimeout), as its runtimeEnvironment states
    // them: without them the tool would submit with the library's 900 s default.
    const env = a.endpoint.runtimeEnvironment;
    const seconds = (name: string) => {
      const value = env[name];
      if (value === undefined) return undefined;
      return Token.isUnresolved(value) ? Token.asNumber(value) : Number(value);
    };
    return [{
      name: a.endpoint.endpointName,
      description: a.description,
      inputBucket: bucket.bucketName,
      inputPrefix: a.endpoint.inputPrefix,
      jobTableName: a.endpoint.jobTable?.tableName,
      invocationTimeoutSeconds: seconds(ASYNC_ENV.INVOCATION_TIMEOUT_SECONDS),
      requestTtlSeconds: seconds(ASYNC_ENV.REQUEST_TTL_SECONDS),
    }];
  });
  const featureGroups = (props.featureGroups ?? []).map((g, i) => {
    const schema = g.schema ?? g.featureGroup.schema;
    v.check(schema !== undefined, `featureGroups[${i}].schema`, undefined, `the schema of imported feature group '${g.featureGroup.featureGroupName}' (record identifier, event time, features)`);
    return { schema: schema!, allowWrites: g.allowWrites ?? false, description: g.description };
  });
  const pipelines = (props.pipelines ?? []).map((p) => ({
    name: p.pipeline.pipelineName,
    description: p.description,
    parameters: p.overridableParameters ?? p.pipeline.parameters?.map((x) => x.name) ?? [],
  }));
  if (props.trainingResults) {
    v.check(pipelines.length > 0, 'trainingResults', 'a PipelineEventRouter', 'at least one entry in pipelines (get_training_result reads runs started by start_training)');
  }
  return {
    serverName: props.serverName,
    realtimeEndpoints: [...realtime, ...byEndpoint.values()],
    asyncEndpoints,
    featureGroups,
    pipelines,
    trainingResultsTable: props.trainingResults?.resultsTable.tableName,
    modelProvenance: props.modelProvenance ?? false,
    // Left out when empty: the spec shares Lambda's 4 KB of environment with everything else.
    modelPackageGroups: props.modelPackageGroups?.length
      ? props.modelPackageGroups.map((g) => ({ name: g.modelPackageGroup.modelPackageGroupName, description: g.description })) : undefined,
    deployments: props.deployments?.length
      ? props.deployments.map((d) => ({ endpointName: d.endpoint.endpointName, description: d.description })) : undefined,
    maxEventTimeSkewSeconds: props.maxEventTimeSkew?.toSeconds(),
    handleTtlSeconds: props.handleTtl?.toSeconds({ integral: false }),
  };
}

export function grantExposed(scope: Construct, fn: lambda.IFunction, props: McpToolServerProps): void {
  for (const e of [...props.realtimeEndpoints ?? [], ...(props.serverlessEndpoints ?? []).map((x) => ({ ...x, targetModels: undefined }))]) {
    // A multi-model endpoint's allow-list is enforced twice: by the tool, and by IAM (sagemaker:TargetModel).
    if (e.targetModels?.length) e.endpoint.grantInvokeTargetModels(fn, e.targetModels);
    else e.endpoint.grantInvoke(fn);
    e.endpoint.grant(fn, IAM_ACTION.sagemaker.DescribeEndpoint);
  }
  // The OpenAI-compatible route also needs sagemaker:CallWithBearerToken, which takes no resource but `*` (AWS:
  // https://docs.aws.amazon.com/sagemaker/latest/dg/realtime-endpoints-openai-compatible.html); InvokeEndpoint on each
  // endpoint or component is granted above and below.
  const routed = [
    ...[...props.realtimeEndpoints ?? [], ...props.serverlessEndpoints ?? []].filter((e) => usesOpenAiRoute(e, e.endpoint)),
    ...(props.inferenceComponents ?? []).filter((c) => usesOpenAiRoute(c, c.inferenceComponent)),
  ];
  if (routed.length > 0) iam.Grant.addToPrincipal({ grantee: fn, actions: [IAM_ACTION.sagemaker.CallWithBearerToken], resourceArns: ['*'] });
  const describedEndpoints = new Set<string>();
  for (const c of props.inferenceComponents ?? []) {
    c.inferenceComponent.grantInvoke(fn);
    if (!describedEndpoints.has(c.inferenceComponent.endpointArn)) {
      describedEndpoints.add(c.inferenceComponent.endpointArn);
      iam.Grant.addToPrincipal({ grantee: fn, actions: [IAM_ACTION.sagemaker.DescribeEndpoint], resourceArns: [c.inferenceComponent.endpointArn] });
    }
  }
  for (const a of props.asyncEndpoints ?? []) {
    a.endpoint.grantSubmit(fn);
    a.endpoint.grantReadResults(fn);
    a.endpoint.grant(fn, IAM_ACTION.sagemaker.DescribeEndpoint);
  }
  // Only the calls the tools make: get_online_features reads one record (GetRecord), put_feature_record writes one
  // (PutRecord; UpdateRecord on Standard_V2/InMemory stores, GetRecord to merge on others), get_training_result reads
  // one execution's item (GetItem).
  for (const g of props.featureGroups ?? []) {
    g.featureGroup.grantGetRecord(fn);
    if (g.allowWrites) g.featureGroup.grantPutRecord(fn);
    const storage = (g.schema ?? g.featureGroup.schema)?.onlineStorageType;
    if (g.allowWrites && (storage === 'Standard_V2' || storage === 'InMemory')) g.featureGroup.grantUpdateRecord(fn);
  }
  for (const p of props.pipelines ?? []) {
    p.pipeline.grantStartExecution(fn);
    grantStopOfRead(fn, p.pipeline.grantReadExecutions(fn));
  }
  props.trainingResults?.grantReadResultsByExecution(fn);
  for (const g of props.modelPackageGroups ?? []) g.modelPackageGroup.grantReadVersions(fn);
  if (props.deployments?.length) {
    const stack = Stack.of(scope);
    for (const d of props.deployments) d.endpoint.grant(fn, ...iamActionsFor('SageMaker.DescribeEndpoint'));
    fn.addToRolePolicy(new iam.PolicyStatement({
      actions: iamActionsFor('SageMaker.DescribeEndpointConfig', 'SageMaker.DescribeModel'),
      resources: [stack.formatArn({ service: 'sagemaker', resource: 'endpoint-config', resourceName: '*' }), stack.formatArn({ service: 'sagemaker', resource: 'model', resourceName: '*' })],
    }));
  }
  if (props.modelProvenance) {
    const stack = Stack.of(scope);
    const arn = (resource: string) => stack.formatArn({ service: 'sagemaker', resource, resourceName: '*' });
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: [IAM_ACTION.sagemaker.ListAssociations], resources: ['*'] }));
    fn.addToRolePolicy(new iam.PolicyStatement({
      actions: [
        IAM_ACTION.sagemaker.DescribeArtifact, IAM_ACTION.sagemaker.DescribeModelPackage, IAM_ACTION.sagemaker.DescribeTrainingJob,
        IAM_ACTION.sagemaker.DescribePipelineExecution,
      ],
      resources: [arn('artifact'), arn('model-package'), arn('training-job'), arn('pipeline')],
    }));
  }
}
