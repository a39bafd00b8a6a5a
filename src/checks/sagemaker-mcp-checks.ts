import { readFileSync } from 'fs';
import { basename } from 'path';
import {
  Annotations,
  CfnResource,
  IAspect,
  IPolicyValidationContext,
  IPolicyValidationPlugin,
  PolicyValidationPluginReport,
  PolicyViolation,
  Stack,
  Validations,
} from 'aws-cdk-lib';
import { IConstruct } from 'constructs';
import { SageMakerMcpCheckLevel } from './check-level';
import { CheckRule, RuleFinding } from './private/rule';
import { TemplateView } from './private/template-view';
import { ALL_RULES } from './rules';

/** A rule of the SageMakerMcpChecks pack. */
export interface SageMakerMcpCheckRule {
  /** Rule id, e.g. `SMCP-RT1`: the id to acknowledge. */
  readonly ruleId: string;
  readonly level: SageMakerMcpCheckLevel;
  /** What the rule requires. */
  readonly description: string;
}

/** Options for SageMakerMcpChecks. */
export interface SageMakerMcpChecksProps {
  /**
   * Rule ids (e.g. `SMCP-FS2`) that do not run at all. Prefer acknowledging a rule on the construct it does not
   * apply to, with a reason, over disabling it for the whole app.
   *
   * @default - every rule runs
   */
  readonly disabledRules?: string[];
}

interface Finding extends RuleFinding {
  readonly rule: CheckRule;
}

const ACK_PREFIX = /^(annotation|SageMakerMcpChecks)::/i;

/**
 * The production checklists of SageMaker-backed MCP tools (scaling, async notifications, JumpStart EULA, inference
 * components, Feature Store, pipeline events, IAM and KMS) as rules over the synthesized CloudFormation resources.
 *
 * Use it either as a CDK policy-validation plugin (findings go to the validation report; errors fail synthesis):
 *
 *   Validations.of(app).addPlugins(new SageMakerMcpChecks());
 *
 * or as an aspect (findings become error / warning annotations on the offending L1 resources):
 *
 *   Aspects.of(app).add(new SageMakerMcpChecks(), { priority: AspectPriority.READONLY });
 *
 * Rules read only what they can resolve inside one template (Ref / Fn::GetAtt / literal names); anything they cannot
 * resolve is skipped, never guessed. Acknowledge a finding with `SageMakerMcpChecks.acknowledge(construct, id, reason)`.
 */
export class SageMakerMcpChecks implements IPolicyValidationPlugin, IAspect {
  /** The plugin name shown in the validation report. */
  public static readonly PLUGIN_NAME = 'SageMakerMcpChecks';

  /** Every rule of the pack. */
  public static rules(): SageMakerMcpCheckRule[] {
    return ALL_RULES.map((r) => ({ ruleId: r.id, level: r.level, description: r.description }));
  }

  /**
   * Acknowledges rule `ruleId` on `scope` and everything below it, with the reason it does not apply.
   * Recorded with `Validations.of(scope).acknowledge`, so cdk-nag style tooling and the CDK report see it too.
   *
   * @param scope the construct (or a parent) the finding is on
   * @param ruleId e.g. `SMCP-RT2`
   * @param reason why the rule does not apply here; required and non-empty
   */
  public static acknowledge(scope: IConstruct, ruleId: string, reason: string): void {
    if (!ALL_RULES.some((r) => r.id === ruleId)) {
      throw new Error(`Cannot acknowledge '${ruleId}' on ${scope.node.path}: expected one of ${ALL_RULES.map((r) => r.id).join(', ')}`);
    }
    if (typeof reason !== 'string' || reason.trim().length === 0) {
      throw new Error(`Cannot acknowledge ${ruleId} on ${scope.node.path} without a reason: got ${JSON.stringify(reason)}, expected a non-empty reason saying why the rule does not apply`);
    }
    Validations.of(scope).acknowledge({ id: ruleId, reason: reason.trim() });
  }

  /** The plugin name shown in the validation report. */
  public readonly name: string = SageMakerMcpChecks.PLUGIN_NAME;
  /**
   * Ids of the rules this instance evaluates (always set; optional only because the plugin interface says so).
   * @default - every rule not in `disabledRules`
   */
  public readonly ruleIds?: string[];

  private readonly rules: readonly CheckRule[];
  private readonly stacksWatched = new Set<string>();
  private readonly annotated = new Set<string>();

  public constructor(props: SageMakerMcpChecksProps = {}) {
    const disabled = props.disabledRules ?? [];
    const unknown = disabled.filter((id) => !ALL_RULES.some((r) => r.id === id));
    if (unknown.length > 0) {
      throw new Error(`SageMakerMcpChecks disabledRules: got ${JSON.stringify(unknown)}, expected rule ids among ${ALL_RULES.map((r) => r.id).join(', ')}`);
    }
    this.rules = ALL_RULES.filter((r) => !disabled.includes(r.id));
    this.ruleIds = this.rules.map((r) => r.id);
  }

  /** Policy-validation plugin entry point: evaluates every synthesized template. */
  public validate(context: IPolicyValidationContext): PolicyValidationPluginReport {
    const constructs = constructsByTemplateAndLogicalId((context as { appConstruct?: IConstruct }).appConstruct);
    const violations: PolicyViolation[] = [];
    const stackTemplates = context.stackTemplates ?? context.templatePaths.map((templatePath) => ({ templatePath }));
    for (const { templatePath } of stackTemplates) {
      const template = JSON.parse(readFileSync(templatePath, 'utf8'));
      for (const f of this.evaluate(template)) {
        const construct = constructs.get(`${basename(templatePath)}|${f.logicalId}`);
        const ack = construct ? acknowledgement(construct, f.rule.id) : { acknowledged: false, refused: false };
        if (ack.acknowledged) continue;
        violations.push({
          ruleName: f.rule.id,
          description: messageOf(f, ack.refused),
          severity: f.rule.level,
          violatingResources: [{ resourceLogicalId: f.logicalId, templatePath, locations: f.location ? [f.location] : [] }],
        });
      }
    }
    return { success: !violations.some((v) => v.severity === SageMakerMcpCheckLevel.ERROR), violations };
  }

  /**
   * Aspect entry point. On each stack it registers a validation that runs the rules once the construct tree is
   * final (after every aspect and Lazy value), and annotates the offending L1 resources.
   */
  public visit(node: IConstruct): void {
    if (!Stack.isStack(node) || this.stacksWatched.has(node.node.path)) return;
    this.stacksWatched.add(node.node.path);
    const stack = node;
    stack.node.addValidation({
      validate: () => {
        this.annotateStack(stack);
        return [];
      },
    });
  }

  private annotateStack(stack: Stack): void {
    const byLogicalId = new Map<string, CfnResource>();
    const resources: Record<string, unknown> = {};
    for (const c of stack.node.findAll()) {
      if (!CfnResource.isCfnResource(c) || Stack.of(c) !== stack) continue;
      try {
        const rendered = stack.resolve((c as unknown as { _toCloudFormation(): { Resources: Record<string, unknown> } })._toCloudFormation());
        Object.assign(resources, rendered.Resources);
        for (const id of Object.keys(rendered.Resources)) byLogicalId.set(id, c);
      } catch {
        // A resource that cannot render yet is reported by CDK itself; the rules skip it.
      }
    }
    for (const f of this.evaluate({ Resources: resources })) {
      const construct = byLogicalId.get(f.logicalId);
      if (!construct) continue;
      const ack = acknowledgement(construct, f.rule.id);
      const key = `${construct.node.path}|${f.rule.id}|${f.message}`;
      if (ack.acknowledged || this.annotated.has(key)) continue;
      this.annotated.add(key);
      const text = `[${f.rule.id}] ${messageOf(f, ack.refused)}`;
      if (f.rule.level === SageMakerMcpCheckLevel.ERROR) Annotations.of(construct).addError(text);
      else Annotations.of(construct).addWarningV2(`cdk-sagemaker-mcp:${f.rule.id}`, text);
    }
  }

  private evaluate(template: unknown): Finding[] {
    const view = new TemplateView(template);
    return this.rules.flatMap((rule) => rule.check(view).map((f) => ({ ...f, rule })));
  }
}

function messageOf(f: Finding, refused: boolean): string {
  return refused ? `${f.message} (An acknowledgement of ${f.rule.id} without a reason was ignored.)` : f.message;
}

/** Whether `ruleId` is acknowledged, with a non-empty reason, on the construct or one of its parents. */
function acknowledgement(construct: IConstruct, ruleId: string): { acknowledged: boolean; refused: boolean } {
  let refused = false;
  for (let c: IConstruct | undefined = construct; c; c = c.node.scope) {
    for (const entry of c.node.metadata) {
      if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY || !entry.data) continue;
      for (const [id, reason] of Object.entries(entry.data as Record<string, unknown>)) {
        if (id.replace(ACK_PREFIX, '') !== ruleId) continue;
        if (typeof reason === 'string' && reason.trim().length > 0) return { acknowledged: true, refused: false };
        refused = true;
      }
    }
  }
  return { acknowledged: false, refused };
}

/** `<template file name>|<logical id>` to the L1 construct, for acknowledgement lookup in plugin mode. */
function constructsByTemplateAndLogicalId(root: IConstruct | undefined): Map<string, CfnResource> {
  const out = new Map<string, CfnResource>();
  if (!root) return out;
  for (const c of root.node.findAll()) {
    if (!CfnResource.isCfnResource(c)) continue;
    const stack = Stack.of(c);
    out.set(`${stack.templateFile}|${stack.resolve(c.logicalId)}`, c);
  }
  return out;
}
