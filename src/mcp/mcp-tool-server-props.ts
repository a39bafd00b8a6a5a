import { Duration, Size } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import { McpApiGatewayOptions } from './mcp-api-gateway';
import { IAsyncEndpoint } from '../async/async-endpoint-props';
import { ISageMakerEndpoint } from '../core/endpoint-base';
import { FunctionNetworkOptions } from '../core/function-network';
import { ModelFamily } from '../core/model-family.generated';
import { IFeatureGroup } from '../features/feature-group-props';
import { IModelPackageGroup } from '../lifecycle/model-package-group';
import { IPipelineEventRouter } from '../pipelines/pipeline-event-router';
import { ITrainingPipeline } from '../pipelines/training-pipeline';
import { FeatureGroupSchema } from '../private/contract.generated';
import { IServerlessEndpoint } from '../serverless/serverless-endpoint';
import { IInferenceComponent } from '../shared-gpu/inference-component-interface';

// The MCP tool server's props: what it exposes and how.

/** A realtime endpoint exposed through `invoke_endpoint` and `describe_endpoint`. */
export interface McpRealtimeEndpointOptions {
  /**
   * The endpoint (a `RealtimeEndpoint`, or any imported `ISageMakerEndpoint`). The other kinds have their own entries:
   * a `ServerlessEndpoint`, `AsyncEndpoint` or `SharedGpuEndpoint` here is refused at synth, naming the entry to use.
   */
  readonly endpoint: ISageMakerEndpoint;
  /**
   * What the model does and what input it expects, shown to the agent in the tool description.
   *
   * @default - the endpoint name only
   */
  readonly description?: string;
  /**
   * Payload family for `prompt` payloads (`ModelFamily.LLAMA3`, ...; https://github.com/cdk-sagemaker-mcp/cdk-sagemaker-mcp/blob/main/docs/realtime.md lists them).
   *
   * @default - the endpoint's own model family (its JumpStart or Hugging Face Hub model's) when it has one; else the
   * `tgi` request shape
   */
  readonly modelFamily?: ModelFamily;
  /**
   * The target models the agent may name on a multi-model endpoint (e.g. a `MultiModelSource`'s target models);
   * `invoke_endpoint` then requires one of them and refuses any other, and the server's role may invoke the endpoint
   * for these models only (the endpoint's target-model invoke grant: the `sagemaker:TargetModel` condition key, no
   * streaming).
   *
   * @default - none: the endpoint is called without a target model
   */
  readonly targetModels?: string[];
  /**
   * Send chat-shaped `invoke_endpoint` calls (`prompt`, or a Chat Completions `json` body) through SageMaker's
   * OpenAI-compatible route (`/openai/v1/chat/completions`, streamed as progress when the client asks), and grant the
   * server `sagemaker:CallWithBearerToken`. Set it for a custom container that implements the route. Never used with
   * target models. See https://github.com/cdk-sagemaker-mcp/cdk-sagemaker-mcp/blob/main/docs/openai.md.
   *
   * @default - true when the model's container is one AWS lists as serving the route (a vLLM or SGLang image), false
   * for any other or an imported endpoint
   */
  readonly openAiRoute?: boolean;
}

/** A serverless endpoint exposed through `invoke_endpoint` and `describe_endpoint` (invoked like a realtime one). */
export interface McpServerlessEndpointOptions {
  /** The endpoint (a `ServerlessEndpoint`, or one imported with its `from*` methods). */
  readonly endpoint: IServerlessEndpoint;
  /**
   * What the model does and what input it expects, shown to the agent in the tool description.
   *
   * @default - the endpoint name only
   */
  readonly description?: string;
  /**
   * Payload family for `prompt` payloads (as for realtime endpoints).
   *
   * @default - the endpoint's own model family when it has one; else the `tgi` request shape
   */
  readonly modelFamily?: ModelFamily;
  /**
   * Send chat-shaped `invoke_endpoint` calls through SageMaker's OpenAI-compatible route (as for realtime endpoints).
   *
   * @default - true when the model's container is one AWS lists as serving the route (a vLLM or SGLang image)
   */
  readonly openAiRoute?: boolean;
}

/** An inference component of a shared-GPU endpoint, exposed through `invoke_endpoint`. */
export interface McpInferenceComponentOptions {
  /** The component. */
  readonly inferenceComponent: IInferenceComponent;
  /**
   * Shown to the agent.
   *
   * @default - the component name only
   */
  readonly description?: string;
  /**
   * Payload family for `prompt` payloads (`ModelFamily.LLAMA3`, ...).
   *
   * @default - the component's own model family when it is an `InferenceComponent` that knows it, else `tgi`
   */
  readonly modelFamily?: ModelFamily;
  /**
   * Send chat-shaped `invoke_endpoint` calls through SageMaker's OpenAI-compatible route, addressing the component in
   * the path. The endpoint's spec entry carries one flag: it is on only when every exposed component of the endpoint
   * has it.
   *
   * @default - true when the model's container is one AWS lists as serving the route (a vLLM or SGLang image)
   */
  readonly openAiRoute?: boolean;
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
   * @default - the feature group's schema (a created `FeatureGroup`'s, or an imported one's from its attributes); required when
   * neither is known
   */
  readonly schema?: FeatureGroupSchema;
  /**
   * Register `put_feature_record` for this group and grant the group's put-record grant (`sagemaker:PutRecord`; no
   * tool deletes), plus its update-record grant when the schema's online storage type is `Standard_V2` or `InMemory` (partial writes use
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

/** A model package group exposed through `list_model_versions`. */
export interface McpModelPackageGroupOptions {
  /** The group. */
  readonly modelPackageGroup: IModelPackageGroup;
  /**
   * Shown to the agent.
   *
   * @default - the group name only
   */
  readonly description?: string;
}

/** An endpoint exposed through `get_deployment_status`. */
export interface McpDeploymentOptions {
  /** The endpoint (e.g. the one an `ApprovedModelDeployment` deploys to). */
  readonly endpoint: ISageMakerEndpoint;
  /**
   * Shown to the agent.
   *
   * @default - the endpoint name only
   */
  readonly description?: string;
}

/** Properties of an `McpToolServer`. The network options put its function in your VPC. */
export interface McpToolServerProps extends FunctionNetworkOptions {
  /**
   * Realtime endpoints the agent may invoke.
   *
   * @default - none
   */
  readonly realtimeEndpoints?: McpRealtimeEndpointOptions[];
  /**
   * Serverless endpoints the agent may invoke (a `ServerlessEndpoint` among the realtime endpoints is refused).
   *
   * @default - none
   */
  readonly serverlessEndpoints?: McpServerlessEndpointOptions[];
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
   * The router recording pipeline results (a `PipelineEventRouter`, or one imported from its
   * attributes): registers `get_training_result` and grants the router's read of results by execution
   * (`dynamodb:GetItem`, the only read that tool makes).
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
   * Model package groups the agent may list (`list_model_versions`): grants `sagemaker:ListModelPackages` (IAM
   * authorizes it on `*` only) and `sagemaker:DescribeModelPackage` on each group's versions.
   *
   * @default - no `list_model_versions` tool
   */
  readonly modelPackageGroups?: McpModelPackageGroupOptions[];
  /**
   * Endpoints whose deployment the agent may check (`get_deployment_status`): grants `sagemaker:DescribeEndpoint` on
   * each endpoint, and `sagemaker:DescribeEndpointConfig` and `sagemaker:DescribeModel` on this account and region's
   * endpoint configs and models (their names are generated per deployment).
   *
   * @default - no `get_deployment_status` tool
   */
  readonly deployments?: McpDeploymentOptions[];
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
   * allows; the API Gateway front throttles requests either way.
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
   * (an async request may queue up to its request TTL and run up to its invocation timeout).
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
   * tracing, stage throttling. The function URL is then not created unless the API keeps it.
   *
   * @default - no API: the AWS_IAM function URL is the endpoint
   */
  readonly apiGateway?: McpApiGatewayOptions;
  /**
   * Stream the function URL's answers (InvokeMode RESPONSE_STREAM): an SSE answer (a `wait_for_*` call that asked for
   * progress) leaves the function notification by notification instead of whole with the result, and an answer may
   * exceed the 6 MB buffered limit (up to 200 MB streamed). The handler then runs as a Lambda response-streaming
   * handler (`awslambda.streamifyResponse`); AgentCore Lambda-target invocations keep one JSON result. Needs the
   * function URL (no API Gateway front, or one that keeps the function URL; this library's API Gateway integration stays
   * buffered) and a function outside a VPC (Lambda does not stream function URL responses from a VPC).
   *
   * @default false - BUFFERED: the client gets every notification, but only with the result
   */
  readonly responseStreaming?: boolean;
}
