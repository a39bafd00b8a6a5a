/**
 * Read-only views of the model lifecycle for MCP tools:
 * - `listModelVersions`: a group's versions, newest first (ListModelPackages, page-capped), each with its approval
 *   status, creation time and the evaluation metrics it carries (DescribeModelPackage `ModelMetrics`, references to
 *   the reports in S3, and `CustomerMetadataProperties`), described for at most `maxResults` versions;
 * - `getDeploymentStatus`: which version an endpoint serves and whether a rollout is in progress or was rolled back
 *   (DescribeEndpoint, then DescribeEndpointConfig and DescribeModel for the serving and the pending config's model).
 * API: https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_ListModelPackages.html, .../API_DescribeModelPackage.html,
 * .../API_DescribeEndpoint.html (`PendingDeploymentSummary`, `FailureReason`: "If the status of the endpoint is Failed,
 * or the status is InService but update operation fails, this provides the reason why it failed").
 */
import type { SageMakerClient } from '@aws-sdk/client-sagemaker';
import { parseModelPackageArn } from './lifecycle-events';
import { sageMakerSdk } from '../core/aws-sdk';
import { PageGuard } from '../core/bounded';

export interface ModelVersion {
  readonly version?: number;
  readonly modelPackageArn: string;
  readonly approvalStatus?: string;
  readonly packageStatus?: string;
  readonly createdAt?: string;
  readonly description?: string;
  /** The reports `ModelMetrics` names, flattened: `{ metric: 'ModelQuality.Statistics', s3Uri, contentType }`. */
  readonly metrics: Array<{ metric: string; s3Uri: string; contentType?: string }>;
  readonly customerMetadata?: Record<string, string>;
}

export interface ListModelVersionsResult {
  readonly groupName: string;
  readonly versions: ModelVersion[];
  /** Set when more versions exist than were read (`maxResults` or the page cap). */
  readonly truncated?: 'max-results' | 'page-cap' | 'repeated-token';
}

export interface ListModelVersionsOptions {
  readonly sagemaker: SageMakerClient;
  /** Versions returned (and described), newest first. @default 10 */
  readonly maxResults?: number;
  /** Only versions with this approval status. @default all */
  readonly approvalStatus?: 'Approved' | 'Rejected' | 'PendingManualApproval';
  /** @default 5 */
  readonly maxPages?: number;
}

function flattenMetrics(m: unknown): ModelVersion['metrics'] {
  const out: ModelVersion['metrics'] = [];
  const walk = (v: unknown, path: string[]) => {
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    if (typeof o.S3Uri === 'string') {
      out.push({ metric: path.join('.'), s3Uri: o.S3Uri, ...(typeof o.ContentType === 'string' ? { contentType: o.ContentType } : {}) });
      return;
    }
    for (const [k, x] of Object.entries(o)) walk(x, [...path, k]);
  };
  walk(m, []);
  return out;
}

export async function listModelVersions(groupName: string, options: ListModelVersionsOptions): Promise<ListModelVersionsResult> {
  const { DescribeModelPackageCommand, ListModelPackagesCommand } = sageMakerSdk();
  const max = options.maxResults ?? 10;
  const guard = new PageGuard(`ListModelPackages ${groupName}`, options.maxPages ?? 5);
  const summaries: any[] = [];
  let token: string | undefined;
  let more = false;
  do {
    const page = await options.sagemaker.send(new ListModelPackagesCommand({
      ModelPackageGroupName: groupName,
      ModelPackageType: 'Versioned',
      ModelApprovalStatus: options.approvalStatus,
      SortBy: 'CreationTime',
      SortOrder: 'Descending',
      MaxResults: Math.min(100, max - summaries.length),
      NextToken: token,
    }));
    summaries.push(...(page.ModelPackageSummaryList ?? []));
    more = page.NextToken !== undefined;
    token = summaries.length < max ? guard.next(page.NextToken) : undefined;
  } while (token);
  const versions = await Promise.all(summaries.slice(0, max).map(async (s): Promise<ModelVersion> => {
    const d = await options.sagemaker.send(new DescribeModelPackageCommand({ ModelPackageName: s.ModelPackageArn }));
    return {
      version: d.ModelPackageVersion ?? s.ModelPackageVersion,
      modelPackageArn: s.ModelPackageArn,
      approvalStatus: d.ModelApprovalStatus ?? s.ModelApprovalStatus,
      packageStatus: d.ModelPackageStatus ?? s.ModelPackageStatus,
      createdAt: (d.CreationTime ?? s.CreationTime)?.toISOString?.(),
      ...(d.ModelPackageDescription ? { description: d.ModelPackageDescription } : {}),
      metrics: flattenMetrics(d.ModelMetrics),
      ...(d.CustomerMetadataProperties ? { customerMetadata: d.CustomerMetadataProperties } : {}),
    };
  }));
  const truncated = guard.stoppedBecause ?? (more && summaries.length >= max ? 'max-results' : undefined);
  return { groupName, versions, ...(truncated ? { truncated } : {}) };
}

export interface DeploymentStatus {
  readonly endpointName: string;
  readonly endpointStatus: string;
  /** The model package the serving config's model is made from, when it is one. */
  readonly servingModelPackageArn?: string;
  readonly servingVersion?: number;
  /** `in-progress` (a new config is being deployed), `rolled-back` (the last update failed and the endpoint kept its config), `failed`, or `none`. */
  readonly rollout: 'none' | 'in-progress' | 'rolled-back' | 'failed';
  readonly targetModelPackageArn?: string;
  readonly targetVersion?: number;
  readonly failureReason?: string;
  readonly lastModifiedAt?: string;
}

async function packageOfConfig(sagemaker: SageMakerClient, configName: string | undefined): Promise<string | undefined> {
  if (!configName) return undefined;
  const { DescribeEndpointConfigCommand, DescribeModelCommand } = sageMakerSdk();
  const config = await sagemaker.send(new DescribeEndpointConfigCommand({ EndpointConfigName: configName }));
  const modelName = config.ProductionVariants?.find((v) => v.ModelName)?.ModelName;
  if (!modelName) return undefined;
  const model = await sagemaker.send(new DescribeModelCommand({ ModelName: modelName }));
  return model.Containers?.find((c) => c.ModelPackageName)?.ModelPackageName ?? model.PrimaryContainer?.ModelPackageName;
}

export async function getDeploymentStatus(endpointName: string, options: { sagemaker: SageMakerClient }): Promise<DeploymentStatus> {
  const { DescribeEndpointCommand } = sageMakerSdk();
  const e = await options.sagemaker.send(new DescribeEndpointCommand({ EndpointName: endpointName }));
  const serving = await packageOfConfig(options.sagemaker, e.EndpointConfigName);
  const pendingConfig = e.PendingDeploymentSummary?.EndpointConfigName;
  const target = pendingConfig ? await packageOfConfig(options.sagemaker, pendingConfig) : undefined;
  const status = e.EndpointStatus ?? 'Unknown';
  const rollout: DeploymentStatus['rollout'] = status === 'Failed' || status === 'UpdateRollbackFailed' ? 'failed'
    : pendingConfig || status === 'Updating' || status === 'SystemUpdating' ? 'in-progress'
      : status === 'InService' && e.FailureReason ? 'rolled-back' : 'none';
  return {
    endpointName,
    endpointStatus: status,
    ...(serving ? { servingModelPackageArn: serving, servingVersion: parseModelPackageArn(serving)?.version } : {}),
    rollout,
    ...(target ? { targetModelPackageArn: target, targetVersion: parseModelPackageArn(target)?.version } : {}),
    ...(e.FailureReason ? { failureReason: e.FailureReason } : {}),
    ...(e.LastModifiedTime ? { lastModifiedAt: e.LastModifiedTime.toISOString() } : {}),
  };
}
