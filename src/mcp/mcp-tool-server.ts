import { Annotations, Duration, Size, Stack, Token, Validations } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { McpApiGatewayOptions } from './mcp-api-gateway';
import { McpRestApi, validateMcpApiGatewayOptions } from './mcp-rest-api';
import { acknowledgeServerRoleWildcards } from './nag';
import { ServerFunction } from './server-function';
import { IAsyncEndpoint } from '../async/async-endpoint-props';
import { addAlarmActions, createEncryptedLogGroup, createKey } from '../core/encryption';
import { ISageMakerEndpoint } from '../core/endpoint-base';
import { PropValidator } from '../core/validation';
import { IFeatureGroup } from '../feature-store/feature-group-props';
import { IPipelineEventRouter } from '../pipelines/pipeline-event-router';
import { ITrainingPipeline } from '../pipelines/training-pipeline';
import {
  ASYNC_ENV, FeatureGroupSchema, handleTtlProblems, MCP_ENV, MCP_SPEC_WARN_LENGTH, McpServerSpec, toolNamesForSpec,
} from '../private/contract.generated';
import { IInferenceComponent } from '../shared-gpu/inference-component-interface';

const MODEL_FAMILIES = ['tgi', 'llama3', 'mistral', 'falcon'];

interface SharedEndpointSpec {
  name: string;
  description?: string;
  inferenceComponents: string[];
  componentModelFamilies: Array<{ component: string; modelFamily: string }>;
}

/** A realtime endpoint exposed through `invoke_endpoint` and `describe_endpoint`. */
export interface McpRealtimeEndpointOptions {
  /** The endpoint (a `RealtimeEndpoint`, or any imported `ISageMakerEndpoint`). */
  readonly endpoint: ISageMakerEndpoint;
  /**
   * What the model does and what input it expects, shown to the agent in the tool description.
   *
   * @default - the endpoint name only
   */
  readonly description?: string;
  /**
   * Payload family for `prompt` payloads: `tgi`, `llama3`, `mistral` or `falcon`.
   *
   * @default - `tgi` request shape
   */
  readonly modelFamily?: string;
}

/** An inference component of a shared-GPU endpoint, exposed through `invoke_endpoint`. */
export interface McpInferenceComponentOptions {
  readonly component: IInferenceComponent;
  /**
   * Shown to the agent.
   *
   * @default - the component name only
   */
  readonly description?: string;
  /**
   * Payload family for `prompt` payloads (`tgi`, `llama3`, `mistral`, `falcon`).
   *
   * @default - the component's own model family when it is an `InferenceComponent` that knows it, else `tgi`
   */
  readonly modelFamily?: string;
}

/** An async endpoint exposed through `start_async_inference` and `get_async_inference_result`. */
export interface McpAsyncEndpointOptions {
  readonly endpoint: IAsyncEndpoint;
  /**
   * Shown to the agent.
   *
   * @default - the endpoint name only
   */
  readonly description?: string;
}

/** A feature group exposed through `get_online_features` (and `put_feature_record` when writes are allowed). */
export interface McpFeatureGroupOptions {
  readonly featureGroup: IFeatureGroup;
  /**
   * The group's schema (record identifier, event time, features and types).
   *
   * @default - `featureGroup.schema` (a created `FeatureGroup`'s, or an imported one's from its attributes); required when
   * neither is known
   */
  readonly schema?: FeatureGroupSchema;
  /**
   * Register `put_feature_record` for this group and grant `grantPutRecord` (`sagemaker:PutRecord`; no tool deletes),
   * plus `grantUpdateRecord` when the schema's `onlineStorageType` is `Standard_V2` or `InMemory` (partial writes use
   * UpdateRecord there; on `Standard` they read the record first, with the GetRecord every exposed group is granted).
   *
   * @default false
   */
  readonly allowWrites?: boolean;
  /**
   * Shown to the agent.
   *
   * @default - the schema only
   */
  readonly description?: string;
}

/** A pipeline exposed through `start_training` and `get_training_status`. */
export interface McpPipelineOptions {
  readonly pipeline: ITrainingPipeline;
  /**
   * Parameters the agent may override.
   *
   * @default - every parameter of a `TrainingPipeline` created in this app; none for an imported pipeline
   */
  readonly overridableParameters?: string[];
  /**
   * Shown to the agent.
   *
   * @default - the pipeline name only
   */
  readonly description?: string;
}

export interface McpToolServerProps {
  /**
   * Realtime endpoints the agent may invoke.
   *
   * @default - none
   */
  readonly realtimeEndpoints?: McpRealtimeEndpointOptions[];
  /**
   * Inference components (shared-GPU endpoints) the agent may invoke; grouped by endpoint.
   *
   * @default - none
   */
  readonly inferenceComponents?: McpInferenceComponentOptions[];
  /**
   * Async endpoints the agent may submit jobs to.
   *
   * @default - none
   */
  readonly asyncEndpoints?: McpAsyncEndpointOptions[];
  /**
   * Feature groups the agent may read (and write, per group).
   *
   * @default - none
   */
  readonly featureGroups?: McpFeatureGroupOptions[];
  /**
   * Pipelines the agent may start and watch.
   *
   * @default - none
   */
  readonly pipelines?: McpPipelineOptions[];
  /**
   * The router recording pipeline results (a `PipelineEventRouter`, or one imported with
   * `PipelineEventRouter.fromPipelineEventRouterAttributes`): registers `get_training_result` and grants
   * `grantReadResultsByExecution` (`dynamodb:GetItem`, the only read that tool makes).
   *
   * @default - no `get_training_result` tool
   */
  readonly trainingResults?: IPipelineEventRouter;
  /**
   * Register `get_model_provenance`. Lineage reads are not resource-scoped: this grants `sagemaker:ListAssociations`
   * on `*` and `sagemaker:DescribeArtifact`, `sagemaker:DescribeModelPackage`, `sagemaker:DescribeTrainingJob`,
   * `sagemaker:DescribePipelineExecution` on this account and region's artifacts, model packages, training jobs and
   * pipeline executions.
   *
   * @default false
   */
  readonly modelProvenance?: boolean;
  /**
   * How far past the server's clock an event time written by `put_feature_record` may lie; later ones are refused. The
   * online store keeps the record with the greatest event time, so one write dated far ahead would make every later
   * write historic (offline only).
   *
   * @default Duration.minutes(5)
   */
  readonly maxEventTimeSkew?: Duration;
  /**
   * Server name reported to MCP clients.
   *
   * @default 'cdk-sagemaker-mcp'
   */
  readonly serverName?: string;
  /**
   * Function timeout. Must exceed the 70 s `invoke_endpoint` deadline (60 s SageMaker limit plus one retry wait).
   *
   * @default Duration.seconds(90)
   */
  readonly timeout?: Duration;
  /**
   * Function memory.
   *
   * @default Size.mebibytes(512)
   */
  readonly memorySize?: Size;
  /**
   * Reserved concurrency: caps the requests the server runs at once (and so its load on the endpoints), and
   * guarantees it that much of the account's concurrency. Requests beyond it are throttled (HTTP 429, retryable).
   * Lambda lets an account reserve concurrency only while at least 100 stays unreserved (reservable = the account's
   * concurrency quota minus 100): new accounts often have a quota of 10 or 50, where any reservation fails the deploy
   * (https://docs.aws.amazon.com/lambda/latest/dg/configuration-concurrency.html). Set it once the account's quota
   * allows; the API front (`apiGateway`) throttles requests either way.
   *
   * @default - no reservation: the function shares the account's unreserved concurrency
   */
  readonly reservedConcurrentExecutions?: number;
  /**
   * Retention of the function's log group.
   *
   * @default logs.RetentionDays.ONE_MONTH
   */
  readonly logRetention?: logs.RetentionDays;
  /**
   * How long a handle (`start_async_inference`, `start_training`) stays valid; a call with an older one gets a
   * non-retryable `HandleExpiredError`. Whole seconds from 1 hour to 365 days. Keep it longer than your longest job
   * (an async request may queue up to `requestTtl` and run up to `invocationTimeout`).
   *
   * @default Duration.days(7)
   */
  readonly handleTtl?: Duration;
  /**
   * The KMS key the function's log group is encrypted with. Its key policy must let CloudWatch Logs use it
   * (https://docs.aws.amazon.com/AmazonCloudWatch/latest/logs/encrypt-log-data-kms.html): added for a key defined in
   * this app, a synth warning for an imported one.
   *
   * @default - a new key (rotation on, CreateGrant limited to AWS services)
   */
  readonly logEncryptionKey?: kms.IKey;
  /**
   * What the errors and throttles alarms do when they fire, e.g. `[new cloudwatch_actions.SnsAction(topic)]`.
   *
   * @default - the alarms change state but notify nobody
   */
  readonly alarmActions?: cloudwatch.IAlarmAction[];
  /**
   * Serve MCP through an API Gateway REST API with the authorizer you choose (Cognito user pool, Lambda token/request
   * authorizer, or IAM) instead of the function URL: `POST|GET|DELETE /mcp`, KMS-encrypted JSON access log, X-Ray
   * tracing, stage throttling. The function URL is then not created unless `keepFunctionUrl` is set.
   *
   * @default - no API: the AWS_IAM function URL is the endpoint
   */
  readonly apiGateway?: McpApiGatewayOptions;
}

/**
 * The SageMaker MCP tool server: a Lambda function (nodejs22.x, the MCP SDK bundled) serving stateless streamable HTTP
 * MCP behind a function URL with AWS_IAM auth, or behind an API Gateway REST API with an authorizer of your choice
 * (`apiGateway`). It exposes exactly the endpoints, components, feature groups and
 * pipelines it is given, and its role holds exactly their grants (`grantInvoke`, `grant(DescribeEndpoint)`,
 * `grantSubmit`/`grantReadResults`, `grantGetRecord`/`grantPutRecord`, `grantStartExecution`/`grantReadExecutions`,
 * router `grantReadResultsByExecution`) plus writing its own log group.
 */
export class McpToolServer extends Construct {
  /** The function serving MCP. */
  public readonly serverFunction: lambda.Function;
  /**
   * The function URL (AWS_IAM auth, buffered responses).
   *
   * @default - none when `apiGateway` is set without `keepFunctionUrl`
   */
  public readonly functionUrl?: lambda.FunctionUrl;
  /**
   * The MCP endpoint clients connect to: `apiUrl` when `apiGateway` is set, else the function URL (which accepts any
   * path).
   */
  public readonly url: string;
  /**
   * The REST API in front of the function.
   *
   * @default - none unless `apiGateway` is set
   */
  public readonly api?: apigateway.RestApi;
  /**
   * The MCP endpoint on the REST API: `https://<api-id>.execute-api.<region>.amazonaws.com/<stage>/mcp`.
   *
   * @default - none unless `apiGateway` is set
   */
  public readonly apiUrl?: string;
  /**
   * The REST API's access log group (KMS-encrypted with its own key).
   *
   * @default - none unless `apiGateway` is set
   */
  public readonly apiAccessLogGroup?: logs.LogGroup;
  /** The tools the server registers, in order. */
  public readonly toolNames: string[];
  /** The function's log group. */
  public readonly logGroup: logs.LogGroup;
  /** The key the function's log group is encrypted with. */
  public readonly logEncryptionKey: kms.IKey;
  /**
   * The secret that seals tool handles (random, generated by Secrets Manager). The function reads it at cold start
   * (`secretsmanager:GetSecretValue` on this secret only); its environment carries only the secret's ARN.
   */
  public readonly handleKey: secretsmanager.Secret;
  /** Alarms when any invocation fails (`Errors` Sum >= 1 over 5 minutes). */
  public readonly errorsAlarm: cloudwatch.Alarm;
  /** Alarms when requests are throttled by the reserved concurrency (`Throttles` Sum >= 1 over 5 minutes). */
  public readonly throttlesAlarm: cloudwatch.Alarm;

  private readonly restApi?: McpRestApi;

  constructor(scope: Construct, id: string, props: McpToolServerProps) {
    super(scope, id);
    const v = new PropValidator(`McpToolServer '${id}'`);
    const timeout = props.timeout ?? Duration.seconds(90);
    const reserved = props.reservedConcurrentExecutions;
    v.range('timeout', timeout.toSeconds(), 75, 900, { unit: 'seconds (above the 70 s invoke deadline, at most the Lambda maximum)' });
    // 0 would stop the function; leave the prop unset for no reservation.
    v.atLeast('reservedConcurrentExecutions', reserved, 1);
    const memory = props.memorySize?.toMebibytes() ?? 512;
    v.range('memorySize', memory, 128, 10240, { unit: 'MiB' });
    if (props.apiGateway) validateMcpApiGatewayOptions(v, props.apiGateway, timeout);
    if (props.handleTtl && !props.handleTtl.isUnresolved()) {
      for (const p of handleTtlProblems('handleTtl', props.handleTtl.toSeconds({ integral: false }))) v.add(p);
    }
    const spec = this.buildSpec(props, v);
    v.check(toolNamesForSpec(spec).length > 0, 'props', 'no endpoints, components, async endpoints, feature groups or pipelines',
      'at least one thing to expose');
    v.throwIfInvalid();
    this.toolNames = toolNamesForSpec(spec);

    this.logEncryptionKey = props.logEncryptionKey ?? createKey(this, 'LogKey', 'Encrypts the log group of the SageMaker MCP tool server');
    this.logGroup = createEncryptedLogGroup(this, 'LogGroup', { key: this.logEncryptionKey, retention: props.logRetention });
    const role = new iam.Role(this, 'ServiceRole', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: 'SageMaker MCP tool server: exactly the grants of what it exposes, plus writing its own logs',
    });
    this.logGroup.grantWrite(role);
    acknowledgeServerRoleWildcards(role);
    this.handleKey = new secretsmanager.Secret(this, 'HandleKey', {
      description: 'Seals the opaque handles of the SageMaker MCP tool server (async jobs, training runs)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    Validations.of(this.handleKey).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'The handle key only seals expiring tool handles and is read once per cold start; rotating it would invalidate outstanding handles and leave warm containers on the old key, so it is rotated by replacing the construct.',
    });

    const specJson = Stack.of(this).toJsonString(spec);
    this.serverFunction = new ServerFunction(this, 'Resource', {
      description: 'SageMaker MCP tool server (stateless streamable HTTP)',
      role,
      timeout,
      memorySize: memory,
      reservedConcurrentExecutions: reserved,
      logGroup: this.logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      environment: {
        [MCP_ENV.SPEC]: specJson,
        // Only the ARN: the handler reads the key at cold start, so GetFunctionConfiguration never reveals it.
        [MCP_ENV.HANDLE_KEY_SECRET_ARN]: this.handleKey.secretArn,
        POWERTOOLS_SERVICE_NAME: 'sagemaker-mcp',
      },
    });
    Validations.of(this.serverFunction).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'The bundled MCP server is built and tested for nodejs22.x (esbuild target node22); the runtime moves with the library, not per deployment.',
    });
    if (!Token.isUnresolved(specJson) && specJson.length > MCP_SPEC_WARN_LENGTH) {
      // Token markers make the synth-time length approximate; Lambda rejects more than 4 KB of env vars in total.
      Annotations.of(this).addWarningV2('cdk-sagemaker-mcp:mcpSpecSize', `${MCP_ENV.SPEC} is about ${specJson.length} characters; Lambda allows 4 KB of environment variables in total`);
    }
    // Exactly the one read the handler makes at cold start (the secret uses the AWS managed key unless given one).
    iam.Grant.addToPrincipal({ grantee: this.serverFunction, actions: ['secretsmanager:GetSecretValue'], resourceArns: [this.handleKey.secretArn] });
    this.handleKey.encryptionKey?.grantDecrypt(this.serverFunction);
    this.grantExposed(props);

    let restApi: McpRestApi | undefined;
    if (props.apiGateway) {
      restApi = new McpRestApi(this, 'Api', {
        handler: this.serverFunction,
        options: props.apiGateway,
        reservedConcurrency: reserved,
        logRetention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
      });
      this.api = restApi.api;
      this.apiUrl = restApi.url;
      this.apiAccessLogGroup = restApi.accessLogGroup;
    }
    // Without an API the function URL is the way in; with one it would be a second door that skips the API's
    // authorizer, throttling and access log, so it exists only on request.
    if (!restApi || props.apiGateway?.keepFunctionUrl) {
      this.functionUrl = this.serverFunction.addFunctionUrl({ authType: lambda.FunctionUrlAuthType.AWS_IAM });
    }
    this.url = this.apiUrl ?? this.functionUrl!.url;
    this.restApi = restApi;

    this.errorsAlarm = new cloudwatch.Alarm(this, 'ErrorsAlarm', {
      alarmDescription: 'The SageMaker MCP tool server failed invocations (configuration error or bug): see its log group',
      metric: this.serverFunction.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    this.throttlesAlarm = new cloudwatch.Alarm(this, 'ThrottlesAlarm', {
      alarmDescription: 'The SageMaker MCP tool server throttled requests: raise reservedConcurrentExecutions or slow the agents down',
      metric: this.serverFunction.metricThrottles({ period: Duration.minutes(5), statistic: 'Sum' }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    addAlarmActions(props.alarmActions, this.errorsAlarm, this.throttlesAlarm);
  }

  /**
   * Grants `lambda:InvokeFunctionUrl` (with `lambda:FunctionUrlAuthType` AWS_IAM) and `lambda:InvokeFunction` (only via
   * the function URL) on the server function: what an MCP client's SigV4-signed requests need. Throws when there is
   * no function URL (`apiGateway` without `keepFunctionUrl`).
   */
  public grantInvokeUrl(grantee: iam.IGrantable): iam.Grant {
    if (!this.functionUrl) {
      throw new Error(`McpToolServer '${this.node.id}': grantInvokeUrl: there is no function URL (apiGateway replaces it); grant with grantInvokeApi, or set apiGateway.keepFunctionUrl`);
    }
    // aws-cdk-lib's FunctionUrl.grantInvokeUrl adds both statements but returns the Grant of the second only; a principal
    // with a policy gets both here, in one Grant. Others (another account, a service) fall back to aws-cdk-lib, which
    // writes the function's resource policy.
    const fnArn = this.serverFunction.functionArn;
    const url = iam.Grant.addToPrincipal({
      grantee,
      actions: ['lambda:InvokeFunctionUrl'],
      resourceArns: [fnArn],
      conditions: { StringEquals: { 'lambda:FunctionUrlAuthType': lambda.FunctionUrlAuthType.AWS_IAM } },
    });
    if (!url.success) return this.functionUrl.grantInvokeUrl(grantee);
    return url.combine(iam.Grant.addToPrincipal({
      grantee,
      actions: ['lambda:InvokeFunction'],
      resourceArns: [fnArn],
      conditions: { Bool: { 'lambda:InvokedViaFunctionUrl': true } },
    }));
  }

  /**
   * Grants `execute-api:Invoke` on the API's MCP methods (`POST`, `GET`, `DELETE` on `/mcp` of the deployed stage):
   * what a SigV4-signing client needs when `apiGateway.authorizationType` is IAM. Other authorizers decide access
   * themselves; this grant changes nothing for them.
   */
  public grantInvokeApi(grantee: iam.IGrantable): iam.Grant {
    if (!this.restApi) {
      throw new Error(`McpToolServer '${this.node.id}': grantInvokeApi: there is no API (set apiGateway); grant the function URL with grantInvokeUrl`);
    }
    return iam.Grant.addToPrincipal({ grantee, actions: ['execute-api:Invoke'], resourceArns: this.restApi.methods.map((m) => m.methodArn) });
  }

  private buildSpec(props: McpToolServerProps, v: PropValidator): McpServerSpec {
    const realtime = (props.realtimeEndpoints ?? []).map((e, i) => {
      v.oneOf(`realtimeEndpoints[${i}].modelFamily`, e.modelFamily, MODEL_FAMILIES);
      return { name: e.endpoint.endpointName, description: e.description, modelFamily: e.modelFamily };
    });
    const byEndpoint = new Map<string, SharedEndpointSpec>();
    (props.inferenceComponents ?? []).forEach((c, i) => {
      v.oneOf(`inferenceComponents[${i}].modelFamily`, c.modelFamily, MODEL_FAMILIES);
      const own = MODEL_FAMILIES.includes(c.component.modelFamily ?? '') ? c.component.modelFamily : undefined;
      const entry: SharedEndpointSpec = byEndpoint.get(c.component.endpointName)
        ?? { name: c.component.endpointName, inferenceComponents: [], componentModelFamilies: [] };
      entry.inferenceComponents.push(c.component.inferenceComponentName);
      const family = c.modelFamily ?? own;
      if (family) entry.componentModelFamilies.push({ component: c.component.inferenceComponentName, modelFamily: family });
      if (c.description) entry.description = [entry.description, `${c.component.inferenceComponentName}: ${c.description}`].filter(Boolean).join('; ');
      byEndpoint.set(c.component.endpointName, entry);
    });
    const asyncEndpoints = (props.asyncEndpoints ?? []).map((a) => {
      // The endpoint's own submission defaults (e.g. a 30-minute invocationTimeout), as its runtimeEnvironment states
      // them: without them the tool would submit with the library's 900 s default.
      const env = a.endpoint.runtimeEnvironment;
      const seconds = (name: string) => {
        const value = env[name];
        if (value === undefined) return undefined;
        return Token.isUnresolved(value) ? Token.asNumber(value) : Number(value);
      };
      return {
        name: a.endpoint.endpointName,
        description: a.description,
        inputBucket: a.endpoint.bucket.bucketName,
        inputPrefix: a.endpoint.inputPrefix,
        jobTableName: a.endpoint.jobTable?.tableName,
        invocationTimeoutSeconds: seconds(ASYNC_ENV.INVOCATION_TIMEOUT_SECONDS),
        requestTtlSeconds: seconds(ASYNC_ENV.REQUEST_TTL_SECONDS),
      };
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
      maxEventTimeSkewSeconds: props.maxEventTimeSkew?.toSeconds(),
      handleTtlSeconds: props.handleTtl?.toSeconds({ integral: false }),
    };
  }

  private grantExposed(props: McpToolServerProps): void {
    const fn = this.serverFunction;
    for (const e of props.realtimeEndpoints ?? []) {
      e.endpoint.grantInvoke(fn);
      e.endpoint.grant(fn, 'sagemaker:DescribeEndpoint');
    }
    const describedEndpoints = new Set<string>();
    for (const c of props.inferenceComponents ?? []) {
      c.component.grantInvoke(fn);
      if (!describedEndpoints.has(c.component.endpointArn)) {
        describedEndpoints.add(c.component.endpointArn);
        iam.Grant.addToPrincipal({ grantee: fn, actions: ['sagemaker:DescribeEndpoint'], resourceArns: [c.component.endpointArn] });
      }
    }
    for (const a of props.asyncEndpoints ?? []) {
      a.endpoint.grantSubmit(fn);
      a.endpoint.grantReadResults(fn);
      a.endpoint.grant(fn, 'sagemaker:DescribeEndpoint');
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
      p.pipeline.grantReadExecutions(fn);
    }
    props.trainingResults?.grantReadResultsByExecution(fn);
    if (props.modelProvenance) {
      const stack = Stack.of(this);
      const arn = (resource: string) => stack.formatArn({ service: 'sagemaker', resource, resourceName: '*' });
      fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['sagemaker:ListAssociations'], resources: ['*'] }));
      fn.addToRolePolicy(new iam.PolicyStatement({
        actions: ['sagemaker:DescribeArtifact', 'sagemaker:DescribeModelPackage', 'sagemaker:DescribeTrainingJob', 'sagemaker:DescribePipelineExecution'],
        resources: [arn('artifact'), arn('model-package'), arn('training-job'), arn('pipeline')],
      }));
    }
  }
}
