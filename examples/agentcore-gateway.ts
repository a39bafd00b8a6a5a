import { Validations } from 'aws-cdk-lib';
import * as agentcore from 'aws-cdk-lib/aws-bedrockagentcore';
import { McpGatewayProtocol, McpToolServer } from '../src/mcp';

/**
 * The MCP tool server behind an Amazon Bedrock AgentCore Gateway with the Gateway's default inbound authorization (a
 * Cognito user pool issuing client-credentials JWTs, aws-cdk-lib's default): agents reach the tools through the
 * gateway's MCP URL as `sagemaker___<tool>`. The mcp integ app builds it (docs/agentcore.md).
 */
export function putBehindAgentCoreGateway(server: McpToolServer): agentcore.Gateway {
  const gateway = new agentcore.Gateway(server.node.scope!, 'AgentGateway', {
    description: 'MCP front door of the SageMaker tools (JWT inbound auth, semantic tool search)',
    // every MCP revision the server speaks and the Gateway supports (aws-cdk-lib's default is 2025-03-26 alone)
    protocolConfiguration: McpGatewayProtocol.configuration({ instructions: 'Default gateway to connect to external MCP tools' }),
  });
  server.addToGateway(gateway, { targetName: 'sagemaker' });
  acknowledgeDefaultGatewayUserPool(gateway);
  return gateway;
}

/**
 * The cdk-nag findings of the Gateway's default Cognito user pool (created by aws-cdk-lib's `Gateway`, not by this
 * library), acknowledged with the reason that holds for it.
 */
export function acknowledgeDefaultGatewayUserPool(gateway: agentcore.Gateway): void {
  const pool = gateway.userPool?.node.defaultChild;
  if (!pool) return;
  const reason = 'Machine-to-machine pool of the AgentCore Gateway: its only client uses the client-credentials grant; no user signs in, so passwords, MFA and the Plus tier\'s sign-in protection do not apply.';
  for (const id of ['AwsSolutions-COG1', 'AwsSolutions-COG2', 'AwsSolutions-COG8']) Validations.of(pool).acknowledge({ id, reason });
}
