/* eslint-disable no-console */
/**
 * `npx projen demo`: synthesizes the example MCP stack into cdk.out/ (no AWS account, no lookups) and prints what it
 * built: each of our constructs, resource counts by type, the IAM statements, the MCP tools it would expose, and the
 * cdk-nag AwsSolutions result.
 */
import { existsSync, readFileSync } from 'fs';
import { join } from 'path';
import { Stack } from 'aws-cdk-lib';
import { IConstruct } from 'constructs';
import { buildDemoApp } from './app';
import * as library from '../src';

const outdir = join(__dirname, '..', 'cdk.out');

function main(): number {
  const { app, stacks, describe } = buildDemoApp(outdir);
  let synthError: unknown;
  try {
    app.synth();
  } catch (err) {
    synthError = err;
  }

  for (const stack of stacks) {
    console.log(`\n=== Stack ${stack.stackName} (${stack.region}) -> ${join('cdk.out', stack.templateFile)}`);
    printOurConstructs(stack);
    const template = readTemplate(stack);
    if (template) {
      printResourceCounts(template);
      printIamStatements(template);
    }
  }
  for (const line of describe()) console.log(line);
  printAcknowledgements(stacks);

  return printNagResult(synthError);
}

/** Our classes, from the library's jsii entry point. */
const ourClasses = Object.entries(library)
  .filter(([, v]) => typeof v === 'function' && (v as any).prototype)
  .map(([name, cls]) => ({ name, cls: cls as new (...args: any[]) => unknown }));

function ourClassOf(c: IConstruct): string | undefined {
  // The most specific class wins (a subclass is listed after its base when both are ours).
  const matches = ourClasses.filter(({ cls }) => c instanceof cls);
  matches.sort((a, b) => (a.cls.prototype instanceof b.cls ? -1 : b.cls.prototype instanceof a.cls ? 1 : 0));
  return matches[0]?.name;
}

function printOurConstructs(stack: Stack) {
  console.log('\nOur constructs:');
  const walk = (c: IConstruct, depth: number) => {
    const name = c === stack ? undefined : ourClassOf(c);
    if (name) console.log(`  ${'  '.repeat(depth)}${name}  ${c.node.path}`);
    for (const child of c.node.children) walk(child, name ? depth + 1 : depth);
  };
  walk(stack, 0);
}

function readTemplate(stack: Stack): any | undefined {
  const file = join(outdir, stack.templateFile);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
}

function printResourceCounts(template: any) {
  const counts = new Map<string, number>();
  for (const r of Object.values<any>(template.Resources ?? {})) counts.set(r.Type, (counts.get(r.Type) ?? 0) + 1);
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  console.log(`\nResources: ${total} in ${counts.size} types`);
  for (const [type, n] of [...counts].sort()) console.log(`  ${String(n).padStart(3)}  ${type}`);
}

function printIamStatements(template: any) {
  console.log('\nIAM statements (policy -> effect actions on resources):');
  const show = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
  for (const [id, r] of Object.entries<any>(template.Resources ?? {})) {
    const docs: any[] = [];
    if (r.Type === 'AWS::IAM::Policy') docs.push(r.Properties.PolicyDocument);
    if (r.Type === 'AWS::IAM::Role') for (const p of r.Properties.Policies ?? []) docs.push(p.PolicyDocument);
    for (const doc of docs) {
      for (const s of doc.Statement ?? []) {
        const actions = [].concat(s.Action ?? s.NotAction ?? []).join(', ');
        const resources = [].concat(s.Resource ?? []).map(show).join(', ');
        console.log(`  ${id}: ${s.Effect} ${actions}\n      on ${resources}${s.Condition ? `  when ${JSON.stringify(s.Condition)}` : ''}`);
      }
    }
  }
}

/** Every `Validations.of(x).acknowledge({id, reason})` in the tree, so the reasons are reviewed with the result. */
function printAcknowledgements(stacks: Stack[]) {
  const acks: string[] = [];
  const walk = (c: IConstruct) => {
    for (const entry of c.node.metadata) {
      if (entry.type !== 'aws:cdk:acknowledged-rules') continue;
      // aws-cdk-lib records each acknowledgement as { [ruleId]: reason }.
      for (const [id, reason] of Object.entries(entry.data as Record<string, string>)) {
        acks.push(`  ${id} at ${c.node.path}\n      reason: ${reason}`);
      }
    }
    c.node.children.forEach(walk);
  };
  stacks.forEach(walk);
  console.log(`\nAcknowledged findings (${acks.length}), each with its reason:`);
  acks.forEach((a) => console.log(a));
}

function printNagResult(synthError: unknown): number {
  const reportFile = join(outdir, 'validation-report.json');
  const report = existsSync(reportFile) ? JSON.parse(readFileSync(reportFile, 'utf8')) : undefined;
  const violations: any[] = [];
  for (const plugin of report?.pluginReports ?? []) {
    for (const v of plugin.violations ?? []) violations.push({ plugin: plugin.pluginName, ...v });
  }
  console.log('\ncdk-nag (AwsSolutions) and SageMaker MCP checks:');
  if (violations.length === 0 && !synthError) {
    console.log('  no unacknowledged findings');
    return 0;
  }
  for (const v of violations) {
    const where = (v.violatingConstructs ?? v.violatingResources ?? []).map((c: any) => c.constructPath ?? c.resourceLogicalId).join(', ');
    console.log(`  ${v.ruleName}: ${v.description ?? ''}\n      at ${where}`);
  }
  if (synthError) console.log(`\nSynthesis failed: ${(synthError as Error).message.split('\n')[0]}`);
  return 1;
}

process.exitCode = main();
