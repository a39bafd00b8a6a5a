/* eslint-disable no-console */
/**
 * `npx projen demo`: synthesizes the example MCP stack into cdk.out/ (no AWS account, no lookups), prints a one-screen
 * summary (our constructs, the MCP tools that reach each, resource counts, the cdk-nag result) and what the endpoints
 * cost (an estimate from the bundled price table), then the details
 * (resources by type, IAM statements as ARN strings, acknowledged findings with their reasons), and draws the app:
 * cdk.out/architecture.svg (and .png, .dot) and the dashboard's layout, cdk.out/dashboard.svg (and .png). DEMO_OUTDIR overrides cdk.out (the tests use a temp folder).
 */
import { existsSync, readFileSync } from 'fs';
import { join, relative } from 'path';
import { Stack } from 'aws-cdk-lib';
import { IConstruct } from 'constructs';
import { buildDemoApp } from './app';
import { dashboardWidgets, writeDashboardPicture } from './demo-dashboard';
import { architectureDot, writeArchitectureDiagram } from './demo-diagram';
import { formatIamStatements } from './demo-iam';
import { indexResources } from './demo-model';
import { formatCostEstimates, formatSummary, mcpExposure, nagResult } from './demo-summary';

const outdir = process.env.DEMO_OUTDIR ?? join(__dirname, '..', 'cdk.out');

async function main(): Promise<number> {
  const { app, stacks } = buildDemoApp(outdir);
  let synthError: unknown;
  try {
    app.synth();
  } catch (err) {
    synthError = err;
  }
  const nag = nagResult(outdir, stacks, synthError);
  const shown = (file: string) => (file.startsWith(process.cwd()) ? relative(process.cwd(), file) : file);

  for (const stack of stacks) {
    const template = readTemplate(stack);
    if (!template) continue;
    const index = indexResources(stack, template);
    const diagram = await writeArchitectureDiagram(architectureDot(stack, index), outdir);
    console.log(formatSummary(stack, index, mcpExposure(index), nag).join('\n'));
    console.log(`Template: ${shown(join(outdir, stack.templateFile))}`);
    console.log(`Diagram:  ${diagram.map(shown).join(', ')}`);
    const widgets = dashboardWidgets(template);
    if (widgets) {
      const picture = await writeDashboardPicture(widgets, `${stack.stackName}: SageMakerMcpDashboard (${widgets.length} widgets)`, outdir);
      console.log(`Dashboard: ${picture.map(shown).join(', ')} (${widgets.length} widgets)`);
    }
    console.log(`\n${formatCostEstimates(stack).join('\n')}`);

    console.log('\n--- Details ---');
    printResourceCounts(template);
    console.log('\nIAM statements, by role (${...} is resolved at deploy time; <path> is a name CloudFormation generates):');
    console.log(formatIamStatements(index).join('\n'));
  }
  printAcknowledgements(stacks);
  for (const finding of nag.findings) console.log(`\nFINDING ${finding}`);
  if (nag.synthError) console.log(`\nSynthesis failed: ${nag.synthError}`);
  return nag.findings.length || nag.synthError ? 1 : 0;
}

function readTemplate(stack: Stack): any | undefined {
  const file = join(outdir, stack.templateFile);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
}

function printResourceCounts(template: any) {
  const counts = new Map<string, number>();
  for (const r of Object.values<any>(template.Resources ?? {})) counts.set(r.Type, (counts.get(r.Type) ?? 0) + 1);
  console.log(`\nResources by type (${counts.size} types):`);
  for (const [type, n] of [...counts].sort()) console.log(`  ${String(n).padStart(3)}  ${type}`);
}

/** Every `Validations.of(x).acknowledge({id, reason})` in the tree, so the reasons are reviewed with the result. */
function printAcknowledgements(stacks: Stack[]) {
  const acks: string[] = [];
  const walk = (c: IConstruct) => {
    for (const entry of c.node.metadata) {
      if (entry.type !== 'aws:cdk:acknowledged-rules') continue;
      // aws-cdk-lib records each acknowledgement as { [ruleId]: reason }.
      for (const [id, reason] of Object.entries(entry.data as Record<string, string>)) {
        acks.push(`  ${id.replace(/^Annotation::/, '')} at ${c.node.path}\n      reason: ${reason}`);
      }
    }
    c.node.children.forEach(walk);
  };
  stacks.forEach(walk);
  console.log(`\nAcknowledged findings (${acks.length}), each with its reason:`);
  acks.forEach((a) => console.log(a));
}

main().then((code) => (process.exitCode = code), (err) => {
  console.error(err);
  process.exitCode = 1;
});
