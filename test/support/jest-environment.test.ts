/**
 * What test/support/jest-environment.ts promises every test file: the warm template-check engines, no synth-time
 * validation in the tests' realm, and nothing of that in child processes.
 */
import { spawnSync } from 'child_process';
import { existsSync, readFileSync } from 'fs';
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
