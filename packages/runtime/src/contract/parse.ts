/**
 * Reads configuration through the zod schemas of ./contract (or schemas built on them) and reports every problem as
 * one line that names where the value came from (an env var, a file), the field path and what was expected:
 * `MCP_SERVER_SPEC.realtimeEndpoints[0].name: expected a string, got 5`.
 */
import * as z from 'zod';
import { editDistance } from './edit-distance';

/** A configuration that does not parse; `problems` holds one line per problem (also in the message). */
export class ContractConfigError extends Error {
  public readonly retryable = false;
  constructor(public readonly problems: readonly string[], heading = 'Invalid configuration') {
    super(`${heading}:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ContractConfigError';
  }
}

export interface ContractParseOptions {
  /**
   * Where the value came from, prefixed to every field path (`MCP_SERVER_SPEC` gives `MCP_SERVER_SPEC.pipelines[0].name`).
   * @default - none: paths start at the field
   */
  readonly source?: string;
  /** Top-level fields whose values are never quoted in a problem (key material, credentials). @default none */
  readonly secretFields?: readonly string[];
}

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  function: 'a function',
};

/** What was expected, in words; zod's per-parse error map (a schema's own message, when it has one, wins). */
function expectation(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${EXPECTED[issue.expected] ?? issue.expected}`;
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') return min === 1 ? 'expected a non-empty string' : `expected at least ${min} characters`;
      if (issue.origin === 'array') return min === 1 ? 'expected a non-empty array' : `expected at least ${min} items`;
      return `expected a number ${issue.inclusive ? '>=' : '>'} ${min}`;
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return `expected at most ${max} characters`;
      if (issue.origin === 'array') return `expected at most ${max} items`;
      return `expected a number ${issue.inclusive ? '<=' : '<'} ${max}`;
    }
    case 'invalid_format': {
      const f = issue as z.core.$ZodIssueInvalidStringFormat;
      if (f.format === 'ends_with') return `expected a string ending with ${JSON.stringify((f as { suffix?: string }).suffix)}`;
      if (f.format === 'starts_with') return `expected a string starting with ${JSON.stringify((f as { prefix?: string }).prefix)}`;
      if (f.format === 'regex') return `expected a string matching ${f.pattern}`;
      return `expected a ${f.format}`;
    }
    case 'invalid_value':
      return `expected ${issue.values.length === 1 ? JSON.stringify(issue.values[0]) : `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`}`;
    case 'unrecognized_keys':
      return 'unknown field';
    case 'invalid_union': {
      const u = issue as { discriminator?: string; options?: unknown[]; errors?: Array<Array<{ code: string; expected?: string; path: unknown[] }>> };
      if (u.discriminator !== undefined && Array.isArray(u.options)) return `expected one of ${u.options.map((o) => JSON.stringify(o)).join(', ')}`;
      const kinds = (u.errors ?? []).map((e) => (e.length === 1 && e[0].code === 'invalid_type' && e[0].path.length === 0 ? EXPECTED[e[0].expected!] ?? e[0].expected : undefined));
      return kinds.length > 0 && kinds.every(Boolean) ? `expected ${kinds.join(' or ')}` : 'expected one of the allowed forms';
    }
    default:
      return undefined;
  }
}

/** `where.a[0].b` from a zod path. */
export function fieldPath(source: string | undefined, path: readonly PropertyKey[]): string {
  let out = source ?? '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(the value)' : out;
}

/** A value as quoted in a problem: JSON, cut at 80 characters. */
export function quote(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'bigint') return `${value}n`;
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** One line per problem of `input` against `schema`; empty when it parses. */
export function contractProblems(schema: z.ZodType, input: unknown, options: ContractParseOptions = {}): string[] {
  return tryParseContract(schema, input, options).problems ?? [];
}

/** `value` parsed with `schema` (`data`), or one line per problem (`problems`). */
export function tryParseContract<S extends z.ZodType>(schema: S, value: unknown, options: ContractParseOptions): {
  data?: z.output<S>;
  problems?: string[];
} {
  const result = schema.safeParse(value, { reportInput: true, error: (issue) => expectation(issue) });
  if (result.success) return { data: result.data };
  const secret = new Set(options.secretFields ?? []);
  const problems: string[] = [];
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) problems.push(`${fieldPath(options.source, [...issue.path, key])}: unknown field`);
      continue;
    }
    const hidden = issue.path.length > 0 && secret.has(String(issue.path[0]));
    let message = issue.message;
    // Say what was there, except for the schemas' own rules (`custom`), whose messages say it themselves.
    if (!hidden && issue.code !== 'custom' && 'input' in issue) {
      // A discriminated union's issue is at its discriminator (`payload.format`) but carries the whole object.
      const discriminator = (issue as { discriminator?: string }).discriminator;
      const input = discriminator !== undefined ? (issue.input as Record<string, unknown> | undefined)?.[discriminator] : issue.input;
      message += input === undefined ? ', but it is not set' : `, got ${quote(input)}`;
    }
    problems.push(`${fieldPath(options.source, issue.path)}: ${message}`);
  }
  return { problems };
}

/**
 * `input` parsed with `schema`, or a thrown error listing every problem (`fail` builds it; a ContractConfigError by
 * default).
 */
export function parseContract<S extends z.ZodType>(schema: S, input: unknown, options: ContractParseOptions & {
  readonly fail?: (problems: string[]) => Error;
} = {}): z.output<S> {
  const { data, problems } = tryParseContract(schema, input, options);
  if (problems) throw (options.fail ?? ((p) => new ContractConfigError(p, `Invalid ${options.source ?? 'configuration'}`)))(problems);
  return data as z.output<S>;
}

/** JSON text as a value, or a problem naming where the text came from. */
export function parseJsonText(text: string, source: string): { value?: unknown; problem?: string } {
  try {
    return { value: JSON.parse(text) };
  } catch (err) {
    return { problem: `${source}: expected JSON, got text that does not parse (${(err as Error).message})` };
  }
}

/**
 * Every field of `value` that `schema` does not know, at any depth (objects, arrays, records and optional fields), one
 * line each, with the closest known name when one is near (`config.realtimeEndpoint: unknown field (did you mean
 * realtimeEndpoints?)`). Parsing strips such fields silently; a file a person writes should not lose a misspelt key.
 */
export function unknownFields(schema: z.ZodType, value: unknown, source?: string): string[] {
  const out: string[] = [];
  // Through zod's public classes (https://zod.dev/api): the wrappers unwrap, containers expose their element types.
  const walk = (type: z.ZodType, v: unknown, path: PropertyKey[]): void => {
    if (type instanceof z.ZodOptional || type instanceof z.ZodNullable || type instanceof z.ZodDefault) {
      return walk(type.unwrap() as z.ZodType, v, path);
    }
    if (type instanceof z.ZodArray) {
      if (Array.isArray(v)) v.forEach((item, i) => walk(type.element as z.ZodType, item, [...path, i]));
      return;
    }
    if (type instanceof z.ZodRecord) {
      if (isPlainObject(v)) for (const [k, item] of Object.entries(v)) walk(type.valueType as z.ZodType, item, [...path, k]);
      return;
    }
    if (type instanceof z.ZodObject) {
      if (!isPlainObject(v)) return;
      const shape = type.shape as Record<string, z.ZodType>;
      for (const [k, item] of Object.entries(v)) {
        if (k in shape) { walk(shape[k], item, [...path, k]); continue; }
        const near = closest(k, Object.keys(shape));
        out.push(`${fieldPath(source, [...path, k])}: unknown field${near ? ` (did you mean ${near}?)` : ''}`);
      }
    }
  };
  walk(schema, value, []);
  return out;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The known name within a third of `name`'s length in edits (case-insensitive), if any. */
function closest(name: string, known: readonly string[]): string | undefined {
  let best: { key: string; distance: number } | undefined;
  for (const key of known) {
    const distance = editDistance(name.toLowerCase(), key.toLowerCase());
    if (distance <= Math.max(1, Math.floor(name.length / 3)) && (!best || distance < best.distance)) best = { key, distance };
  }
  return best?.key;
}
