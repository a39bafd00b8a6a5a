/**
 * Integration stack for the whole MCP path, as in examples/app.ts: every capability's example (realtime, JumpStart,
 * async, shared GPU, feature store, pipelines) exposed as MCP tools by one McpToolServer behind an IAM-authenticated
 * function URL and behind an AgentCore Gateway as a Lambda target (examples/agentcore-gateway.ts); and a second server
 * whose function URL streams (InvokeMode RESPONSE_STREAM), behind an IAM-authorized gateway as an MCP server target
 * with response streaming (docs/agentcore.md), so the template checks over integ snapshots see both. Region-pinned.
 * Deploying needs everything the other integ stacks need, and AgentCore Gateway in the region.
 */
import * as agentcore from 'aws-cdk-lib/aws-bedrockagentcore';
import { integApp, integStack, synthIntegApp } from './integ-app';
import { putBehindAgentCoreGateway } from '../examples/agentcore-gateway';
import { addAllExamples } from '../examples/app';
import { operationsFor } from '../examples/operations';
import { McpGatewayProtocol, McpGatewayTargetKind, McpToolServer } from '../src/mcp';
import { RealtimeEndpoint } from '../src/realtime';

const app = integApp();
const stack = integStack(app, 'CdkSageMakerMcpInteg');
putBehindAgentCoreGateway(addAllExamples(stack));

// The realtime example's chat endpoint (examples/realtime.ts), by name: this server only invokes it.
const streaming = new McpToolServer(stack, 'StreamingMcpToolServer', {
  realtimeEndpoints: [{ endpoint: RealtimeEndpoint.fromEndpointName(stack, 'StreamedChat', 'mcp-chat'), description: 'Llama 3 chat, streamed' }],
  responseStreaming: true,
  alarmActions: operationsFor(stack).alarmActions,
  logRetention: operationsFor(stack).logRetention,
});
const iamGateway = new agentcore.Gateway(stack, 'IamAgentGateway', {
  description: 'MCP front door of the streamed SageMaker tools (SigV4 inbound auth)',
  authorizerConfiguration: agentcore.GatewayAuthorizer.usingAwsIam(),
  protocolConfiguration: McpGatewayProtocol.configuration(),
});
streaming.addToGateway(iamGateway, { targetName: 'sagemaker-streamed', targetKind: McpGatewayTargetKind.MCP_SERVER, responseStreaming: true });
synthIntegApp(app);
