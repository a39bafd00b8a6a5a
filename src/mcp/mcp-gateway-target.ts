/** Options of `McpToolServer.addToGateway`. */
export interface McpGatewayTargetOptions {
  /**
   * The gateway target's name, unique within the gateway: agents see each tool as `<targetName>___<tool>`
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
}
