/**
 * Integration stack for the whole MCP path, as in examples/app.ts: every capability's example (realtime, JumpStart,
 * async, shared GPU, feature store, pipelines) exposed as MCP tools by one McpToolServer behind an IAM-authenticated
 * function URL. Region-pinned. Deploying needs everything the other integ stacks need.
 */
import { integApp, integStack, synthIntegApp } from './integ-app';
import { addAsyncExample } from '../examples/async';
import { addFeatureStoreExample } from '../examples/feature-store';
import { addJumpStartExample } from '../examples/jumpstart';
import { addMcpExample } from '../examples/mcp';
import { addPipelinesExample } from '../examples/pipelines';
import { addRealtimeExample } from '../examples/realtime';
import { addSharedGpuExample } from '../examples/shared-gpu';

const app = integApp();
const stack = integStack(app, 'CdkSageMakerMcpInteg');
const realtime = addRealtimeExample(stack);
addJumpStartExample(stack);
const asyncEndpoint = addAsyncExample(stack);
const sharedGpu = addSharedGpuExample(stack);
const featureGroup = addFeatureStoreExample(stack);
const pipelines = addPipelinesExample(stack);
addMcpExample(stack, { realtime, async: asyncEndpoint, sharedGpu, featureGroup, pipelines });
synthIntegApp(app);
