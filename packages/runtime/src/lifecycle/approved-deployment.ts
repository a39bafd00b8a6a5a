/**
 * What the approved-model deployment handler does with one event. A version of the model package group that becomes
 * Approved is deployed by updating the endpoint's own stack: `UpdateStack` with `UsePreviousTemplate`, the package ARN
 * as the new value of one parameter and every other parameter `UsePreviousValue`, so the endpoint's rollout (canary or
 * linear, rolled back on its alarms) does the deploy and nothing changes outside CloudFormation. See docs/lifecycle.md.
 *
 * Every outcome is reported (`reportDeploymentOutcome`): updated, skipped (another group, not approved, already
 * serving), refused (older than the serving version, stack busy past the wait, stack not updatable), deployed and
 * rolled back (the stack status events of its own updates).
 */
import type { CloudFormationClient, Stack } from '@aws-sdk/client-cloudformation';
import { deployToken, LifecycleEvent, ModelPackageChange, parseLifecycleEvent, parseModelPackageArn, StackStatusChange } from './lifecycle-events';
import { ApprovedDeploymentEnvSchema, DEPLOY_OUTCOMES, LIFECYCLE_ENV } from '../contract/lifecycle';
import { ContractConfigError, parseContract } from '../contract/parse';
import { cloudFormationSdk } from '../core/aws-sdk';

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
  /** Set when the event must be retried and then dead-lettered: the handler throws it after reporting. */
  readonly error?: Error;
}

export interface ApprovedDeploymentConfig {
  readonly stackName: string;
  readonly parameterName: string;
  readonly groupName: string;
  readonly topicArn?: string;
  /** How long to wait for a stack operation in progress (ms). */
  readonly maxWaitMs: number;
}

/** The handler's configuration from its environment (the contract's schema); throws naming each bad variable. */
export function approvedDeploymentConfigFromEnv(env: Record<string, string | undefined> = process.env): ApprovedDeploymentConfig {
  const parsed = parseContract(ApprovedDeploymentEnvSchema, env, {
    fail: (problems) => new ContractConfigError(problems, 'The approved-model deployment handler is misconfigured'),
  });
  return {
    stackName: parsed[LIFECYCLE_ENV.STACK_NAME],
    parameterName: parsed[LIFECYCLE_ENV.PARAMETER_NAME],
    groupName: parsed[LIFECYCLE_ENV.GROUP_NAME],
    topicArn: parsed[LIFECYCLE_ENV.TOPIC_ARN],
    maxWaitMs: Number(parsed[LIFECYCLE_ENV.MAX_WAIT_SECONDS]) * 1000,
  };
}

/** A stack operation is still running past the wait: retried by Lambda, then dead-lettered. */
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
  return parsed.kind === 'model-package' ? deployPackage(parsed, deps) : stackFinished(parsed, deps.config);
}

function stackFinished(e: StackStatusChange, config: ApprovedDeploymentConfig): DeploymentOutcome {
  const base = { stackName: config.stackName, version: e.version };
  if (e.version === undefined) return { ...base, outcome: 'skipped', reason: `stack status ${e.status} of an update this handler did not start` };
  if (e.status === 'UPDATE_COMPLETE') return { ...base, outcome: 'deployed', reason: `the stack update deploying version ${e.version} completed` };
  if (e.status.startsWith('UPDATE_ROLLBACK')) {
    return { ...base, outcome: 'rolled-back', reason: `the stack update deploying version ${e.version} was rolled back (${e.status}${e.statusReason ? `: ${e.statusReason}` : ''}); the previous version still serves` };
  }
  return { ...base, outcome: 'skipped', reason: `stack status ${e.status} is not final` };
}

async function deployPackage(e: ModelPackageChange, deps: ApprovedDeploymentDeps): Promise<DeploymentOutcome> {
  const { config } = deps;
  const base = { stackName: config.stackName, modelPackageArn: e.modelPackageArn, version: e.version };
  if (e.groupName.toLowerCase() !== config.groupName.toLowerCase()) {
    return { ...base, outcome: 'skipped', reason: `version of group ${e.groupName}, not ${config.groupName}` };
  }
  if (e.approvalStatus !== 'Approved') return { ...base, outcome: 'skipped', reason: `approval status is ${e.approvalStatus}, not Approved` };
  if (e.packageStatus !== undefined && e.packageStatus !== 'Completed') {
    return { ...base, outcome: 'skipped', reason: `model package status is ${e.packageStatus}, not Completed` };
  }

  const stack = await settledStack(deps);
  if ('busy' in stack) {
    return { ...base, outcome: 'refused', reason: stack.busy, error: new StackBusyError(stack.busy) };
  }
  const current = stack.Parameters?.find((p) => p.ParameterKey === config.parameterName)?.ParameterValue;
  const refuse = (reason: string, servingVersion?: number): DeploymentOutcome =>
    ({ ...base, servingVersion, outcome: 'refused', reason, error: new StackNotDeployableError(reason) });
  if (current === undefined) return refuse(`stack ${config.stackName} has no parameter ${config.parameterName}`);
  const serving = parseModelPackageArn(current);
  const servingVersion = serving && serving.group === e.groupName.toLowerCase() ? serving.version : undefined;
  if (current === e.modelPackageArn || servingVersion === e.version) {
    return { ...base, servingVersion, outcome: 'skipped', reason: `version ${e.version} already serves` };
  }
  if (servingVersion !== undefined && servingVersion > e.version) {
    // A decision, not a failure: reported, not retried.
    return { ...base, servingVersion, outcome: 'refused', reason: `version ${e.version} is older than version ${servingVersion}, which serves` };
  }
  if (!UPDATABLE.has(stack.StackStatus ?? '')) {
    return refuse(`stack ${config.stackName} is ${stack.StackStatus}, which UpdateStack does not accept`, servingVersion);
  }
  if (!stack.RoleARN) {
    // Without a service role CloudFormation would act with this handler's own (deliberately narrow) credentials.
    return refuse(`stack ${config.stackName} has no CloudFormation service role: deploy it with one (cdk deploy uses the bootstrap's cfn-exec role) so the update needs no rights of this handler`, servingVersion);
  }

  try {
    const { UpdateStackCommand } = cloudFormationSdk();
    const out = await deps.cloudformation.send(new UpdateStackCommand({
      StackName: config.stackName,
      UsePreviousTemplate: true,
      Parameters: (stack.Parameters ?? []).map((p) => (p.ParameterKey === config.parameterName
        ? { ParameterKey: p.ParameterKey, ParameterValue: e.modelPackageArn }
        : { ParameterKey: p.ParameterKey, UsePreviousValue: true })),
      Capabilities: stack.Capabilities,
      ClientRequestToken: deployToken(e.version, e.eventId),
    }));
    return { ...base, servingVersion, outcome: 'updated', reason: `UpdateStack started (${out.StackId ?? config.stackName}): version ${e.version} replaces ${servingVersion ?? current}; the endpoint's rollout deploys it` };
  } catch (err) {
    const { name, message } = err as { name?: string; message?: string };
    // "No updates are to be performed." (ValidationError, https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/troubleshooting.html):
    // the parameter already has this value.
    if (name === 'ValidationError' && /No updates are to be performed/.test(message ?? '')) {
      return { ...base, servingVersion, outcome: 'skipped', reason: `version ${e.version} already serves (CloudFormation: ${message})` };
    }
    // A retried invocation of the same event whose first UpdateStack went through.
    if (name === 'TokenAlreadyExistsException') {
      return { ...base, servingVersion, outcome: 'skipped', reason: `this event's update was already started (${message})` };
    }
    if (name === 'ValidationError' && /IN_PROGRESS state/.test(message ?? '')) {
      return { ...base, servingVersion, outcome: 'refused', reason: message!, error: new StackBusyError(message!) };
    }
    throw err;
  }
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
      return { busy: `stack ${deps.config.stackName} is ${stack.StackStatus} (waited ${Math.round(deps.config.maxWaitMs / 1000)} s); the event is retried` };
    }
    await sleep(POLL_MS);
  }
}
