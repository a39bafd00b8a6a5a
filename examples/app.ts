import { App, Stack, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { addAsyncExample } from './async';
import { addDashboardExample } from './dashboard';
import { addFeatureStoreExample } from './feature-store';
import { addJumpStartExample } from './jumpstart';
import { addMcpExample, mcpExampleToolNames } from './mcp-server';
import { addMultiModelExample } from './multi-model';
import { addPipelinesExample } from './pipelines';
import { addRealtimeExample } from './realtime';
import { addServerlessExample } from './serverless';
import { addSharedGpuExample } from './shared-gpu';
import { SageMakerMcpChecks } from '../src/checks';
import { McpToolServer } from '../src/mcp';

/**
 * The example MCP app: one stack with every capability — a realtime endpoint, a JumpStart endpoint, an async endpoint,
 * a shared-GPU endpoint with two inference components, a feature group, a training pipeline with its event router, a
 * serverless endpoint and a multi-model endpoint —
 * exposed as MCP tools by one McpToolServer. Checked by cdk-nag AwsSolutions and the library's own checklist rules.
 */
export function buildDemoApp(outdir?: string) {
  const app = new App({ outdir, context: { 'aws:cdk:disable-creation-stack-traces': true } });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new SageMakerMcpChecks());
  const stack = new Stack(app, 'SageMakerMcpDemo', {
    env: { account: '123456789012', region: 'us-east-1' },
    description: 'cdk-sagemaker-mcp example: SageMaker inference, features and training exposed as MCP tools',
  });

  const mcp = addAllExamples(stack);

  const describe = () => [
    `\nMCP tools the server exposes (${mcpExampleToolNames(mcp).length}):`,
    ...mcpExampleToolNames(mcp).map((name) => `  - ${name}`),
  ];
  return { app, stacks: [stack], describe };
}

/** Every capability's example in one stack, exposed as MCP tools by one McpToolServer (the demo and the mcp integ stack). */
export function addAllExamples(stack: Stack): McpToolServer {
  const realtime = addRealtimeExample(stack);
  const jumpStart = addJumpStartExample(stack);
  const asyncEndpoint = addAsyncExample(stack);
  const sharedGpu = addSharedGpuExample(stack);
  const featureGroup = addFeatureStoreExample(stack);
  const pipelines = addPipelinesExample(stack);
  const serverless = addServerlessExample(stack);
  const multiModel = addMultiModelExample(stack);
  const exposed = { realtime, async: asyncEndpoint, sharedGpu, featureGroup, pipelines, serverless, multiModel };
  const server = addMcpExample(stack, exposed);
  addDashboardExample(stack, exposed, server, jumpStart);
  return server;
}
