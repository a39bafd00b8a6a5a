/**
 * The Gateway's MCP protocol versions: `McpGatewayProtocol` lists every revision the bundled server speaks and AgentCore
 * Gateway supports, the mcp integ app's gateway lists them, and `addToGateway` warns on a gateway that leaves some out.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { App, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as agentcore from 'aws-cdk-lib/aws-bedrockagentcore';
import { McpGatewayProtocol, McpToolServer } from '../../src/mcp';
import { RealtimeEndpoint } from '../../src/realtime';
import { GATEWAY_MCP_PROTOCOL_VERSIONS } from 'cdk-sagemaker-mcp-runtime/internal/contract';

/** "AgentCore Gateway supports the following MCP versions: 2026-07-28, 2025-11-25, 2025-06-18, and 2025-03-26" (https://docs.aws.amazon.com/bedrock-agentcore/latest/devguide/gateway-using.html) */
const AGENTCORE_GATEWAY_VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'];
/** The revision the server's createMcpHandler serves natively (packages/runtime/test/mcp/http.test.ts negotiates it). */
const MODERN = '2026-07-28';

function serverStack(protocolConfiguration?: agentcore.IGatewayProtocolConfig) {
  const app = new App();
  const stack = new Stack(app, 'Gw', { env: { account: '123456789012', region: 'us-east-1' } });
  const server = new McpToolServer(stack, 'Tools', { realtimeEndpoints: [{ endpoint: RealtimeEndpoint.fromEndpointName(stack, 'Churn', 'churn-xgb') }] });
  const gateway = new agentcore.Gateway(stack, 'Gateway', { authorizerConfiguration: agentcore.GatewayAuthorizer.usingAwsIam(), protocolConfiguration });
  server.addToGateway(gateway);
  return { stack, server };
}

const versionWarnings = (stack: Stack) => Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('gatewayProtocolVersions'));

test('the list is every version the bundled server speaks (the modern revision + the SDK\'s 2025-era ones) that the Gateway supports', () => {
  const speaks = [MODERN, ...SUPPORTED_PROTOCOL_VERSIONS];
  expect([...GATEWAY_MCP_PROTOCOL_VERSIONS]).toEqual(AGENTCORE_GATEWAY_VERSIONS.filter((v) => speaks.includes(v)));
  expect(McpGatewayProtocol.SUPPORTED_VERSIONS).toEqual([...GATEWAY_MCP_PROTOCOL_VERSIONS]);
});

test('McpGatewayProtocol.configuration() renders SupportedVersions with all four, semantic search on; addToGateway then does not warn', () => {
  const { stack } = serverStack(McpGatewayProtocol.configuration());
  Template.fromStack(stack).hasResourceProperties('AWS::BedrockAgentCore::Gateway', {
    ProtocolConfiguration: { Mcp: { SupportedVersions: AGENTCORE_GATEWAY_VERSIONS, SearchType: 'SEMANTIC' } },
  });
  expect(versionWarnings(stack)).toEqual([]);
});

test('a gateway on aws-cdk-lib\'s default (2025-03-26 only) gets a warning naming the refused versions', () => {
  const { stack } = serverStack();
  expect(versionWarnings(stack).map((w) => w.entry.data)).toEqual([expect.stringMatching(
    /lists MCP versions 2025-03-26 only, so it refuses clients on 2026-07-28, 2025-11-25, 2025-06-18.*McpGatewayProtocol\.configuration\(\)/)]);
});

test('the mcp integ app\'s gateways (the Lambda target\'s and the MCP server target\'s) list every supported version', () => {
  const template = JSON.parse(readFileSync(join(__dirname, '..', 'mcp.integ.snapshot', 'CdkSageMakerMcpInteg.template.json'), 'utf8'));
  const gateways = Object.values<any>(template.Resources).filter((r) => r.Type === 'AWS::BedrockAgentCore::Gateway');
  expect(gateways.map((g) => g.Properties.ProtocolConfiguration.Mcp.SupportedVersions)).toEqual([AGENTCORE_GATEWAY_VERSIONS, AGENTCORE_GATEWAY_VERSIONS]);
});
