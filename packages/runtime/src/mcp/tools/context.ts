/**
 * What the tools share: the spec (what is exposed), the AWS SDK clients (each built, and its SDK module loaded, by the
 * first tool call that needs it, then reused by every request of the same server configuration, so a warm Lambda keeps
 * its connections; each with connection and request timeouts and bound to the tool's deadline, see ../../core/deadline.ts), the
 * handle codec, and who is calling.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import type { SageMakerClient } from '@aws-sdk/client-sagemaker';
import type { SageMakerFeatureStoreRuntimeClient } from '@aws-sdk/client-sagemaker-featurestore-runtime';
import type { SageMakerRuntimeClient } from '@aws-sdk/client-sagemaker-runtime';
import { createHandleCodec, HandleCodec } from './handles';
import type { McpServerSpec } from '../../contract/mcp';
import { dynamoDbSdk, featureStoreRuntimeSdk, s3Sdk, sageMakerSdk } from '../../core/aws-sdk';
import { boundedClient, DEFAULT_CONNECTION_TIMEOUT_MS, HttpTimeouts } from '../../core/bounded';
import { bindDeadline } from '../../core/deadline';
import { createRuntimeClient } from '../../invoke/invoke';

/** Endpoint URL overrides per AWS service (e.g. the local test servers, LocalStack, a VPC endpoint). */
export interface McpServiceEndpoints {
  readonly sagemakerRuntime?: string;
  readonly sagemaker?: string;
  readonly featureStoreRuntime?: string;
  readonly dynamodb?: string;
  readonly s3?: string;
  /** Reserved for an offline-store query tool (none is registered yet). */
  readonly athena?: string;
}

export interface McpAwsCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
}

/** The typed configuration of `createSageMakerMcpServer`: the spec plus how to reach AWS. */
export interface SageMakerMcpServerConfig extends McpServerSpec {
  /** @default - the SDK's region chain (AWS_REGION, profile) */
  readonly region?: string;
  /** @default - the SDK's credential chain (env, profile, container/instance role) */
  readonly credentials?: McpAwsCredentials;
  readonly endpoints?: McpServiceEndpoints;
  /**
   * Key material for handles; share it across instances that serve the same clients. Required when async endpoints or
   * pipelines are exposed, unless `ephemeralHandleKey` is set.
   * @default - none: a configuration with handle tools is refused
   */
  readonly handleKey?: string;
  /**
   * Without `handleKey`, seal handles with a random per-process key instead of refusing to start. Handles then stop
   * opening when the process restarts (InvalidHandleError: start again): for a local stdio server only.
   * @default false
   */
  readonly ephemeralHandleKey?: boolean;
  /** S3 path-style addressing (needed by s3rver and some S3-compatible stores). @default - false, or true when `endpoints.s3` is set */
  readonly s3ForcePathStyle?: boolean;
  /** Seconds suggested to the agent before checking an async job again. @default 30 */
  readonly asyncCheckAfterSeconds?: number;
  /** Seconds suggested to the agent before checking a training run again. @default 60 */
  readonly trainingCheckAfterSeconds?: number;
  /**
   * How often `wait_for_async_inference` and `wait_for_training_run` check again within one call (each check sends a
   * progress notification when the client asked for them). @default 5000
   */
  readonly waitPollIntervalMs?: number;
  /** Per-invocation deadline of `invoke_endpoint`, retries included. @default 70000 */
  readonly invokeDeadlineMs?: number;
  /**
   * Overall deadline of one tool call, retries included; a call that reaches it returns a retryable `DeadlineExceeded`
   * error. `invoke_endpoint` uses `invokeDeadlineMs` plus 2 s instead (its own deadline answers first). @default 30000
   */
  readonly toolDeadlineMs?: number;
  /** Deadline per tool name, overriding `toolDeadlineMs` (e.g. `{ get_model_provenance: 20000 }`). @default - none */
  readonly toolDeadlines?: Readonly<Record<string, number>>;
  /** Connection and per-attempt request timeouts of every AWS client. @default 5000 ms connect, 10000 ms request */
  readonly httpTimeouts?: HttpTimeouts;
  /**
   * Where failed tool calls are logged, whole (unredacted, with the correlation id the agent was given).
   * @default - one JSON line on stderr (CloudWatch Logs on Lambda; never stdout, which carries stdio MCP traffic)
   */
  readonly log?: (entry: Record<string, unknown>) => void;
  /**
   * Told the outcome of every tool call once it is answered (the bundled Lambda server writes CloudWatch metrics from it:
   * docs/operations.md). It gets the tool's name, never its arguments or the caller; an error it throws is ignored.
   * @default - none
   */
  readonly onToolCall?: (outcome: ToolCallOutcome) => void;
  /**
   * The server's clock, in milliseconds since the epoch: what handles expire by and what an async job's end is judged
   * by (a deterministic clock for tests of an agent, for example).
   * @default Date.now
   */
  readonly now?: () => number;
}

/** One answered tool call, for metrics. */
export interface ToolCallOutcome {
  readonly tool: string;
  /** False when the tool answered an error (`isError`). */
  readonly ok: boolean;
  /** The error's `errorName` (e.g. `ModelError`, `ThrottlingException`, `InvalidArguments`, `DeadlineExceeded`) when not ok. */
  readonly errorName?: string;
  /** From the call reaching the tool to its answer, ms. */
  readonly durationMs: number;
}

export interface McpClients {
  readonly sagemakerRuntime: SageMakerRuntimeClient;
  readonly sagemaker: SageMakerClient;
  readonly featureStore: SageMakerFeatureStoreRuntimeClient;
  readonly dynamodb: DynamoDBClient;
  readonly s3: S3Client;
}

export interface ToolContext {
  readonly config: SageMakerMcpServerConfig;
  readonly clients: McpClients;
  readonly handles: HandleCodec;
  /**
   * Who is calling: the IAM principal of the request (Lambda request context) or, over stdio, the OS user of this
   * process. Part of `start_training`'s idempotency token, so two callers never share a run.
   */
  readonly caller?: string;
}

/** Builds the clients of `config` (each one lazily, on first use) and the handle codec. */
export function createToolContext(config: SageMakerMcpServerConfig): ToolContext {
  const base = (endpoint?: string) => ({
    ...(config.region ? { region: config.region } : {}),
    ...(config.credentials ? { credentials: config.credentials } : {}),
    ...(endpoint ? { endpoint } : {}),
  });
  const ep = config.endpoints ?? {};
  const timeouts = config.httpTimeouts ?? {};
  const cache: Partial<{ -readonly [K in keyof McpClients]: McpClients[K] }> = {};
  const clients: McpClients = {
    get sagemakerRuntime() {
      // invoke_endpoint keeps its 61 s attempt timeout (realtime invocations may take 60 s) and its own deadline; an
      // MCP server's queue is shallow, so the connect timeout is safe here (see createRuntimeClient).
      return (cache.sagemakerRuntime ??= bindDeadline(createRuntimeClient({
        ...base(ep.sagemakerRuntime),
        connectionTimeoutMs: timeouts.connectionTimeoutMs ?? DEFAULT_CONNECTION_TIMEOUT_MS,
      })));
    },
    get sagemaker() {
      return (cache.sagemaker ??= boundedClient(sageMakerSdk().SageMakerClient, base(ep.sagemaker), timeouts));
    },
    get featureStore() {
      return (cache.featureStore ??= boundedClient(featureStoreRuntimeSdk().SageMakerFeatureStoreRuntimeClient,
        base(ep.featureStoreRuntime), timeouts));
    },
    get dynamodb() {
      return (cache.dynamodb ??= boundedClient(dynamoDbSdk().DynamoDBClient, base(ep.dynamodb), timeouts));
    },
    get s3() {
      return (cache.s3 ??= boundedClient(s3Sdk().S3Client, {
        ...base(ep.s3),
        forcePathStyle: config.s3ForcePathStyle ?? ep.s3 !== undefined,
        // s3rver and other S3-compatible stores reject the streaming checksums the SDK adds by default.
        ...(ep.s3 ? { requestChecksumCalculation: 'WHEN_REQUIRED' as const, responseChecksumValidation: 'WHEN_REQUIRED' as const } : {}),
      }, timeouts));
    },
  };
  // Only async and training tools issue handles; a server without them needs no key.
  const issuesHandles = (config.asyncEndpoints?.length ?? 0) > 0 || (config.pipelines?.length ?? 0) > 0;
  const handles = createHandleCodec(config.handleKey, {
    ttlSeconds: config.handleTtlSeconds,
    ephemeralKey: config.ephemeralHandleKey === true || !issuesHandles,
    now: config.now,
  });
  return { config, clients, handles };
}
