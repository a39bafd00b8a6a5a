/**
 * The JSONPath subset a pipeline's `Std:JsonGet` `Path` may use here, and an evaluator for it.
 *
 * SageMaker's guide says JsonGet "enables you to use JsonPath notation to query the property JSON file" and points to
 * the Jayway JsonPath repository (https://docs.aws.amazon.com/sagemaker/latest/dg/build-and-manage-propertyfile.html,
 * https://github.com/json-path/JsonPath). Its examples are bare member paths (`mse`,
 * `regression_metrics.mse.value`) and an index (`Output[1]`). A condition compares ONE value, so only the operators of
 * that README that select exactly one node are accepted: the root `$`, dot-notated children `.name`, bracket-notated
 * children `['name']` and a single array index `[n]` (negative counts from the end). Deep scan `..`, wildcards `*`,
 * filters `[?(...)]`, slices `[a:b]`, unions `[a,b]` and functions `name()` select a list and are refused.
 */

/** One step of a path: an object member or an array index. */
export type JsonPathSegment = { readonly key: string } | { readonly index: number };

/** A parsed path, or why it is not in the subset. */
export type JsonPathParse = { readonly segments: JsonPathSegment[] } | { readonly error: string };

/** What a path selects in a document: the value, or where and why the walk stopped. */
export type JsonPathResult = { readonly found: true; readonly value: unknown } | { readonly found: false; readonly reason: string };

/** The accepted forms, for error messages. */
export const JSON_PATH_SUBSET = "a single-value JSONPath: member names joined by '.', ['quoted names'] and [array indexes], "
  + "optionally starting with '$' (e.g. 'metrics.accuracy.value', '$.scores[0]', \"metrics['f1-score']\")";

/** Characters that end a dot-notated member name. */
const NAME_CHAR = /[^.[\]\s'"*@?(),:$]/;

/** Parses `path` into segments, or explains what is outside the subset. */
export function parseJsonPath(path: string): JsonPathParse {
  if (path.length === 0) return { error: 'the path is empty' };
  const segments: JsonPathSegment[] = [];
  let i = 0;
  const fail = (what: string) => ({ error: `${what} at character ${i + 1}` });

  if (path[0] === '$') {
    i = 1;
    if (i === path.length) return { error: "'$' alone selects the whole document, not one value" };
    if (path[i] !== '.' && path[i] !== '[') return fail("expected '.' or '[' after '$'");
  }
  let expectName = path[0] !== '$';
  while (i < path.length) {
    const c = path[i];
    if (expectName) {
      const start = i;
      while (i < path.length && NAME_CHAR.test(path[i])) i++;
      if (i === start) {
        if (c === '*') return fail("wildcard '*' selects many values");
        if (c === '.') return fail("deep scan '..' selects many values");
        return fail(`expected a member name, got '${c}'`);
      }
      const name = path.slice(start, i);
      if (path[i] === '(') return fail(`function call '${name}()' is not a value in the report`);
      segments.push({ key: name });
      expectName = false;
      continue;
    }
    if (c === '.') {
      if (path[i + 1] === '.') return fail("deep scan '..' selects many values");
      if (i + 1 === path.length) return fail("a trailing '.'");
      i++;
      expectName = true;
      continue;
    }
    if (c === '[') {
      const parsed = parseBracket(path, i);
      if ('error' in parsed) return parsed;
      segments.push(parsed.segment);
      i = parsed.next;
      continue;
    }
    return fail(`unexpected '${c}'`);
  }
  return { segments };
}

function parseBracket(path: string, open: number): { segment: JsonPathSegment; next: number } | { error: string } {
  const at = (i: number, what: string) => ({ error: `${what} at character ${i + 1}` });
  let i = open + 1;
  const q = path[i];
  if (q === "'" || q === '"') {
    let name = '';
    i++;
    while (i < path.length && path[i] !== q) {
      if (path[i] === '\\' && i + 1 < path.length) i++;
      name += path[i];
      i++;
    }
    if (i >= path.length) return at(open, 'unterminated quoted name in \'[\'');
    i++;
    if (path[i] === ',') return at(i, 'a union of names selects many values');
    if (path[i] !== ']') return at(i, "expected ']' after the quoted name");
    return { segment: { key: name }, next: i + 1 };
  }
  const close = path.indexOf(']', i);
  if (close < 0) return at(open, "unterminated '['");
  const inner = path.slice(i, close).trim();
  if (inner === '*') return at(i, "wildcard '[*]' selects many values");
  if (inner.startsWith('?')) return at(i, 'a filter expression selects many values');
  if (inner.startsWith('(')) return at(i, 'a script expression is not supported');
  if (inner.includes(':')) return at(i, 'an array slice selects many values');
  if (inner.includes(',')) return at(i, 'a union of indexes selects many values');
  if (!/^-?\d+$/.test(inner)) return at(i, `expected an array index or a quoted name in '[...]', got '${inner}'`);
  return { segment: { index: Number(inner) }, next: close + 1 };
}

/** Renders segments back as a path, for messages. */
export function formatJsonPath(segments: JsonPathSegment[]): string {
  let out = '$';
  for (const s of segments) {
    if ('index' in s) out += `[${s.index}]`;
    else out += /^[A-Za-z_][A-Za-z0-9_-]*$/.test(s.key) ? `.${s.key}` : `['${s.key.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`;
  }
  return out;
}

/** What `segments` select in `document`. */
export function evaluateJsonPath(document: unknown, segments: JsonPathSegment[]): JsonPathResult {
  let node: unknown = document;
  for (let n = 0; n < segments.length; n++) {
    const s = segments[n];
    const where = formatJsonPath(segments.slice(0, n));
    if ('index' in s) {
      if (!Array.isArray(node)) return { found: false, reason: `${where} is ${describe(node)}, not an array, so [${s.index}] selects nothing` };
      const idx = s.index < 0 ? node.length + s.index : s.index;
      if (idx < 0 || idx >= node.length) return { found: false, reason: `${where} has ${node.length} element(s), so [${s.index}] selects nothing` };
      node = node[idx];
    } else {
      if (node === null || typeof node !== 'object' || Array.isArray(node)) {
        return { found: false, reason: `${where} is ${describe(node)}, not an object, so '${s.key}' selects nothing` };
      }
      if (!Object.prototype.hasOwnProperty.call(node, s.key)) {
        const keys = Object.keys(node);
        return { found: false, reason: `${where} has no member '${s.key}' (it has ${keys.length ? keys.map((k) => `'${k}'`).join(', ') : 'none'})` };
      }
      node = (node as Record<string, unknown>)[s.key];
    }
  }
  return { found: true, value: node };
}

/** The JSON type of a value, as messages name it: number, string, boolean, null, array or object. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function describe(value: unknown): string {
  const t = jsonType(value);
  return t === 'array' || t === 'object' || t === 'null' ? `${t === 'null' ? '' : 'an '}${t}` : `a ${t} (${JSON.stringify(value)})`;
}
