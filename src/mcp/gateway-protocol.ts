import * as agentcore from 'aws-cdk-lib/aws-bedrockagentcore';
import { GATEWAY_MCP_PROTOCOL_VERSIONS } from '../private/contract.generated';

/**
 * aws-cdk-lib's version object for `v`. Releases before `MCPProtocolVersion.of` render a version from its `value`, so
 * an object carrying the value stands in for it there.
 */
function protocolVersion(v: string): agentcore.MCPProtocolVersion {
  const versions = agentcore.MCPProtocolVersion as { of?: (value: string) => agentcore.MCPProtocolVersion } | undefined;
  return typeof versions?.of === 'function' ? versions.of(v) : ({ value: v, toString: () => v } as unknown as agentcore.MCPProtocolVersion);
}

/** Options of `McpGatewayProtocol.configuration`. */
export interface McpGatewayProtocolOptions {
  /**
   * The gateway's instructions for MCP clients.
   *
   * @default - none
   */
  readonly instructions?: string;
  /**
   * Semantic tool search (`x_amz_bedrock_agentcore_search`).
   *
   * @default true
   */
  readonly semanticSearch?: boolean;
}

/**
 * The MCP protocol configuration of an Amazon Bedrock AgentCore Gateway in front of `McpToolServer`. A gateway "accepts
 * only the MCP protocol versions listed in the supportedVersions field", and aws-cdk-lib's `Gateway` lists 2025-03-26
 * alone unless told otherwise, which refuses clients on newer revisions. AgentCore Gateway supports 2026-07-28,
 * 2025-11-25, 2025-06-18 and 2025-03-26 (https://docs.aws.amazon.com/bedrock-agentcore/latest/devguide/gateway-using.html),
 * and the bundled server speaks all four.
 *
 * @example
 * import * as agentcore from 'aws-cdk-lib/aws-bedrockagentcore';
 * import { McpGatewayProtocol } from 'cdk-sagemaker-mcp';
 *
 * const gateway = new agentcore.Gateway(this, 'Gateway', { protocolConfiguration: McpGatewayProtocol.configuration() });
 * server.addToGateway(gateway);
 */
export class McpGatewayProtocol {
  /** Every MCP protocol version the bundled server speaks that AgentCore Gateway supports, newest first. */
  public static readonly SUPPORTED_VERSIONS: string[] = [...GATEWAY_MCP_PROTOCOL_VERSIONS];

  /** An MCP protocol configuration listing `SUPPORTED_VERSIONS`, for `agentcore.Gateway`'s `protocolConfiguration`. */
  public static configuration(options: McpGatewayProtocolOptions = {}): agentcore.IGatewayProtocolConfig {
    return agentcore.GatewayProtocol.mcp({
      supportedVersions: McpGatewayProtocol.SUPPORTED_VERSIONS.map(protocolVersion),
      searchType: options.semanticSearch === false ? undefined : agentcore.McpGatewaySearchType.SEMANTIC,
      instructions: options.instructions,
    });
  }

  private constructor() {}
}
