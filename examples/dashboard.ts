import { Stack } from 'aws-cdk-lib';
import { McpExampleInputs } from './mcp-server';
import { McpToolServer } from '../src/mcp';
import { SageMakerMcpDashboard } from '../src/operations';
import { RealtimeEndpoint } from '../src/realtime';

/**
 * One dashboard for the whole example stack: the MCP server's tools, every endpoint (the JumpStart and serverless ones too), the
 * feature group, the training pipeline and its router, the alarms they created and the cost estimate
 * (docs/operations.md). `npx projen demo` draws its layout to cdk.out/dashboard.svg.
 */
export function addDashboardExample(
  stack: Stack, exposed: McpExampleInputs, server: McpToolServer, jumpStart?: RealtimeEndpoint,
): SageMakerMcpDashboard {
  return new SageMakerMcpDashboard(stack, 'Dashboard', {
    server,
    realtimeEndpoints: [exposed.realtime, ...(jumpStart ? [jumpStart] : [])],
    asyncEndpoints: [exposed.async],
    serverlessEndpoints: exposed.serverless ? [exposed.serverless] : [],
    sharedGpuEndpoints: [exposed.sharedGpu],
    featureGroups: [exposed.featureGroup],
    pipelines: [exposed.pipelines.pipeline],
    pipelineRouters: [exposed.pipelines.router],
  });
}
