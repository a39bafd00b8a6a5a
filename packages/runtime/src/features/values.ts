/**
 * Feature values and their declared types: the schema a FeatureGroup construct declared (parsed with the contract's
 * zod schema, ./contract/feature-store), every `ValueAsString` cast to its declared type (a value that does not parse
 * is an error, not a NaN), values serialized for a write (a value of the wrong type is refused), and event times
 * formatted as Feature Store wants them (`yyyy-MM-ddTHH:mm:ss.SSSZ` with milliseconds, or epoch seconds).
 */
import { FeatureValueError } from './errors';
import { FEATURE_GROUP_SCHEMAS_ENV, FeatureGroupSchema, FeatureGroupSchemaSchema } from '../contract/feature-store';
import { parseJsonText, tryParseContract } from '../contract/parse';

export type FeatureValueType = 'String' | 'Integral' | 'Fractional';
/** A scalar feature value: `Integral` values beyond 2^53 come back as `bigint`. */
export type FeatureScalar = string | number | bigint;
/** A feature value as read: a scalar, a list (collection types), or null when absent and without default. */
export type FeatureValue = FeatureScalar | FeatureScalar[] | null;
export type FeatureValues = Record<string, FeatureValue>;

const INTEGRAL = /^[-+]?\d+$/;
const FRACTIONAL = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** Checks a schema (e.g. parsed from JSON) with the contract's zod schema and returns it typed; throws FeatureValueError naming each problem. */
export function parseFeatureGroupSchema(input: unknown, source?: string): FeatureGroupSchema {
  const value = typeof input === 'string' ? parseJsonText(input, source ?? 'feature group schema') : { value: input };
  if (value.problem) throw new FeatureValueError(value.problem);
  const { problems } = tryParseContract(FeatureGroupSchemaSchema, value.value, { source });
  if (problems) {
    const name = (value.value as { featureGroupName?: unknown } | null)?.featureGroupName;
    throw new FeatureValueError(`Invalid feature group schema${typeof name === 'string' ? ` '${name}'` : ''}: ${problems.join('; ')}`);
  }
  // The value as given: the construct's JSON, unknown fields included.
  return value.value as FeatureGroupSchema;
}

/**
 * The schemas a construct passed in `FEATURE_GROUP_SCHEMAS_ENV` (a JSON array, or one object), keyed by group name.
 * Empty when the variable is unset. Each problem names the variable and the path (`FEATURE_GROUP_SCHEMAS[1].eventTime`).
 */
export function featureGroupSchemasFromEnv(env: Record<string, string | undefined> = process.env): Map<string, FeatureGroupSchema> {
  const raw = env[FEATURE_GROUP_SCHEMAS_ENV];
  const result = new Map<string, FeatureGroupSchema>();
  if (!raw) return result;
  const value = parseJsonText(raw, FEATURE_GROUP_SCHEMAS_ENV);
  if (value.problem) throw new FeatureValueError(value.problem);
  const items = Array.isArray(value.value) ? value.value : [value.value];
  items.forEach((item, i) => {
    const schema = parseFeatureGroupSchema(item, Array.isArray(value.value) ? `${FEATURE_GROUP_SCHEMAS_ENV}[${i}]` : FEATURE_GROUP_SCHEMAS_ENV);
    result.set(schema.featureGroupName, schema);
  });
  return result;
}

/** The declared type of feature `name`, if it is declared. */
export function featureType(schema: FeatureGroupSchema, name: string): FeatureValueType | undefined {
  return schema.features.find((f) => f.name === name)?.type as FeatureValueType | undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Casting and serialization
// ---------------------------------------------------------------------------------------------------------------

/** Casts one `ValueAsString` to its declared type; throws FeatureValueError when it does not parse. */
export function castFeatureValue(type: FeatureValueType, raw: string, featureName = 'feature'): FeatureScalar {
  switch (type) {
    case 'String':
      return raw;
    case 'Integral': {
      if (!INTEGRAL.test(raw)) throw new FeatureValueError(`${featureName}: got ${JSON.stringify(raw)}, expected an Integral (signed 64-bit integer)`);
      const n = Number(raw);
      return Number.isSafeInteger(n) ? n : BigInt(raw);
    }
    case 'Fractional': {
      const n = Number(raw);
      if (!FRACTIONAL.test(raw.trim()) || !Number.isFinite(n)) throw new FeatureValueError(`${featureName}: got ${JSON.stringify(raw)}, expected a Fractional (finite number)`);
      return n;
    }
  }
}

/**
 * The values with every bigint (an Integral beyond 2^53) turned into its decimal string, so `JSON.stringify` (an MCP
 * tool result) neither throws nor loses precision.
 */
export function jsonSafeFeatures(values: FeatureValues): Record<string, string | number | null | Array<string | number>> {
  const safe = (v: FeatureScalar) => (typeof v === 'bigint' ? v.toString() : v);
  const out: Record<string, string | number | null | Array<string | number>> = {};
  for (const [name, value] of Object.entries(values)) out[name] = value === null ? null : Array.isArray(value) ? value.map(safe) : safe(value);
  return out;
}

/** Serializes a value of a declared type to `ValueAsString`, refusing a value of the wrong type. */
export function serializeFeatureValue(type: FeatureValueType, value: unknown, featureName = 'feature'): string {
  const refuse = (expected: string) =>
    new FeatureValueError(`${featureName}: got ${describe(value)}, expected ${expected} (declared ${type})`);
  switch (type) {
    case 'String':
      if (typeof value !== 'string') throw refuse('a string');
      return value;
    case 'Integral':
      if (typeof value === 'bigint') {
        if (value < -(2n ** 63n) || value >= 2n ** 63n) throw refuse('a signed 64-bit integer');
        return value.toString();
      }
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw refuse('an integer (number within 2^53, or bigint)');
      return String(value);
    case 'Fractional':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw refuse('a finite number');
      return String(value);
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `'${value}' (string)`;
  if (typeof value === 'bigint') return `${value}n (bigint)`;
  if (value instanceof Date) return `${value.toISOString()} (Date)`;
  return `${JSON.stringify(value)} (${value === null ? 'null' : typeof value})`;
}

/**
 * An event time as Feature Store wants it: String → exactly `yyyy-MM-ddTHH:mm:ss.SSSZ` in UTC; Fractional → seconds
 * since the epoch with millisecond precision.
 *
 * Accepts a Date or an ISO-8601 string for either type. A bare number is accepted only for a Fractional event time,
 * where it means epoch SECONDS (the wire format); for a String event time it is refused, since it could be seconds
 * or milliseconds. The same rule holds for an event time inside a record (`putFeatures`), `PutFeaturesOptions.eventTime`,
 * `DeleteFeaturesOptions.eventTime` and the offline query's `asOf` / `eventTimeFrom` / `eventTimeTo`.
 */
export function formatEventTime(time: Date | number | string, type: FeatureValueType = 'String'): string {
  if (type !== 'String' && type !== 'Fractional') throw new FeatureValueError(`eventTime: an event time must be String or Fractional, not ${type}`);
  if (typeof time === 'number' && type !== 'Fractional') {
    throw new FeatureValueError(`eventTime: got ${describe(time)}, expected a Date or an ISO-8601 string `
      + '(a bare number is read as epoch seconds, and only for a Fractional event time)');
  }
  const date = time instanceof Date ? time : typeof time === 'number' ? new Date(time * 1000) : new Date(time);
  const ms = date.getTime();
  if (!Number.isFinite(ms)) throw new FeatureValueError(`eventTime: got ${describe(time)}, expected a valid date`);
  if (ms < -62167219200000) throw new FeatureValueError(`eventTime: ${date.toISOString()} is before 0000-01-01`);
  if (ms > 253402300799999) throw new FeatureValueError(`eventTime: ${date.toISOString()} is after 9999-12-31T23:59:59.999Z`);
  // A number is already seconds: format it as given rather than through ms (x1000/1000 can drift in the last digit).
  if (type === 'Fractional') return typeof time === 'number' ? time.toFixed(3) : (ms / 1000).toFixed(3);
  // toISOString is yyyy-MM-ddTHH:mm:ss.SSSZ for years 0000-9999, which the checks above guarantee.
  return date.toISOString();
}
