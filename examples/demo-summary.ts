/**
 * The demo's first screen: each construct of this library, the MCP tools it is exposed through, its resource count,
 * and the cdk-nag result — all read back from the synthesized template, not from the example code.
 */
import { existsSync, readFileSync } from 'fs';
import { join } from 'path';
import { Stack } from 'aws-cdk-lib';
import { IConstruct } from 'constructs';
import { DemoResource, displayName, ourConstructs, relativePath } from './demo-model';
import { MCP_ENV, McpServerSpec, toolNamesForSpec } from '../packages/runtime/src/contract/mcp';
import { mcpServerSpecFromSecretText } from '../packages/runtime/src/mcp/config';
import { AsyncEndpoint } from '../src/async';
import { EndpointCost, PriceTable, VariantCostEstimate, SharedGpuCostComparison } from '../src/prices';
import { RealtimeEndpoint } from '../src/realtime';
import { SharedGpuEndpoint } from '../src/shared-gpu';

export interface McpExposure {
  /** The construct that owns the MCP server function. */
  readonly server?: IConstruct;
  readonly serverTools: string[];
  /** Per exposed construct: the tools that reach it and the names the server is told. */
  readonly byConstruct: Map<IConstruct, { tools: Set<string>; names: Set<string> }>;
}

/** Reads the server spec the McpToolServer put into its spec secret and maps each entry to its construct. */
export function mcpExposure(index: Map<string, DemoResource>): McpExposure {
  const byConstruct = new Map<IConstruct, { tools: Set<string>; names: Set<string> }>();
  const fn = [...index.values()].find((r) => r.type === 'AWS::Lambda::Function' && r.properties.Environment?.Variables?.[MCP_ENV.SPEC_SECRET_ARN]);
  const secret = fn && index.get(fn.properties.Environment.Variables[MCP_ENV.SPEC_SECRET_ARN].Ref);
  if (!secret) return { serverTools: [], byConstruct };
  // Deploy-time values (an endpoint name CloudFormation generates) stand in as @@LogicalId@@.
  const placeholders = (v: any): string => {
    if (typeof v === 'string') return v;
    if (v?.Ref) return `@@${v.Ref}@@`;
    if (v?.['Fn::GetAtt']) return `@@${v['Fn::GetAtt'][0]}@@`;
    if (v?.['Fn::Join']) return (v['Fn::Join'][1] as unknown[]).map(placeholders).join(v['Fn::Join'][0]);
    return JSON.stringify(v);
  };
  const spec: McpServerSpec = mcpServerSpecFromSecretText(placeholders(secret.properties.SecretString), 'the MCP server spec secret');
  const resourceNamed = (name: string): DemoResource | undefined => {
    const id = /^@@(.+)@@$/.exec(name)?.[1];
    return id ? index.get(id) : [...index.values()].find((r) => displayName(r) === name);
  };
  const expose = (name: string, tools: string[]) => {
    const r = resourceNamed(name);
    if (!r?.owner) return;
    const entry = byConstruct.get(r.owner) ?? { tools: new Set<string>(), names: new Set<string>() };
    tools.forEach((t) => entry.tools.add(t));
    entry.names.add(displayName(r));
    byConstruct.set(r.owner, entry);
  };
  for (const e of spec.realtimeEndpoints ?? []) expose(e.name, toolNamesForSpec({ realtimeEndpoints: [e] }));
  for (const e of spec.asyncEndpoints ?? []) expose(e.name, toolNamesForSpec({ asyncEndpoints: [e] }));
  for (const g of spec.featureGroups ?? []) expose(g.schema.featureGroupName, toolNamesForSpec({ featureGroups: [g] }));
  for (const p of spec.pipelines ?? []) expose(p.name, toolNamesForSpec({ pipelines: [p] }));
  if (spec.trainingResultsTable && spec.pipelines?.length) {
    const withResults = toolNamesForSpec({ pipelines: spec.pipelines, trainingResultsTable: spec.trainingResultsTable });
    expose(spec.trainingResultsTable, withResults.filter((t) => !toolNamesForSpec({ pipelines: spec.pipelines }).includes(t)));
  }
  return { server: fn.owner, serverTools: toolNamesForSpec(spec), byConstruct };
}

export interface NagResult {
  readonly findings: string[];
  readonly acknowledged: number;
  readonly synthError?: string;
}

/** Unacknowledged findings from cdk.out/validation-report.json, and how many were acknowledged with a reason. */
export function nagResult(outdir: string, stacks: Stack[], synthError: unknown): NagResult {
  const reportFile = join(outdir, 'validation-report.json');
  const report = existsSync(reportFile) ? JSON.parse(readFileSync(reportFile, 'utf8')) : undefined;
  const findings: string[] = [];
  for (const plugin of report?.pluginReports ?? []) {
    for (const v of plugin.violations ?? []) {
      const where = (v.violatingConstructs ?? v.violatingResources ?? []).map((c: any) => c.constructPath ?? c.resourceLogicalId).join(', ');
      findings.push(`${v.ruleName}: ${v.description ?? ''}\n      at ${where}`);
    }
  }
  const acknowledged = stacks.flatMap((s) => s.node.findAll())
    .flatMap((c) => c.node.metadata.filter((m) => m.type === 'aws:cdk:acknowledged-rules'))
    .reduce((n, m) => n + Object.keys(m.data as object).length, 0);
  return { findings, acknowledged, synthError: synthError ? (synthError as Error).message.split('\n')[0] : undefined };
}

/** One screen: the constructs, their tools and resource counts, the totals and the check result. */
export function formatSummary(stack: Stack, index: Map<string, DemoResource>, exposure: McpExposure, nag: NagResult): string[] {
  const resources = [...index.values()];
  const rows = ourConstructs(stack).map(({ construct, className, depth }) => {
    const own = resources.filter((r) => r.owner === construct).length;
    const exposed = exposure.byConstruct.get(construct);
    const tools = construct === exposure.server
      ? `serves ${exposure.serverTools.length} tools at its function URL`
      : exposed ? `${[...exposed.tools].join(', ')}  (${[...exposed.names].join(', ')})` : depth > 0 ? '(see above)' : '-';
    return [`${'  '.repeat(depth)}${className}`, relativePath(stack, construct), depth > 0 ? '' : String(own), tools];
  });
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length), ['construct', 'path', 'res.'][i].length));
  const line = (r: string[]) => `  ${r[0].padEnd(widths[0])}  ${r[1].padEnd(widths[1])}  ${r[2].padStart(widths[2])}  ${r[3]}`;
  const outside = resources.filter((r) => !r.owner).length;
  const check = nag.findings.length === 0 && !nag.synthError
    ? `no unacknowledged findings (${nag.acknowledged} acknowledged, each with its reason: see below)`
    : `${nag.findings.length} unacknowledged finding(s)${nag.synthError ? `; synthesis failed: ${nag.synthError}` : ''}`;
  return [
    `Stack ${stack.stackName} (${stack.region}): ${resources.length} resources, ${rows.length} constructs of this library`,
    '',
    line(['construct', 'path', 'res.', 'MCP tools that reach it']),
    ...rows.map(line),
    ...(outside ? [line(['(the app\'s own)', '', String(outside), ''])] : []),
    '',
    `MCP tools (${exposure.serverTools.length}): ${exposure.serverTools.join(', ')}`,
    `cdk-nag AwsSolutions + SageMakerMcpChecks: ${check}`,
  ];
}

/**
 * What the demo's endpoints cost, from each construct's `costEstimate()` (and the shared-GPU endpoint's
 * `costComparison()`): per endpoint (per variant) hourly and monthly at its fewest and most instances.
 */
export function formatCostEstimates(stack: Stack): string[] {
  const rows: Array<[string, VariantCostEstimate]> = [];
  const comparisons: Array<[string, SharedGpuCostComparison]> = [];
  for (const c of stack.node.findAll()) {
    const path = relativePath(stack, c);
    if (c instanceof RealtimeEndpoint) {
      const estimates = c.costEstimate().variants;
      estimates.forEach((e) => rows.push([estimates.length > 1 ? `${path}/${e.variantName}` : path, e]));
    } else if (c instanceof AsyncEndpoint || c instanceof SharedGpuEndpoint) {
      rows.push([path, c.costEstimate().variants[0]]);
      if (c instanceof SharedGpuEndpoint && c.inferenceComponents.length > 0) comparisons.push([path, c.costComparison()]);
    }
  }
  const usd = (n: number | undefined) => `$${n}`;
  const widths = [Math.max(...rows.map(([p]) => p.length)), Math.max(...rows.map(([, e]) => capacity(e).length))];
  const lines = rows.map(([path, e]) => `  ${path.padEnd(widths[0])}  ${capacity(e).padEnd(widths[1])}  ${e.priceKnown
    ? `${usd(e.hourlyAtMinUsd)}/h, ${usd(e.monthlyAtMinUsd)}/month at ${e.minInstances}${e.scalesToZero ? ' (scale-to-zero floor)' : ''}; `
      + `${usd(e.hourlyAtMaxUsd)}/h, ${usd(e.monthlyAtMaxUsd)}/month at ${e.maxInstances}  (${usd(e.pricePerInstanceHourUsd)}/h, ${e.priceAsOf})`
    : 'price not in table'}`);
  for (const [path, c] of comparisons) {
    const separate = c.separate.map((s) => `${s.name} ${s.copies} × ${s.instanceType}`).join(', ');
    lines.push(`  ${path} packed vs separate: ${c.packedInstanceCount} × ${c.packedInstanceType} vs ${separate}: ${c.priceKnown
      ? `${usd(c.packedHourlyUsd)}/h vs ${usd(c.separateHourlyUsd)}/h, packing saves ${usd(c.monthlySavingUsd)}/month`
      : `price not in table (${c.missingPrices.join(', ')})`}`);
  }
  return [
    `Cost estimate (on-demand, price table of ${EndpointCost.PRICE_TABLE_DATE}; an estimate, not a bill; a month is ${EndpointCost.HOURS_PER_MONTH} h; `
      + 'give a table from cdk-sagemaker-mcp prices as costEstimate({ priceTable: PriceTable.fromFile(...) }), or prices as { hourlyPricesUsd }):',
    // Until the bundled table has rows, say where they will come from.
    ...(PriceTable.bundled().regions.length === 0 ? [`  (${PriceTable.bundled().source})`] : []),
    ...lines,
  ];
}

function capacity(e: VariantCostEstimate): string {
  return `${e.minInstances}-${e.maxInstances} × ${e.instanceType}`;
}
