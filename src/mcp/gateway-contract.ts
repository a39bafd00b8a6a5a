/**
 * The contract between `McpToolServer.addToGateway` and the bundled handler for Amazon Bedrock AgentCore Gateway Lambda
 * targets. Plain constants only: no SDK, no aws-cdk-lib.
 */

/** Env vars `addToGateway` sets on the server function. */
export const MCP_GATEWAY_ENV = {
  /**
   * JSON array of the gateway target names this function serves. The handler answers an AgentCore invocation only when
   * the tool name's `<target>___` prefix is one of them; without the variable it answers none.
   */
  TARGET_NAMES: 'MCP_GATEWAY_TARGET_NAMES',
} as const;

/**
 * What separates the target name from the tool name in the name a gateway shows agents and passes to the function
 * (https://docs.aws.amazon.com/bedrock-agentcore/latest/devguide/gateway-tool-naming.html).
 */
export const MCP_GATEWAY_TOOL_DELIMITER = '___';

/**
 * The keys of `context.clientContext.custom` a gateway sets when it invokes a Lambda target; the event is the tool's
 * arguments (https://docs.aws.amazon.com/bedrock-agentcore/latest/devguide/gateway-add-target-lambda.html#gateway-building-lambda-input).
 */
export const AGENTCORE_CONTEXT_KEYS = {
  TOOL_NAME: 'bedrockAgentCoreToolName',
  GATEWAY_ID: 'bedrockAgentCoreGatewayId',
  TARGET_ID: 'bedrockAgentCoreTargetId',
  MESSAGE_VERSION: 'bedrockAgentCoreMessageVersion',
  AWS_REQUEST_ID: 'bedrockAgentCoreAwsRequestId',
  MCP_MESSAGE_ID: 'bedrockAgentCoreMcpMessageId',
} as const;
