/**
 * Parses the two EventBridge events the approved-model deployment handler receives, checking each field it uses:
 * - "SageMaker Model Package State Change" (source aws.sagemaker), whose detail carries the package as DescribeModelPackage
 *   returns it (https://docs.aws.amazon.com/sagemaker/latest/dg/automating-sagemaker-with-eventbridge.html#eventbridge-model-package);
 * - "CloudFormation Stack Status Change" (source aws.cloudformation), detail `stack-id`, `status-details.status` and
 *   `client-request-token` (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/event-detail-stack-status-change.html).
 */
import { versionOfToken } from './deploy-token';
import { MODEL_PACKAGE_STATE_CHANGE_DETAIL_TYPE, STACK_STATUS_CHANGE_DETAIL_TYPE } from '../contract/lifecycle';

/** The event cannot be processed; the handler throws it so Lambda retries (bounded) and then dead-letters the event. */
export class MalformedLifecycleEventError extends Error {
  public readonly retryable = false;
  constructor(message: string) {
    super(message);
    this.name = 'MalformedLifecycleEventError';
  }
}

/**
 * A versioned model package ARN: `arn:<partition>:sagemaker:<region>:<account>:model-package/<group>/<version>`
 * (ModelPackageArn pattern of https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_DescribeModelPackage.html;
 * group names `^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$`).
 */
const VERSIONED_PACKAGE_ARN = /^arn:(aws[a-z-]*):sagemaker:([a-z0-9-]+):(\d{12}):model-package\/([a-zA-Z0-9](?:-*[a-zA-Z0-9]){0,62})\/(\d+)$/;

/** What a versioned model package ARN names. */
export interface ModelPackageArnParts {
  readonly partition: string;
  readonly region: string;
  readonly account: string;
  /** The group, lowercased (as SageMaker writes ARNs). */
  readonly group: string;
  readonly version: number;
}

/** The parts of a versioned model package ARN, or undefined. */
export function parseModelPackageArn(arn: unknown): ModelPackageArnParts | undefined {
  if (typeof arn !== 'string') return undefined;
  const m = VERSIONED_PACKAGE_ARN.exec(arn);
  return m ? { partition: m[1], region: m[2], account: m[3], group: m[4].toLowerCase(), version: Number(m[5]) } : undefined;
}

export interface ModelPackageChange {
  readonly kind: 'model-package';
  readonly eventId: string;
  readonly modelPackageArn: string;
  readonly groupName: string;
  readonly version: number;
  readonly approvalStatus: string;
  /** `ModelPackageStatus` when the event carries it. */
  readonly packageStatus?: string;
  /**
   * `UpdatedModelPackageFields` when the event carries it: which fields this change updated. A ModelLifeCycle stage
   * change arrives as the same detail type with the approval status unchanged
   * (https://docs.aws.amazon.com/sagemaker/latest/dg/model-registry-staging-construct-event-bridge.html).
   */
  readonly updatedFields?: string[];
  /** `ModelLifeCycle` when the event carries it: the version's stage and stage status. */
  readonly lifeCycle?: { readonly stage: string; readonly stageStatus: string };
}

export interface StackStatusChange {
  readonly kind: 'stack-status';
  readonly eventId: string;
  readonly stackId: string;
  readonly status: string;
  readonly statusReason?: string;
  /** The version the update deployed, read back from the handler's own ClientRequestToken; undefined for other updates. */
  readonly version?: number;
}

export type LifecycleEvent = ModelPackageChange | StackStatusChange;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const describe = (v: unknown) => (v === undefined ? 'nothing' : JSON.stringify(v)?.slice(0, 120));

/** Parses an event or throws `MalformedLifecycleEventError` naming every field that is wrong. */
export function parseLifecycleEvent(event: unknown): LifecycleEvent {
  if (!isObject(event)) throw new MalformedLifecycleEventError(`event: expected an EventBridge event object, got ${describe(event)}`);
  const detailType = event['detail-type'];
  const detail = event.detail;
  if (!isObject(detail)) throw new MalformedLifecycleEventError(`detail: expected an object, got ${describe(detail)}`);
  if (detailType === MODEL_PACKAGE_STATE_CHANGE_DETAIL_TYPE) return parsePackageChange(event, detail);
  if (detailType === STACK_STATUS_CHANGE_DETAIL_TYPE) return parseStackChange(event, detail);
  throw new MalformedLifecycleEventError(`detail-type: expected "${MODEL_PACKAGE_STATE_CHANGE_DETAIL_TYPE}" or "${STACK_STATUS_CHANGE_DETAIL_TYPE}", got ${describe(detailType)}`);
}

function parsePackageChange(event: Record<string, unknown>, detail: Record<string, unknown>): ModelPackageChange {
  const problems: string[] = [];
  const arn = detail.ModelPackageArn;
  const parsed = parseModelPackageArn(arn);
  if (!parsed) problems.push(`detail.ModelPackageArn: expected a versioned model package ARN (arn:<partition>:sagemaker:<region>:<account>:model-package/<group>/<version>), got ${describe(arn)}`);
  const group = detail.ModelPackageGroupName;
  if (typeof group !== 'string' || group.length === 0) problems.push(`detail.ModelPackageGroupName: expected the group name, got ${describe(group)}`);
  const version = detail.ModelPackageVersion;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) problems.push(`detail.ModelPackageVersion: expected a whole number >= 1, got ${describe(version)}`);
  const approval = detail.ModelApprovalStatus;
  if (typeof approval !== 'string') problems.push(`detail.ModelApprovalStatus: expected Approved, Rejected or PendingManualApproval, got ${describe(approval)}`);
  if (parsed && typeof group === 'string' && typeof version === 'number'
    && (parsed.group !== group.toLowerCase() || parsed.version !== version)) {
    problems.push(`detail.ModelPackageArn: names ${parsed.group}/${parsed.version}, but ModelPackageGroupName/ModelPackageVersion say ${group}/${version}`);
  }
  const id = event.id;
  if (typeof id !== 'string' || id.length === 0) problems.push(`id: expected the event id, got ${describe(id)}`);
  if (problems.length > 0) throw new MalformedLifecycleEventError(`Malformed "${MODEL_PACKAGE_STATE_CHANGE_DETAIL_TYPE}" event:\n  - ${problems.join('\n  - ')}`);
  return {
    kind: 'model-package',
    eventId: id as string,
    modelPackageArn: arn as string,
    groupName: group as string,
    version: version as number,
    approvalStatus: approval as string,
    packageStatus: typeof detail.ModelPackageStatus === 'string' ? detail.ModelPackageStatus : undefined,
    updatedFields: Array.isArray(detail.UpdatedModelPackageFields) ? detail.UpdatedModelPackageFields.map(String) : undefined,
    lifeCycle: parseLifeCycle(detail.ModelLifeCycle),
  };
}

/**
 * A version's `ModelLifeCycle` (`Stage`, `StageStatus`, both required when it is set:
 * https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_ModelLifeCycle.html), or undefined.
 */
function parseLifeCycle(v: unknown): ModelPackageChange['lifeCycle'] {
  if (!isObject(v) || typeof v.Stage !== 'string' || typeof v.StageStatus !== 'string') return undefined;
  return { stage: v.Stage, stageStatus: v.StageStatus };
}

function parseStackChange(event: Record<string, unknown>, detail: Record<string, unknown>): StackStatusChange {
  const stackId = detail['stack-id'];
  const statusDetails = detail['status-details'];
  const status = isObject(statusDetails) ? statusDetails.status : undefined;
  const problems: string[] = [];
  if (typeof stackId !== 'string' || stackId.length === 0) problems.push(`detail.stack-id: expected the stack id, got ${describe(stackId)}`);
  if (typeof status !== 'string') problems.push(`detail.status-details.status: expected a stack status, got ${describe(status)}`);
  const id = event.id;
  if (typeof id !== 'string' || id.length === 0) problems.push(`id: expected the event id, got ${describe(id)}`);
  if (problems.length > 0) throw new MalformedLifecycleEventError(`Malformed "${STACK_STATUS_CHANGE_DETAIL_TYPE}" event:\n  - ${problems.join('\n  - ')}`);
  const token = detail['client-request-token'];
  const reason = isObject(statusDetails) && typeof statusDetails['status-reason'] === 'string' ? statusDetails['status-reason'] : undefined;
  return {
    kind: 'stack-status',
    eventId: id as string,
    stackId: stackId as string,
    status: status as string,
    statusReason: reason,
    version: versionOfToken(token),
  };
}
