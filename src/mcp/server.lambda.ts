/**
 * The SageMaker MCP tool server on Lambda, behind a function URL (AWS_IAM auth). Stateless streamable HTTP: each
 * request builds a fresh MCP server around AWS clients shared by the warm container. What is exposed comes from the
 * env vars of ./contract (set by `McpToolServer`); the AWS SDK is the one Lambda provides.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import type { McpHttpHandler } from '@modelcontextprotocol/server';
import type { Context, LambdaFunctionURLEvent, LambdaFunctionURLResult } from 'aws-lambda';
import { functionUrlEventToRequest, responseToFunctionUrlResult } from './function-url';
import { createSageMakerMcpHandler, mcpServerConfigFromEnv } from '../runtime/mcp-server';

const logger = new Logger({ serviceName: 'sagemaker-mcp' });
let mcp: McpHttpHandler | undefined;

function mcpHandler(): McpHttpHandler {
  // 'auto' answers with one JSON body: no tool emits notifications before its result, so nothing needs a stream
  // (a buffered function URL would deliver one only once complete anyway).
  mcp ??= createSageMakerMcpHandler(mcpServerConfigFromEnv(), {
    onerror: (error) => logger.warn('MCP request rejected or failed out of band', { error }),
  });
  return mcp;
}

export async function handler(event: LambdaFunctionURLEvent, context?: Context): Promise<LambdaFunctionURLResult> {
  if (context) logger.addContext(context);
  const caller = (event.requestContext as { authorizer?: { iam?: { userArn?: string } } }).authorizer?.iam?.userArn;
  const started = Date.now();
  try {
    const response = await mcpHandler().fetch(functionUrlEventToRequest(event));
    const result = await responseToFunctionUrlResult(response);
    logger.info('MCP request', { method: event.requestContext.http.method, status: result.statusCode, caller, ms: Date.now() - started });
    return result;
  } catch (error) {
    // A configuration error or a bug: log it and fail the invocation so the Errors alarm sees it.
    logger.error('MCP request failed', { error: error as Error, caller });
    throw error;
  } finally {
    logger.resetKeys();
  }
}
