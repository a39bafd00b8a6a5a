/**
 * cdk-nag checks of a whole app, for construct tests.
 *
 * API
 * - `synthWithNag(app)`: registers cdk-nag v3 `AwsSolutionsChecks` once per App (`Validations.of(app).addPlugins`),
 *   re-synthesizes (`force: true`, so it works after `Template.fromStack` already synthesized the app) and throws one
 *   Error listing every unacknowledged finding (rule, severity, construct path, description). Returns the assembly.
 *   Findings of every other plugin registered on the app count too (e.g. `new SageMakerMcpChecks()` from src/checks),
 *   except the built-in CloudFormation validation while it only warns (that is `templateProblems`' job).
 * - `expectNagClean(app)`: `synthWithNag` for tests that want no return value.
 * - `nagReport(app) => { findings, acknowledgements }`: never throws on findings; acknowledgements are read from the
 *   construct tree (`Validations.of(x).acknowledge({ id, reason })`) with their construct path and reason.
 */
import { existsSync, readFileSync } from 'fs';
import { join } from 'path';
import { App, CloudFormationValidatePlugin, Validations } from 'aws-cdk-lib';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';

export interface NagFinding {
  readonly ruleId: string;
  readonly severity: string;
  readonly constructPath: string;
  readonly description: string;
  readonly plugin: string;
}
export interface NagAcknowledgement {
  readonly ruleId: string;
  readonly reason: string;
  readonly constructPath: string;
}
export interface NagReport {
  readonly findings: NagFinding[];
  readonly acknowledgements: NagAcknowledgement[];
}

const nagRegistered = new WeakSet<App>();

/** aws-cdk-lib's synth error when a validation plugin reports violations (its report file is then on disk). */
function isValidationFailure(e: unknown): boolean {
  return /validation-report\.json|Validation failed/.test((e as Error)?.message ?? '');
}

function registerNag(app: App): void {
  if (nagRegistered.has(app)) return;
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  nagRegistered.add(app);
}

function readFindings(app: App): NagFinding[] {
  const file = join(app.outdir, 'validation-report.json');
  if (!existsSync(file)) return [];
  const report = JSON.parse(readFileSync(file, 'utf8'));
  return (report.pluginReports ?? []).flatMap((pr: any) =>
    // The built-in CloudFormation validation only warns unless its feature flag is set; it is templateProblems' job.
    pr.conclusion === 'success' && pr.pluginName === CloudFormationValidatePlugin.PLUGIN_NAME ? [] :
      (pr.violations ?? []).flatMap((v: any) => (v.violatingConstructs ?? [{}]).map((c: any) => ({
        ruleId: v.ruleName,
        severity: v.severity ?? 'error',
        constructPath: c.constructPath ?? '?',
        description: v.description,
        plugin: pr.pluginName,
      }))));
}

/** Acknowledgements recorded with `Validations.of(x).acknowledge({ id, reason })` anywhere in the app. */
function readAcknowledgements(root: IConstruct): NagAcknowledgement[] {
  const out: NagAcknowledgement[] = [];
  for (const c of root.node.findAll()) {
    for (const m of c.node.metadata) {
      if (m.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY || !m.data) continue;
      for (const [id, reason] of Object.entries(m.data as Record<string, string>)) {
        out.push({ ruleId: id.replace(/^annotation::/i, ''), reason, constructPath: c.node.path });
      }
    }
  }
  return out;
}

/**
 * cdk-nag findings and acknowledgements for the app, without throwing on findings. Registers AwsSolutionsChecks on
 * the app (once) and re-synthesizes it, so it may be called after `Template.fromStack`.
 */
export function nagReport(app: App): NagReport {
  registerNag(app);
  try {
    app.synth({ force: true });
  } catch (e) {
    if (!isValidationFailure(e)) throw e;
  }
  return { findings: readFindings(app), acknowledgements: readAcknowledgements(app) };
}

/** Synthesizes the app with cdk-nag AwsSolutionsChecks and throws listing every unacknowledged finding. */
export function synthWithNag(app: App): CloudAssembly {
  registerNag(app);
  let assembly: CloudAssembly | undefined;
  let failure: Error | undefined;
  try {
    assembly = app.synth({ force: true });
  } catch (e) {
    if (!isValidationFailure(e)) throw e;
    failure = e as Error;
  }
  const findings = readFindings(app);
  if (failure || findings.length > 0) {
    const lines = findings.map((f) => `  - ${f.ruleId} (${f.severity}) at ${f.constructPath}: ${f.description} [${f.plugin}]`);
    throw new Error(`cdk-nag: ${findings.length} unacknowledged finding${findings.length === 1 ? '' : 's'} ` +
      `(acknowledge with Validations.of(construct).acknowledge({ id, reason }) only with a specific reason):\n${lines.join('\n') || `  ${failure?.message}`}`);
  }
  return assembly!;
}

/** Throws listing every unacknowledged cdk-nag AwsSolutions finding in the app. */
export function expectNagClean(app: App): void {
  synthWithNag(app);
}
