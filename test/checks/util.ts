import { readFileSync } from 'fs';
import { join } from 'path';
import { AspectPriority, Aspects, App, CfnResource, Stack } from 'aws-cdk-lib';
import { SageMakerMcpChecks, SageMakerMcpChecksProps } from '../../src/checks';

/** A template's Resources section, written the raw CloudFormation way (PascalCase). */
export type Resources = Record<string, { Type: string; Properties?: Record<string, unknown> }>;

export interface Found {
  readonly ruleId: string;
  readonly logicalId: string;
  readonly level: string;
  readonly message: string;
}

export interface RunOptions {
  readonly props?: SageMakerMcpChecksProps;
  /** Called with the stack and its L1 constructs by logical id, before synthesis (e.g. to acknowledge). */
  readonly before?: (stack: Stack, byId: Record<string, CfnResource>) => void;
}

export const ENV = { account: '123456789012', region: 'us-east-1' };

/** A stack made only of raw L1 resources (`CfnResource`), so the rules see exactly these properties. */
export function rawStack(resources: Resources, opts: RunOptions = {}): Stack {
  // The built-in CloudFormation validation is not under test here and would only add console noise.
  const app = new App({ builtinCloudFormationValidation: false });
  const stack = new Stack(app, 'Checks', { env: ENV });
  const byId = addResources(stack, resources);
  opts.before?.(stack, byId);
  return stack;
}

/** Adds `resources` to `stack` as raw L1 resources; returns them by logical id. */
export function addResources(stack: Stack, resources: Resources): Record<string, CfnResource> {
  const byId: Record<string, CfnResource> = {};
  for (const [id, r] of Object.entries(resources)) byId[id] = new CfnResource(stack, id, { type: r.Type, properties: r.Properties });
  return byId;
}

/** Findings in plugin mode: the plugin's `validate` on the synthesized template, as CDK calls it. */
export function pluginFindings(resources: Resources, opts: RunOptions = {}): Found[] {
  const stack = rawStack(resources, opts);
  const app = stack.node.root as App;
  const artifact = app.synth().getStackByName(stack.stackName);
  const report = new SageMakerMcpChecks(opts.props).validate({
    templatePaths: [artifact.templateFullPath],
    stackTemplates: [{ stackConstructPath: stack.node.path, templatePath: artifact.templateFullPath, accountId: ENV.account, region: ENV.region }],
    appConstruct: app,
  } as any);
  expect(report.success).toBe(!report.violations.some((v) => v.severity === 'error'));
  return report.violations.flatMap((v) => v.violatingResources.map((r) => ({
    ruleId: v.ruleName, logicalId: r.resourceLogicalId!, level: v.severity!, message: v.description,
  })));
}

/**
 * Findings in aspect mode: the aspect registers the checks on the stack's stage, and CDK runs them after writing the
 * templates; the findings are read back from the validation report that synthesis writes (an error fails synthesis).
 */
export function aspectFindings(resources: Resources, opts: RunOptions = {}): Found[] {
  const stack = rawStack(resources, opts);
  const app = stack.node.root as App;
  Aspects.of(stack).add(new SageMakerMcpChecks(opts.props), { priority: AspectPriority.READONLY });
  return synthReport(app).flatMap((v) => v.violatingConstructs.map((c) => ({
    ruleId: v.ruleName, logicalId: c.constructPath.split('/').pop()!, level: v.severity, message: v.description,
  })));
}

export interface ReportedViolation {
  readonly ruleName: string;
  readonly severity: string;
  readonly description: string;
  readonly violatingConstructs: Array<{ readonly constructPath: string }>;
}

/**
 * Synthesizes `app` (an error finding makes that throw, which is then checked against the report) and returns the
 * SageMakerMcpChecks violations of `validation-report.json`.
 */
export function synthReport(app: App): ReportedViolation[] {
  // CDK prints the report on stderr; the test reads the JSON file instead.
  const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  let failed = false;
  try {
    app.synth({ force: true });
  } catch (e) {
    expect(String(e)).toMatch(/^ValidationFailed|Validation failed/);
    failed = true;
  } finally {
    spy.mockRestore();
  }
  const report = JSON.parse(readFileSync(join(app.outdir, 'validation-report.json'), 'utf8'));
  const mine = report.pluginReports.filter((r: { pluginName: string }) => r.pluginName === SageMakerMcpChecks.PLUGIN_NAME);
  const violations: ReportedViolation[] = mine.flatMap((r: { violations: ReportedViolation[] }) => r.violations);
  expect(failed).toBe(violations.some((v) => v.severity === 'error'));
  return violations;
}

/**
 * Runs the pack in both modes, checks they agree, and returns the findings of `ruleId`.
 */
export function findingsOf(ruleId: string, resources: Resources, opts: RunOptions = {}): Found[] {
  const key = (f: Found) => `${f.ruleId}|${f.logicalId}|${f.level}|${f.message}`;
  const plugin = pluginFindings(resources, opts);
  const aspect = aspectFindings(resources, opts);
  expect(aspect.map(key).sort()).toEqual(plugin.map(key).sort());
  return plugin.filter((f) => f.ruleId === ruleId);
}

/** Expects `ruleId` to flag exactly `logicalIds` (both modes), each message matching `message` when given. */
export function expectRule(ruleId: string, resources: Resources, logicalIds: string[], message?: RegExp, opts: RunOptions = {}): Found[] {
  const found = findingsOf(ruleId, resources, opts);
  expect(found.map((f) => f.logicalId).sort()).toEqual([...logicalIds].sort());
  if (message) for (const f of found) expect(f.message).toMatch(message);
  return found;
}
