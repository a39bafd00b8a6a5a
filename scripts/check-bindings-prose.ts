/**
 * `npx projen pacmak:check`'s prose check of the generated Python bindings (`check-bindings-prose.ts <pacmak-out-dir>`).
 *
 * jsii-pacmak renames members in signatures and `:param` lines (`instanceType` becomes `instance_type`) but passes the
 * prose through, so a docstring that names a member as a code span (`` `instanceType` ``, `` `props.instanceType` ``,
 * `` `grantInvoke()` ``, `` `minCapacity: 0` ``) or as a bare word shows Python users a name they cannot type. This
 * fails on such a name when it is a camelCase property, method or parameter of this library's assembly (AWS API names
 * such as `InstancePools`, environment variables and event JSON keys are not: only our own member names count), and on
 * "undefined", which no other language has. Prose names members in words ("the instance type") so every language reads
 * it. Example code blocks are not read (the release translates them).
 *
 * Only text this library wrote is checked: a struct that extends an aws-cdk-lib struct repeats that struct's docs in
 * Python, and those are resolved to their declaring type (not ours) and skipped.
 */
import { readdirSync, readFileSync } from 'fs';
import { join, relative, resolve } from 'path';

const ROOT = resolve(__dirname, '..');

interface Location { readonly filename: string; readonly line: number }
interface Parameter { readonly name: string; readonly type?: { readonly fqn?: string } }
interface Callable { readonly name?: string; readonly parameters?: Parameter[]; readonly locationInModule?: Location }
interface Member { readonly name: string; readonly locationInModule?: Location }
interface JsiiType {
  readonly fqn: string;
  readonly name: string;
  readonly kind: string;
  readonly base?: string;
  readonly interfaces?: string[];
  readonly initializer?: Callable;
  readonly methods?: Callable[];
  readonly properties?: Member[];
  readonly members?: Member[];
  readonly locationInModule?: Location;
}
/** The part of a `.jsii` assembly the check reads. */
export interface Assembly { readonly name: string; readonly types: Record<string, JsiiType> }

/** One docstring line of ours that names a member in camelCase or says "undefined". */
export interface Finding {
  /** The Python file, as given to `scanPython`. */
  readonly file: string;
  readonly line: number;
  /** The code span (without its backquotes) or bare word that names a member, or `undefined` for the word. */
  readonly span: string;
  /** Where the text is written: `src/<file>.ts:<line>`, when the assembly records it. */
  readonly source?: string;
}

const CAMEL = /^[a-z][a-z0-9]*[A-Z]/;
/**
 * An identifier, a dotted path (`a.b.c`), a call (`x()`, `x(y)`) or an option as written in an object literal
 * (`x: 1`): the shapes a code span names a member with.
 */
const REFERENCE = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(.*\)|\s*:\s*\S.*)?$/;

/** Our camelCase property, method and parameter names (initializers' and methods' parameters included). */
export function ownMemberNames(assembly: Assembly): Set<string> {
  const names = new Set<string>();
  const callable = (c?: Callable) => {
    if (c?.name) names.add(c.name);
    for (const p of c?.parameters ?? []) names.add(p.name);
  };
  for (const t of Object.values(assembly.types)) {
    for (const p of t.properties ?? []) names.add(p.name);
    for (const m of t.methods ?? []) callable(m);
    callable(t.initializer);
  }
  return new Set([...names].filter((n) => CAMEL.test(n)));
}

/**
 * The own member a code span names, if any (`instanceType`, `props.instanceType`, `grantInvoke()`). A path into an
 * EventBridge event (`detail.pipelineArn`) names the event's JSON, which keeps its keys in every language.
 */
export function namedMember(span: string, own: Set<string>): string | undefined {
  if (!REFERENCE.test(span) || span.startsWith('detail.')) return undefined;
  return span.replace(/\(.*\)$|\s*:.*$/, '').split('.').find((segment) => own.has(segment));
}

/** `instance_type`, `instanceType` and `INSTANCE_TYPE` all give `instancetype` (Python adds `_` to keywords: `lambda_`). */
const norm = (name: string) => name.replace(/_+$/, '').replace(/_/g, '').toLowerCase();

const where = (l?: Location) => (l ? `${l.filename}:${l.line}` : undefined);

/**
 * Resolves the entities of our assembly a Python class's docstrings come from, following a type's bases inside the
 * assembly only: a name not found there was written by a dependency.
 */
class Resolver {
  private readonly byName = new Map<string, JsiiType>();
  constructor(private readonly assembly: Assembly) {
    for (const t of Object.values(assembly.types)) this.byName.set(t.name, t);
  }
  /** The type of a Python class (`_IFooProxy` is `IFoo`'s proxy). */
  type(pythonClass: string): JsiiType | undefined {
    return this.byName.get(pythonClass.replace(/^_(.*)Proxy$/, '$1'));
  }
  private chain(t: JsiiType): JsiiType[] {
    const bases = [t.base, ...(t.interfaces ?? [])].map((fqn) => (fqn ? this.assembly.types[fqn] : undefined));
    return [t, ...bases.flatMap((b) => (b ? this.chain(b) : []))];
  }
  property(t: JsiiType, pyName: string): Member | undefined {
    for (const c of this.chain(t)) {
      const found = [...(c.properties ?? []), ...(c.members ?? [])].find((p) => norm(p.name) === norm(pyName));
      if (found) return found;
    }
    return undefined;
  }
  callable(t: JsiiType, pyName: string): Callable | undefined {
    for (const c of this.chain(t)) {
      if (pyName === '__init__') return c.initializer;
      const found = (c.methods ?? []).find((m) => norm(m.name!) === norm(pyName));
      if (found) return found;
    }
    return undefined;
  }
  /** Where a `:param x:` line of a member's docstring is written (a parameter, or a field of a flattened struct). */
  param(t: JsiiType, member: string, pyParam: string): Location | undefined {
    if (t.kind === 'interface' && member === '__init__') {
      const field = this.property(t, pyParam);
      return field ? field.locationInModule ?? t.locationInModule : undefined;
    }
    const c = this.callable(t, member);
    const params = c?.parameters ?? [];
    if (params.some((p) => norm(p.name) === norm(pyParam))) return c?.locationInModule ?? t.locationInModule;
    const struct = params.length > 0 ? this.assembly.types[params[params.length - 1].type?.fqn ?? ''] : undefined;
    const field = struct ? this.property(struct, pyParam) : undefined;
    return field ? field.locationInModule ?? struct!.locationInModule : undefined;
  }
  /** Where a member's own docstring text is written, when the member is ours. */
  member(t: JsiiType, member: string): Location | undefined {
    if (member === '__init__') return t.initializer?.locationInModule ?? t.locationInModule;
    const found = this.property(t, member) ?? this.callable(t, member);
    return found ? found.locationInModule ?? t.locationInModule : undefined;
  }
}

/**
 * The findings in one generated Python file. Docstrings outside our classes (the module's README) are not read; in a
 * class, a line is ours when the entity it documents is declared by our assembly.
 */
export function scanPython(file: string, text: string, assembly: Assembly): Finding[] {
  const own = ownMemberNames(assembly);
  const resolver = new Resolver(assembly);
  const findings: Finding[] = [];
  let type: JsiiType | undefined;
  let member: string | undefined;
  let inDoc = false;
  let exampleIndent: number | undefined;
  const indent = (l: string) => l.length - l.trimStart().length;
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    if (!inDoc) {
      const cls = /^class (\w+)/.exec(line);
      if (cls) { type = resolver.type(cls[1]); member = undefined; return; }
      if (/^[^\s)]/.test(line)) { type = undefined; return; }
      const def = /^ {4}def (\w+)/.exec(line) ?? /^ {4}(\w+) = /.exec(line);
      if (def) { member = def[1]; return; }
      if (!/^\s*r?'''/.test(line)) return;
      inDoc = true;
      line = line.replace(/^\s*r?'''/, '');
    }
    const closes = line.includes("'''");
    if (closes) inDoc = false;
    if (exampleIndent !== undefined && (closes || (line.trim() !== '' && indent(line) <= exampleIndent))) exampleIndent = undefined;
    if (/^\s*Example::\s*$/.test(line)) exampleIndent = indent(line);
    if (!type || exampleIndent !== undefined) return;
    const param = /^\s*:param (\w+):/.exec(line);
    const location = param && member
      ? resolver.param(type, member, param[1])
      : member ? resolver.member(type, member) : type.locationInModule ?? { filename: '', line: 0 };
    if (!location) return; // written by a dependency
    const report = (span: string) => findings.push({ file, line: i + 1, span, source: where(location) || undefined });
    for (const m of line.matchAll(/``([^`]+)``/g)) {
      if (namedMember(m[1], own)) report(m[1]);
    }
    const prose = line.replace(/``[^`]*``/g, ' ').replace(/https?:\/\/\S+/g, ' ');
    for (const word of prose.match(/\b[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*\b/g) ?? []) {
      if (own.has(word)) report(word);
    }
    if (/\bundefined\b/i.test(line)) report('undefined');
  });
  return findings;
}

function pythonFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? pythonFiles(join(dir, e.name)) : e.name.endsWith('.py') ? [join(dir, e.name)] : []);
}

if (require.main === module) {
  const out = resolve(process.argv[2] ?? '.pacmak-check');
  const assembly: Assembly = JSON.parse(readFileSync(join(ROOT, '.jsii'), 'utf8'));
  const findings = pythonFiles(join(out, 'python', 'src')).flatMap((f) =>
    scanPython(relative(ROOT, f), readFileSync(f, 'utf8'), assembly));
  for (const f of findings) {
    console.error(`${f.file}:${f.line}: ${f.span}${f.source ? ` (written at ${f.source})` : ''}`);
  }
  const sources = new Set(findings.map((f) => f.source?.replace(/:\d+$/, '')));
  console.log(`bindings prose: ${findings.length} docstring line(s) name a member in camelCase or say "undefined"` +
    (findings.length ? `, written in ${sources.size} source file(s): name the member in words ("the instance type")` : ''));
  if (findings.length > 0) process.exit(1);
}
