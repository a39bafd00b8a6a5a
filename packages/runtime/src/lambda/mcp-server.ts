/**
 * The SageMaker MCP tool server on Lambda (bundled by the construct library as src/mcp/server.lambda.ts), behind a function URL (AWS_IAM auth, payload 2.0 events), an API
 * Gateway REST API (Lambda proxy, payload 1.0 events) and/or Amazon Bedrock AgentCore Gateway Lambda targets (the tool's
 * arguments as the event, its name in the client context): each event shape is answered in its own result shape. Stateless streamable HTTP: each
 * request builds a fresh MCP server around AWS clients shared by the warm container. What is exposed comes from the
 * env vars of ../contract/mcp.ts (set by `McpToolServer`, read in one parse), and the spec and the handle key from the
 * Secrets Manager secrets they name; the AWS SDK is the one Lambda provides.
 */
import type { Writable } from 'stream';
import type { McpHttpHandler } from '@modelcontextprotocol/server';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context, LambdaFunctionURLEvent, LambdaFunctionURLResult } from 'aws-lambda';
import { AgentCoreInvocation, agentCoreInvocation, agentCoreProblem, agentCoreRefusal, unservedEventRefusal, AgentCoreToolResult, agentCoreToolCallRequest, responseToAgentCoreResult } from './agentcore-event';
import { apiGatewayCaller, apiGatewayEventToRequest, isApiGatewayProxyEvent, responseToApiGatewayResult } from './api-gateway-event';
import { functionUrlEventToRequest, responseToFunctionUrlResult } from './function-url';
import { awsLambdaStreaming, writeResponseToStream } from './function-url-stream';
import { handlerLogger } from './logger';
import { emitToolCall } from './metrics';
import { MCP_ENV, McpServerSpec } from '../contract/mcp';
import { secretsManagerSdk } from '../core/aws-sdk';
import { boundedRequestHandler } from '../core/bounded';
import { McpServerFunctionConfig, mcpServerFunctionConfigFromEnv, mcpServerSpecFromSecretText } from '../mcp/config';
import { createSageMakerMcpHandler } from '../mcp/server';

const log = () => handlerLogger('sagemaker-mcp');
let mcp: Promise<McpHttpHandler> | undefined;
let functionEnv: McpServerFunctionConfig | undefined;

/** The function's environment, parsed once per container (Lambda never changes it under a running container). */
function functionConfig(): McpServerFunctionConfig {
  functionEnv ??= mcpServerFunctionConfigFromEnv();
  return functionEnv;
}

/**
 * Bounds of each cold-start read (the handle key, the spec): a slow or silent Secrets Manager fails the start instead of
 * holding it. The request handler is ../core/bounded.ts's, like every other client's: without `throwOnRequestTimeout`
 * the SDK's NodeHttpHandler only warns when `requestTimeout` passes and the read never ends.
 */
export const HANDLE_KEY_READ_BOUNDS = { connectionTimeoutMs: 3_000, requestTimeoutMs: 5_000, maxAttempts: 3 };

/** One secret's `SecretString`, read with `bounds`; a failure names `envName` and what the function needs. */
async function readSecretString(secretId: string, envName: string, what: string, bounds: typeof HANDLE_KEY_READ_BOUNDS): Promise<string> {
  // Loaded here, not at module load: the cold `require` of this bundle loads no AWS SDK client module (each tool loads
  // its own on first use, see ../core/aws-sdk.ts); test/mcp/cold-load.test.ts checks it.
  const { GetSecretValueCommand, SecretsManagerClient } = secretsManagerSdk();
  const sm = new SecretsManagerClient({ maxAttempts: bounds.maxAttempts, requestHandler: boundedRequestHandler(bounds) });
  try {
    const value = (await sm.send(new GetSecretValueCommand({ SecretId: secretId }))).SecretString;
    if (!value) throw new Error('the secret has no SecretString');
    return value;
  } catch (err) {
    const e = err as Error;
    const silent = e.name === 'TimeoutError' || /timed? ?out|timeout/i.test(e.message);
    throw new Error(`Cannot read the ${what} secret named by ${envName} (${e.name}: ${e.message}); `
      + (silent
        ? `Secrets Manager did not answer within ${bounds.requestTimeoutMs} ms per attempt (${bounds.maxAttempts} attempts): check the `
          + 'function\'s network path to it (a VPC endpoint for secretsmanager, or a NAT route)'
        : 'the function needs secretsmanager:GetSecretValue on it (and kms:Decrypt on its key when it has one)'), { cause: err });
  } finally {
    sm.destroy();
  }
}

/**
 * The handle key, read once per cold start from the secret named by MCP_HANDLE_KEY_SECRET_ARN, never from the
 * environment, where lambda:GetFunctionConfiguration would reveal it. Without the ARN the server does not start (the
 * environment's parse says so): a per-process random key would make every instance refuse the handles another issued.
 */
export async function readHandleKey(secretId: string, bounds: typeof HANDLE_KEY_READ_BOUNDS = HANDLE_KEY_READ_BOUNDS): Promise<string> {
  return readSecretString(secretId, MCP_ENV.HANDLE_KEY_SECRET_ARN, 'handle key', bounds);
}

/**
 * The server spec, read once per cold start from the secret named by MCP_SERVER_SPEC_SECRET_ARN (where `McpToolServer`
 * writes it, packed: Lambda caps the environment at 4 KB), unpacked and parsed with the contract's schema: a missing or
 * malformed spec fails the start with every problem at once.
 */
export async function readServerSpec(secretId: string, bounds: typeof HANDLE_KEY_READ_BOUNDS = HANDLE_KEY_READ_BOUNDS): Promise<McpServerSpec> {
  const text = await readSecretString(secretId, MCP_ENV.SPEC_SECRET_ARN, 'server spec', bounds);
  return mcpServerSpecFromSecretText(text, `the server spec (the secret named by ${MCP_ENV.SPEC_SECRET_ARN})`);
}

/**
 * Builds the server once per container: its environment in one parse, then the spec (unless inline) and the handle key
 * from Secrets Manager, read side by side.
 */
async function startServer(): Promise<McpHttpHandler> {
  const config = functionConfig();
  const [spec, handleKey] = await Promise.all([
    config.spec ? Promise.resolve(config.spec) : readServerSpec(config.specSecretArn!),
    readHandleKey(config.handleKeySecretArn),
  ]);
  // One JSON body, unless the request carries a progressToken (then an SSE stream, in which a wait_for_* tool sends
  // its progress notifications), for 2026-07-28 and 2025-era requests alike (../mcp/http.ts;
  // test/mcp/protocol-revisions.test.ts checks both); the stream that a buffered function URL or API Gateway delivers whole, once the
  // result is in: the client gets every notification, but only with the result, not live (docs/mcp.md).
  // Failed tool calls are logged whole here; the agent gets them redacted with the same correlation id.
  // Each tool call's outcome becomes EMF metrics on stdout (../contract/metrics.ts: tool name and outcome, nothing else).
  return createSageMakerMcpHandler({ ...spec, handleKey, log: (entry) => log().error('MCP tool call failed', entry), onToolCall: emitToolCall }, {
    onerror: (error) => log().warn('MCP request rejected or failed out of band', { error }),
  });
}

function mcpServer(): Promise<McpHttpHandler> {
  // A failed start is not cached: the next invocation tries again (a transient Secrets Manager error heals).
  mcp ??= startServer().catch((error) => {
    mcp = undefined;
    throw error;
  });
  return mcp;
}

export async function handler(event: LambdaFunctionURLEvent, context?: Context): Promise<LambdaFunctionURLResult>;
export async function handler(event: APIGatewayProxyEvent, context?: Context): Promise<APIGatewayProxyResult>;
export async function handler(event: Record<string, unknown>, context: Context): Promise<AgentCoreToolResult>;
export async function handler(
  event: LambdaFunctionURLEvent | APIGatewayProxyEvent | Record<string, unknown>,
  context?: Context,
): Promise<LambdaFunctionURLResult | APIGatewayProxyResult | AgentCoreToolResult> {
  if (context) log().addContext(context);
  const agentCore = agentCoreInvocation(event, context);
  if (agentCore) return handleAgentCore(agentCore);
  const unserved = unservedEventRefusal(event);
  if (unserved) {
    log().warn('Invocation refused: neither an HTTP event nor an AgentCore tool call', { keys: Object.keys(event ?? {}).slice(0, 20) });
    return unserved;
  }
  return handleHttp(event as LambdaFunctionURLEvent | APIGatewayProxyEvent);
}

async function handleHttp(event: LambdaFunctionURLEvent | APIGatewayProxyEvent): Promise<LambdaFunctionURLResult | APIGatewayProxyResult> {
  const viaApi = isApiGatewayProxyEvent(event);
  const caller = viaApi ? apiGatewayCaller(event) : functionUrlCaller(event);
  const method = viaApi ? event.httpMethod : event.requestContext.http.method;
  const started = Date.now();
  try {
    // The caller comes from the request context Lambda built (IAM-signed function URL / API Gateway), never from a header.
    const authInfo = caller ? { token: '', clientId: caller, scopes: [] } : undefined;
    const response = await (await mcpServer()).fetch(viaApi ? apiGatewayEventToRequest(event) : functionUrlEventToRequest(event), { authInfo });
    const result = viaApi ? await responseToApiGatewayResult(response) : await responseToFunctionUrlResult(response);
    log().info('MCP request', { via: viaApi ? 'api-gateway' : 'function-url', method, status: result.statusCode, caller, ms: Date.now() - started });
    return result;
  } catch (error) {
    // A configuration error or a bug: log it and fail the invocation so the Errors alarm sees it.
    log().error('MCP request failed', { error: error as Error, caller });
    throw error;
  } finally {
    log().resetKeys();
  }
}

/**
 * One tool call from an AgentCore Gateway Lambda target, through the same MCP server as HTTP requests. Only tool names
 * of the targets this function was added as are answered: a name of another target (or with no target prefix) is
 * refused, logged, and never reaches a tool.
 */
async function handleAgentCore(call: AgentCoreInvocation): Promise<AgentCoreToolResult> {
  // Lambda does not tell the function who invoked it; the gateway is who AgentCore's client context says it is, and only
  // principals allowed lambda:InvokeFunction (the gateway's role, by addToGateway) can invoke it at all.
  const caller = call.gatewayId ? `bedrock-agentcore:gateway/${call.gatewayId}` : 'bedrock-agentcore:gateway';
  const started = Date.now();
  try {
    const targets = functionConfig().gatewayTargetNames;
    if (!targets.includes(call.targetName)) {
      log().warn('AgentCore tool call refused: not a target of this server', { tool: call.qualifiedName, targets, caller });
      return agentCoreRefusal('ToolNotServed', `Tool "${call.qualifiedName}" is not served here: this function serves the tools of `
        + `${targets.length ? `gateway target${targets.length > 1 ? 's' : ''} ${targets.join(', ')}` : 'no gateway target'}.`);
    }
    const problem = agentCoreProblem(call);
    if (problem) {
      log().warn('AgentCore tool call refused', { tool: JSON.stringify(call.qualifiedName.slice(0, 300)), error: problem.structuredContent, caller });
      return problem;
    }
    const authInfo = { token: '', clientId: caller, scopes: [] };
    const result = await responseToAgentCoreResult(await (await mcpServer()).fetch(agentCoreToolCallRequest(call), { authInfo }));
    log().info('MCP request', { via: 'agentcore-gateway', tool: call.qualifiedName, isError: result.isError ?? false, caller, ms: Date.now() - started });
    return result;
  } catch (error) {
    log().error('MCP request failed', { error: error as Error, caller, tool: call.qualifiedName });
    throw error;
  } finally {
    log().resetKeys();
  }
}

/** The IAM principal of an AWS_IAM function URL request (`requestContext.authorizer.iam`); none for auth type NONE. */
function functionUrlCaller(event: LambdaFunctionURLEvent): string | undefined {
  const iam = (event.requestContext as { authorizer?: { iam?: { userArn?: string; callerId?: string } } }).authorizer?.iam;
  return iam?.userArn || iam?.callerId || undefined;
}

/**
 * The handler of a function URL in RESPONSE_STREAM mode (`McpToolServer` `responseStreaming` points the function at
 * `index.streamingHandler`): a function URL request's answer is written to the response stream as the MCP server
 * produces it (SSE frames leave one by one); any other invocation (AgentCore Lambda target, API Gateway) gets the
 * buffered handler's result as one JSON payload, which is what a Lambda Invoke of a streaming function returns. Defined
 * only where the Lambda runtime (or a stand-in) provides `awslambda`.
 */
export const streamingHandler = awsLambdaStreaming()?.streamifyResponse(
  async (event: Record<string, unknown>, responseStream: Writable, context?: Context): Promise<void> => {
    const lambda = awsLambdaStreaming()!;
    if (agentCoreInvocation(event, context) || isApiGatewayProxyEvent(event as unknown as LambdaFunctionURLEvent | APIGatewayProxyEvent)) {
      const result = await handler(event as never, context as Context);
      const payload = JSON.stringify(result);
      await new Promise<void>((resolve, reject) => responseStream.end(payload, (err?: Error | null) => (err ? reject(err) : resolve())));
      return;
    }
    if (context) log().addContext(context);
    const fnEvent = event as unknown as LambdaFunctionURLEvent;
    const caller = functionUrlCaller(fnEvent);
    const started = Date.now();
    try {
      const authInfo = caller ? { token: '', clientId: caller, scopes: [] } : undefined;
      const response = await (await mcpServer()).fetch(functionUrlEventToRequest(fnEvent), { authInfo });
      await writeResponseToStream(response, responseStream, lambda);
      const method = fnEvent.requestContext.http.method;
      log().info('MCP request', { via: 'function-url-stream', method, status: response.status, caller, ms: Date.now() - started });
    } catch (error) {
      log().error('MCP request failed', { error: error as Error, caller });
      throw error;
    } finally {
      log().resetKeys();
    }
  },
);
