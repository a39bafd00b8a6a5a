/**
 * AWS Control Tower's proactive controls (the cfn-guard rules bundled in `@cdklabs/cdk-validator-cfnguard`, run by its
 * `CfnGuardValidator` plugin with the cfn-guard binary the package ships, offline) over the demo app (examples/app.ts)
 * and every integ app (test/*.integ.ts). Every finding must be on the documented list in control-tower-exceptions.ts,
 * and every entry of that list must still match a finding. Each app is synthesized once (the integ apps write to a
 * temporary directory through CDK_OUTDIR) and all of an app's templates go to one cfn-guard run.
 *
 * The same fresh assemblies are compared with the committed integ snapshots (test/*.integ.snapshot), as projen's
 * `integ:<name>:assert` tasks do with the CLI: one synth of each app serves both checks inside `npx projen test`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { CfnGuardValidator } from '@cdklabs/cdk-validator-cfnguard';
import { IPolicyValidationContextBeta1 } from 'aws-cdk-lib';
import { CONTROL_TOWER_EXCEPTIONS, ControlTowerException, renderExceptionsTable } from './control-tower-exceptions';
import { buildDemoApp } from '../../examples/app';
import { iamReferenceProblems, iamStatements } from '../support/iam-reference';
import { templateProblems } from '../support/template-checks';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { diffSnapshot } = require('../../scripts/integ-diff') as { diffSnapshot(snapshot: string, fresh: string): string[] };

const RULES_DIR = join(require.resolve('@cdklabs/cdk-validator-cfnguard/package.json'), '..', 'rules', 'control-tower', 'cfn-guard');
const TEST_DIR = join(__dirname, '..');

/** Guard rule name -> Control Tower control id, read from the bundled rule files (`ct-s3-pr-9.guard` -> CT.S3.PR.9). */
function controlIds(): Map<string, string> {
  const ids = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = join(dir, entry.name);
      if (entry.isDirectory()) { walk(file); continue; }
      const control = entry.name.replace(/\.guard$/, '').toUpperCase().replace(/-/g, '.');
      for (const [, rule] of readFileSync(file, 'utf8').matchAll(/^rule (\w+) when is_cfn_template/gm)) ids.set(rule, control);
    }
  };
  walk(RULES_DIR);
  return ids;
}

interface Finding {
  readonly app: string;
  readonly control: string;
  /** Construct path below the stack (the logical id if the assembly does not name it). */
  readonly path: string;
}

const CONTROLS = controlIds();

/** Every rule file (`ct-s3-pr-9`) with the CloudFormation resource types its text names. */
function ruleTypes(): Map<string, Set<string>> {
  const rules = new Map<string, Set<string>>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.guard')) rules.set(entry.name.replace(/\.guard$/, ''), new Set(readFileSync(file, 'utf8').match(/AWS::\w+::\w+/g) ?? []));
    }
  };
  walk(RULES_DIR);
  return rules;
}
const RULE_TYPES = ruleTypes();

/**
 * The validator for templates holding `types`: every Control Tower rule that names one of them. A rule that names none
 * selects no resource of these templates, so it cannot report one; leaving it out changes no finding (the test below
 * holds every rule to naming its types) and keeps cfn-guard from evaluating about 180 rules that do not apply (over
 * the integ apps: 3.4 s of cfn-guard instead of 14.8 s, the same 16 findings).
 */
function validatorFor(types: ReadonlySet<string>): CfnGuardValidator {
  const disabledRules = [...RULE_TYPES].filter(([, named]) => ![...named].some((t) => types.has(t))).map(([rule]) => rule);
  return new CfnGuardValidator({ maxBuffer: 256 * 1024 * 1024, disabledRules });
}
const outdirs: string[] = [];
const findings: Finding[] = [];
const integDirs = new Map<string, string>();
let demoOutdir = '';

/**
 * What the integ tasks' `cdk synth --no-version-reporting --no-asset-metadata --no-path-metadata` passes the app, so
 * an in-process synth writes the same assembly as the CLI.
 */
const CLI_CONTEXT = { 'aws:cdk:version-reporting': false, 'aws:cdk:enable-asset-metadata': false, 'aws:cdk:enable-path-metadata': false };

/** Logical id -> construct path below the stack, from the assembly's `<stack>.metadata.json` (`aws:cdk:logicalId`). */
function constructPaths(dir: string): Map<string, string> {
  const paths = new Map<string, string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.metadata.json'))) {
    for (const [path, entries] of Object.entries<any[]>(JSON.parse(readFileSync(join(dir, file), 'utf8')))) {
      for (const entry of entries) {
        if (entry.type === 'aws:cdk:logicalId') paths.set(entry.data, path.replace(/^\/[^/]+\//, ''));
      }
    }
  }
  return paths;
}

/** Runs the validator over every template in `dir` and records its findings for `app`. */
function guard(app: string, dir: string): void {
  const templatePaths = readdirSync(dir).filter((f) => f.endsWith('.template.json')).map((f) => join(dir, f));
  if (templatePaths.length === 0) throw new Error(`${app}: no template in ${dir}`);
  const types = new Set(templatePaths.flatMap((f) => Object.values<{ Type: string }>(JSON.parse(readFileSync(f, 'utf8')).Resources ?? {}).map((r) => r.Type)));
  // The plugin reads only the template paths of its context.
  const report = validatorFor(types).validate({ templatePaths } as unknown as IPolicyValidationContextBeta1);
  const paths = constructPaths(dir);
  for (const violation of report.violations) {
    const control = CONTROLS.get(violation.ruleName) ?? violation.ruleName;
    for (const resource of violation.violatingResources) {
      findings.push({ app, control, path: paths.get(resource.resourceLogicalId) ?? String(resource.resourceLogicalId) });
    }
  }
}

function freshDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `ct-${name}-`));
  outdirs.push(dir);
  return dir;
}

beforeAll(() => {
  // The demo has no snapshot: it keeps the tests' realm setting (no synth-time schema validation, which only warned and
  // is most of a synth's CPU); the test below runs the template checks on its templates instead. The integ apps synthesize as the CLI does, with
  // aws-cdk-lib's synth-time validation (its report is part of each integ snapshot); test/support/jest-environment.ts
  // turns it off for the other suites.
  const demoDir = freshDir('demo');
  demoOutdir = demoDir;
  buildDemoApp(demoDir).app.synth();
  const validation = process.env.CDK_VALIDATION;
  delete process.env.CDK_VALIDATION;
  const integs = readdirSync(TEST_DIR).filter((f) => f.endsWith('.integ.ts')).sort();
  const stackTraceLimit = Error.stackTraceLimit;
  process.env.CDK_CONTEXT_JSON = JSON.stringify(CLI_CONTEXT);
  try {
    for (const file of integs) {
      // Each integ app synthesizes itself on import; App() writes to CDK_OUTDIR when given no outdir.
      process.env.CDK_OUTDIR = freshDir(file.replace(/\.integ\.ts$/, ''));
      integDirs.set(file, process.env.CDK_OUTDIR);
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require(join(TEST_DIR, file));
    }
  } finally {
    delete process.env.CDK_OUTDIR;
    delete process.env.CDK_CONTEXT_JSON;
    if (validation !== undefined) process.env.CDK_VALIDATION = validation;
    // integ-app.ts turns stack traces off to keep its snapshots machine-independent; give jest its traces back.
    Error.stackTraceLimit = stackTraceLimit;
  }
  guard('demo', demoDir);
  for (const [file, dir] of integDirs) guard(file, dir);
  expect(integDirs.size).toBeGreaterThanOrEqual(6);
}, 600_000);

afterAll(() => {
  for (const dir of outdirs) rmSync(dir, { recursive: true, force: true });
});

test('every template of the demo passes the template checks (CloudFormation schemas, the SageMaker API\'s enums and ranges)', () => {
  const problems = readdirSync(demoOutdir).filter((n) => n.endsWith('.template.json'))
    .flatMap((f) => templateProblems(JSON.parse(readFileSync(join(demoOutdir, f), 'utf8'))).map((p) => `${f}: ${p}`));
  expect(problems).toEqual([]);
});

test('every IAM statement of the demo and integ apps fits AWS\'s Service Authorization Reference (actions, condition keys, ARNs)', () => {
  // The same fresh assemblies, so no second synth: test/support/iam-reference.ts says what is checked.
  const dirs = [demoOutdir, ...integDirs.values()];
  let statements = 0;
  const problems: string[] = [];
  for (const dir of dirs) {
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.template.json'))) {
      const template = JSON.parse(readFileSync(join(dir, f), 'utf8'));
      statements += iamStatements(template).length;
      problems.push(...iamReferenceProblems(template).map((p) => `${f}: ${p}`));
    }
  }
  expect(problems).toEqual([]);
  expect(statements).toBeGreaterThan(300);
});

const covers = (e: ControlTowerException, f: Finding) => e.control === f.control && e.resources.test(f.path);

test('every Control Tower finding is a documented exception', () => {
  const undocumented = findings.filter((f) => !CONTROL_TOWER_EXCEPTIONS.some((e) => covers(e, f)));
  expect(undocumented.map((f) => `${f.control} at ${f.path} (${f.app})`)).toEqual([]);
});

test('every documented exception still occurs (the list stays honest)', () => {
  const stale = CONTROL_TOWER_EXCEPTIONS.filter((e) => !findings.some((f) => covers(e, f)));
  expect(stale.map((e) => `${e.control} ${e.resources}`)).toEqual([]);
});

test('every integ app synthesizes to its committed snapshot (as `npx projen integ:<name>:assert` checks)', () => {
  const drift = [...integDirs].flatMap(([file, dir]) =>
    diffSnapshot(join(TEST_DIR, file.replace(/\.ts$/, '.snapshot')), dir).map((p) => `${file}: ${p}`));
  // To accept an intended change: npx projen bundle && npx projen integ:<name>:snapshot
  expect(drift).toEqual([]);
  expect(integDirs.size).toBeGreaterThanOrEqual(6);
});

test('docs/checks.md shows the exception list', () => {
  const docs = readFileSync(join(__dirname, '..', '..', 'docs', 'checks.md'), 'utf8');
  expect(docs).toContain(renderExceptionsTable());
});

test('every Control Tower rule names the resource types it checks (what lets a template skip the rules of types it lacks)', () => {
  expect(RULE_TYPES.size).toBeGreaterThan(200);
  expect([...RULE_TYPES].filter(([, types]) => types.size === 0).map(([rule]) => rule)).toEqual([]);
  // A template of one type gets that type's rules, and not another's.
  const disabled = (validatorFor(new Set(['AWS::SQS::Queue'])) as unknown as { disabledRules: string[] }).disabledRules;
  expect(disabled).not.toContain('ct-sqs-pr-1');
  expect(disabled).toContain('ct-s3-pr-1');
});

test('the validator runs the Control Tower rules and reports what it should (not vacuous)', () => {
  // The controls this library's resources meet: a regression in any of them shows up as an undocumented finding above.
  for (const control of ['CT.CLOUDWATCH.PR.1', 'CT.CLOUDWATCH.PR.2', 'CT.CLOUDWATCH.PR.3', 'CT.KMS.PR.3', 'CT.S3.PR.11', 'CT.SQS.PR.1']) {
    expect([...CONTROLS.values()]).toContain(control);
  }
  // A template breaking three of those controls, through the same validator.
  const dir = freshDir('canary');
  writeFileSync(join(dir, 'Canary.template.json'), JSON.stringify({
    Resources: {
      Alarm: { Type: 'AWS::CloudWatch::Alarm', Properties: { ComparisonOperator: 'GreaterThanThreshold', EvaluationPeriods: 1, Threshold: 1, MetricName: 'Errors', Namespace: 'AWS/Lambda', Period: 60, Statistic: 'Sum' } },
      Key: { Type: 'AWS::KMS::Key', Properties: { KeyPolicy: { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { AWS: 'arn:aws:iam::123456789012:root' }, Action: 'kms:*', Resource: '*' }] } } },
      Logs: { Type: 'AWS::Logs::LogGroup', Properties: { RetentionInDays: 30 } },
    },
  }));
  const before = findings.length;
  guard('canary', dir);
  const canary = findings.splice(before).map((f) => `${f.control} ${f.path}`).sort();
  expect(canary).toEqual(expect.arrayContaining(['CT.CLOUDWATCH.PR.1 Alarm', 'CT.CLOUDWATCH.PR.2 Logs', 'CT.CLOUDWATCH.PR.3 Logs', 'CT.KMS.PR.3 Key']));
});
