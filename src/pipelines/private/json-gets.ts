import { Token } from 'aws-cdk-lib';
import { JSON_PATH_SUBSET, JsonPathSegment, parseJsonPath } from './json-path';

/**
 * Finds the `Std:JsonGet` expressions of a SageMaker pipeline definition and checks each against the steps.
 *
 * Shapes, as the SageMaker Python SDK writes them (sagemaker/workflow/functions.py, properties.py, conditions.py,
 * condition_step.py):
 * - JsonGet: `{"Std:JsonGet": {"PropertyFile": {"Get": "Steps.<step>.PropertyFiles.<name>"}, "Path": "<json path>"}}`,
 *   or with `"S3Uri"` instead of `PropertyFile` (a JSON object in S3; no property file involved).
 * - A Processing step declares `"PropertyFiles": [{"PropertyFileName", "OutputName", "FilePath"}]`; `OutputName` names
 *   one of its `Arguments.ProcessingOutputConfig.Outputs[].OutputName`.
 * - A Condition step's `Arguments` hold `Conditions` (`{Type, LeftValue, RightValue}`, `{Type: "In", QueryValue,
 *   Values}`, `{Type: "Not", Expression}`, `{Type: "Or", Conditions}`) and the steps of `IfSteps` / `ElseSteps`.
 *
 * The rules (https://docs.aws.amazon.com/sagemaker/latest/dg/build-and-manage-propertyfile.html): a property file is
 * "[used] to store information from the output of a processing step"; its `output_name` "must match the output_name of
 * the ProcessingOutput that you define in your processing step"; the step must list it in `property_files`. A JsonGet
 * on a property file needs no `depends_on`: the `Get` of `Steps.<step>` is a data dependency (the SDK adds the step to
 * the reader's dependencies, sagemaker/workflow/steps.py `_find_dependencies_in_step_arguments`), so the producing step
 * runs first — which is impossible when it is the reading step itself or runs after it (a cycle).
 */

/** One step of the definition, top-level or inside a Condition step's branches. */
interface StepInfo {
  readonly name: string;
  readonly type: unknown;
  readonly raw: Record<string, any>;
  /** The Condition step whose IfSteps/ElseSteps hold this step. */
  readonly parent?: string;
  /** Steps this one waits for: DependsOn, `Get: Steps.<x>...` references, the enclosing Condition step. */
  readonly dependsOn: Set<string>;
}

/** What a JsonGet's value is compared with, to know which JSON type the report must hold there. */
export type ExpectedType = 'number' | 'string' | 'boolean' | 'primitive';

/** A JsonGet found in the definition. */
export interface FoundJsonGet {
  /** The step whose definition holds it. */
  readonly step: string;
  /** Where in the step, e.g. `Arguments.Conditions[0].LeftValue`. */
  readonly location: string;
  /** The `PropertyFile` reference as written (`Steps.X.PropertyFiles.Y`), or undefined for the S3Uri form. */
  readonly reference?: string;
  readonly producerStep?: string;
  readonly propertyFileName?: string;
  readonly path: unknown;
  /** Parsed path, when `path` is in the subset. */
  readonly segments?: JsonPathSegment[];
  /** The JSON type the value must have for the comparison it takes part in. */
  readonly expected: ExpectedType;
  /** Why that type: e.g. `GreaterThanOrEqualTo with 0.7`. */
  readonly expectedBecause: string;
}

/** The JsonGets of a definition and the problems found with them. */
export interface JsonGetScan {
  readonly jsonGets: FoundJsonGet[];
  readonly problems: string[];
}

const ORDERING = new Set(['GreaterThan', 'GreaterThanOrEqualTo', 'LessThan', 'LessThanOrEqualTo']);

/** Scans `definition` (a parsed pipeline definition; CDK tokens are skipped). */
export function scanJsonGets(definition: Record<string, unknown>): JsonGetScan {
  const steps = collectSteps(definition);
  const parameterTypes = new Map<string, unknown>();
  for (const p of Array.isArray(definition.Parameters) ? definition.Parameters : []) {
    if (typeof p?.Name === 'string') parameterTypes.set(p.Name, p.Type);
  }
  const jsonGets: FoundJsonGet[] = [];
  const problems: string[] = [];
  for (const step of steps.values()) {
    walk(stepBody(step), step.name, '', undefined, (node, location, context) => {
      const found = describeJsonGet(node, step.name, location, context, parameterTypes);
      jsonGets.push(found);
      problems.push(...checkJsonGet(found, node, steps));
    });
  }
  return { jsonGets, problems };
}

/** A step without the nested steps of its branches (they are scanned as steps of their own). */
function stepBody(step: StepInfo): Record<string, any> {
  if (step.type !== 'Condition' || !step.raw.Arguments || typeof step.raw.Arguments !== 'object') return step.raw;
  const { IfSteps: _if, ElseSteps: _else, ...args } = step.raw.Arguments;
  return { ...step.raw, Arguments: args };
}

function collectSteps(definition: Record<string, unknown>): Map<string, StepInfo> {
  const steps = new Map<string, StepInfo>();
  const add = (list: unknown, parent?: string) => {
    if (!Array.isArray(list)) return;
    for (const raw of list) {
      if (!raw || typeof raw !== 'object' || typeof raw.Name !== 'string' || Token.isUnresolved(raw.Name)) continue;
      const info: StepInfo = { name: raw.Name, type: raw.Type, raw, parent, dependsOn: new Set<string>() };
      if (!steps.has(raw.Name)) steps.set(raw.Name, info);
      if (raw.Type === 'Condition') {
        add(raw.Arguments?.IfSteps, raw.Name);
        add(raw.Arguments?.ElseSteps, raw.Name);
      }
    }
  };
  add(definition.Steps);
  for (const step of steps.values()) {
    if (step.parent) step.dependsOn.add(step.parent);
    for (const d of Array.isArray(step.raw.DependsOn) ? step.raw.DependsOn : []) {
      if (typeof d === 'string') step.dependsOn.add(d);
    }
    collectStepReferences(stepBody(step), step.dependsOn);
    step.dependsOn.delete(step.name);
  }
  return steps;
}

function collectStepReferences(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) {
    value.forEach((v) => collectStepReferences(v, into));
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'Get' && typeof v === 'string') {
        const m = /^Steps\.([^.[]+)/.exec(v);
        if (m) into.add(m[1]);
      } else {
        collectStepReferences(v, into);
      }
    }
  }
}

/** Whether `from` waits, directly or through other steps, for `to`. */
function dependsOnTransitively(steps: Map<string, StepInfo>, from: string, to: string): boolean {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length > 0) {
    const name = stack.pop()!;
    for (const d of steps.get(name)?.dependsOn ?? []) {
      if (d === to) return true;
      if (!seen.has(d)) {
        seen.add(d);
        stack.push(d);
      }
    }
  }
  return false;
}

/** The comparison a value takes part in: the condition type and the value on the other side (or the In list). */
interface CompareContext {
  readonly conditionType: string;
  readonly others: unknown[];
}

type Visitor = (jsonGet: Record<string, any>, location: string, context: CompareContext | undefined) => void;

function walk(value: unknown, step: string, location: string, context: CompareContext | undefined, visit: Visitor): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => walk(v, step, `${location}[${i}]`, context, visit));
    return;
  }
  if (!value || typeof value !== 'object' || Token.isUnresolved(value)) return;
  const obj = value as Record<string, any>;
  if ('Std:JsonGet' in obj) {
    visit(obj['Std:JsonGet'] ?? {}, location, context);
    return;
  }
  const type = typeof obj.Type === 'string' ? obj.Type : undefined;
  for (const [k, v] of Object.entries(obj)) {
    const here = location ? `${location}.${k}` : k;
    let ctx: CompareContext | undefined;
    if (type && (ORDERING.has(type) || type === 'Equals') && (k === 'LeftValue' || k === 'RightValue')) {
      ctx = { conditionType: type, others: [k === 'LeftValue' ? obj.RightValue : obj.LeftValue] };
    } else if (type === 'In' && k === 'QueryValue') {
      ctx = { conditionType: 'In', others: Array.isArray(obj.Values) ? obj.Values : [] };
    } else if (type === 'In' && k === 'Values') {
      ctx = { conditionType: 'In', others: [obj.QueryValue] };
    }
    walk(v, step, here, ctx, visit);
  }
}

function describeJsonGet(node: Record<string, any>, step: string, location: string, context: CompareContext | undefined,
  parameterTypes: Map<string, unknown>): FoundJsonGet {
  const get = node.PropertyFile?.Get;
  const m = typeof get === 'string' ? /^Steps\.([^.]+)\.PropertyFiles\.(.+)$/.exec(get) : null;
  const path = node.Path;
  const parsed = typeof path === 'string' && !Token.isUnresolved(path) ? parseJsonPath(path) : undefined;
  const { expected, because } = expectedType(context, parameterTypes);
  return {
    step,
    location: location || '(step)',
    reference: typeof get === 'string' ? get : undefined,
    producerStep: m?.[1],
    propertyFileName: m?.[2],
    path,
    segments: parsed && 'segments' in parsed ? parsed.segments : undefined,
    expected,
    expectedBecause: because,
  };
}

function expectedType(context: CompareContext | undefined, parameterTypes: Map<string, unknown>): { expected: ExpectedType; because: string } {
  if (!context) return { expected: 'primitive', because: 'a step argument (a number, string or boolean)' };
  const kinds = new Set<ExpectedType>();
  for (const other of context.others) {
    const k = literalType(other, parameterTypes);
    if (k) kinds.add(k);
  }
  const shown = context.others.map((o) => JSON.stringify(o)).join(', ');
  if (kinds.size === 1) {
    const [k] = kinds;
    return { expected: k, because: `${context.conditionType} with ${shown}` };
  }
  if (ORDERING.has(context.conditionType)) return { expected: 'number', because: `${context.conditionType} (an ordering comparison)` };
  return { expected: 'primitive', because: `${context.conditionType} with ${shown || 'values of unknown type'}` };
}

/** The JSON type of a literal or of a parameter reference; undefined when only known at run time. */
function literalType(value: unknown, parameterTypes: Map<string, unknown>): ExpectedType | undefined {
  if (typeof value === 'number') return Token.isUnresolved(value) ? undefined : 'number';
  if (typeof value === 'string') return Token.isUnresolved(value) ? undefined : 'string';
  if (typeof value === 'boolean') return 'boolean';
  const get = (value as any)?.Get;
  if (typeof get === 'string' && get.startsWith('Parameters.')) {
    const type = parameterTypes.get(get.slice('Parameters.'.length));
    if (type === 'Integer' || type === 'Float') return 'number';
    if (type === 'String') return 'string';
    if (type === 'Boolean') return 'boolean';
  }
  return undefined;
}

function checkJsonGet(found: FoundJsonGet, node: Record<string, any>, steps: Map<string, StepInfo>): string[] {
  const problems: string[] = [];
  const label = `step '${found.step}' ${found.location}: Std:JsonGet ${found.reference ? `${found.reference} ` : ''}${JSON.stringify(found.path)}`;
  const say = (msg: string) => problems.push(`${label}: ${msg}`);

  if (typeof found.path !== 'string') {
    say(`Path is ${JSON.stringify(found.path) ?? 'missing'}, expected ${JSON_PATH_SUBSET}`);
  } else if (!Token.isUnresolved(found.path)) {
    const parsed = parseJsonPath(found.path);
    if ('error' in parsed) say(`Path is not valid: ${parsed.error}; expected ${JSON_PATH_SUBSET}`);
  }

  if (node.S3Uri !== undefined && node.PropertyFile === undefined) return problems;
  const get = node.PropertyFile?.Get;
  if (typeof get === 'string' && Token.isUnresolved(get)) return problems;
  if (!found.producerStep || !found.propertyFileName) {
    say(`PropertyFile is ${JSON.stringify(node.PropertyFile) ?? 'missing'}, expected {"Get": "Steps.<processing step>.PropertyFiles.<PropertyFileName>"} (or an S3Uri)`);
    return problems;
  }
  const producer = steps.get(found.producerStep);
  if (!producer) {
    say(`no step is named '${found.producerStep}', expected the Processing step that declares PropertyFile '${found.propertyFileName}'${declaredBy(steps, found.propertyFileName)}`);
    return problems;
  }
  const files: any[] = Array.isArray(producer.raw.PropertyFiles) ? producer.raw.PropertyFiles : [];
  const file = files.find((f) => f?.PropertyFileName === found.propertyFileName);
  if (producer.type !== 'Processing' || !file) {
    const has = files.map((f) => `'${f?.PropertyFileName}'`).join(', ');
    say(`step '${found.producerStep}' (${String(producer.type)}) declares no PropertyFile '${found.propertyFileName}'`
      + `${has ? ` (it declares ${has})` : ''}, expected a Processing step that lists it in PropertyFiles${declaredBy(steps, found.propertyFileName)}`);
    return problems;
  }
  const outputs: any[] = producer.raw.Arguments?.ProcessingOutputConfig?.Outputs ?? [];
  const outputNames = Array.isArray(outputs) ? outputs.map((o) => o?.OutputName) : [];
  if (!Token.isUnresolved(file.OutputName) && !outputNames.includes(file.OutputName)) {
    say(`PropertyFile '${found.propertyFileName}' of step '${found.producerStep}' names OutputName ${JSON.stringify(file.OutputName)}, expected one of the step's ProcessingOutputConfig.Outputs (${outputNames.map((n) => JSON.stringify(n)).join(', ') || 'it has none'})`);
  }
  if (found.producerStep === found.step) {
    say(`reads a property file of its own step, expected a PropertyFile of an earlier Processing step (the file exists only once '${found.producerStep}' has finished)`);
  } else if (dependsOnTransitively(steps, found.producerStep, found.step)) {
    say(`step '${found.producerStep}' runs after step '${found.step}' (it depends on it${producer.parent === found.step ? `: it is in its ${branchOf(steps, producer)}` : ''}), `
      + `expected a PropertyFile of an earlier step: reading it makes '${found.step}' wait for '${found.producerStep}', a cycle`);
  }
  return problems;
}

function branchOf(steps: Map<string, StepInfo>, step: StepInfo): string {
  const parent = step.parent ? steps.get(step.parent) : undefined;
  const inIf = Array.isArray(parent?.raw.Arguments?.IfSteps) && parent!.raw.Arguments.IfSteps.some((s: any) => s?.Name === step.name);
  return inIf ? 'IfSteps' : 'ElseSteps';
}

/** ` (declared by step 'X')` when some Processing step declares a property file of that name. */
function declaredBy(steps: Map<string, StepInfo>, name: string): string {
  const owners = [...steps.values()]
    .filter((s) => Array.isArray(s.raw.PropertyFiles) && s.raw.PropertyFiles.some((f: any) => f?.PropertyFileName === name));
  return owners.length ? ` (declared by step ${owners.map((s) => `'${s.name}'`).join(', ')})` : '';
}
