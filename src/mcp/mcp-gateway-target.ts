/** How a gateway reaches the MCP tool server (when the tool server is added to a gateway, https://github.com/cdk-sagemaker-mcp/cdk-sagemaker-mcp/blob/main/docs/agentcore.md). */
export enum McpGatewayTargetKind {
  /**
   * A Lambda target: the gateway invokes the server function (`lambda:InvokeFunction`) with each tool call's arguments
   * as the event and lists the tools from schemas written into the target at synth. The server sees the caller as
   * `bedrock-agentcore:gateway/<gateway id>` (from the invocation's client context).
   */
  LAMBDA = 'LAMBDA',
  /**
   * An MCP server target: the gateway speaks MCP to the server's function URL (`AWS_IAM` auth), signing each request
   * with its own role (SigV4, service `lambda`), and lists the tools from the server itself (`tools/list`). The server
   * sees the caller as the gateway role's assumed-role ARN (the function URL's IAM request context), the same for
   * every agent of the gateway. Needs the function URL (no API Gateway front, or one that keeps the function URL).
   */
  MCP_SERVER = 'MCP_SERVER',
}

/** Options of adding `McpToolServer` to a gateway. */
export interface McpGatewayTargetOptions {
  /**
   * The gateway target's name, unique within the gateway: agents see each tool as `<target name>___<tool>`
   * (https://docs.aws.amazon.com/bedrock-agentcore/latest/devguide/gateway-tool-naming.html). Letters, digits and
   * single hyphens between them, up to 100 characters.
   *
   * @default - the server's construct id, every run of other characters replaced by one hyphen
   */
  readonly targetName?: string;
  /**
   * The target's description.
   *
   * @default - 'SageMaker tools of <server path>'
   */
  readonly description?: string;
  /**
   * How the gateway reaches the server: as a Lambda target or as an MCP server target (its function URL).
   *
   * @default McpGatewayTargetKind.LAMBDA
   */
  readonly targetKind?: McpGatewayTargetKind;
  /**
   * Sets the gateway's `ProtocolConfiguration.Mcp.StreamingConfiguration.EnableResponseStreaming`: the gateway streams
   * target responses to its clients as SSE. Only for a gateway created in this app (an imported one is not changed:
   * synth fails). Progress then arrives live only when the server streams too (the tool server's response streaming,
   * behind an MCP server target).
   *
   * @default - the gateway's streaming setting is left as it is
   */
  readonly responseStreaming?: boolean;
}
