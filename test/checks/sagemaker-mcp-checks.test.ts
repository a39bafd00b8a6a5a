import { readFileSync } from 'fs';
import { join } from 'path';
import { App, AspectPriority, Aspects, Stack, Stage, Validations } from 'aws-cdk-lib';
import { asyncScaleToZero, CANARY_POLICY, endpoint, featureGroup, realtimeScaling, ROLLBACK_ALARMS, targetTracking, variantTarget } from './fixtures';
import { addResources, aspectFindings, ENV, findingsOf, pluginFindings, rawStack, synthReport } from './util';
import { SageMakerMcpCheckLevel, SageMakerMcpChecks } from '../../src/checks';
import { nagReport } from '../support/nag-checks';

describe('SageMakerMcpChecks as a policy-validation plugin', () => {
  test('fails synthesis on an error finding, naming the rule, the resource and the fix', () => {
    // GIVEN a realtime endpoint allowed to scale to zero
    const stack = rawStack(realtimeScaling({ Target: variantTarget(0) }));
    const app = stack.node.root as App;
    // WHEN the pack is registered the cdk-nag v3 way
    Validations.of(app).addPlugins(new SageMakerMcpChecks());
    // THEN synth throws, and the report holds the violation
    expect(() => app.synth()).toThrow(/Validation failed|SMCP-RT1/);
    const report = JSON.parse(readFileSync(join(app.outdir, 'validation-report.json'), 'utf8'));
    const mine = report.pluginReports.find((r: any) => r.pluginName === 'SageMakerMcpChecks');
    expect(mine.conclusion).toBe('failure');
    // (SMCP-RT3 fires too: an invocations-per-instance policy cannot scale out from 0.)
    expect(mine.violations).toEqual(expect.arrayContaining([expect.objectContaining({
      ruleName: 'SMCP-RT1',
      severity: 'error',
      description: expect.stringMatching(/set MinCapacity >= 1/),
      violatingConstructs: [expect.objectContaining({ constructPath: 'Checks/Target' })],
    })]));
  });

  test('warnings alone do not fail synthesis', () => {
    // (the endpoint has a canary rollout with rollback alarms, so the only warning is the cooldowns')
    const rollout = endpoint({ DeploymentConfig: { ...CANARY_POLICY, ...ROLLBACK_ALARMS } });
    const stack = rawStack(realtimeScaling({ Policy: targetTracking({ ScaleOutCooldown: 300 }), Endpoint: rollout }));
    const app = stack.node.root as App;
    Validations.of(app).addPlugins(new SageMakerMcpChecks());
    const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(() => app.synth()).not.toThrow();
    } finally {
      spy.mockRestore();
    }
    const report = JSON.parse(readFileSync(join(app.outdir, 'validation-report.json'), 'utf8'));
    const mine = report.pluginReports.find((r: any) => r.pluginName === 'SageMakerMcpChecks');
    expect(mine.violations.map((v: any) => [v.ruleName, v.severity])).toEqual([['SMCP-RT2', 'warning']]);
  });

  test('a compliant stack synthesizes', () => {
    const stack = rawStack(asyncScaleToZero({ Fg: featureGroup() }));
    const app = stack.node.root as App;
    Validations.of(app).addPlugins(new SageMakerMcpChecks());
    expect(() => app.synth()).not.toThrow();
  });
});

test('runs next to cdk-nag, and its findings appear in nagReport', () => {
  // GIVEN a feature group with a Glue offline store and both packs registered
  const stack = rawStack({ Fg: featureGroup({ OfflineStoreConfig: { S3StorageConfig: { S3Uri: 's3://features/offline', KmsKeyId: 'alias/fs' } } }) });
  const app = stack.node.root as App;
  Validations.of(app).addPlugins(new SageMakerMcpChecks());
  // WHEN
  const report = nagReport(app);
  // THEN
  expect(report.findings).toEqual([expect.objectContaining({ ruleId: 'SMCP-FS2', severity: 'warning', constructPath: 'Checks/Fg', plugin: 'SageMakerMcpChecks' })]);
});

describe('SageMakerMcpChecks as an aspect', () => {
  test('fails synthesis on an error finding, reported against the offending L1 resource', () => {
    const stack = rawStack(realtimeScaling({ Target: variantTarget(0) }));
    Aspects.of(stack).add(new SageMakerMcpChecks(), { priority: AspectPriority.READONLY });
    const violations = synthReport(stack.node.root as App);
    expect(violations).toEqual(expect.arrayContaining([expect.objectContaining({
      ruleName: 'SMCP-RT1',
      severity: 'error',
      description: expect.stringMatching(/^ScalableTarget Target lets realtime endpoint/),
      violatingConstructs: [expect.objectContaining({ constructPath: 'Checks/Target' })],
    })]));
  });

  test('a warning-level finding is reported without failing synthesis', () => {
    // (the endpoint has a canary rollout with rollback alarms, so the only warning is the cooldowns')
    const rollout = endpoint({ DeploymentConfig: { ...CANARY_POLICY, ...ROLLBACK_ALARMS } });
    const stack = rawStack(realtimeScaling({ Policy: targetTracking({ ScaleOutCooldown: 300 }), Endpoint: rollout }));
    Aspects.of(stack).add(new SageMakerMcpChecks());
    const violations = synthReport(stack.node.root as App);
    expect(violations.map((v) => [v.ruleName, v.severity, v.violatingConstructs[0].constructPath])).toEqual([['SMCP-RT2', 'warning', 'Checks/Policy']]);
  });

  test('checks only the stacks it is added to', () => {
    // GIVEN two stacks with the same finding, the aspect on one of them
    const stack = rawStack(realtimeScaling({ Target: variantTarget(0) }));
    const app = stack.node.root as App;
    const other = new Stack(app, 'Other', { env: ENV });
    addResources(other, realtimeScaling({ Target: variantTarget(0) }));
    Aspects.of(other).add(new SageMakerMcpChecks());
    // THEN only that stack's resources are reported
    const paths = synthReport(app).flatMap((v) => v.violatingConstructs.map((c) => c.constructPath));
    expect(paths).toContain('Other/Target');
    expect(paths.filter((p) => !p.startsWith('Other/'))).toEqual([]);
  });

  test('registers once, so the findings are reported once, when the app is synthesized twice', () => {
    const stack = rawStack(realtimeScaling({ Target: variantTarget(0) }));
    const app = stack.node.root as App;
    Aspects.of(app).add(new SageMakerMcpChecks());
    synthReport(app);
    expect(synthReport(app).filter((v) => v.ruleName === 'SMCP-RT1')).toHaveLength(1);
  });

  test('checks the stacks of a nested stage, in that stage', () => {
    const app = new App({ builtinCloudFormationValidation: false });
    const stage = new Stage(app, 'Prod');
    const stack = new Stack(stage, 'Checks', { env: ENV });
    addResources(stack, realtimeScaling({ Target: variantTarget(0) }));
    // (aspects do not cross stage boundaries, so it goes on the stage)
    Aspects.of(stage).add(new SageMakerMcpChecks());
    const violations = synthReport(app);
    expect(violations.filter((v) => v.ruleName === 'SMCP-RT1').map((v) => v.violatingConstructs[0].constructPath)).toEqual(['Prod/Checks/Target']);
  });
});

describe('acknowledgements', () => {
  const reason = 'Batch-only endpoint: callers accept cold starts (reviewed 2026-11).';

  test('an acknowledgement with a reason suppresses the finding in both modes', () => {
    const resources = realtimeScaling({ Target: variantTarget(0) });
    const before = (_: unknown, byId: Record<string, any>) => SageMakerMcpChecks.acknowledge(byId.Target, 'SMCP-RT1', reason);
    expect(findingsOf('SMCP-RT1', resources)).toHaveLength(1);
    expect(findingsOf('SMCP-RT1', resources, { before })).toEqual([]);
  });

  test('an acknowledgement on a parent (the stack) applies to its resources', () => {
    const resources = realtimeScaling({ Target: variantTarget(0) });
    expect(findingsOf('SMCP-RT1', resources, { before: (stack) => SageMakerMcpChecks.acknowledge(stack, 'SMCP-RT1', reason) })).toEqual([]);
  });

  test('a cdk-nag style Validations acknowledgement with a reason is honoured', () => {
    const resources = realtimeScaling({ Target: variantTarget(0) });
    const before = (_: unknown, byId: Record<string, any>) => Validations.of(byId.Target).acknowledge({ id: 'SMCP-RT1', reason });
    const rt1 = (found: Array<{ ruleId: string }>) => found.filter((f) => f.ruleId === 'SMCP-RT1');
    expect(rt1(pluginFindings(resources))).toHaveLength(1);
    expect(rt1(pluginFindings(resources, { before }))).toEqual([]);
    expect(rt1(aspectFindings(resources, { before }))).toEqual([]);
  });

  test('fails if acknowledged without a reason', () => {
    const stack = rawStack(realtimeScaling({ Target: variantTarget(0) }));
    const target = stack.node.findChild('Target');
    expect(() => SageMakerMcpChecks.acknowledge(target, 'SMCP-RT1', '')).toThrow(/without a reason: got "", expected a non-empty reason/);
    expect(() => SageMakerMcpChecks.acknowledge(target, 'SMCP-RT1', '   ')).toThrow(/without a reason/);
  });

  test('fails if the rule id is unknown', () => {
    const stack = rawStack({});
    expect(() => SageMakerMcpChecks.acknowledge(stack, 'SMCP-XX9', reason)).toThrow(/Cannot acknowledge 'SMCP-XX9' .*expected one of SMCP-RT1/);
  });

  test('an acknowledgement recorded elsewhere with a blank reason is refused, and the finding says so', () => {
    const resources = realtimeScaling({ Target: variantTarget(0) });
    const before = (_: unknown, byId: Record<string, any>) => Validations.of(byId.Target).acknowledge({ id: 'SMCP-RT1', reason: ' ' });
    const found = findingsOf('SMCP-RT1', resources, { before });
    expect(found).toHaveLength(1);
    expect(found[0].message).toMatch(/acknowledgement of SMCP-RT1 without a reason was ignored/);
  });

  test('acknowledging one rule leaves the others', () => {
    const resources = asyncScaleToZero({ Policy: targetTracking() });
    const before = (stack: any) => SageMakerMcpChecks.acknowledge(stack, 'SMCP-RT2', reason);
    expect(findingsOf('SMCP-RT3', resources, { before })).toHaveLength(1);
  });
});

describe('props and rule list', () => {
  test('disabledRules skips a rule', () => {
    const resources = realtimeScaling({ Target: variantTarget(0) });
    expect(findingsOf('SMCP-RT1', resources, { props: { disabledRules: ['SMCP-RT1'] } })).toEqual([]);
    expect(new SageMakerMcpChecks({ disabledRules: ['SMCP-RT1'] }).ruleIds).not.toContain('SMCP-RT1');
  });

  test('fails if disabledRules names an unknown rule', () => {
    expect(() => new SageMakerMcpChecks({ disabledRules: ['RT1'] })).toThrow(/disabledRules: got \["RT1"\], expected rule ids among SMCP-RT1/);
  });

  test('rules() lists every rule once with its level', () => {
    const rules = SageMakerMcpChecks.rules();
    expect(new Set(rules.map((r) => r.ruleId)).size).toBe(rules.length);
    expect(rules).toHaveLength(21);
    expect(rules.find((r) => r.ruleId === 'SMCP-FS2')?.level).toBe(SageMakerMcpCheckLevel.WARNING);
    expect(new SageMakerMcpChecks().ruleIds).toEqual(rules.map((r) => r.ruleId));
  });
});
