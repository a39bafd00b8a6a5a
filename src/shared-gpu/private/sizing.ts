/**
 * Internal: what one copy of an inference component reserves on each instance type of its endpoint, and the checks of
 * those values, each naming the prop it came from (the type's entry of instanceTypeRequirements, or the component's own).
 */
import { Size, SizeRoundingBehavior, Token } from 'aws-cdk-lib';
import { capacityOf } from './capacity';
import { modelResourceDefaults } from './model-defaults';
import { InstanceType } from '../../core/instance-type';
import { ModelSource } from '../../core/model-source';
import { ModelSourceConfig } from '../../core/model-source-config';
import { JumpStartModel } from '../../jumpstart/jumpstart-model';
import { PropValidator } from '../../private/validation';

/** What one copy reserves, as the component's props and each of their instanceTypeRequirements entries say it. */
interface Reservation {
  readonly acceleratorCount?: number;
  readonly minMemory?: Size;
  readonly maxMemory?: Size;
  readonly cpuCores?: number;
}

/** The props of a component that size it (a structural view of SizingProps). */
export interface SizingProps extends Reservation {
  readonly model: ModelSource;
  readonly instanceTypeRequirements?: Array<Reservation & { readonly instanceType: InstanceType }>;
}

/** What one copy reserves on one instance type (MiB for memory), and where the type's own values came from. */
export interface TypeSizing {
  /** The type (undefined: an imported endpoint whose type is unknown). */
  readonly instanceType?: InstanceType;
  readonly acceleratorCount?: number;
  readonly minMemoryMib?: number;
  readonly maxMemoryMib?: number;
  readonly cpuCores?: number;
  /** The type's entry of instanceTypeRequirements, and its index. */
  readonly entry?: { readonly index: number; readonly requirements: Reservation };
}

/** Each type once (by name), in order. */
export function distinctTypes(types: InstanceType[]): InstanceType[] {
  return types.filter((t, i) => types.findIndex((o) => o.name === t.name) === i);
}

/** Each entry names one of the endpoint's types, once. */
export function validateTypeRequirements(
  v: PropValidator, entries: Array<{ readonly instanceType: InstanceType }>, instanceTypes: InstanceType[],
): void {
  if (entries.length === 0) return;
  if (instanceTypes.length === 0) {
    v.add(`instanceTypeRequirements: got ${entries.length} entries, expected none: the endpoint's instance types are unknown `
      + '(an imported endpoint: give instanceType or instanceTypes in its attributes)');
    return;
  }
  const names = instanceTypes.map((t) => t.name);
  entries.forEach((e, i) => {
    const prop = `instanceTypeRequirements[${i}].instanceType`;
    v.check(names.includes(e.instanceType.name), prop, e.instanceType.name, `one of the endpoint's instance types (${names.join(', ')})`);
    const first = entries.findIndex((o) => o.instanceType.name === e.instanceType.name);
    v.check(first === i, prop, e.instanceType.name, `each instance type once (instanceTypeRequirements[${first}] names it already)`);
  });
}

/**
 * What one copy reserves on `instanceType`: the type's entry of instanceTypeRequirements, else the component's props,
 * else what the model needs on that type. The bound model's figure is for the type it was bound for; for another pool's
 * type a JumpStart model answers for that type.
 */
export function sizingFor(
  props: SizingProps, source: ModelSourceConfig, instanceType: InstanceType | undefined, boundFor: InstanceType | undefined,
): TypeSizing {
  const entries = props.instanceTypeRequirements ?? [];
  const index = instanceType ? entries.findIndex((e) => e.instanceType.name === instanceType.name) : -1;
  const own = index >= 0 ? entries[index] : undefined;
  let needed: number | undefined;
  if (instanceType && boundFor && instanceType.name === boundFor.name) {
    needed = source.acceleratorsRequired;
  } else if (instanceType && !instanceType.isUnresolved && props.model instanceof JumpStartModel) {
    needed = props.model.acceleratorsRequired(instanceType);
  }
  const defaults = instanceType ? modelResourceDefaults(source, instanceType, needed) : undefined;
  const mib = (size: Size | undefined) => (size === undefined ? undefined : mebibytes(size));
  return {
    instanceType,
    acceleratorCount: own?.acceleratorCount ?? props.acceleratorCount ?? defaults?.acceleratorCount,
    minMemoryMib: mib(own?.minMemory) ?? mib(props.minMemory) ?? defaults?.minMemoryMib,
    maxMemoryMib: mib(own?.maxMemory) ?? mib(props.maxMemory),
    cpuCores: own?.cpuCores ?? props.cpuCores,
    entry: own && { index, requirements: own },
  };
}

type SizingField = 'acceleratorCount' | 'minMemory' | 'maxMemory' | 'cpuCores';

/** The prop a type's value came from: its entry of instanceTypeRequirements, or the component's own. */
export function propOf(s: TypeSizing, field: SizingField): string {
  return s.entry && s.entry.requirements[field] !== undefined ? `instanceTypeRequirements[${s.entry.index}].${field}` : field;
}

/**
 * Records every problem of one type's sizing, naming the prop the value came from (the type's entry of
 * instanceTypeRequirements or the component's own). Whether a copy fits an instance of the type is the endpoint's
 * check (`_reserveCopies`).
 */
export function checkSizing(v: PropValidator, s: TypeSizing, multiType: boolean): void {
  const name = (field: SizingField) => propOf(s, field);
  const type = s.instanceType;
  if (s.acceleratorCount === undefined) {
    // An imported endpoint of unknown instance type may be CPU-only: no accelerators is then a valid answer.
    v.check(type === undefined || capacityOf(type)?.acceleratorCount === 0, 'acceleratorCount', undefined,
      `the number of accelerators one copy reserves (an integer >= 1) for ${type?.name}: `
      + 'only models whose source knows its needs (JumpStart) bring a default'
      + (multiType ? ' (give it for this type alone in instanceTypeRequirements)' : ''));
  } else {
    v.atLeast(name('acceleratorCount'), s.acceleratorCount, 1);
  }
  if (s.minMemoryMib === undefined) {
    v.add('minMemory: got nothing, expected the host memory one copy reserves (a whole number of MiB >= 128): '
      + 'CreateInferenceComponent requires MinMemoryRequiredInMb, and only models whose source knows its needs (JumpStart) bring a default');
  } else {
    checkMemory(v, name('minMemory'), s.minMemoryMib);
  }
  if (s.maxMemoryMib !== undefined) checkMemory(v, name('maxMemory'), s.maxMemoryMib, resolvedOrUndefined(s.minMemoryMib));
  v.atLeast(name('cpuCores'), s.cpuCores, 0.25, { integer: false });
}

/** A Size in MiB, fractions kept so that validation names the prop (a token stays a token). */
function mebibytes(size: Size): number {
  return size.toMebibytes({ rounding: SizeRoundingBehavior.NONE });
}

/** A whole number of MiB >= 128 (and, for `maxMemory`, >= minMemory); tokens pass. */
function checkMemory(v: PropValidator, prop: string, mib: number, minMemoryMib?: number): void {
  if (Token.isUnresolved(mib)) return;
  if (!Number.isInteger(mib) || mib < 128) {
    v.add(`${prop}: got ${mib} MiB, expected a whole number of MiB >= 128`);
  } else if (minMemoryMib !== undefined && mib < minMemoryMib) {
    v.add(`${prop}: got ${mib} MiB, expected at least minMemory (${minMemoryMib} MiB)`);
  }
}

export function resolvedOrUndefined(n: number | undefined): number | undefined {
  return n === undefined || Token.isUnresolved(n) ? undefined : n;
}
