/**
 * Integration stack for the whole MCP path, as in examples/app.ts: every capability's example (realtime, JumpStart,
 * async, shared GPU, feature store, pipelines) exposed as MCP tools by one McpToolServer behind an IAM-authenticated
 * function URL. Region-pinned. Deploying needs everything the other integ stacks need.
 */
import { integApp, integStack, synthIntegApp } from './integ-app';
import { addAllExamples } from '../examples/app';

const app = integApp();
addAllExamples(integStack(app, 'CdkSageMakerMcpInteg'));
synthIntegApp(app);
