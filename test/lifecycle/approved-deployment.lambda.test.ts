/**
 * The approved-model deployment handler fed AWS's documented "SageMaker Model Package State Change" sample (and events
 * derived from it by changing only the fields named), against the CloudFormation stand-in (packages/test-stand-ins) through the
 * real @aws-sdk/client-cloudformation: the runtime logic directly, then the BUNDLED handler
 * (assets/lifecycle/approved-deployment.lambda/index.js, `npx projen bundle`).
 */
import * as fs from 'fs';
import * as path from 'path';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { SageMakerClient } from '@aws-sdk/client-sagemaker';
import { CloudFormationServer, startCloudFormationServer } from '@cdk-sagemaker-mcp/test-stand-ins/cloudformation-server';
import { SageMakerControlServer, startSageMakerControlServer } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-control-server';
import { LIFECYCLE_ENV } from 'cdk-sagemaker-mcp-runtime/internal/contract';
import { ApprovedDeploymentConfig, deployToken, handleApprovedDeploymentEvent, deploymentLogRecord } from 'cdk-sagemaker-mcp-runtime/internal/lambda';
import { MalformedLifecycleEventError } from 'cdk-sagemaker-mcp-runtime/lifecycle';

const EVENTS = path.join(__dirname, '..', 'fixtures', 'events');
const documented = () => JSON.parse(fs.readFileSync(path.join(EVENTS, 'model-package-state-change.rejected.json'), 'utf8'));
const rollbackEvent = () => JSON.parse(fs.readFileSync(path.join(EVENTS, 'stack-status-change.update-rollback-complete.json'), 'utf8'));

const GROUP = 'versionedmp-p-idy6c3e1fiqj';
const arnOf = (version: number, group = GROUP) => `arn:aws:sagemaker:us-east-2:123456789012:model-package/${group}/${version}`;
const GROUP_ARN = `arn:aws:sagemaker:us-east-2:123456789012:model-package-group/${GROUP}`;
const ROLE = 'arn:aws:iam::123456789012:role/cdk-hnb659fds-cfn-exec-role-123456789012-us-east-2';

/** The documented sample with the approval status, version and group changed (and the ARN kept consistent). */
function packageEvent(opts: { status?: string; version?: number; group?: string; id?: string; arn?: string; updated?: string[] } = {}) {
  const e = documented();
  const version = opts.version ?? e.detail.ModelPackageVersion;
  const group = opts.group ?? e.detail.ModelPackageGroupName;
  e.detail.ModelApprovalStatus = opts.status ?? 'Approved';
  e.detail.ModelPackageVersion = version;
  e.detail.ModelPackageGroupName = group;
  e.detail.ModelPackageArn = opts.arn ?? arnOf(version, group);
  // The sample's field names a ModelLifeCycle change; an approval names the approval status.
  e.detail.UpdatedModelPackageFields = opts.updated ?? ['ModelApprovalStatus'];
  e.resources = [e.detail.ModelPackageArn];
  if (opts.id) e.id = opts.id;
  return e;
}

/** A stack status change of `config`'s stack (the rollback sample with the status, token and id changed). */
function stackEvent(status: string, opts: { token?: string; id?: string } = {}) {
  const e = rollbackEvent();
  e.detail['status-details'].status = status;
  if (opts.token !== undefined) e.detail['client-request-token'] = opts.token;
  if (opts.id) e.id = opts.id;
  return e;
}

let cfn: CloudFormationServer;
let client: CloudFormationClient;
let control: SageMakerControlServer;
let sagemaker: SageMakerClient;
let n = 0;

beforeAll(async () => {
  cfn = await startCloudFormationServer();
  client = new CloudFormationClient(cfn.clientConfig());
  control = await startSageMakerControlServer();
  sagemaker = new SageMakerClient({ ...control.clientConfig(), maxAttempts: 1 });
});
afterAll(async () => {
  client?.destroy();
  sagemaker?.destroy();
  await cfn?.stop();
  await control?.stop();
});

/** Registers `version` of the group in the SageMaker stand-in with an approval status (ListModelPackages reads it). */
function registerVersion(version: number, status = 'Approved') {
  control.addModelPackage(arnOf(version), {
    ModelPackageArn: arnOf(version),
    ModelPackageName: GROUP,
    ModelPackageGroupName: GROUP,
    ModelPackageVersion: version,
    ModelApprovalStatus: status,
    ModelPackageStatus: 'Completed',
    CreationTime: new Date(Date.UTC(2026, 0, version)),
  });
}

/** A fresh endpoint stack serving `version` (so tests share nothing), and the handler config for it. */
function endpointStack(version: number, seed: { status?: string; role?: string | null } = {}): ApprovedDeploymentConfig {
  const stackName = `LifecycleEndpoint${++n}`;
  cfn.addStack({
    StackName: stackName,
    Parameters: { ApprovedModelPackageArn: arnOf(version), BootstrapVersion: '/cdk-bootstrap/hnb659fds/version' },
    StackStatus: seed.status,
    RoleARN: seed.role === null ? undefined : (seed.role ?? ROLE),
    Capabilities: ['CAPABILITY_IAM'],
  });
  return { stackName, parameterName: 'ApprovedModelPackageArn', groupName: GROUP, groupArn: GROUP_ARN, maxWaitMs: 0 };
}
const updatesOf = (stackName: string) => cfn.updates.filter((u) => u.StackName === stackName);

describe('approved version', () => {
  test('turns into exactly one UpdateStack: previous template, the new package ARN, every other parameter UsePreviousValue, the stack\'s capabilities', async () => {
    // GIVEN an endpoint stack serving version 1
    const config = endpointStack(1);
    // WHEN version 2 is approved
    const outcome = await handleApprovedDeploymentEvent(packageEvent(), { cloudformation: client, config });
    // THEN
    expect(outcome).toMatchObject({ outcome: 'updated', version: 2, servingVersion: 1, modelPackageArn: arnOf(2) });
    expect(updatesOf(config.stackName)).toEqual([{
      StackName: config.stackName,
      UsePreviousTemplate: true,
      Parameters: [
        { ParameterKey: 'ApprovedModelPackageArn', ParameterValue: arnOf(2) },
        { ParameterKey: 'BootstrapVersion', UsePreviousValue: true },
      ],
      Capabilities: ['CAPABILITY_IAM'],
      ClientRequestToken: deployToken(2, '844e2571-85d4-695f-b930-0153b71dcb42'),
      RoleARN: undefined,
    }]);
    expect(cfn.parameters(config.stackName)).toEqual({ ApprovedModelPackageArn: arnOf(2), BootstrapVersion: '/cdk-bootstrap/hnb659fds/version' });
  });

  test('the same event twice does nothing the second time (skipped, no second update)', async () => {
    const config = endpointStack(1);
    await handleApprovedDeploymentEvent(packageEvent(), { cloudformation: client, config });
    cfn.finishUpdate(config.stackName, 'UPDATE_COMPLETE');
    const again = await handleApprovedDeploymentEvent(packageEvent(), { cloudformation: client, config });
    expect(again).toMatchObject({ outcome: 'skipped', reason: 'version 2 already serves' });
    expect(updatesOf(config.stackName)).toHaveLength(1);
  });

  test('a duplicate of an event whose update is still running is deferred, never a second update', async () => {
    const config = endpointStack(1);
    await handleApprovedDeploymentEvent(packageEvent(), { cloudformation: client, config });
    const dup = await handleApprovedDeploymentEvent(packageEvent(), { cloudformation: client, config });
    expect(dup.outcome).toBe('deferred');
    expect(dup.error).toBeUndefined();
    expect(updatesOf(config.stackName)).toHaveLength(1);
  });

  test('an older version than the one serving is refused, not deployed, and not retried', async () => {
    const config = endpointStack(5);
    const outcome = await handleApprovedDeploymentEvent(packageEvent({ version: 3 }), { cloudformation: client, config });
    expect(outcome).toMatchObject({ outcome: 'refused', servingVersion: 5, version: 3, reason: 'version 3 is older than version 5, which serves' });
    expect(outcome.error).toBeUndefined();
    expect(updatesOf(config.stackName)).toHaveLength(0);
  });

  test('a stack in UPDATE_IN_PROGRESS: waits, then defers (no error, nothing dead-lettered); no UpdateStack yet', async () => {
    const config = { ...endpointStack(1, { status: 'UPDATE_IN_PROGRESS' }), maxWaitMs: 10_000 };
    let clock = 0;
    const sleeps: number[] = [];
    const outcome = await handleApprovedDeploymentEvent(packageEvent(), {
      cloudformation: client, config, now: () => clock, sleep: async (ms) => { sleeps.push(ms); clock += ms; },
    });
    expect(outcome.outcome).toBe('deferred');
    expect(outcome.reason).toMatch(/is UPDATE_IN_PROGRESS .*version 2 is deployed when the stack's operation ends/);
    expect(outcome.error).toBeUndefined();
    expect(sleeps.length).toBeGreaterThan(0);
    expect(updatesOf(config.stackName)).toHaveLength(0);
  });

  test('an approval met by a busy stack is deployed once the stack is free (the end of the running update, whoever started it)', async () => {
    // GIVEN a stack serving 1 in the middle of somebody else's update, and version 2 approved in the registry
    const config = endpointStack(1, { status: 'UPDATE_IN_PROGRESS' });
    registerVersion(2);
    const deps = { cloudformation: client, sagemaker, config };
    // WHEN the approval arrives, then the running update ends
    const first = await handleApprovedDeploymentEvent(packageEvent(), deps);
    cfn.setStatus(config.stackName, 'UPDATE_COMPLETE');
    const freed = await handleApprovedDeploymentEvent(stackEvent('UPDATE_COMPLETE', { token: 'Console-UpdateStack-1234', id: 'freed-1' }), deps);
    // THEN the approval was deferred, and the stack's status change deployed it: one UpdateStack
    expect(first.outcome).toBe('deferred');
    expect(freed).toMatchObject({ outcome: 'skipped', followUp: { outcome: 'updated', version: 2, servingVersion: 1 } });
    expect(updatesOf(config.stackName).map((u) => u.Parameters[0].ParameterValue)).toEqual([arnOf(2)]);
    // AND when that update completes, nothing more is deployed
    cfn.finishUpdate(config.stackName, 'UPDATE_COMPLETE');
    const done = await handleApprovedDeploymentEvent(stackEvent('UPDATE_COMPLETE', { token: deployToken(2, 'freed-1'), id: 'done-1' }), deps);
    expect(done).toMatchObject({ outcome: 'deployed', version: 2 });
    expect(done.followUp).toBeUndefined();
    expect(updatesOf(config.stackName)).toHaveLength(1);
  });

  test('a stack that finishes its update while the handler waits is then updated', async () => {
    const config = { ...endpointStack(1, { status: 'UPDATE_IN_PROGRESS' }), maxWaitMs: 60_000 };
    const outcome = await handleApprovedDeploymentEvent(packageEvent(), {
      cloudformation: client, config, sleep: async () => cfn.setStatus(config.stackName, 'UPDATE_COMPLETE'),
    });
    expect(outcome.outcome).toBe('updated');
    expect(updatesOf(config.stackName)).toHaveLength(1);
  });

  test('a stack without a CloudFormation service role is refused (the update would run with the handler\'s own rights)', async () => {
    const config = endpointStack(1, { role: null });
    const outcome = await handleApprovedDeploymentEvent(packageEvent(), { cloudformation: client, config });
    expect(outcome.outcome).toBe('refused');
    expect(outcome.error?.name).toBe('StackNotDeployableError');
    expect(updatesOf(config.stackName)).toHaveLength(0);
  });

  test('"No updates are to be performed." from CloudFormation is a skip (another update set the same ARN first)', async () => {
    // GIVEN a stack serving 1, and an update that sets version 2 landing between DescribeStacks and UpdateStack
    const config = endpointStack(1);
    cfn.beforeNextUpdate(() => cfn.setParameter(config.stackName, 'ApprovedModelPackageArn', arnOf(2)));
    // WHEN version 2 is approved
    const outcome = await handleApprovedDeploymentEvent(packageEvent(), { cloudformation: client, config });
    // THEN CloudFormation's ValidationError is read as "already serving"
    expect(outcome.outcome).toBe('skipped');
    expect(outcome.reason).toMatch(/CloudFormation: No updates are to be performed\./);
    expect(updatesOf(config.stackName)).toHaveLength(0);
  });
});

describe('events that deploy nothing', () => {
  test.each([
    ['rejected (the documented sample as is)', () => documented(), /approval status is Rejected/],
    ['pending manual approval', () => packageEvent({ status: 'PendingManualApproval' }), /approval status is PendingManualApproval/],
    ['another group', () => packageEvent({ group: 'fraud-detection' }), /group fraud-detection, not versionedmp/],
  ])('%s: skipped, no CloudFormation call', async (_name, make, reason) => {
    const config = endpointStack(1);
    const before = cfn.actions.length;
    const outcome = await handleApprovedDeploymentEvent(make(), { cloudformation: client, config });
    expect(outcome.outcome).toBe('skipped');
    expect(outcome.reason).toMatch(reason);
    expect(cfn.actions.length).toBe(before);
  });

  test.each([
    ['not an object', 'hello', /expected an EventBridge event object/],
    ['no detail', { 'detail-type': 'SageMaker Model Package State Change' }, /detail: expected an object/],
    ['another detail type', { 'detail-type': 'SageMaker Model State Change', 'detail': {} }, /detail-type: expected/],
    ['version as a string', (() => { const e = packageEvent(); e.detail.ModelPackageVersion = '2'; return e; })(), /ModelPackageVersion: expected a whole number/],
    ['an unversioned ARN', (() => { const e = packageEvent(); e.detail.ModelPackageArn = 'arn:aws:sagemaker:us-east-2:123456789012:model-package/standalone'; return e; })(), /ModelPackageArn: expected a versioned model package ARN/],
    ['ARN and version disagree', (() => { const e = packageEvent(); e.detail.ModelPackageVersion = 7; return e; })(), /names versionedmp-p-idy6c3e1fiqj\/2, but/],
  ])('malformed (%s): MalformedLifecycleEventError naming the field, no CloudFormation call', async (_name, event, message) => {
    const config = endpointStack(1);
    const before = cfn.actions.length;
    const error = await handleApprovedDeploymentEvent(event, { cloudformation: client, config }).catch((e) => e);
    expect(error).toBeInstanceOf(MalformedLifecycleEventError);
    expect(error.message).toMatch(message);
    expect(cfn.actions.length).toBe(before);
  });
});

test('the end of its own update is reported even when the registry cannot be read (the catch-up fails after it, to be retried)', async () => {
  const config = endpointStack(2);
  control.failNext('ListModelPackages', 'AccessDeniedException', 'not authorized to perform: sagemaker:ListModelPackages');
  const o = await handleApprovedDeploymentEvent(stackEvent('UPDATE_ROLLBACK_COMPLETE'), { cloudformation: client, sagemaker, config });
  expect(o).toMatchObject({ outcome: 'rolled-back', version: 3, followUp: { outcome: 'refused', reason: expect.stringMatching(/AccessDeniedException/) } });
  expect(o.followUp?.error).toBeDefined();
});

describe('approvals from elsewhere', () => {
  test.each([
    ['another account', 'arn:aws:sagemaker:us-east-2:210987654321:model-package/versionedmp-p-idy6c3e1fiqj/2', /in account 210987654321/],
    ['another region', 'arn:aws:sagemaker:eu-west-1:123456789012:model-package/versionedmp-p-idy6c3e1fiqj/2', /in region eu-west-1/],
    ['another partition', 'arn:aws-cn:sagemaker:us-east-2:123456789012:model-package/versionedmp-p-idy6c3e1fiqj/2', /in partition aws-cn/],
  ])('a same-named group in %s: refused, no CloudFormation call', async (_where, arn, reason) => {
    const config = endpointStack(1);
    const before = cfn.actions.length;
    const outcome = await handleApprovedDeploymentEvent(packageEvent({ arn }), { cloudformation: client, config });
    expect(outcome).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(reason) });
    expect(outcome.error).toBeUndefined();
    expect(cfn.actions.length).toBe(before);
  });
});

describe('a rolled-back version is never rolled out again', () => {
  test('after the rollback of version 2: the Lambda retry, a later duplicate and a stage change deploy nothing; version 3 deploys', async () => {
    // GIVEN version 2 deployed by its approval, then rolled back by the endpoint's alarms
    const config = endpointStack(1);
    const deps = { cloudformation: client, config };
    expect((await handleApprovedDeploymentEvent(packageEvent(), deps)).outcome).toBe('updated');
    cfn.finishUpdate(config.stackName, 'UPDATE_ROLLBACK_COMPLETE');
    // WHEN the same event is retried, SageMaker sends it again, and a stage change of version 2 arrives
    const retried = await handleApprovedDeploymentEvent(packageEvent(), deps);
    const duplicate = await handleApprovedDeploymentEvent(packageEvent({ id: 'second-delivery' }), deps);
    const stage = await handleApprovedDeploymentEvent(packageEvent({ id: 'stage-change', updated: ['ModelLifeCycle'] }), deps);
    // THEN none is rolled out again; only the first update exists
    expect(retried).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(/^version 2 was rolled back \(UPDATE_ROLLBACK_/) });
    expect(duplicate).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(/version 2 was rolled back/) });
    expect(retried.error).toBeUndefined();
    expect(stage).toMatchObject({ outcome: 'skipped', reason: expect.stringMatching(/a change of ModelLifeCycle, not of the approval status/) });
    expect(updatesOf(config.stackName)).toHaveLength(1);
    // AND a newer approved version still deploys
    expect((await handleApprovedDeploymentEvent(packageEvent({ version: 3, id: 'v3' }), deps)).outcome).toBe('updated');
    expect(updatesOf(config.stackName)).toHaveLength(2);
  });

  test('the rollback of its update does not make the stack\'s status change deploy the same version again', async () => {
    const config = endpointStack(1);
    registerVersion(2);
    const deps = { cloudformation: client, sagemaker, config };
    await handleApprovedDeploymentEvent(packageEvent(), deps);
    cfn.finishUpdate(config.stackName, 'UPDATE_ROLLBACK_COMPLETE');
    const rolledBack = await handleApprovedDeploymentEvent(stackEvent('UPDATE_ROLLBACK_COMPLETE', { token: deployToken(2, '844e2571-85d4-695f-b930-0153b71dcb42') }), deps);
    expect(rolledBack.outcome).toBe('rolled-back');
    expect(rolledBack.followUp).toBeUndefined();
    expect(updatesOf(config.stackName)).toHaveLength(1);
  });

  test('a stage change alone (the documented sample\'s UpdatedModelPackageFields) deploys nothing', async () => {
    const config = endpointStack(1);
    const before = cfn.actions.length;
    const outcome = await handleApprovedDeploymentEvent(packageEvent({ updated: ['ModelLifeCycle'] }), { cloudformation: client, config });
    expect(outcome.outcome).toBe('skipped');
    expect(cfn.actions.length).toBe(before);
  });
});

describe('stack status of its own updates', () => {
  test.each([
    ['UPDATE_COMPLETE', 'deployed', /completed/],
    ['UPDATE_ROLLBACK_COMPLETE', 'rolled-back', /rolled back; the previous version still serves/],
    ['UPDATE_ROLLBACK_FAILED', 'failed', /failed and so did its rollback \(UPDATE_ROLLBACK_FAILED\).*ContinueUpdateRollback/],
    ['UPDATE_FAILED', 'failed', /failed and was not rolled back \(UPDATE_FAILED\).*RollbackStack/],
    ['IMPORT_COMPLETE', 'skipped', /does not end an update/],
  ])('%s of a handler update: %s, as AWS defines the status', async (status, outcome, reason) => {
    const config = endpointStack(2);
    const o = await handleApprovedDeploymentEvent(stackEvent(status), { cloudformation: client, config });
    expect(o).toMatchObject({ outcome, version: 3, reason: expect.stringMatching(reason) });
    if (outcome === 'failed') expect(o.reason).not.toMatch(/still serves/);
  });

  test('UPDATE_ROLLBACK_COMPLETE of a handler update: rolled back, with the version from the token', async () => {
    const config = endpointStack(2);
    const outcome = await handleApprovedDeploymentEvent(rollbackEvent(), { cloudformation: client, config });
    expect(outcome).toMatchObject({ outcome: 'rolled-back', version: 3 });
  });

  test('UPDATE_COMPLETE: deployed; an update somebody else started: skipped', async () => {
    const config = endpointStack(2);
    const done = rollbackEvent();
    done.detail['status-details'].status = 'UPDATE_COMPLETE';
    expect((await handleApprovedDeploymentEvent(done, { cloudformation: client, config })).outcome).toBe('deployed');
    const foreign = rollbackEvent();
    foreign.detail['client-request-token'] = 'Console-UpdateStack-1234';
    expect((await handleApprovedDeploymentEvent(foreign, { cloudformation: client, config })).outcome).toBe('skipped');
  });
});

test('the log line is an embedded-metric record: one ModelDeploymentOutcome by StackName and Outcome', () => {
  const record = deploymentLogRecord({ outcome: 'refused', reason: 'r', stackName: 'S', version: 3, servingVersion: 5 }, new Date(0));
  expect(record).toEqual({
    _aws: { Timestamp: 0, CloudWatchMetrics: [{ Namespace: 'CdkSageMakerMcp/ModelLifecycle', Dimensions: [['StackName', 'Outcome']], Metrics: [{ Name: 'ModelDeploymentOutcome', Unit: 'Count' }] }] },
    StackName: 'S',
    Outcome: 'refused',
    ModelDeploymentOutcome: 1,
    reason: 'r',
    version: 3,
    servingVersion: 5,
  });
});

describe('bundled handler', () => {
  let handler: (event: unknown) => Promise<any>;
  const logs: string[] = [];
  let spy: jest.SpyInstance;
  let stdout: jest.SpyInstance;
  let stderr: jest.SpyInstance;
  beforeAll(() => {
    process.env.AWS_ENDPOINT_URL_CLOUDFORMATION = cfn.endpoint;
    process.env.AWS_ENDPOINT_URL_SAGEMAKER = control.endpoint;
    process.env.AWS_REGION = 'us-east-1';
    process.env.AWS_ACCESS_KEY_ID = 'AKIDLOCAL';
    process.env.AWS_SECRET_ACCESS_KEY = 'local-secret';
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    handler = require('../../assets/lifecycle/approved-deployment.lambda/index.js').handler;
    // The outcome's embedded-metric line (console.log, as CloudWatch reads it) and the handlers' Powertools Logger
    // entries (process.stdout, and process.stderr for warnings and errors), in the order they are written.
    spy = jest.spyOn(console, 'log').mockImplementation((line: string) => { logs.push(line); });
    const capture = (chunk: any) => {
      logs.push(...String(chunk).split('\n').filter(Boolean));
      return true;
    };
    stdout = jest.spyOn(process.stdout, 'write').mockImplementation(capture);
    stderr = jest.spyOn(process.stderr, 'write').mockImplementation(capture);
  });
  afterAll(() => {
    spy.mockRestore();
    stdout.mockRestore();
    stderr.mockRestore();
  });
  const configure = (config: ApprovedDeploymentConfig) => {
    process.env[LIFECYCLE_ENV.STACK_NAME] = config.stackName;
    process.env[LIFECYCLE_ENV.PARAMETER_NAME] = config.parameterName;
    process.env[LIFECYCLE_ENV.GROUP_NAME] = config.groupName;
    process.env[LIFECYCLE_ENV.GROUP_ARN] = config.groupArn;
    process.env[LIFECYCLE_ENV.MAX_WAIT_SECONDS] = '0';
  };

  test('an approval: one UpdateStack and one log line with its metric', async () => {
    const config = endpointStack(1);
    configure(config);
    const outcome = await handler(packageEvent());
    expect(outcome.outcome).toBe('updated');
    expect(updatesOf(config.stackName)).toHaveLength(1);
    expect(JSON.parse(logs[logs.length - 1])).toMatchObject({ Outcome: 'updated', StackName: config.stackName, ModelDeploymentOutcome: 1 });
  });

  test('a busy stack: reported as deferred, not thrown (nothing dead-lettered); the end of its operation deploys the version', async () => {
    const config = endpointStack(1, { status: 'UPDATE_ROLLBACK_IN_PROGRESS' });
    configure(config);
    registerVersion(2);
    expect((await handler(packageEvent())).outcome).toBe('deferred');
    expect(JSON.parse(logs[logs.length - 1])).toMatchObject({ Outcome: 'deferred' });
    cfn.setStatus(config.stackName, 'UPDATE_ROLLBACK_COMPLETE');
    const freed = await handler(stackEvent('UPDATE_ROLLBACK_COMPLETE', { token: 'Console-UpdateStack-1', id: 'bundled-freed' }));
    expect(freed.followUp).toMatchObject({ outcome: 'updated', version: 2 });
    expect(logs.slice(-2).map((l) => JSON.parse(l).Outcome)).toEqual(['skipped', 'updated']);
    expect(updatesOf(config.stackName)).toHaveLength(1);
  });

  test('CloudFormation\'s signature-mismatch text (the canonical request, x-amz-security-token included) is logged and thrown redacted', async () => {
    configure(endpointStack(1));
    const token = 'IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQDtestsessiontoken==';
    cfn.failNext('SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided. '
      + 'Check your AWS Secret Access Key and signing method. Consult the service documentation for details.\n\n'
      + `The Canonical String for this request should have been\n'POST\n/\n\nhost:cloudformation.us-east-1.amazonaws.com\nx-amz-date:20261206T052000Z\nx-amz-security-token:${token}\n\nhost;x-amz-date;x-amz-security-token\n0123abcd'`);
    const before = logs.length;
    const error = await handler(packageEvent()).catch((e) => e);
    expect(error.name).toBe('SignatureDoesNotMatch');
    const written = logs.slice(before).join('\n');
    expect(written).toContain('x-amz-security-token:<redacted>');
    expect(written).not.toContain(token);
    expect(`${error.message}\n${error.stack}`).not.toContain(token);
  });

  test('production (from its environment): an approval alone is refused; without its stage variables the handler refuses to run', async () => {
    const config = endpointStack(1);
    configure(config);
    process.env[LIFECYCLE_ENV.PROMOTION_STEP] = 'production';
    try {
      await expect(handler(packageEvent())).rejects.toThrow(/DEPLOY_REQUIRED_STAGE: production needs DEPLOY_REQUIRED_STAGE and DEPLOY_REQUIRED_STAGE_STATUS/);
      process.env[LIFECYCLE_ENV.REQUIRED_STAGE] = 'Production';
      process.env[LIFECYCLE_ENV.REQUIRED_STAGE_STATUS] = 'Approved';
      const outcome = await handler(packageEvent());
      expect(outcome).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(/when its ModelLifeCycle becomes Production\/Approved/) });
      expect(updatesOf(config.stackName)).toHaveLength(0);
    } finally {
      delete process.env[LIFECYCLE_ENV.PROMOTION_STEP];
      delete process.env[LIFECYCLE_ENV.REQUIRED_STAGE];
      delete process.env[LIFECYCLE_ENV.REQUIRED_STAGE_STATUS];
    }
  });

  test('a malformed event is logged and thrown (to the dead-letter queue after the retries)', async () => {
    configure(endpointStack(1));
    await expect(handler({ 'detail-type': 'SageMaker Model Package State Change', 'detail': { ModelPackageVersion: 'x' } })).rejects.toMatchObject({ name: 'MalformedLifecycleEventError' });
    // One logger for every handler: a Powertools Logger entry, with its level and the handler's service name.
    expect(JSON.parse(logs[logs.length - 1])).toMatchObject({ level: 'WARN', service: 'approved-deployment', outcome: 'malformed' });
  });
});

describe('staged rollout across accounts', () => {
  // Production deploys on a ModelLifeCycle change (https://docs.aws.amazon.com/sagemaker/latest/dg/model-registry-staging-construct-event-bridge.html:
  // stage changes arrive as the same detail type, the approval status unchanged).
  const REQUIRED = { stage: 'Production', stageStatus: 'Approved' };
  /** The documented sample as a stage change of the approved version to `stage`/`stageStatus`. */
  function stageEvent(stage = 'Production', stageStatus = 'Approved', opts: { version?: number; id?: string } = {}) {
    const e = packageEvent({ updated: ['ModelLifeCycle'], version: opts.version, id: opts.id });
    e.detail.ModelLifeCycle = { Stage: stage, StageStatus: stageStatus, StageDescription: 'signed off' };
    return e;
  }
  /** Version `version` in the registry stand-in, approved, at `stage`, with what staging recorded on it (if anything). */
  function registerStaged(version: number, staged?: string, stage = REQUIRED) {
    registerVersion(version);
    control.addModelPackage(arnOf(version), {
      ModelPackageArn: arnOf(version),
      ModelPackageGroupName: GROUP,
      ModelPackageVersion: version,
      ModelApprovalStatus: 'Approved',
      ModelPackageStatus: 'Completed',
      CreationTime: new Date(Date.UTC(2026, 0, version)),
      ModelLifeCycle: { Stage: stage.stage, StageStatus: stage.stageStatus },
      ...(staged ? { CustomerMetadataProperties: { 'cdk-sagemaker-mcp:staging-outcome': staged } } : {}),
    });
  }
  const production = (version: number) => ({ ...endpointStack(version), promotionStep: 'production' as const, requiredStage: REQUIRED });
  const staging = (version: number) => ({ ...endpointStack(version), promotionStep: 'staging' as const });

  test('production: an approval alone is refused (not retried); the stage event of a version staging deployed is deployed', async () => {
    // GIVEN a production stack serving 1, and version 2 that staging deployed and a person moved to Production/Approved
    const config = production(1);
    registerStaged(2, 'deployed');
    const deps = { cloudformation: client, sagemaker, config };
    // WHEN the approval arrives, then the stage change
    const approval = await handleApprovedDeploymentEvent(packageEvent(), deps);
    const stage = await handleApprovedDeploymentEvent(stageEvent(), deps);
    // THEN only the stage change deploys
    expect(approval).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(/when its ModelLifeCycle becomes Production\/Approved; this event changes ModelApprovalStatus/) });
    expect(approval.error).toBeUndefined();
    expect(stage).toMatchObject({ outcome: 'updated', version: 2 });
    expect(updatesOf(config.stackName).map((u) => u.Parameters[0].ParameterValue)).toEqual([arnOf(2)]);
  });

  test('production: a version staging rolled back is refused, even at Production/Approved', async () => {
    const config = production(1);
    registerStaged(2, 'rolled-back');
    const outcome = await handleApprovedDeploymentEvent(stageEvent(), { cloudformation: client, sagemaker, config });
    expect(outcome).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(/staging has not deployed version 2 \(cdk-sagemaker-mcp:staging-outcome: rolled-back\)/) });
    expect(updatesOf(config.stackName)).toHaveLength(0);
  });

  test('production: a version staging never recorded, or whose stage has moved on since the event, is refused', async () => {
    const config = production(1);
    registerStaged(2);
    const unrecorded = await handleApprovedDeploymentEvent(stageEvent(), { cloudformation: client, sagemaker, config });
    registerStaged(2, 'deployed', { stage: 'Production', stageStatus: 'Rejected' });
    const moved = await handleApprovedDeploymentEvent(stageEvent(), { cloudformation: client, sagemaker, config });
    expect(unrecorded).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(/staging-outcome: not recorded/) });
    expect(moved).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(/is at Production\/Rejected now, not Production\/Approved/) });
    expect(updatesOf(config.stackName)).toHaveLength(0);
  });

  test('production: another stage (QA/Approved) deploys nothing and reads nothing', async () => {
    const config = production(1);
    const before = control.requestsFor('DescribeModelPackage').length;
    const outcome = await handleApprovedDeploymentEvent(stageEvent('QA'), { cloudformation: client, sagemaker, config });
    expect(outcome).toMatchObject({ outcome: 'skipped', reason: 'version 2 is at QA/Approved, not Production/Approved' });
    expect(control.requestsFor('DescribeModelPackage')).toHaveLength(before);
    expect(updatesOf(config.stackName)).toHaveLength(0);
  });

  test('staging: deploys on approval, ignores stage changes, and records the end of its rollout on the version', async () => {
    // GIVEN a staging stack serving 1 and version 2 in the registry
    const config = staging(1);
    registerVersion(2);
    const deps = { cloudformation: client, sagemaker, config };
    // WHEN version 2 is approved, a stage change arrives, and the update is rolled back
    const approval = await handleApprovedDeploymentEvent(packageEvent(), deps);
    const stage = await handleApprovedDeploymentEvent(stageEvent(), deps);
    cfn.finishUpdate(config.stackName, 'UPDATE_ROLLBACK_COMPLETE');
    const end = await handleApprovedDeploymentEvent(stackEvent('UPDATE_ROLLBACK_COMPLETE', { token: deployToken(2, '844e2571-85d4-695f-b930-0153b71dcb42') }), deps);
    // THEN one update, and the rollback written on version 2 where production reads it
    expect(approval.outcome).toBe('updated');
    expect(stage.outcome).toBe('skipped');
    expect(end).toMatchObject({ outcome: 'rolled-back', version: 2 });
    expect(end.followUp).toBeUndefined();
    expect(control.requestsFor('UpdateModelPackage').map((r) => r.body).slice(-1)).toEqual([
      { ModelPackageArn: arnOf(2), CustomerMetadataProperties: { 'cdk-sagemaker-mcp:staging-outcome': 'rolled-back' } },
    ]);
    // AND production, given version 2 at Production/Approved, refuses it
    const prod = production(1);
    control.addModelPackage(arnOf(2), { ...(await described(2)), ModelLifeCycle: { Stage: 'Production', StageStatus: 'Approved' } });
    expect((await handleApprovedDeploymentEvent(stageEvent(), { cloudformation: client, sagemaker, config: prod })).outcome).toBe('refused');
  });

  test('production: a stage event met by a busy stack is deployed when the stack frees, but only while the version passes the gate', async () => {
    // GIVEN a busy production stack, and version 2 staged and at Production/Approved
    const config = { ...production(1), maxWaitMs: 0 };
    cfn.setStatus(config.stackName, 'UPDATE_IN_PROGRESS');
    registerStaged(2, 'deployed');
    const deps = { cloudformation: client, sagemaker, config };
    // WHEN the stage event is deferred, then staging's later record changes, then the stack frees
    expect((await handleApprovedDeploymentEvent(stageEvent(), deps)).outcome).toBe('deferred');
    registerStaged(2, 'rolled-back');
    cfn.setStatus(config.stackName, 'UPDATE_COMPLETE');
    const freed = await handleApprovedDeploymentEvent(stackEvent('UPDATE_COMPLETE', { token: 'Console-UpdateStack-9', id: 'prod-freed' }), deps);
    // THEN nothing is deployed; once the record says deployed again, the next free stack deploys it
    expect(freed.followUp).toBeUndefined();
    registerStaged(2, 'deployed');
    const again = await handleApprovedDeploymentEvent(stackEvent('UPDATE_COMPLETE', { token: 'Console-UpdateStack-10', id: 'prod-freed-2' }), deps);
    expect(again.followUp).toMatchObject({ outcome: 'updated', version: 2 });
    expect(updatesOf(config.stackName)).toHaveLength(1);
  });

  test('staging: a record the registry refuses is reported and thrown after the outcome (retried, then dead-lettered)', async () => {
    const config = staging(2);
    control.failNext('UpdateModelPackage', 'AccessDeniedException', 'not authorized to perform: sagemaker:UpdateModelPackage');
    const o = await handleApprovedDeploymentEvent(stackEvent('UPDATE_COMPLETE'), { cloudformation: client, sagemaker, config });
    expect(o).toMatchObject({ outcome: 'deployed', version: 3, followUp: { outcome: 'refused', reason: expect.stringMatching(/could not record deployed on version 3: AccessDeniedException/) } });
    expect(o.followUp?.error).toBeDefined();
  });

  async function described(version: number) {
    const { DescribeModelPackageCommand } = await import('@aws-sdk/client-sagemaker');
    const { $metadata, ...d } = await sagemaker.send(new DescribeModelPackageCommand({ ModelPackageName: arnOf(version) }));
    return d;
  }
});
