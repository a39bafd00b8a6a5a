/**
 * Integration stack for the whole MCP path, as in examples/app.ts: every capability's example (realtime, JumpStart,
 * async, shared GPU, feature store, pipelines) exposed as MCP tools by one McpToolServer behind an IAM-authenticated
 * function URL and behind an AgentCore Gateway (examples/agentcore-gateway.ts). Region-pinned. Deploying needs
 * everything the other integ stacks need, and AgentCore Gateway in the region.
 */
import { integApp, integStack, synthIntegApp } from './integ-app';
import { putBehindAgentCoreGateway } from '../examples/agentcore-gateway';
import { addAllExamples } from '../examples/app';

const app = integApp();
putBehindAgentCoreGateway(addAllExamples(integStack(app, 'CdkSageMakerMcpInteg')));
synthIntegApp(app);
