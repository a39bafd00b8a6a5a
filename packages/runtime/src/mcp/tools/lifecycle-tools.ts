/**
 * `list_model_versions` (a listed group's versions with approval status, creation time and evaluation metrics) and
 * `get_deployment_status` (which version a listed endpoint serves, whether a rollout is in progress or was rolled
 * back). Read-only: approving a version stays a person's or CI's action (docs/lifecycle.md).
 */
import * as z from 'zod';
import type { ToolContext } from './context';
import type { ToolRegistrar } from './registrar';
import { ERROR_NOTE, ToolRefusal, toolFailure, toolResult, ToolResult } from './results';
import { MCP_TOOL_NAMES } from '../../contract/mcp';
import { getDeploymentStatus, listModelVersions } from '../../lifecycle/model-versions';

export const listModelVersionsInputSchema = z.object({
  groupName: z.string().min(1).describe('An allow-listed model package group.'),
  approvalStatus: z.enum(['Approved', 'Rejected', 'PendingManualApproval']).optional().describe('Only versions with this approval status.'),
  maxResults: z.number().int().min(1).max(20).optional().describe('Versions to return, newest first (default 10, at most 20).'),
});

export const listModelVersionsOutputSchema = z.object({
  groupName: z.string(),
  versions: z.array(z.object({
    version: z.number().int().optional(),
    modelPackageArn: z.string(),
    approvalStatus: z.string().optional().describe('Approved, Rejected or PendingManualApproval.'),
    packageStatus: z.string().optional(),
    createdAt: z.string().optional(),
    description: z.string().optional(),
    metrics: z.array(z.object({ metric: z.string(), s3Uri: z.string(), contentType: z.string().optional() }))
      .describe('The evaluation reports the version carries (ModelMetrics), as S3 locations.'),
    customerMetadata: z.record(z.string(), z.string()).optional(),
  })),
  truncated: z.enum(['max-results', 'page-cap', 'repeated-token']).optional().describe('Set when older versions were not listed.'),
});

export const deploymentStatusInputSchema = z.object({
  endpointName: z.string().min(1).describe('An allow-listed endpoint.'),
});

export const deploymentStatusOutputSchema = z.object({
  endpointName: z.string(),
  endpointStatus: z.string(),
  servingModelPackageArn: z.string().optional(),
  servingVersion: z.number().int().optional(),
  rollout: z.enum(['none', 'in-progress', 'rolled-back', 'failed']),
  targetModelPackageArn: z.string().optional().describe('The version a rollout in progress deploys.'),
  targetVersion: z.number().int().optional(),
  failureReason: z.string().optional(),
  lastModifiedAt: z.string().optional(),
});

export async function listModelVersionsTool(ctx: ToolContext, args: z.infer<typeof listModelVersionsInputSchema>): Promise<ToolResult> {
  try {
    const allowed = (ctx.config.modelPackageGroups ?? []).map((g) => g.name);
    if (!allowed.includes(args.groupName)) {
      throw new ToolRefusal('ModelPackageGroupNotAllowed', `Model package group ${JSON.stringify(args.groupName)} is not exposed by this server; exposed: ${allowed.join(', ')}.`);
    }
    const result = await listModelVersions(args.groupName, {
      sagemaker: ctx.clients.sagemaker, maxResults: args.maxResults, approvalStatus: args.approvalStatus,
    });
    return toolResult({ ...result });
  } catch (err) {
    return toolFailure(err);
  }
}

export async function deploymentStatusTool(ctx: ToolContext, args: z.infer<typeof deploymentStatusInputSchema>): Promise<ToolResult> {
  try {
    const allowed = (ctx.config.deployments ?? []).map((d) => d.endpointName);
    if (!allowed.includes(args.endpointName)) {
      throw new ToolRefusal('EndpointNotAllowed', `Endpoint ${JSON.stringify(args.endpointName)} is not exposed by get_deployment_status; exposed: ${allowed.join(', ')}.`);
    }
    return toolResult({ ...await getDeploymentStatus(args.endpointName, { sagemaker: ctx.clients.sagemaker }) });
  } catch (err) {
    return toolFailure(err);
  }
}

export function registerLifecycleTools(server: ToolRegistrar, ctx: ToolContext): void {
  const groups = ctx.config.modelPackageGroups ?? [];
  if (groups.length > 0) {
    const list = groups.map((g) => `- ${g.name}${g.description ? `: ${g.description}` : ''}`).join('\n');
    server.registerTool(MCP_TOOL_NAMES.LIST_MODEL_VERSIONS, {
      title: 'List model versions',
      description: 'Lists the versions of a model package group, newest first: version, approval status, creation time and the '
        + `evaluation reports each carries. Read-only: approval is a person's or CI's decision. Groups:\n${list}\n${ERROR_NOTE}`,
      inputSchema: listModelVersionsInputSchema,
      outputSchema: listModelVersionsOutputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    }, (args: z.infer<typeof listModelVersionsInputSchema>) => listModelVersionsTool(ctx, args));
  }
  const deployments = ctx.config.deployments ?? [];
  if (deployments.length > 0) {
    const list = deployments.map((d) => `- ${d.endpointName}${d.description ? `: ${d.description}` : ''}`).join('\n');
    server.registerTool(MCP_TOOL_NAMES.GET_DEPLOYMENT_STATUS, {
      title: 'Get deployment status',
      description: 'Which model package version an endpoint serves, and whether a rollout is in progress (and to which version), '
        + `was rolled back, or failed. Endpoints:\n${list}\n${ERROR_NOTE}`,
      inputSchema: deploymentStatusInputSchema,
      outputSchema: deploymentStatusOutputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    }, (args: z.infer<typeof deploymentStatusInputSchema>) => deploymentStatusTool(ctx, args));
  }
}
