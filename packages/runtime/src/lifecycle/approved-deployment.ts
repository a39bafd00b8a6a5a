/**
 * What the approved-model deployment handler does with one event. A version of the model package group that becomes
 * Approved is deployed by updating the endpoint's own stack: `UpdateStack` with `UsePreviousTemplate`, the package ARN
 * as the new value of one parameter and every other parameter `UsePreviousValue`, so the endpoint's rollout (canary or
 * linear, rolled back on its alarms) does the deploy and nothing changes outside CloudFormation. See docs/lifecycle.md.
 *
 * Every outcome is reported (`reportDeploymentOutcome`): updated, skipped (another group, not an approval, already
 * serving), refused (older than the serving version, rolled back before, from another account, region or partition,
 * stack not updatable), deferred (stack busy), and the end of its own updates (deployed, rolled back, failed).
 *
 * State it reads back rather than keeps: which versions its updates deployed and which were rolled back are the stack's
 * own events (DescribeStackEvents: every event of an update carries the update's ClientRequestToken, which names the
 * version), and which version is newest approved is the registry's (ListModelPackages).
 *
 * In a staged rollout across accounts (docs/lifecycle.md, "Promotion across accounts") the same handler runs in two
 * steps. `staging` deploys on approval and records the end of each of its rollouts on the version itself
 * (UpdateModelPackage, customer metadata `STAGING_OUTCOME_KEY`: deployed, rolled-back or failed). `production` deploys
 * only when a version's ModelLifeCycle reaches the configured stage and status (a person's gate that SageMaker records),
 * only while DescribeModelPackage still shows that stage and the approval, and only when staging recorded `deployed`.
 */
import type { CloudFormationClient, Stack, StackEvent } from '@aws-sdk/client-cloudformation';
import type { SageMakerClient } from '@aws-sdk/client-sagemaker';
import { deployToken, versionOfToken } from './deploy-token';
import { LifecycleEvent, ModelPackageArnParts, ModelPackageChange, parseLifecycleEvent, parseModelPackageArn, StackStatusChange } from './lifecycle-events';
import { ApprovedDeploymentEnvSchema, DEPLOY_OUTCOMES, LIFECYCLE_ENV, PROMOTION_STEPS, STAGING_OUTCOME_KEY } from '../contract/lifecycle';
import { ContractConfigError, parseContract } from '../contract/parse';
import { cloudFormationSdk, sageMakerSdk } from '../core/aws-sdk';
import { redactSecrets } from '../core/errors';

// The update token the handler writes and reads back (`cdk-sagemaker-mcp-runtime/internal/lambda`, with the handler).
export { deployToken } from './deploy-token';

export type DeploymentOutcomeName = (typeof DEPLOY_OUTCOMES)[number];

/** What the handler decided, with the reason in words. */
export interface DeploymentOutcome {
  readonly outcome: DeploymentOutcomeName;
  readonly reason: string;
  readonly stackName: string;
  readonly modelPackageArn?: string;
  readonly version?: number;
  /** The version the stack's parameter named before (when it names one of the group). */
  readonly servingVersion?: number;
  /** What the handler did next on the same event: after a stack update ended, the deploy of a version it held back. */
  readonly followUp?: DeploymentOutcome;
  /** Set when the event must be retried and then dead-lettered: the handler throws it after reporting. */
  readonly error?: Error;
}

export interface ApprovedDeploymentConfig {
  readonly stackName: string;
  readonly parameterName: string;
  readonly groupName: string;
  /** `arn:<partition>:sagemaker:<region>:<account>:model-package-group/<name>`: versions elsewhere are refused. */
  readonly groupArn: string;
  readonly topicArn?: string;
  /** How long to wait for a stack operation in progress (ms). */
  readonly maxWaitMs: number;
  /** The step of a staged rollout. @default a single deployment: deploys on approval, records nothing */
  readonly promotionStep?: (typeof PROMOTION_STEPS)[number];
  /** Production: the ModelLifeCycle stage and status a version must reach. Required when `promotionStep` is production. */
  readonly requiredStage?: { readonly stage: string; readonly stageStatus: string };
}

/** The handler's configuration from its environment (the contract's schema); throws naming each bad variable. */
export function approvedDeploymentConfigFromEnv(env: Record<string, string | undefined> = process.env): ApprovedDeploymentConfig {
  const parsed = parseContract(ApprovedDeploymentEnvSchema, env, {
    fail: (problems) => new ContractConfigError(problems, 'The approved-model deployment handler is misconfigured'),
  });
  const stage = parsed[LIFECYCLE_ENV.REQUIRED_STAGE];
  const stageStatus = parsed[LIFECYCLE_ENV.REQUIRED_STAGE_STATUS];
  return {
    stackName: parsed[LIFECYCLE_ENV.STACK_NAME],
    parameterName: parsed[LIFECYCLE_ENV.PARAMETER_NAME],
    groupName: parsed[LIFECYCLE_ENV.GROUP_NAME],
    groupArn: parsed[LIFECYCLE_ENV.GROUP_ARN],
    topicArn: parsed[LIFECYCLE_ENV.TOPIC_ARN],
    maxWaitMs: Number(parsed[LIFECYCLE_ENV.MAX_WAIT_SECONDS]) * 1000,
    promotionStep: parsed[LIFECYCLE_ENV.PROMOTION_STEP],
    requiredStage: stage !== undefined && stageStatus !== undefined ? { stage, stageStatus } : undefined,
  };
}

/** A stack operation is still running: kept for callers; the handler now defers instead of throwing it. */
export class StackBusyError extends Error {
  public readonly retryable = true;
  constructor(message: string) {
    super(message);
    this.name = 'StackBusyError';
  }
}

/** The stack cannot take this update (no service role, not updatable, parameter missing): dead-lettered for a person. */
export class StackNotDeployableError extends Error {
  public readonly retryable = false;
  constructor(message: string) {
    super(message);
    this.name = 'StackNotDeployableError';
  }
}

export interface ApprovedDeploymentDeps {
  readonly cloudformation: CloudFormationClient;
  /** Reads the newest approved version after a stack update ends (ListModelPackages). @default no catch-up */
  readonly sagemaker?: SageMakerClient;
  readonly config: ApprovedDeploymentConfig;
  /** Waits between DescribeStacks polls while the stack is busy. @default setTimeout */
  readonly sleep?: (ms: number) => Promise<void>;
  /** @default Date.now */
  readonly now?: () => number;
}

/**
 * Statuses UpdateStack accepts ("You can update a stack only when it is in one of the following states: CREATE_COMPLETE,
 * UPDATE_COMPLETE, UPDATE_ROLLBACK_COMPLETE, IMPORT_COMPLETE, IMPORT_ROLLBACK_COMPLETE",
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/using-cfn-updating-stacks-direct.html and the stack
 * status codes of https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/view-stack-events.html).
 */
const UPDATABLE = new Set(['CREATE_COMPLETE', 'UPDATE_COMPLETE', 'UPDATE_ROLLBACK_COMPLETE', 'IMPORT_COMPLETE', 'IMPORT_ROLLBACK_COMPLETE']);
const POLL_MS = 5_000;

/** Decides and acts on one event; throws only `MalformedLifecycleEventError` (before anything is reported). */
export async function handleApprovedDeploymentEvent(event: unknown, deps: ApprovedDeploymentDeps): Promise<DeploymentOutcome> {
  const parsed: LifecycleEvent = parseLifecycleEvent(event);
  const outcome = parsed.kind === 'model-package' ? await approvalChanged(parsed, deps) : await stackFinished(parsed, deps);
  return redactOutcome(outcome);
}

/** CloudFormation's and SageMaker's messages are quoted in reasons: no credential they echo leaves the handler. */
function redactOutcome(o: DeploymentOutcome): DeploymentOutcome {
  if (o.error) o.error.message = redactSecrets(o.error.message);
  return { ...o, reason: redactSecrets(o.reason), ...(o.followUp ? { followUp: redactOutcome(o.followUp) } : {}) };
}

/**
 * What each status that ends an update means, as AWS's stack status codes define it
 * (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/view-stack-events.html#cfn-console-view-stack-data-resources-status-codes):
 * - UPDATE_COMPLETE: "Successful update of one or more stacks": the version serves.
 * - UPDATE_ROLLBACK_COMPLETE: "Successful return of one or more stacks to a previous working state after a failed
 *   stack update": the previous version serves.
 * - UPDATE_ROLLBACK_FAILED: "Unsuccessful return of one or more stacks to a previous working state after a failed stack
 *   update": neither version is known to serve, and the stack takes no update until a person continues the rollback
 *   (`ContinueUpdateRollback`, https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/troubleshooting.html#troubleshooting-errors-update-rollback-failed).
 * - UPDATE_FAILED: "Unsuccessful update of one or more stacks" (an update with rollback disabled): the stack holds a
 *   partial update until a person rolls it back (`RollbackStack`) or updates it again.
 * Statuses of creation, deletion and import do not end an update of this handler.
 */
const UPDATE_ENDS: Record<string, { outcome: DeploymentOutcomeName; says: (v: number) => string }> = {
  UPDATE_COMPLETE: { outcome: 'deployed', says: (v) => `the stack update deploying version ${v} completed` },
  UPDATE_ROLLBACK_COMPLETE: { outcome: 'rolled-back', says: (v) => `the stack update deploying version ${v} was rolled back; the previous version still serves` },
  UPDATE_ROLLBACK_FAILED: {
    outcome: 'failed',
    says: (v) => `the stack update deploying version ${v} failed and so did its rollback (UPDATE_ROLLBACK_FAILED): which version serves is not known, `
      + 'and the stack takes no update until a person fixes the cause and runs ContinueUpdateRollback',
  },
  UPDATE_FAILED: {
    outcome: 'failed',
    says: (v) => `the stack update deploying version ${v} failed and was not rolled back (UPDATE_FAILED): the stack holds a partial update `
      + 'until a person rolls it back (RollbackStack) or updates it',
  },
};

async function stackFinished(e: StackStatusChange, deps: ApprovedDeploymentDeps): Promise<DeploymentOutcome> {
  const base = { stackName: deps.config.stackName, version: e.version };
  const end = UPDATE_ENDS[e.status];
  const detail = e.statusReason ? ` (CloudFormation: ${e.statusReason})` : '';
  const report: DeploymentOutcome = e.version === undefined
    ? { ...base, outcome: 'skipped', reason: `stack status ${e.status} of an update this handler did not start` }
    : end ? { ...base, outcome: end.outcome, reason: end.says(e.version) + detail }
      : { ...base, outcome: 'skipped', reason: `stack status ${e.status} does not end an update` };
  // Staging writes the end of its own rollout onto the version, where production reads it.
  if (deps.config.promotionStep === 'staging' && end && e.version !== undefined) {
    try {
      await recordStagingOutcome(e.version, end.outcome, deps);
    } catch (err) {
      // Reported, then thrown: Lambda retries (recording is idempotent) and then dead-letters.
      const reason = `could not record ${end.outcome} on version ${e.version}: ${(err as Error)?.name ?? 'Error'}: ${(err as Error)?.message ?? String(err)}`;
      return { ...report, followUp: { stackName: deps.config.stackName, outcome: 'refused', version: e.version, reason, error: err instanceof Error ? err : new Error(reason) } };
    }
  }
  // Once the stack takes updates again, deploy what a busy stack held back.
  if (!UPDATABLE.has(e.status) || !deps.sagemaker) return report;
  try {
    const followUp = await catchUp(e, deps);
    return followUp ? { ...report, followUp } : report;
  } catch (err) {
    // The status is still reported; the catch-up failure is thrown after it, so Lambda retries and then dead-letters.
    const reason = `could not deploy a version the busy stack held back: ${(err as Error)?.name ?? 'Error'}: ${(err as Error)?.message ?? String(err)}`;
    return { ...report, followUp: { stackName: deps.config.stackName, outcome: 'refused', reason, error: err instanceof Error ? err : new Error(reason) } };
  }
}

/** The newest approved version of the group, deployed when it is newer than what serves (and never rolled back). */
async function catchUp(e: StackStatusChange, deps: ApprovedDeploymentDeps): Promise<DeploymentOutcome | undefined> {
  const { ListModelPackagesCommand } = sageMakerSdk();
  const page = await deps.sagemaker!.send(new ListModelPackagesCommand({
    // A group ARN names the group in the account that owns it (a group shared from a central registry).
    ModelPackageGroupName: deps.config.groupArn,
    ModelPackageType: 'Versioned',
    ModelApprovalStatus: 'Approved',
    SortBy: 'CreationTime',
    SortOrder: 'Descending',
    MaxResults: 1,
  }));
  const newest = page.ModelPackageSummaryList?.[0];
  const parts = parseModelPackageArn(newest?.ModelPackageArn);
  if (!newest?.ModelPackageArn || !parts || (newest.ModelPackageStatus !== undefined && newest.ModelPackageStatus !== 'Completed')) return undefined;
  // Production deploys only a version that passed its gate: the newest approved one may not have.
  if (deps.config.promotionStep === 'production' && await productionGate(newest.ModelPackageArn, parts.version, deps)) return undefined;
  const outcome = await deployVersion(newest.ModelPackageArn, parts, deployToken(parts.version, e.eventId), deps);
  // Nothing held back (already serving, older, rolled back before): only a deploy, a deferral or a stack that needs a
  // person is worth a report.
  return outcome.outcome === 'updated' || outcome.outcome === 'deferred' || outcome.error ? outcome : undefined;
}

async function approvalChanged(e: ModelPackageChange, deps: ApprovedDeploymentDeps): Promise<DeploymentOutcome> {
  const { config } = deps;
  const base = { stackName: config.stackName, modelPackageArn: e.modelPackageArn, version: e.version };
  if (e.groupName.toLowerCase() !== config.groupName.toLowerCase()) {
    return { ...base, outcome: 'skipped', reason: `version of group ${e.groupName}, not ${config.groupName}` };
  }
  const parts = parseModelPackageArn(e.modelPackageArn)!;
  const elsewhere = foreignTo(parts, config.groupArn);
  // A decision, not a failure: reported, not retried.
  if (elsewhere) return { ...base, outcome: 'refused', reason: `version ${e.version} is of a group named ${e.groupName} ${elsewhere}, not the configured ${config.groupArn}` };
  if (e.approvalStatus !== 'Approved') return { ...base, outcome: 'skipped', reason: `approval status is ${e.approvalStatus}, not Approved` };
  if (config.promotionStep === 'production') return stageChanged(e, parts, deps);
  if (e.updatedFields && !e.updatedFields.includes('ModelApprovalStatus')) {
    return { ...base, outcome: 'skipped', reason: `a change of ${e.updatedFields.join(', ') || 'no field'}, not of the approval status: only an approval deploys` };
  }
  if (e.packageStatus !== undefined && e.packageStatus !== 'Completed') {
    return { ...base, outcome: 'skipped', reason: `model package status is ${e.packageStatus}, not Completed` };
  }
  return deployVersion(e.modelPackageArn, parts, deployToken(e.version, e.eventId), deps);
}

/**
 * Production: a version deploys when its ModelLifeCycle reaches the required stage and status, never on its approval
 * alone (staging deploys on that), and only through `productionGate`.
 */
async function stageChanged(e: ModelPackageChange, parts: ModelPackageArnParts, deps: ApprovedDeploymentDeps): Promise<DeploymentOutcome> {
  const { config } = deps;
  const base = { stackName: config.stackName, modelPackageArn: e.modelPackageArn, version: e.version };
  const want = config.requiredStage!;
  const wanted = `${want.stage}/${want.stageStatus}`;
  if (e.updatedFields && !e.updatedFields.includes('ModelLifeCycle')) {
    // A decision, not a failure: reported, not retried.
    return {
      ...base,
      outcome: 'refused',
      reason: `production deploys a version when its ModelLifeCycle becomes ${wanted}; this event changes ${e.updatedFields.join(', ') || 'no field'}, not the stage`,
    };
  }
  if (!e.lifeCycle || e.lifeCycle.stage !== want.stage || e.lifeCycle.stageStatus !== want.stageStatus) {
    const now = e.lifeCycle ? `${e.lifeCycle.stage}/${e.lifeCycle.stageStatus}` : 'no stage';
    return { ...base, outcome: 'skipped', reason: `version ${e.version} is at ${now}, not ${wanted}` };
  }
  if (e.packageStatus !== undefined && e.packageStatus !== 'Completed') {
    return { ...base, outcome: 'skipped', reason: `model package status is ${e.packageStatus}, not Completed` };
  }
  const refusal = await productionGate(e.modelPackageArn, e.version, deps);
  if (refusal) return { ...base, outcome: 'refused', reason: refusal };
  return deployVersion(e.modelPackageArn, parts, deployToken(e.version, e.eventId), deps);
}

/**
 * Why production must not deploy a version, or undefined: read from the registry now (DescribeModelPackage, allowed
 * across accounts by the group's policy), not from the event, so a stage moved on or a staging rollback recorded since
 * the event was sent counts.
 */
async function productionGate(arn: string, version: number, deps: ApprovedDeploymentDeps): Promise<string | undefined> {
  const want = deps.config.requiredStage!;
  if (!deps.sagemaker) return `version ${version}: the registry cannot be read to check its stage and its staging outcome`;
  const { DescribeModelPackageCommand } = sageMakerSdk();
  const d = await deps.sagemaker.send(new DescribeModelPackageCommand({ ModelPackageName: arn }));
  if (d.ModelApprovalStatus !== 'Approved') return `version ${version} is ${d.ModelApprovalStatus ?? 'not'} approved now`;
  const stage = d.ModelLifeCycle;
  if (stage?.Stage !== want.stage || stage?.StageStatus !== want.stageStatus) {
    return `version ${version} is at ${stage ? `${stage.Stage}/${stage.StageStatus}` : 'no stage'} now, not ${want.stage}/${want.stageStatus}`;
  }
  const staged = d.CustomerMetadataProperties?.[STAGING_OUTCOME_KEY];
  if (staged !== 'deployed') {
    return `staging has not deployed version ${version} (${STAGING_OUTCOME_KEY}: ${staged ?? 'not recorded'}): production takes only what staging deployed`;
  }
  return undefined;
}

/** Staging: the end of its rollout of `version`, written on the version (UpdateModelPackage customer metadata). */
async function recordStagingOutcome(version: number, outcome: DeploymentOutcomeName, deps: ApprovedDeploymentDeps): Promise<void> {
  if (!deps.sagemaker) throw new Error(`cannot record ${outcome} on version ${version}: no SageMaker client`);
  const [, partition, , region, account, resource] = deps.config.groupArn.split(':');
  const group = resource.split('/')[1].toLowerCase();
  const { UpdateModelPackageCommand } = sageMakerSdk();
  await deps.sagemaker.send(new UpdateModelPackageCommand({
    ModelPackageArn: `arn:${partition}:sagemaker:${region}:${account}:model-package/${group}/${version}`,
    CustomerMetadataProperties: { [STAGING_OUTCOME_KEY]: outcome },
  }));
}

/** Where a version lives when that is not where the configured group lives ("in account 2222…"), or undefined. */
function foreignTo(v: ModelPackageArnParts, groupArn: string): string | undefined {
  const [, partition, , region, account] = groupArn.split(':');
  if (v.partition !== partition) return `in partition ${v.partition}`;
  if (v.region !== region) return `in region ${v.region}`;
  if (v.account !== account) return `in account ${v.account}`;
  return undefined;
}

async function deployVersion(arn: string, v: ModelPackageArnParts, token: string, deps: ApprovedDeploymentDeps): Promise<DeploymentOutcome> {
  const { config } = deps;
  const base = { stackName: config.stackName, modelPackageArn: arn, version: v.version };
  const deferred = (why: string, servingVersion?: number): DeploymentOutcome => ({
    ...base,
    servingVersion,
    outcome: 'deferred',
    reason: `${why}; version ${v.version} is deployed when the stack's operation ends (its status change runs this handler again)`,
  });
  const stack = await settledStack(deps);
  if ('busy' in stack) return deferred(stack.busy);
  const current = stack.Parameters?.find((p) => p.ParameterKey === config.parameterName)?.ParameterValue;
  const refuse = (reason: string, servingVersion?: number): DeploymentOutcome =>
    ({ ...base, servingVersion, outcome: 'refused', reason, error: new StackNotDeployableError(reason) });
  if (current === undefined) return refuse(`stack ${config.stackName} has no parameter ${config.parameterName}`);
  const serving = parseModelPackageArn(current);
  const servingVersion = serving && serving.group === v.group ? serving.version : undefined;
  if (current === arn || servingVersion === v.version) {
    return { ...base, servingVersion, outcome: 'skipped', reason: `version ${v.version} already serves` };
  }
  if (servingVersion !== undefined && servingVersion > v.version) {
    // A decision, not a failure: reported, not retried.
    return { ...base, servingVersion, outcome: 'refused', reason: `version ${v.version} is older than version ${servingVersion}, which serves` };
  }
  if (!UPDATABLE.has(stack.StackStatus ?? '')) {
    return refuse(`stack ${config.stackName} is ${stack.StackStatus}, which UpdateStack does not accept`, servingVersion);
  }
  if (!stack.RoleARN) {
    // Without a service role CloudFormation would act with this handler's own (deliberately narrow) credentials.
    return refuse(`stack ${config.stackName} has no CloudFormation service role: deploy it with one (cdk deploy uses the bootstrap's cfn-exec role) so the update needs no rights of this handler`, servingVersion);
  }
  const rollback = await rollbackOf(v.version, stack.StackId ?? config.stackName, deps);
  if (rollback) {
    // A decision, not a failure: a duplicate, a retry or a stage change of a rejected version never rolls it out again.
    return {
      ...base,
      servingVersion,
      outcome: 'refused',
      reason: `version ${v.version} was rolled back (${rollback.ResourceStatus} at ${rollback.Timestamp?.toISOString() ?? 'an unknown time'}): it is not rolled out again; approve a newer version`,
    };
  }

  try {
    const { UpdateStackCommand } = cloudFormationSdk();
    const out = await deps.cloudformation.send(new UpdateStackCommand({
      StackName: config.stackName,
      UsePreviousTemplate: true,
      Parameters: (stack.Parameters ?? []).map((p) => (p.ParameterKey === config.parameterName
        ? { ParameterKey: p.ParameterKey, ParameterValue: arn }
        : { ParameterKey: p.ParameterKey, UsePreviousValue: true })),
      Capabilities: stack.Capabilities,
      ClientRequestToken: token,
    }));
    return { ...base, servingVersion, outcome: 'updated', reason: `UpdateStack started (${out.StackId ?? config.stackName}): version ${v.version} replaces ${servingVersion ?? current}; the endpoint's rollout deploys it` };
  } catch (err) {
    const { name, message } = err as { name?: string; message?: string };
    // "No updates are to be performed." (ValidationError, https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/troubleshooting.html):
    // the parameter already has this value.
    if (name === 'ValidationError' && /No updates are to be performed/.test(message ?? '')) {
      return { ...base, servingVersion, outcome: 'skipped', reason: `version ${v.version} already serves (CloudFormation: ${message})` };
    }
    // A retried invocation of the same event whose first UpdateStack went through.
    if (name === 'TokenAlreadyExistsException') {
      return { ...base, servingVersion, outcome: 'skipped', reason: `this event's update was already started (${message})` };
    }
    // Another operation started between DescribeStacks and UpdateStack.
    if (name === 'ValidationError' && /IN_PROGRESS state/.test(message ?? '')) return deferred(`CloudFormation: ${message}`, servingVersion);
    throw err;
  }
}

/** Stack-level statuses that mean an update was undone or failed (the version it carried must not be rolled out again). */
const ROLLED_BACK = new Set(['UPDATE_ROLLBACK_IN_PROGRESS', 'UPDATE_ROLLBACK_COMPLETE', 'UPDATE_ROLLBACK_FAILED', 'UPDATE_FAILED']);
/** DescribeStackEvents pages read (100 events each, newest first) before the search gives up. */
const MAX_EVENT_PAGES = 20;

/**
 * The stack event that shows one of the handler's updates deploying `version` was rolled back (or failed), if any.
 * DescribeStackEvents "Returns all stack related events for a specified stack in reverse chronological order"
 * (https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_DescribeStackEvents.html), and every event of
 * an operation carries its ClientRequestToken (API_StackEvent.html), which names the version.
 */
async function rollbackOf(version: number, stackId: string, deps: ApprovedDeploymentDeps): Promise<StackEvent | undefined> {
  const { DescribeStackEventsCommand } = cloudFormationSdk();
  let token: string | undefined;
  for (let pages = 0; pages < MAX_EVENT_PAGES; pages++) {
    const out = await deps.cloudformation.send(new DescribeStackEventsCommand({ StackName: stackId, NextToken: token }));
    const hit = (out.StackEvents ?? []).find((ev) => ev.ResourceType === 'AWS::CloudFormation::Stack'
      && ROLLED_BACK.has(ev.ResourceStatus ?? '') && versionOfToken(ev.ClientRequestToken) === version);
    if (hit) return hit;
    if (!out.NextToken || out.NextToken === token) return undefined;
    token = out.NextToken;
  }
  return undefined;
}

/** The stack once no operation runs on it, or why it is still busy after `maxWaitMs`. */
async function settledStack(deps: ApprovedDeploymentDeps): Promise<Stack | { busy: string }> {
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const now = deps.now ?? Date.now;
  const until = now() + deps.config.maxWaitMs;
  const { DescribeStacksCommand } = cloudFormationSdk();
  for (;;) {
    const out = await deps.cloudformation.send(new DescribeStacksCommand({ StackName: deps.config.stackName }));
    const stack = out.Stacks?.[0];
    if (!stack) throw new StackNotDeployableError(`DescribeStacks returned no stack ${deps.config.stackName}`);
    if (!stack.StackStatus?.endsWith('_IN_PROGRESS')) return stack;
    if (now() + POLL_MS > until) {
      return { busy: `stack ${deps.config.stackName} is ${stack.StackStatus} (waited ${Math.round(deps.config.maxWaitMs / 1000)} s)` };
    }
    await sleep(POLL_MS);
  }
}
