import { Stack } from 'aws-cdk-lib';
import { MultiModelExample } from './multi-model';
import { operationsFor } from './operations';
import { PipelinesExample } from './pipelines';
import { AsyncEndpoint } from '../src/async';
import { ModelFamily } from '../src/core';
import { FeatureGroup } from '../src/features';
import { McpToolServer } from '../src/mcp';
import { RealtimeEndpoint } from '../src/realtime';
import { ServerlessEndpoint } from '../src/serverless';
import { InferenceComponent, SharedGpuEndpoint } from '../src/shared-gpu';

/** What the other examples return, to expose as MCP tools. */
export interface McpExampleInputs {
  readonly realtime: RealtimeEndpoint;
  readonly async: AsyncEndpoint;
  readonly sharedGpu: SharedGpuEndpoint;
  readonly featureGroup: FeatureGroup;
  readonly pipelines: PipelinesExample;
  readonly serverless?: ServerlessEndpoint;
  readonly multiModel?: MultiModelExample;
}

/**
 * The whole path as MCP tools: the chat endpoint, the shared-GPU components, the async document processor, the user
 * feature group (read and write) and the churn training pipeline with its recorded results, served by one Lambda
 * function behind an IAM-authenticated function URL. Its alarms notify the examples' topic (examples/operations.ts).
 */
export function addMcpExample(stack: Stack, exposed: McpExampleInputs): McpToolServer {
  const components = exposed.sharedGpu.node.findAll().filter((c): c is InferenceComponent => c instanceof InferenceComponent);
  return new McpToolServer(stack, 'McpToolServer', {
    realtimeEndpoints: [
      { endpoint: exposed.realtime, modelFamily: ModelFamily.LLAMA3, description: 'Llama 3 8B Instruct chat (TGI): use a prompt payload' },
      ...(exposed.multiModel ? [{
        endpoint: exposed.multiModel.endpoint,
        targetModels: exposed.multiModel.targetModels,
        description: 'Churn probability per tenant (XGBoost): csv rows of 4 features; targetModel is the tenant',
      }] : []),
    ],
    serverlessEndpoints: exposed.serverless ? [{ endpoint: exposed.serverless, description: 'Lead score (scikit-learn): csv rows of 6 features' }] : [],
    inferenceComponents: components.map((inferenceComponent) => ({ inferenceComponent })),
    asyncEndpoints: [{ endpoint: exposed.async, description: 'Summarizes long documents (BART): json payload {"inputs": "<text>"}' }],
    featureGroups: [{ featureGroup: exposed.featureGroup, allowWrites: true, description: 'Per-user MCP usage features' }],
    pipelines: [{ pipeline: exposed.pipelines.pipeline, description: 'Retrains the churn classifier' }],
    trainingResults: exposed.pipelines.router,
    alarmActions: operationsFor(stack).alarmActions,
    logRetention: operationsFor(stack).logRetention,
  });
}

/** The MCP tools `addMcpExample` exposes (what an MCP client's tools/list returns), for the demo to print. */
export function mcpExampleToolNames(server: McpToolServer): string[] {
  return [...server.toolNames];
}
