import { readFileSync } from 'fs';
import { resolve } from 'path';
import {
  CfnResource,
  IAspect,
  IPolicyValidationContext,
  IPolicyValidationPlugin,
  PolicyValidationPluginReport,
  PolicyViolation,
  Stack,
  Stage,
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
 * or as an aspect, to check only the stacks the aspect is added to (the aspect registers the same checks as a
 * validation plugin on each stack's stage, limited to those stacks' templates; findings go to the same report):
 *
 *   Aspects.of(stack).add(new SageMakerMcpChecks(), { priority: AspectPriority.READONLY });
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
   * Acknowledges the rule on the scope and everything below it, with the reason it does not apply.
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
   * @default - every rule not disabled
   */
  public readonly ruleIds?: string[];

  private readonly rules: readonly CheckRule[];
  private readonly scopedByStage = new Map<Stage, ScopedChecks>();

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
    return report(this.rules, context, context.templatePaths);
  }

  /**
   * Aspect entry point. On each stack's stage it registers, once, a validation plugin that runs the rules on the
   * synthesized templates of the stacks this aspect visited (so it sees the final template, after every aspect and
   * `Lazy` value). Findings go to the validation report, as in plugin mode.
   */
  public visit(node: IConstruct): void {
    if (!Stack.isStack(node)) return;
    const stage = Stage.of(node);
    if (!stage) return;
    let scoped = this.scopedByStage.get(stage);
    if (!scoped) {
      scoped = new ScopedChecks(this.rules);
      this.scopedByStage.set(stage, scoped);
      Validations.of(stage).addPlugins(scoped);
    }
    scoped.stacks.add(node);
  }
}

/** Runs `rules` on the templates at `templatePaths`, looking acknowledgements up in the construct tree of `context`. */
function report(rules: readonly CheckRule[], context: IPolicyValidationContext, templatePaths: readonly string[]): PolicyValidationPluginReport {
  const constructs = constructsByTemplateAndLogicalId(context.appConstruct);
  const violations: PolicyViolation[] = [];
  for (const templatePath of templatePaths) {
    const view = new TemplateView(JSON.parse(readFileSync(templatePath, 'utf8')));
    const findings: Finding[] = rules.flatMap((rule) => rule.check(view).map((f) => ({ ...f, rule })));
    for (const f of findings) {
      const construct = constructs.get(`${resolve(templatePath)}|${f.logicalId}`);
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

function messageOf(f: Finding, refused: boolean): string {
  return refused ? `${f.message} (An acknowledgement of ${f.rule.id} without a reason was ignored.)` : f.message;
}

/** Whether the rule is acknowledged, with a non-empty reason, on the construct or one of its parents. */
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

/** `<absolute template path>|<logical id>` to the L1 construct, for acknowledgement lookup. */
function constructsByTemplateAndLogicalId(root: IConstruct | undefined): Map<string, CfnResource> {
  const out = new Map<string, CfnResource>();
  if (!root) return out;
  for (const c of root.node.findAll()) {
    if (!CfnResource.isCfnResource(c)) continue;
    const stack = Stack.of(c);
    out.set(`${templatePathOf(stack)}|${stack.resolve(c.logicalId)}`, c);
  }
  return out;
}

/** Where CDK writes `stack`'s template: its stage's cloud assembly directory (the artifact's `templateFullPath`). */
function templatePathOf(stack: Stack): string {
  return resolve(Stage.of(stack)?.outdir ?? '', stack.templateFile);
}

/**
 * The plugin the aspect registers on a stage: the same rules, limited to the templates of the stacks the aspect
 * visited (a stage-level plugin otherwise receives every template of the stage and of the stages below it).
 */
class ScopedChecks implements IPolicyValidationPlugin {
  public readonly name = SageMakerMcpChecks.PLUGIN_NAME;
  public readonly ruleIds?: string[];
  public readonly stacks = new Set<Stack>();

  public constructor(private readonly rules: readonly CheckRule[]) {
    this.ruleIds = rules.map((r) => r.id);
  }

  public validate(context: IPolicyValidationContext): PolicyValidationPluginReport {
    const mine = new Set([...this.stacks].map(templatePathOf));
    return report(this.rules, context, context.templatePaths.filter((p) => mine.has(resolve(p))));
  }
}
