/**
 * The bundled MCP server handler (assets/mcp/server.lambda, after `npx projen bundle`) configured through the env vars
 * the construct sets (AWS endpoints through the SDK's standard AWS_ENDPOINT_URL_<SERVICE>; the handle key in a local
 * Secrets Manager, named by MCP_HANDLE_KEY_SECRET_ARN), serving one
 * `churn-xgb` real-time endpoint from a local SageMaker runtime, behind a node:http stand-in for its front door
 * (function URL or API Gateway) that a real MCP client is connected to.
 *
 * `useBundledServerLambda` registers the `beforeAll`/`afterAll` of the enclosing describe block; the fields of what it
 * returns are set once `beforeAll` has run.
 */
import { createServer, IncomingMessage, Server, ServerResponse } from 'http';
import { AddressInfo } from 'net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { APIGatewayProxyStructuredResultV2, LambdaFunctionURLEvent } from 'aws-lambda';
import { functionUrlEvent } from './function-url-event';
import { LOCAL_CREDENTIALS } from '@cdk-sagemaker-mcp/test-stand-ins/local-aws';
import { SageMakerRuntimeServer, startSageMakerRuntimeServer } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { SecretsManagerServer, startSecretsManagerServer } from '@cdk-sagemaker-mcp/test-stand-ins/secrets-manager-server';
import { MCP_ENV } from 'cdk-sagemaker-mcp-runtime/internal/contract';

/** What sets the bundled server's environment apart in a test: the stand-ins it reaches and what it serves. */
export interface BundledServerEnvOptions {
  /** The local Secrets Manager's endpoint, where the handle key is read at cold start. */
  readonly secretsEndpoint: string;
  /** The handle-key secret's ARN (MCP_HANDLE_KEY_SECRET_ARN). */
  readonly handleKeySecretArn: string;
  /** The server spec (MCP_SERVER_SPEC), as McpToolServer writes it. */
  readonly spec: object;
  /** @default 'us-east-1' */
  readonly region?: string;
  /** More endpoint overrides, e.g. AWS_ENDPOINT_URL_SAGEMAKER_RUNTIME. */
  readonly endpoints?: Record<string, string>;
}

/**
 * Sets the env vars McpToolServer gives its function, pointed at local stand-ins (the SDK's standard
 * AWS_ENDPOINT_URL_<SERVICE>), with the stand-ins' credentials and the logger silenced: call it before the bundle loads.
 */
export function setBundledServerEnv(o: BundledServerEnvOptions): void {
  Object.assign(process.env, {
    AWS_REGION: o.region ?? 'us-east-1',
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    ...o.endpoints,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: o.secretsEndpoint,
    POWERTOOLS_LOG_LEVEL: 'SILENT',
    [MCP_ENV.SPEC]: JSON.stringify(o.spec),
    [MCP_ENV.HANDLE_KEY_SECRET_ARN]: o.handleKeySecretArn,
  });
}

/** How the stand-in front door turns HTTP into invocations: `E` the event it hands the function, `R` the result. */
export interface StandInFrontDoor<E, R> {
  /** The name the MCP client announces. */
  readonly clientName: string;
  /** The path the client posts to (with the stage, for API Gateway). */
  readonly mcpPath: string;
  /** The event the front door hands the function for `req`. */
  toEvent(req: IncomingMessage): Promise<E>;
  /** Answers the HTTP request with the function's result, as the front door does. */
  writeResult(result: R, res: ServerResponse): void;
}

/** A buffered function URL in front (AWS_IAM auth, payload 2.0, the result's status, headers and body as sent). */
export function functionUrlFrontDoor(clientName: string): StandInFrontDoor<LambdaFunctionURLEvent, APIGatewayProxyStructuredResultV2> {
  return {
    clientName,
    mcpPath: '/mcp',
    toEvent: (req) => functionUrlEvent(req),
    writeResult: (result, res) => {
      res.writeHead(result.statusCode ?? 200, { ...(result.headers as Record<string, string>) });
      res.end(result.body);
    },
  };
}

export interface BundledServerLambda<E, R> {
  readonly runtime: SageMakerRuntimeServer;
  /** Holds the handle key the handler reads at cold start (MCP_HANDLE_KEY_SECRET_ARN names it). */
  readonly secrets: SecretsManagerServer;
  readonly client: Client;
  /** The bundle's handler: one handler takes both function URL and API Gateway events. */
  readonly handler: (event: E | LambdaFunctionURLEvent) => Promise<R>;
  /** Every event the stand-in handed the handler. */
  readonly events: E[];
}

/**
 * `env`: more variables of the function's environment, e.g. the gateway targets `addToGateway` sets; set before the
 * bundle loads, since the handler reads its environment once per container.
 */
export function useBundledServerLambda<E, R>(frontDoor: StandInFrontDoor<E, R>, env: Record<string, string> = {}): BundledServerLambda<E, R> {
  const server = { events: [] as E[] } as { -readonly [K in keyof BundledServerLambda<E, R>]: BundledServerLambda<E, R>[K] };
  const saved = { ...process.env };
  let http: Server | undefined;

  beforeAll(async () => {
    server.runtime = await startSageMakerRuntimeServer();
    server.secrets = await startSecretsManagerServer();
    const handleKeyArn = server.secrets.putSecret('mcp-handle-key', 'bundled-server-test-handle-key');
    setBundledServerEnv({
      secretsEndpoint: server.secrets.endpoint,
      handleKeySecretArn: handleKeyArn,
      spec: { realtimeEndpoints: [{ name: 'churn-xgb', description: 'churn model' }] },
      endpoints: { AWS_ENDPOINT_URL_SAGEMAKER_RUNTIME: server.runtime.endpoint },
    });
    Object.assign(process.env, env);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    server.handler = require('../../assets/mcp/server.lambda/index.js').handler;
    const standIn = createServer(async (req, res) => {
      const e = await frontDoor.toEvent(req);
      server.events.push(e);
      frontDoor.writeResult(await server.handler(e), res);
    });
    // The client (undici) drops an idle socket after 4 s; the server must not close one first, or a request sent on it
    // as it closes meets ECONNRESET (a race a loaded machine hits when a test pauses between calls).
    standIn.keepAliveTimeout = 60_000;
    http = standIn;
    await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', () => resolve()));
    server.client = new Client({ name: frontDoor.clientName, version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    const port = (standIn.address() as AddressInfo).port;
    await server.client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}${frontDoor.mcpPath}`)));
  });

  afterAll(async () => {
    await server.client?.close();
    await new Promise<void>((resolve) => (http ? http.close(() => resolve()) : resolve()));
    await server.runtime?.stop();
    await server.secrets?.stop();
    process.env = saved;
  });

  return server;
}
