/**
 * What the tools share: the spec (what is exposed), the AWS SDK clients (built once per server configuration and reused
 * by every request, so a warm Lambda keeps its connections), and the handle codec.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SageMakerClient } from '@aws-sdk/client-sagemaker';
import { SageMakerFeatureStoreRuntimeClient } from '@aws-sdk/client-sagemaker-featurestore-runtime';
import { SageMakerRuntimeClient } from '@aws-sdk/client-sagemaker-runtime';
import { createHandleCodec, HandleCodec } from './handles';
import type { McpServerSpec } from '../../mcp/contract';
import { createRuntimeClient } from '../invoke';

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
  /** Key material for handles; share it across instances that serve the same clients. @default - random per process */
  readonly handleKey?: string;
  /** S3 path-style addressing (needed by s3rver and some S3-compatible stores). @default - false, or true when `endpoints.s3` is set */
  readonly s3ForcePathStyle?: boolean;
  /** Seconds suggested to the agent before checking an async job again. @default 30 */
  readonly asyncCheckAfterSeconds?: number;
  /** Seconds suggested to the agent before checking a training run again. @default 60 */
  readonly trainingCheckAfterSeconds?: number;
  /** Per-invocation deadline of `invoke_endpoint`, retries included. @default 70000 */
  readonly invokeDeadlineMs?: number;
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
}

/** Builds the clients of `config` (each one lazily, on first use) and the handle codec. */
export function createToolContext(config: SageMakerMcpServerConfig): ToolContext {
  const base = (endpoint?: string) => ({
    ...(config.region ? { region: config.region } : {}),
    ...(config.credentials ? { credentials: config.credentials } : {}),
    ...(endpoint ? { endpoint } : {}),
  });
  const ep = config.endpoints ?? {};
  const cache: Partial<{ -readonly [K in keyof McpClients]: McpClients[K] }> = {};
  const clients: McpClients = {
    get sagemakerRuntime() {
      return (cache.sagemakerRuntime ??= createRuntimeClient(base(ep.sagemakerRuntime)));
    },
    get sagemaker() {
      return (cache.sagemaker ??= new SageMakerClient(base(ep.sagemaker)));
    },
    get featureStore() {
      return (cache.featureStore ??= new SageMakerFeatureStoreRuntimeClient(base(ep.featureStoreRuntime)));
    },
    get dynamodb() {
      return (cache.dynamodb ??= new DynamoDBClient(base(ep.dynamodb)));
    },
    get s3() {
      return (cache.s3 ??= new S3Client({
        ...base(ep.s3),
        forcePathStyle: config.s3ForcePathStyle ?? ep.s3 !== undefined,
        // s3rver and other S3-compatible stores reject the streaming checksums the SDK adds by default.
        ...(ep.s3 ? { requestChecksumCalculation: 'WHEN_REQUIRED' as const, responseChecksumValidation: 'WHEN_REQUIRED' as const } : {}),
      }));
    },
  };
  return { config, clients, handles: createHandleCodec(config.handleKey) };
}
