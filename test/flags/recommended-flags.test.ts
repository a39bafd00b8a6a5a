/**
 * Every construct kind and every example, under aws-cdk-lib's defaults and under the feature flags `cdk init app` writes
 * into cdk.json (aws-cdk-lib's `CURRENTLY_RECOMMENDED_FLAGS`; the CLI copies the same list at its build time). Among
 * them `@aws-cdk/core:validateAgainstDefaultRules` (CloudFormation validation findings, dependency cycles included,
 * fail synth), `@aws-cdk/aws-sns-subscriptions:restrictSqsDescryption` (a queue's key policy names the topic) and
 * `@aws-cdk/aws-iam:minimizePolicies` (statements merged, actions sorted).
 *
 * Each flag set is one app with a stack per kind, synthesized once with cdk-nag AwsSolutions, SageMakerMcpChecks and
 * aws-cdk-lib's CloudFormation validation (the test environment switches that off; this file switches it back on):
 * every finding and every warning or error annotation, acknowledged ones aside, is attributed to its stack, and each
 * kind must have none. A finding the user causes is not possible here: the stacks are built from the examples and the
 * constructs' defaults.
 */
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { CURRENTLY_RECOMMENDED_FLAGS } from 'aws-cdk-lib/cx-api';
import { AwsSolutionsChecks } from 'cdk-nag';
import { putBehindAgentCoreGateway } from '../../examples/agentcore-gateway';
import { addAllExamples } from '../../examples/app';
import { addAsyncExample } from '../../examples/async';
import { addFeatureStoreExample } from '../../examples/feature-store';
import { addJumpStartExample } from '../../examples/jumpstart';
import { addLifecycleExample } from '../../examples/lifecycle';
import { addMultiModelExample } from '../../examples/multi-model';
import { addPipelinesExample } from '../../examples/pipelines';
import { addRealtimeExample } from '../../examples/realtime';
import { addServerlessExample } from '../../examples/serverless';
import { addSharedGpuExample } from '../../examples/shared-gpu';
import { AsyncEndpoint } from '../../src/async';
import { SageMakerMcpChecks } from '../../src/checks';
import { ContainerImage, InstanceType, ModelSource } from '../../src/core';
import { HuggingFaceHubModel } from '../../src/huggingface';
import { RealtimeEndpoint } from '../../src/realtime';

// The CLI's synth validates templates; the test environment turns that off for every other file (see its header).
delete process.env.CDK_VALIDATION;

const FLAG_SETS: Record<string, Record<string, unknown>> = {
  'aws-cdk-lib defaults': {},
  'cdk init flags': { ...CURRENTLY_RECOMMENDED_FLAGS },
};

/** One stack per construct kind. The examples carry the acknowledgements a user would write, each with its reason. */
const KINDS: Record<string, (stack: Stack) => void> = {
  'realtime': (s) => addRealtimeExample(s),
  'async (defaults, as in the README)': (s) => new AsyncEndpoint(s, 'Async', {
    model: ModelSource.fromContainer(ContainerImage.fromDlc('huggingface-pytorch-inference', '2.1.0-transformers4.37.0-cpu-py310-ubuntu22.04')),
    instanceType: InstanceType.ML_M5_XLARGE,
  }),
  'async (example)': (s) => addAsyncExample(s),
  'serverless': (s) => addServerlessExample(s),
  'shared GPU (inference components)': (s) => addSharedGpuExample(s),
  'multi-model': (s) => addMultiModelExample(s),
  'JumpStart': (s) => addJumpStartExample(s),
  'Hugging Face Hub': (s) => new RealtimeEndpoint(s, 'Chat', {
    model: HuggingFaceHubModel.of('Qwen/Qwen2.5-0.5B-Instruct', { task: 'text-generation', containerVersion: '3.3' }),
    instanceType: InstanceType.ML_G5_XLARGE,
  }),
  'feature group': (s) => addFeatureStoreExample(s),
  'training pipeline and router': (s) => addPipelinesExample(s),
  'approved deployment (lifecycle)': (s) => addLifecycleExample(s),
  'MCP tool server behind an AgentCore Gateway, with the dashboard (every example)': (s) => putBehindAgentCoreGateway(addAllExamples(s)),
};

/**
 * The warnings an example causes by its own choice, by kind: a fixed `endpointName` with autoscaling, which the library
 * answers with AWS's two-step procedure for changing the instance type (docs/realtime.md).
 */
const CHOSEN_BY_THE_EXAMPLE: Record<string, string[]> = {
  'realtime': ['cdk-sagemaker-mcp:autoscaledVariantUpdate'],
  'async (example)': ['cdk-sagemaker-mcp:autoscaledVariantUpdate'],
  'JumpStart': ['cdk-sagemaker-mcp:autoscaledVariantUpdate'],
  'MCP tool server behind an AgentCore Gateway, with the dashboard (every example)': ['cdk-sagemaker-mcp:autoscaledVariantUpdate'],
};

interface Problem { readonly stack: string; readonly text: string }

/** Builds one app with a stack per kind under `context`, synthesizes it, and returns each stack's problems. */
function synthesizeAll(context: Record<string, unknown>): Map<string, string[]> {
  const outdir = mkdtempSync(join(tmpdir(), 'flags-'));
  const app = new App({ outdir, context: { ...context, 'aws:cdk:disable-creation-stack-traces': true } });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new SageMakerMcpChecks());
  const stackOf = new Map<string, string>();
  const problems: Problem[] = [];
  Object.keys(KINDS).forEach((kind, i) => {
    const stack = new Stack(app, `Kind${i}`, { env: { account: '123456789012', region: 'us-east-1' } });
    stackOf.set(stack.node.path, kind);
    try {
      KINDS[kind](stack);
    } catch (e) {
      problems.push({ stack: stack.node.path, text: `construction failed: ${(e as Error).message}` });
    }
  });
  try {
    app.synth();
  } catch (e) {
    if (!existsSync(join(outdir, 'validation-report.json'))) problems.push({ stack: '', text: `synth failed: ${(e as Error).message}` });
  }
  problems.push(...reportProblems(outdir), ...annotationProblems(app));
  rmSync(outdir, { recursive: true, force: true });

  const byKind = new Map<string, string[]>(Object.keys(KINDS).map((k) => [k, []]));
  for (const p of problems) {
    const kind = stackOf.get(p.stack.split('/')[0]);
    if (kind && (CHOSEN_BY_THE_EXAMPLE[kind] ?? []).some((id) => p.text.includes(id))) continue;
    if (kind) byKind.get(kind)!.push(p.text);
    else for (const list of byKind.values()) list.push(p.text); // not attributable: every kind fails
  }
  return byKind;
}

/** Every violation of every plugin (CloudFormation validation included, warnings too), as the CLI prints them. */
function reportProblems(outdir: string): Problem[] {
  const file = join(outdir, 'validation-report.json');
  if (!existsSync(file)) return [];
  const report = JSON.parse(readFileSync(file, 'utf8'));
  return (report.pluginReports ?? []).flatMap((pr: any) => (pr.violations ?? []).flatMap((v: any) =>
    (v.violatingConstructs ?? [{}]).map((c: any) => ({
      stack: c.constructPath ?? '',
      text: `${v.severity ?? 'error'} ${v.ruleName} at ${c.constructPath}: ${v.description} [${pr.pluginName}]`,
    }))));
}

/** Warning and error annotations (what `cdk synth` prints), less those acknowledged on the construct or above it. */
function annotationProblems(app: App): Problem[] {
  const out: Problem[] = [];
  for (const c of app.node.findAll()) {
    for (const m of c.node.metadata) {
      if (m.type !== 'aws:cdk:warning' && m.type !== 'aws:cdk:error') continue;
      const text = String(m.data);
      const id = /\[ack: ([^\]]+)\]/.exec(text)?.[1];
      if (id && isAcknowledged(c, id)) continue;
      out.push({ stack: c.node.path, text: `${m.type} at ${c.node.path}: ${text}` });
    }
  }
  return out;
}

function isAcknowledged(c: import('constructs').IConstruct, id: string): boolean {
  return c.node.scopes.some((s) => s.node.metadata.some((m) => (m.type === 'aws:cdk:acknowledge' && m.data === id)
    || (m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY && Object.keys(m.data ?? {}).some((k) => k.replace(/^annotation::/i, '') === id))));
}

const results = new Map<string, Map<string, string[]>>();
function problemsOf(flagSet: string, kind: string): string[] {
  if (!results.has(flagSet)) results.set(flagSet, synthesizeAll(FLAG_SETS[flagSet]));
  return results.get(flagSet)!.get(kind)!;
}

describe.each(Object.keys(FLAG_SETS))('under %s', (flagSet) => {
  test.each(Object.keys(KINDS))('%s synthesizes with no error, warning or cycle', (kind) => {
    expect(problemsOf(flagSet, kind)).toEqual([]);
  });
});

test('the cdk init flags hold the three that change what this library synthesizes', () => {
  expect(FLAG_SETS['cdk init flags']).toMatchObject({
    '@aws-cdk/core:validateAgainstDefaultRules': true,
    '@aws-cdk/aws-sns-subscriptions:restrictSqsDescryption': true,
    '@aws-cdk/aws-iam:minimizePolicies': true,
  });
});
