/**
 * One shape for one idea, across the exported API: every scaling options type ends in `ScalingOptions`, every
 * `McpToolServer` entry names its object by its kind, alarm actions are a top-level `alarmActions` prop (alarm thresholds
 * sit in an `alarms` struct), `AsyncEndpointProps` groups its options by concern, and a rollout's binding to what it
 * rolls out is internal. The walk follows `src/index.ts`'s re-exports, so a type only the library uses
 * internally is not held to the rule.
 */
import { readFileSync } from 'fs';
import { dirname, join } from 'path';
import { App, Duration, Size, Stack } from 'aws-cdk-lib';
import * as lib from '../../src';

const SRC = join(__dirname, '..', '..', 'src');

/** The interfaces the package exports: `export *` and named re-exports, followed from `src/index.ts`. */
function exportedInterfaces(file: string, only?: Set<string>, seen = new Set<string>()): Map<string, string> {
  const found = new Map<string, string>();
  if (seen.has(file)) return found;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/^export interface (\w+)/gm)) {
    if (!only || only.has(m[1])) found.set(m[1], text);
  }
  for (const m of text.matchAll(/^export (?:type )?(\*|\{[^}]*\}) from '(\.[^']+)'/gm)) {
    const names = m[1] === '*' ? undefined : new Set(m[1].slice(1, -1).split(',').map((n) => n.trim()).filter(Boolean));
    const target = join(dirname(file), m[2]);
    const path = [`${target}.ts`, join(target, 'index.ts')].find((p) => { try { readFileSync(p); return true; } catch { return false; } })!;
    for (const [name, source] of exportedInterfaces(path, names, seen)) found.set(name, source);
  }
  return found;
}

const INTERFACES = exportedInterfaces(join(SRC, 'index.ts'));
/** A body of one exported interface, from `{` to the closing brace at column 0. */
const bodyOf = (name: string) => {
  const source = INTERFACES.get(name)!;
  const start = source.indexOf(`export interface ${name} `);
  return source.slice(start, source.indexOf('\n}', start));
};

test('the walk sees the exported API', () => {
  expect(INTERFACES.size).toBeGreaterThan(50);
  expect(INTERFACES.has('RealtimeEndpointProps')).toBe(true);
});

test('every scaling options type ends in ScalingOptions (a construct\'s props end in Props, a policy\'s in TrackingOptions)', () => {
  const scaling = [...INTERFACES.keys()].filter((n) => /Scal/.test(n));
  const constructProps = ['ScalableCapacityProps'];
  expect(scaling.filter((n) => !n.endsWith('ScalingOptions') && !constructProps.includes(n))).toEqual([]);
  expect(scaling.filter((n) => n.endsWith('ScalingOptions')).sort()).toEqual([
    'AsyncAutoScalingOptions', 'InferenceComponentAutoScalingOptions', 'RealtimeAutoScalingOptions', 'ServerlessAutoScalingOptions',
    'SharedGpuInstanceScalingOptions', 'VariantAutoScalingOptions',
  ]);
});

test('every McpToolServer entry names its object by its kind', () => {
  const keyOf: Record<string, string> = {
    McpRealtimeEndpointOptions: 'endpoint',
    McpServerlessEndpointOptions: 'endpoint',
    McpAsyncEndpointOptions: 'endpoint',
    McpDeploymentOptions: 'endpoint',
    McpInferenceComponentOptions: 'inferenceComponent',
    McpFeatureGroupOptions: 'featureGroup',
    McpPipelineOptions: 'pipeline',
    McpModelPackageGroupOptions: 'modelPackageGroup',
  };
  const entries = [...INTERFACES.keys()].filter((n) => /^Mcp\w+Options$/.test(n) && /McpToolServerProps/.test(INTERFACES.get(n)!)
    && new RegExp(`\\b${n}\\[\\]`).test(INTERFACES.get(n)!));
  expect(entries.sort()).toEqual(Object.keys(keyOf).sort());
  // The one required member of each entry is its object, named by the kind.
  const required = Object.fromEntries(entries.map((n) => [n, [...bodyOf(n).matchAll(/^ {2}readonly (\w+): /gm)].map((m) => m[1])]));
  expect(required).toEqual(Object.fromEntries(Object.entries(keyOf).map(([n, key]) => [n, [key]])));
});

test('alarm actions are a top-level alarmActions prop, never nested in an alarm options struct', () => {
  const holders = [...INTERFACES.keys()].filter((n) => /readonly alarmActions\?/.test(bodyOf(n)));
  expect(holders.filter((n) => !n.endsWith('Props')).sort()).toEqual([]);
  expect(holders.sort()).toEqual(['ApprovedModelDeploymentProps', 'AsyncEndpointProps', 'McpToolServerProps', 'PipelineEventRouterProps', 'RealtimeEndpointProps']);
});

describe('AsyncEndpointProps: one group per concern', () => {
  /** The members an exported interface declares itself, optional or not. */
  const ownMembers = (name: string) => [...bodyOf(name).matchAll(/^ {2}readonly (\w+)\??: /gm)].map((m) => m[1]);
  const parentsOf = (name: string) => (bodyOf(name).match(/^export interface \w+ extends ([\w, ]+) \{/)?.[1] ?? '')
    .split(',').map((n) => n.trim()).filter(Boolean);

  test('the top level holds the model, its instances and what every construct holds there; the rest is grouped', () => {
    expect(ownMembers('AsyncEndpointProps').sort()).toEqual([
      'alarmActions', 'alarms', 'autoScaling', 'encryptionKey', 'endpointName', 'invocation', 'logRetention', 'metricsConfig',
      'model', 'notifications', 'results', 'role', 'storage', 'variantName',
    ]);
    // What it extends is shared with RealtimeEndpointProps, so the whole top level stays small.
    expect(parentsOf('AsyncEndpointProps')).toEqual(parentsOf('RealtimeEndpointProps'));
    const topLevel = [...ownMembers('AsyncEndpointProps'), ...parentsOf('AsyncEndpointProps').flatMap(ownMembers)];
    expect(topLevel.length).toBeLessThanOrEqual(30);
  });

  test('each group is an exported options struct of its concern, every member optional', () => {
    const groups: Record<string, string[]> = {
      AsyncStorageOptions: ['bucket', 'failureExpiration', 'failurePrefix', 'inputExpiration', 'inputPrefix', 'outputExpiration',
        'outputPrefix', 'serverAccessLogsBucket'],
      AsyncResultsOptions: ['enabled', 'maxEventTimeSkew', 'retention'],
      AsyncNotificationOptions: ['includeInferenceResponseIn'],
      AsyncInvocationOptions: ['invocationTimeout', 'maxConcurrentInvocationsPerInstance', 'requestTtl', 'workload'],
      AsyncEndpointAlarmOptions: ['oldestRequestAgeThreshold'],
    };
    for (const [type, members] of Object.entries(groups)) {
      expect([type, ownMembers(type).sort()]).toEqual([type, members]);
      expect([type, [...bodyOf(type).matchAll(/^ {2}readonly (\w+): /gm)].map((m) => m[1])]).toEqual([type, []]);
    }
    const props = bodyOf('AsyncEndpointProps');
    for (const [prop, type] of [['storage', 'AsyncStorageOptions'], ['results', 'AsyncResultsOptions'],
      ['notifications', 'AsyncNotificationOptions'], ['invocation', 'AsyncInvocationOptions'], ['alarms', 'AsyncEndpointAlarmOptions']]) {
      expect(props).toContain(`readonly ${prop}?: ${type};`);
    }
  });

  test('alarm thresholds sit in an endpoint\'s alarms options, never at the top level of its props', () => {
    const props = [...INTERFACES.keys()].filter((n) => n.endsWith('Props'));
    expect(props.filter((n) => /^ {2}readonly \w+Threshold\?/m.test(bodyOf(n)))).toEqual([]);
    expect(bodyOf('RealtimeEndpointProps')).toContain('readonly alarms?: RealtimeEndpointAlarmOptions;');
    expect(bodyOf('AsyncEndpointProps')).toContain('readonly alarms?: AsyncEndpointAlarmOptions;');
  });

  test('a grouped prop builds the same endpoint it configures', () => {
    const stack = new Stack(new App(), 'Grouped', { env: { account: '123456789012', region: 'us-east-1' } });
    const image = lib.ContainerImage.fromImageUri('763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-inference:2.1-cpu-py310');
    const endpoint = new lib.AsyncEndpoint(stack, 'Async', {
      model: lib.ModelSource.fromContainer(image),
      instanceType: lib.InstanceType.ML_M5_XLARGE,
      storage: { inputPrefix: 'in/' },
      results: { enabled: false },
      invocation: { workload: lib.AsyncWorkload.CPU_PROCESSING, maxConcurrentInvocationsPerInstance: 6 },
      alarms: { oldestRequestAgeThreshold: Duration.minutes(10) },
    });
    expect([endpoint.inputPrefix, endpoint.jobTable, endpoint.maxConcurrentInvocationsPerInstance]).toEqual(['in/', undefined, 6]);
    expect(endpoint.oldestRequestAgeAlarm).toBeDefined();
  });
});

test('the binding between a rollout and what it rolls out is internal', () => {
  const rollout = lib.Rollout.allAtOnce();
  expect(['bindToEndpoint', 'bindToInferenceComponent'].filter((m) => m in rollout)).toEqual([]);
  expect(['RolloutEndpointContext', 'RolloutInferenceComponentContext'].filter((n) => INTERFACES.has(n))).toEqual([]);
});

describe('the scaling options types, through their names', () => {
  const ENV = { account: '123456789012', region: 'us-east-1' };
  const IMAGE = lib.ContainerImage.fromImageUri('763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-inference:2.1-cpu-py310');
  const model = lib.ModelSource.fromContainer(IMAGE);

  test('realtime, async, serverless, shared-GPU and inference component each take theirs', () => {
    const stack = new Stack(new App(), 'Stack', { env: ENV });
    const variant: lib.VariantAutoScalingOptions = { maxCapacity: 3 };
    const realtime = new lib.RealtimeEndpoint(stack, 'Realtime', { model, instanceType: lib.InstanceType.ML_M5_XLARGE, autoScaling: variant });
    const second: lib.RealtimeAutoScalingOptions = { variantName: 'Second', maxCapacity: 2 };
    realtime.addVariant('Second', { model, instanceType: lib.InstanceType.ML_M5_XLARGE });
    const async: lib.AsyncAutoScalingOptions = { minCapacity: 0, maxCapacity: 2 };
    const serverless: lib.ServerlessAutoScalingOptions = { maxCapacity: 2 };
    const instances: lib.SharedGpuInstanceScalingOptions = { minCapacity: 1, maxCapacity: 2 };
    const copies: lib.InferenceComponentAutoScalingOptions = { target: lib.CopyScalingTarget.invocationsPerCopy(5), maxCapacity: 2 };

    expect(realtime.autoScaleInstanceCount(second).maxCapacity).toBe(2);
    expect(new lib.AsyncEndpoint(stack, 'Async', { model, instanceType: lib.InstanceType.ML_M5_XLARGE }).autoScaleInstanceCount(async).minCapacity).toBe(0);
    const sls = new lib.ServerlessEndpoint(stack, 'Serverless', { model, memorySize: Size.gibibytes(2), maxConcurrency: 4, provisionedConcurrency: 1 });
    expect(sls.autoScaleProvisionedConcurrency(serverless).maxCapacity).toBe(2);
    const shared = new lib.SharedGpuEndpoint(stack, 'Shared', { instanceType: lib.InstanceType.ML_G5_12XLARGE });
    expect(shared.autoScaleInstanceCount(instances).maxCapacity).toBe(2);
    const ic = shared.addInferenceComponent('Chat', { model, acceleratorCount: 1, minMemory: Size.mebibytes(1024), modelDataDownloadTimeout: Duration.minutes(10) });
    expect(ic.autoScaleCopyCount(copies).maxCapacity).toBe(2);
  });
});
