/**
 * The demo's picture: a Graphviz graph derived from the synthesized template — each construct of this library as a
 * cluster with its main resources, and the data flows the template wires (function URL, IAM grants, SNS subscriptions,
 * event source mappings, EventBridge targets, dead-letter queues) — rendered to SVG by Graphviz compiled to WebAssembly
 * (@hpcc-js/wasm-graphviz, no system package) and to PNG by resvg.
 */
import { writeFileSync } from 'fs';
import { join } from 'path';
import { Stack } from 'aws-cdk-lib';
import { iamStatements } from './demo-iam';
import { DemoResource, displayName, ourClassOf, referencedIds, relativePath } from './demo-model';

/** Resource types drawn as nodes (the rest — roles, policies, alarms, keys, scaling — are counted in the cluster label). */
const SHOWN: Record<string, { label: string; shape: string; color: string }> = {
  'AWS::SageMaker::Endpoint': { label: 'SageMaker endpoint', shape: 'box3d', color: '#d5e8d4' },
  'AWS::SageMaker::InferenceComponent': { label: 'inference component', shape: 'component', color: '#d5e8d4' },
  'AWS::SageMaker::FeatureGroup': { label: 'feature group', shape: 'cylinder', color: '#e1d5e7' },
  'AWS::SageMaker::Pipeline': { label: 'SageMaker pipeline', shape: 'cds', color: '#e1d5e7' },
  'AWS::S3::Bucket': { label: 'S3 bucket', shape: 'folder', color: '#ffe6cc' },
  'AWS::SNS::Topic': { label: 'SNS topic', shape: 'box', color: '#f8cecc' },
  'AWS::SQS::Queue': { label: 'SQS queue', shape: 'box', color: '#f8cecc' },
  'AWS::Lambda::Function': { label: 'Lambda', shape: 'box', color: '#fff2cc' },
  'AWS::Lambda::Url': { label: 'function URL', shape: 'oval', color: '#fff2cc' },
  'AWS::DynamoDB::Table': { label: 'DynamoDB table', shape: 'cylinder', color: '#dae8fc' },
  'AWS::Events::Rule': { label: 'EventBridge rule', shape: 'hexagon', color: '#f8cecc' },
  'AWS::CloudWatch::Dashboard': { label: 'CloudWatch dashboard', shape: 'note', color: '#f5f5f5' },
};
/** What the MCP server and handlers are drawn calling (their IAM grants on these types become arrows). */
const CALLED = new Set(['AWS::SageMaker::Endpoint', 'AWS::SageMaker::InferenceComponent', 'AWS::SageMaker::FeatureGroup',
  'AWS::SageMaker::Pipeline', 'AWS::S3::Bucket', 'AWS::DynamoDB::Table']);

interface Edge { from: string; to: string; label?: string; dashed?: boolean }

const q = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** The DOT source of the architecture picture. */
export function architectureDot(stack: Stack, index: Map<string, DemoResource>): string {
  const resources = [...index.values()];
  const shown = resources.filter((r) => SHOWN[r.type]);
  const has = (id: string) => shown.some((r) => r.logicalId === id);
  const edges: Edge[] = [];
  const add = (from: string, to: string, label?: string, dashed?: boolean) => {
    if (from !== to && (from === 'agent' || has(from)) && has(to) && !edges.some((e) => e.from === from && e.to === to)) edges.push({ from, to, label, dashed });
  };
  const one = (v: unknown) => [...referencedIds(v)][0];
  // An endpoint's config is drawn as the endpoint: what the config refers to is the endpoint's.
  const endpointOfConfig = new Map(resources.filter((r) => r.type === 'AWS::SageMaker::Endpoint').map((e) => [one(e.properties.EndpointConfigName), e.logicalId]));

  for (const r of resources) {
    const p = r.properties;
    if (r.type === 'AWS::Lambda::Url') {
      add('agent', r.logicalId, `MCP over HTTPS (${p.AuthType})`);
      add(r.logicalId, one(p.TargetFunctionArn));
    }
    if (r.type === 'AWS::SNS::Subscription') add(one(p.TopicArn), one(p.Endpoint), p.Protocol);
    if (r.type === 'AWS::Lambda::EventSourceMapping') add(one(p.EventSourceArn), one(p.FunctionName), 'batches');
    if (r.type === 'AWS::SQS::Queue' && p.RedrivePolicy) add(r.logicalId, one(p.RedrivePolicy.deadLetterTargetArn), 'redrive', true);
    if (r.type === 'AWS::Lambda::EventInvokeConfig') add(one(p.FunctionName), one(p.DestinationConfig?.OnFailure), 'on failure', true);
    if (r.type === 'AWS::Events::Rule') {
      for (const t of p.Targets ?? []) {
        add(r.logicalId, one(t.Arn), 'matching events');
        if (t.DeadLetterConfig) add(r.logicalId, one(t.DeadLetterConfig.Arn), 'undeliverable', true);
      }
      // The pattern names its source by literal (a pipeline's name or ARN): the source's events feed the rule.
      const pattern = JSON.stringify(p.EventPattern ?? {});
      for (const s of shown) if (s.type === 'AWS::SageMaker::Pipeline' && pattern.includes(displayName(s))) add(s.logicalId, r.logicalId, 'status events');
    }
    if (r.type === 'AWS::SageMaker::InferenceComponent') add(one(p.EndpointName), r.logicalId, 'hosts');
    if (r.type === 'AWS::SageMaker::FeatureGroup') add(r.logicalId, one(p.OfflineStoreConfig?.S3StorageConfig), 'offline store');
    if (r.type === 'AWS::SageMaker::EndpointConfig' && p.AsyncInferenceConfig) {
      const endpoint = endpointOfConfig.get(r.logicalId)!;
      const out = p.AsyncInferenceConfig.OutputConfig ?? {};
      add(one(out.S3OutputPath), endpoint, 'inputs / outputs');
      add(endpoint, one(out.NotificationConfig?.SuccessTopic), 'success');
      add(endpoint, one(out.NotificationConfig?.ErrorTopic), 'error');
    }
  }
  // Functions call what their role is granted on (the MCP server: endpoints, feature group, pipeline, bucket, tables).
  const statements = iamStatements(index);
  for (const fn of resources.filter((r) => r.type === 'AWS::Lambda::Function')) {
    const roleId = one(fn.properties.Role);
    const mine = statements.filter((s) => s.roleId === roleId && s.effect === 'Allow');
    for (const target of shown) {
      const pattern = new RegExp(`[/:]${displayName(target).replace(/[.*+?^${}()|[\]\\<>]/g, '\\$&')}(?=$|[/*:"])`);
      const actions = mine.filter((s) => s.resources.some((v) => referencedIds(v).has(target.logicalId) || pattern.test(JSON.stringify(v))))
        .flatMap((s) => s.actions);
      if (target.type === 'AWS::SQS::Queue' && actions.some((a) => a === 'sqs:SendMessage')) add(fn.logicalId, target.logicalId, 'failed events', true);
      if (CALLED.has(target.type) && actions.length) add(fn.logicalId, target.logicalId, verbs(actions));
    }
  }

  const lines = [
    'digraph architecture {',
    '  graph [rankdir=LR, fontname="DejaVu Sans", fontsize=12, compound=true, nodesep=0.3, ranksep=0.6,',
    `    label=${q(`${stack.stackName}: constructs of cdk-sagemaker-mcp (clusters) and the data flows between their resources`)}, labelloc=t];`,
    '  node [fontname="DejaVu Sans", fontsize=10, style=filled];',
    '  edge [fontname="DejaVu Sans", fontsize=9, color="#555555"];',
    '  agent [label="AI agent\\n(MCP client)", shape=ellipse, fillcolor="#ffffff"];',
  ];
  const node = (r: DemoResource, prefix: string) => {
    const s = SHOWN[r.type];
    const name = displayName(r).startsWith('<') ? r.path.slice(prefix.length) || r.path : displayName(r);
    return `    ${q(r.logicalId)} [label=${q(`${s.label}\n${name}`)}, shape=${s.shape}, fillcolor=${q(s.color)}];`;
  };
  const owners = [...new Set(resources.map((r) => r.owner))];
  owners.forEach((owner, i) => {
    const mine = resources.filter((r) => r.owner === owner);
    const drawn = mine.filter((r) => SHOWN[r.type]);
    if (!owner) {
      lines.push(...drawn.map((r) => node(r, '')));
      return;
    }
    const path = relativePath(stack, owner);
    lines.push(`  subgraph cluster_${i} {`,
      `    label=${q(`${ourClassOf(owner)}: ${path}\n(${mine.length} resources, ${drawn.length} drawn)`)}; style="rounded,filled"; fillcolor="#f5f5f5"; color="#888888";`,
      ...drawn.map((r) => node(r, `${path}/`)), '  }');
  });
  for (const e of edges) {
    lines.push(`  ${q(e.from)} -> ${q(e.to)} [${[e.label ? `label=${q(e.label)}` : '', e.dashed ? 'style=dashed' : ''].filter(Boolean).join(', ')}];`);
  }
  lines.push('}');
  return lines.join('\n');
}

/** `sagemaker:InvokeEndpoint, sagemaker:DescribeEndpoint, ...` -> `InvokeEndpoint, DescribeEndpoint +1`. */
function verbs(actions: string[]): string {
  const names = [...new Set(actions.map((a) => a.split(':')[1] ?? a))];
  return names.length > 2 ? `${names.slice(0, 2).join(', ')} +${names.length - 2}` : names.join(', ');
}

/** Renders the DOT to `<outdir>/architecture.svg` (and `.png`); returns the files written. */
export async function writeArchitectureDiagram(dot: string, outdir: string): Promise<string[]> {
  // Both libraries are loaded only here, so the rest of the demo does not pay for them.
  const { Graphviz } = await import('@hpcc-js/wasm-graphviz');
  const graphviz = await Graphviz.load();
  const svg = graphviz.dot(dot);
  const files = [join(outdir, 'architecture.dot'), join(outdir, 'architecture.svg')];
  writeFileSync(files[0], dot);
  writeFileSync(files[1], svg);
  const { Resvg } = await import('@resvg/resvg-js');
  const png = new Resvg(svg, { font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' }, fitTo: { mode: 'zoom', value: 1.5 } }).render().asPng();
  files.push(join(outdir, 'architecture.png'));
  writeFileSync(files[2], png);
  return files;
}
