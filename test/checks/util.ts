import { AspectPriority, Aspects, App, CfnResource, Stack } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import type { SynthesisMessage } from 'aws-cdk-lib/cx-api';
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
  const byId: Record<string, CfnResource> = {};
  for (const [id, r] of Object.entries(resources)) byId[id] = new CfnResource(stack, id, { type: r.Type, properties: r.Properties });
  opts.before?.(stack, byId);
  return stack;
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

/** Findings in aspect mode: annotations on the L1 resources. */
export function aspectFindings(resources: Resources, opts: RunOptions = {}): Found[] {
  const stack = rawStack(resources, opts);
  Aspects.of(stack.node.root).add(new SageMakerMcpChecks(opts.props), { priority: AspectPriority.READONLY });
  const annotations = Annotations.fromStack(stack);
  const parse = (level: string) => (m: SynthesisMessage): Found => {
    const text = String(m.entry.data);
    const match = /^\[([^\]]+)\] (.*?)( \[ack: [^\]]+\])?$/s.exec(text);
    return { ruleId: match?.[1] ?? '?', logicalId: m.id.split('/').pop()!, level, message: match?.[2] ?? text };
  };
  return [
    ...annotations.findError('*', Match.stringLikeRegexp('^\\[SMCP-')).map(parse('error')),
    ...annotations.findWarning('*', Match.stringLikeRegexp('^\\[SMCP-')).map(parse('warning')),
  ];
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
