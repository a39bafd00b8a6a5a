/**
 * What test/support/jest-environment.ts promises every test file: the warm template-check engines, no synth-time
 * validation in the tests' realm, and nothing of that in child processes.
 */
import { spawnSync } from 'child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { App, CfnResource, CloudFormationValidatePlugin, Stack } from 'aws-cdk-lib';
import type { TemplateCheckEngines } from './jest-environment';
import { templateProblems } from './template-checks';

const engines = (globalThis as { __templateCheckEngines?: TemplateCheckEngines }).__templateCheckEngines;

test('the environment hands every test file the same engines, loaded once', () => {
  expect(engines).toBeDefined();
  expect(engines!.specDatabase()).toBe(engines!.specDatabase());
});

test('the shared engine reports what the built-in validation reports (a role with no trust policy statements)', () => {
  const template = { Resources: { R: { Type: 'AWS::IAM::Role', Properties: { AssumeRolePolicyDocument: { Version: '2012-10-17' } } } } };
  expect(templateProblems(template).some((p) => p.includes('[cdk-validate'))).toBe(true);
});

test('templates of other resource types reuse the engine, which still reports each one\'s problems', () => {
  // GIVEN templates of different types, each with a problem, one of a type outside the services the engine starts with
  const role = { Type: 'AWS::IAM::Role', Properties: { AssumeRolePolicyDocument: { Version: '2012-10-17' } } };
  const queue = { Type: 'AWS::SQS::Queue', Properties: { DelaySeconds: 901 } };
  const jobQueue = { Type: 'AWS::Batch::JobQueue', Properties: { State: 'PAUSED' } };
  const templates = [role, queue, role, jobQueue, queue].map((r) => ({ Resources: { R: r } }));
  const dir = mkdtempSync(join(tmpdir(), 'engine-'));
  const contextOf = (template: object, i: number) => {
    const templatePath = join(dir, `t${i}.json`);
    writeFileSync(templatePath, JSON.stringify(template));
    return { templatePaths: [templatePath], stackTemplates: [{ stackConstructPath: 'S', templatePath, accountId: undefined, region: undefined }] } as any;
  };
  try {
    engines!.cloudFormationValidate(contextOf(templates[0], 99));
    const built = engines!.engineBuilds();
    // WHEN each is checked by the shared engine
    const reports = templates.map((t, i) => engines!.cloudFormationValidate(contextOf(t, i)));
    // THEN each problem is reported, and only the type outside the first build's services built the engine again
    expect(reports.map((r) => r.violations.length > 0)).toEqual(templates.map(() => true));
    expect(engines!.engineBuilds()).toBe(built + 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a synth in the tests runs no built-in CloudFormation validation; the same synth outside does (and reports)', () => {
  const reportOf = (env: string | undefined) => {
    const saved = process.env.CDK_VALIDATION;
    if (env === undefined) delete process.env.CDK_VALIDATION; else process.env.CDK_VALIDATION = env;
    try {
      const app = new App();
      new CfnResource(new Stack(app, 'S'), 'R', { type: 'AWS::IAM::Role', properties: { AssumeRolePolicyDocument: { Version: '2012-10-17' } } });
      const file = join(app.synth().directory, 'validation-report.json');
      return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).pluginReports.map((r: { pluginName: string }) => r.pluginName) : [];
    } finally {
      process.env.CDK_VALIDATION = saved;
    }
  };
  expect(process.env.CDK_VALIDATION).toBe('false');
  expect(reportOf('false')).not.toContain(CloudFormationValidatePlugin.PLUGIN_NAME);
  expect(reportOf(undefined)).toContain(CloudFormationValidatePlugin.PLUGIN_NAME);
});

test('child processes keep the machine environment (no CDK_VALIDATION=false from the tests realm)', () => {
  // (Unless the shell that started jest exported CDK_VALIDATION=false itself.)
  const child = spawnSync(process.execPath, ['-p', 'String(process.env.CDK_VALIDATION)'], { encoding: 'utf8' });
  expect(child.status).toBe(0);
  expect(child.stdout.trim()).not.toBe('false');
});
