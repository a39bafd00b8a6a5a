/**
 * `npx projen demo` as a user runs it (ts-node on examples/demo.ts, in a child process), writing into a temp folder:
 * a one-screen summary first, IAM statements as ARN strings, and an architecture picture that names every construct.
 */
import { execFile } from 'child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { promisify } from 'util';
import { Resvg } from '@resvg/resvg-js';
import { CfnElement, Stack } from 'aws-cdk-lib';
import { buildDemoApp } from '../../examples/app';
import { dashboardWidgets } from '../../examples/demo-dashboard';
import { ourConstructs, relativePath } from '../../examples/demo-model';
import { AsyncEndpoint } from '../../src/async';
import { EndpointCost, PriceTable, VariantCostEstimate } from '../../src/prices';
import { RealtimeEndpoint } from '../../src/realtime';
import { SharedGpuEndpoint } from '../../src/shared-gpu';

const ROOT = join(__dirname, '..', '..');
let outdir: string;
let stdout: string;
let exitCode: number;

beforeAll(async () => {
  outdir = mkdtempSync(join(tmpdir(), 'demo-'));
  const run = await promisify(execFile)(process.execPath,
    [join(ROOT, 'node_modules', 'ts-node', 'dist', 'bin.js'), '--project', 'examples/tsconfig.json', '--transpile-only', 'examples/demo.ts'],
    { cwd: ROOT, env: { ...process.env, DEMO_OUTDIR: outdir }, maxBuffer: 16 * 1024 * 1024 }).catch((e) => e);
  stdout = run.stdout;
  exitCode = run.code ?? 0;
}, 180_000);

afterAll(() => {
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

/** The demo's stack, constructed here (not synthesized) to know what the picture must name. */
function demoStack(): Stack {
  return buildDemoApp().stacks[0];
}

test('exits 0 and starts with a one-screen summary: each construct, its MCP tools, resource counts, the check result', () => {
  expect(exitCode).toBe(0);
  const firstScreen = stdout.split('\n').slice(0, 30).join('\n');
  const stack = demoStack();
  for (const { className, construct } of ourConstructs(stack)) {
    expect(firstScreen).toMatch(new RegExp(`${className}\\s+${relativePath(stack, construct)}\\b`));
  }
  expect(firstScreen).toMatch(/RealtimeEndpoint\s+ChatEndpoint\s+\d+\s+invoke_endpoint, describe_endpoint/);
  expect(firstScreen).toMatch(/FeatureGroup\s+UserBehaviorFeatures\s+\d+\s+get_online_features, put_feature_record/);
  expect(firstScreen).toMatch(/PipelineEventRouter\s+TrainingResults\s+\d+\s+get_training_result/);
  expect(firstScreen).toMatch(/Stack SageMakerMcpDemo \(us-east-1\): \d+ resources, 20 constructs of this library/);
  expect(firstScreen).toContain('cdk-nag AwsSolutions + SageMakerMcpChecks: no unacknowledged findings');
  expect(firstScreen).toContain(`Diagram:  ${join(outdir, 'architecture.dot')}, ${join(outdir, 'architecture.svg')}, ${join(outdir, 'architecture.png')}`);
});

test('a cost section: each endpoint at its fewest and most instances, as its costEstimate() says, or "price not in table"', () => {
  const section = stdout.slice(stdout.indexOf('Cost estimate ('), stdout.indexOf('--- Details ---'));
  expect(section).toMatch(new RegExp(`^Cost estimate \\(on-demand, price table of ${EndpointCost.PRICE_TABLE_DATE}; an estimate, not a bill`));
  // With no bundled rows yet, the section says where they will come from.
  if (PriceTable.bundled().regions.length === 0) expect(section).toContain('empty until the prices workflow first runs: .github/workflows/prices.yml');
  const stack = demoStack();
  const lineOf = (path: string) => section.split('\n').find((l) => l.startsWith(`  ${path} `)) ?? `(no line for ${path})`;
  const expectLine = (path: string, e: VariantCostEstimate) => {
    const line = lineOf(path);
    expect(line).toContain(`${e.minInstances}-${e.maxInstances} × ${e.instanceType}`);
    if (e.priceKnown) {
      expect(line).toContain(`$${e.hourlyAtMinUsd}/h, $${e.monthlyAtMinUsd}/month at ${e.minInstances}`);
      expect(line).toContain(`$${e.hourlyAtMaxUsd}/h, $${e.monthlyAtMaxUsd}/month at ${e.maxInstances}`);
    } else {
      expect(line).toContain('price not in table');
    }
  };
  const endpoints = stack.node.findAll();
  const realtime = endpoints.filter((c): c is RealtimeEndpoint => c instanceof RealtimeEndpoint);
  const asyncEndpoints = endpoints.filter((c): c is AsyncEndpoint => c instanceof AsyncEndpoint);
  const shared = endpoints.filter((c): c is SharedGpuEndpoint => c instanceof SharedGpuEndpoint);
  expect([realtime.length, asyncEndpoints.length, shared.length]).toEqual([3, 1, 1]);
  realtime.forEach((r) => expectLine(relativePath(stack, r), r.costEstimate().variants[0]));
  const docs = asyncEndpoints[0].costEstimate().variants[0];
  expectLine(relativePath(stack, asyncEndpoints[0]), docs);
  // The async example scales to zero; the bundled table is empty (docs/cost.md), so no price is known and none is printed.
  expect(docs).toMatchObject({ scalesToZero: true, priceKnown: false });
  expect(lineOf(relativePath(stack, asyncEndpoints[0]))).toContain('0-');
  expectLine(relativePath(stack, shared[0]), shared[0].costEstimate().variants[0]);
  const comparison = shared[0].costComparison();
  const compared = lineOf(`${relativePath(stack, shared[0])} packed vs separate:`);
  comparison.separate.forEach((s) => expect(compared).toContain(`${s.name} ${s.copies} × ${s.instanceType}`));
  expect(compared).toContain(comparison.priceKnown ? `packing saves $${comparison.monthlySavingUsd}/month` : `price not in table (${comparison.missingPrices.join(', ')})`);
});

test('IAM statements are ARN strings, not CloudFormation JSON', () => {
  expect(stdout).not.toContain('Fn::Join');
  expect(stdout).not.toContain('{"Ref"');
  expect(stdout).toContain('on arn:${Partition}:sagemaker:${Region}:${Account}:endpoint/mcp-chat\n');
  // A name CloudFormation generates is shown by its construct path.
  expect(stdout).toContain('on arn:${Partition}:s3:::<DocProcessor/Bucket>/inputs/*');
  expect(stdout).toContain('on arn:${Partition}:dynamodb:${Region}:${Account}:table/<DocProcessor/Results/JobTable>');
});

describe('the dashboard picture', () => {
  test('draws every widget of the synthesized dashboard at its grid position, with its title, as SVG and PNG', () => {
    const template = JSON.parse(readFileSync(join(outdir, 'SageMakerMcpDemo.template.json'), 'utf8'));
    const widgets = dashboardWidgets(template)!;
    const svg = readFileSync(join(outdir, 'dashboard.svg'), 'utf8');
    expect(stdout).toContain(`Dashboard: ${join(outdir, 'dashboard.svg')}, ${join(outdir, 'dashboard.png')} (${widgets.length} widgets)`);
    expect(widgets.map((w) => w.type)).toEqual(expect.arrayContaining(['text', 'alarm', 'metric']));
    expect(svg.match(/<rect [^>]*rx="4"/g)).toHaveLength(widgets.length);
    for (const w of widgets) expect(svg).toContain(`x="${10 + w.x * 52}" y="${40 + w.y * 30}" width="${w.width * 52 - 4}"`);
    expect(svg).toContain('McpToolServer: tool calls (Sum)');
    expect(new Resvg(svg).render().width).toBe(24 * 52 + 20);
    expect(readFileSync(join(outdir, 'dashboard.png')).subarray(1, 4).toString()).toBe('PNG');
  });
});

describe('the architecture picture', () => {
  let svg: string;
  beforeAll(() => {
    svg = readFileSync(join(outdir, 'architecture.svg'), 'utf8');
  });

  test('is an SVG document that an SVG renderer parses, and a PNG', () => {
    expect(svg).toMatch(/^<\?xml [^>]*\?>/);
    expect(svg).toMatch(/<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    const rendered = new Resvg(svg).render();
    expect(rendered.width).toBeGreaterThan(800);
    expect(readFileSync(join(outdir, 'architecture.png')).subarray(1, 4).toString()).toBe('PNG');
    expect(() => new Resvg('<svg xmlns="http://www.w3.org/2000/svg"><g></svg>')).toThrow();
  });

  test('names every construct of the demo: a cluster per construct, a node per nested one', () => {
    const stack = demoStack();
    const texts = [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1].replace(/&#45;/g, '-'));
    const titles = new Set([...svg.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1]));
    for (const { construct, className, depth } of ourConstructs(stack)) {
      if (depth === 0) {
        expect(texts).toContain(`${className}: ${relativePath(stack, construct)}`);
      } else {
        const elements = construct.node.findAll().filter(CfnElement.isCfnElement);
        // The picture draws no IAM resources: a nested construct made only of them (TrainingJobRole) has no node.
        if (elements.every((c) => (c as any).cfnResourceType?.startsWith('AWS::IAM::'))) continue;
        const ids = elements.map((c) => stack.resolve(c.logicalId));
        expect(ids.some((id) => titles.has(id))).toBe(true);
      }
    }
  });

  test('draws the data flows: agent -> MCP server -> endpoints, feature group, pipeline; async and training results', () => {
    const dot = readFileSync(join(outdir, 'architecture.dot'), 'utf8');
    const edge = (from: RegExp, to: RegExp) => dot.split('\n').some((l) => {
      const m = /^\s*"([^"]+)" -> "([^"]+)"/.exec(l);
      return m !== null && from.test(m[1]) && to.test(m[2]);
    });
    expect(edge(/^agent$/, /^McpToolServerFunctionUrl/)).toBe(true);
    for (const target of [/^ChatEndpoint[0-9A-F]{8}$/, /^SharedGpu[0-9A-F]{8}$/, /^DocProcessor[0-9A-F]{8}$/, /^UserBehaviorFeatures[0-9A-F]{8}$/, /^ChurnTrainingPipeline/]) {
      expect(edge(/^McpToolServer[0-9A-F]{8}$/, target)).toBe(true);
    }
    // async: S3 -> endpoint -> SNS -> SQS -> recorder -> job table
    expect(edge(/^DocProcessorBucket/, /^DocProcessor[0-9A-F]{8}$/)).toBe(true);
    expect(edge(/^DocProcessor[0-9A-F]{8}$/, /^DocProcessorSuccessTopic/)).toBe(true);
    expect(edge(/^DocProcessorSuccessTopic/, /^DocProcessorResultsQueue/)).toBe(true);
    expect(edge(/^DocProcessorResultsQueue/, /^DocProcessorResultsRecorder/)).toBe(true);
    expect(edge(/^DocProcessorResultsRecorder/, /^DocProcessorResultsJobTable/)).toBe(true);
    // training: pipeline -> EventBridge -> router -> results table
    expect(edge(/^ChurnTrainingPipeline/, /^TrainingResultsRule/)).toBe(true);
    expect(edge(/^TrainingResultsRule/, /^TrainingResultsHandler/)).toBe(true);
    expect(edge(/^TrainingResultsHandler/, /^TrainingResultsResultsTable/)).toBe(true);
  });

  test('the files are where the summary says', () => {
    for (const f of ['architecture.svg', 'architecture.png', 'architecture.dot', 'SageMakerMcpDemo.template.json']) expect(existsSync(join(outdir, f))).toBe(true);
  });

  test('is the picture the README shows (docs/architecture.svg, which `npx projen demo` refreshes)', () => {
    const committed = readFileSync(join(ROOT, 'docs', 'architecture.svg'), 'utf8');
    // not toBe(svg): a 40 KB diff of SVG coordinates says less than this
    expect(svg === committed ? 'up to date' : 'docs/architecture.svg is stale: run `npx projen demo` and commit it').toBe('up to date');
  });
});
