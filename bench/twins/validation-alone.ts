/**
 * aws-cdk-lib's CloudFormation template validation run alone on one twin's 50-endpoint template, to show where ours
 * costs more than the alpha's: ours and the alpha's templates as synthesized, and two counterfactuals of ours (the
 * same template edited) that price the model roles' logs and metrics statements, which the alpha's roles do not carry
 * (they attach AmazonSageMakerFullAccess instead):
 * - `oursWithoutBasics`: those statements taken out of every role's policy (what validating them costs);
 * - `oursBasicsInOneManagedPolicy`: those statements in one customer-managed policy that every role attaches, the one
 *   structure that keeps them and writes them once.
 * Read by bench/synth-instructions.bench.ts, which counts each file's validation in a fresh process.
 */
import { mkdirSync, writeFileSync } from 'fs';
import { join } from 'path';
import { synthAlpha } from './alpha';
import { ENV, STACK_NAME } from './common';
import { synthOurs } from './ours';

const OUT = join(__dirname, '..', '..', '.bench-out', 'validation-alone');

export const VALIDATED_TEMPLATES = ['ours', 'alpha', 'oursWithoutBasics', 'oursBasicsInOneManagedPolicy'] as const;
export type ValidatedTemplate = typeof VALIDATED_TEMPLATES[number];

interface Statement { readonly Action: string | string[] }
interface Resource { readonly Type: string; readonly Properties: Record<string, any> }
interface Template { Resources: Record<string, Resource> }

/** A model role's logs and metrics statement (src/private/model.ts, `addExecutionRoleBasics`). */
function isBasics(statement: Statement): boolean {
  const actions = ([] as string[]).concat(statement.Action);
  return actions.every((a) => a.startsWith('logs:')) || (actions.length === 1 && actions[0] === 'cloudwatch:PutMetricData');
}

/** Removes the basics from every role policy of `template` and returns them (one role's copy). */
function takeOutBasics(template: Template): Statement[] {
  let basics: Statement[] = [];
  for (const resource of Object.values(template.Resources)) {
    if (resource.Type !== 'AWS::IAM::Policy') continue;
    const statements: Statement[] = resource.Properties.PolicyDocument.Statement;
    basics = statements.filter(isBasics);
    resource.Properties.PolicyDocument.Statement = statements.filter((s) => !isBasics(s));
  }
  if (basics.length !== 2) throw new Error(`expected the logs and the metrics statement in each model role's policy, found ${basics.length}`);
  return basics;
}

function withBasicsInOneManagedPolicy(template: Template): Template {
  const basics = takeOutBasics(template);
  for (const resource of Object.values(template.Resources)) {
    if (resource.Type === 'AWS::IAM::Role') resource.Properties.ManagedPolicyArns = [{ Ref: 'ModelRoleBasics' }];
  }
  template.Resources.ModelRoleBasics = {
    Type: 'AWS::IAM::ManagedPolicy',
    Properties: { PolicyDocument: { Statement: basics, Version: '2012-10-17' } },
  };
  return template;
}

/**
 * Writes the four templates of `endpoints` endpoints (to `outDir`, by default .bench-out/validation-alone/) and the
 * script that validates one (its path the first argument) with the plugin aws-cdk-lib's synth runs,
 * `CloudFormationValidatePlugin`, as configured by default. Returns the script and each template's path.
 */
export function writeValidationAlone(
  endpoints: number, outDir = OUT,
): { script: string; templates: Record<ValidatedTemplate, string> } {
  mkdirSync(outDir, { recursive: true });
  const before = process.env.CDK_VALIDATION;
  process.env.CDK_VALIDATION = 'false'; // The twins synthesize here only to write their templates.
  let ours: Template;
  let alpha: Template;
  try {
    ours = synthOurs(endpoints, 'bucket') as Template;
    alpha = synthAlpha(endpoints) as Template;
  } finally {
    if (before === undefined) delete process.env.CDK_VALIDATION;
    else process.env.CDK_VALIDATION = before;
  }
  const copy = (t: Template): Template => JSON.parse(JSON.stringify(t));
  const withoutBasics = copy(ours);
  takeOutBasics(withoutBasics);
  const contents: Record<ValidatedTemplate, Template> = {
    ours,
    alpha,
    oursWithoutBasics: withoutBasics,
    oursBasicsInOneManagedPolicy: withBasicsInOneManagedPolicy(copy(ours)),
  };
  const templates = {} as Record<ValidatedTemplate, string>;
  for (const name of VALIDATED_TEMPLATES) {
    templates[name] = join(outDir, `${name}.template.json`);
    // Indented by one, as aws-cdk-lib writes a stack's template.
    writeFileSync(templates[name], JSON.stringify(contents[name], undefined, 1));
  }
  const script = join(outDir, 'validate.js');
  writeFileSync(script, `const { CloudFormationValidatePlugin } = require(${JSON.stringify(require.resolve('aws-cdk-lib'))});
const templatePath = process.argv[2];
const report = new CloudFormationValidatePlugin().validate({
  templatePaths: [templatePath],
  stackTemplates: [{ stackConstructPath: '${STACK_NAME}', templatePath, accountId: '${ENV.account}', region: '${ENV.region}' }],
});
if (!report.success) throw new Error(templatePath + ': ' + JSON.stringify(report.violations));
`);
  return { script, templates };
}
