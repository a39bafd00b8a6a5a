/**
 * `npx projen rosetta:check` (after `npx projen compile`): every TypeScript example compiles and translates, strictly.
 *
 * The examples are the ```ts blocks of README.md and docs/*.md and every `@example` of the jsii assembly (.jsii). Each is
 * compiled by jsii-rosetta in strict mode (as aws-cdk does) against the compiled library (lib/), and translated to
 * Python, Java, C# and Go; any compile or translation error fails the check, naming the file and line.
 *
 * Markers, on the comment lines right above a block's fence:
 *   <!-- rosetta: fixture=<name> -->   compile the block inside rosetta/<name>.ts-fixture (at its `/// here` line)
 *   <!-- rosetta: skip (reason) -->    not a jsii example (e.g. it uses the Node.js-only runtime package); reason required
 * Without a marker, a block that is a whole app (`new App(`) is compiled as it stands; any other block, and every
 * `@example`, inside rosetta/default.ts-fixture (rosetta's convention: a stack's constructor, with the values examples
 * name declared). A block's imports and `declare`s are hoisted above the fixture, as rosetta hoists imports.
 *
 * It also fails on a docstring that cites a repository path (docs/..., test/...), and regenerates docs/python.md (the Python translation of the README's examples) with `--write`, and fails when
 * the committed page is stale.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, mkdirSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join, resolve } from 'path';
import {
  RosettaTranslator, TargetLanguage, TranslatedSnippet, TypeScriptSnippet, typeScriptSnippetFromCompleteSource,
} from 'jsii-rosetta';

const ROOT = resolve(__dirname, '..', '..');
const FIXTURES = join(ROOT, 'rosetta');
const LANGUAGES = [TargetLanguage.PYTHON, TargetLanguage.JAVA, TargetLanguage.CSHARP, TargetLanguage.GO];

/** One example: where it is, its code, and how to compile it. */
export interface Example {
  readonly file: string;
  readonly line: number;
  /** The nearest Markdown heading above the block, or the jsii API the `@example` documents. */
  readonly heading: string;
  readonly code: string;
  readonly fixture?: string;
  readonly skip?: string;
}

const MARKER = /^<!--\s*rosetta:\s*(.*?)\s*-->$/;

/** The ```ts blocks of a Markdown file with their rosetta markers; throws on a malformed marker. */
export function markdownExamples(file: string, markdown: string): Example[] {
  const lines = markdown.split('\n');
  const out: Example[] = [];
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    if (/^#{1,6} /.test(lines[i])) heading = lines[i].replace(/^#+ /, '').trim();
    const fence = /^```(\S*)/.exec(lines[i]);
    if (!fence) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]); i++) body.push(lines[i]);
    if (!['ts', 'typescript'].includes(fence[1].toLowerCase())) continue;
    let fixture: string | undefined;
    let skip: string | undefined;
    for (let p = start - 1; p >= 0 && /^\s*<!--.*-->\s*$/.test(lines[p]); p--) {
      const m = MARKER.exec(lines[p].trim());
      if (!m) {
        if (/rosetta/.test(lines[p])) throw new Error(`${file}:${p + 1}: malformed rosetta marker '${lines[p].trim()}'`);
        continue;
      }
      const skipMatch = /^skip\s*\((.+)\)$/.exec(m[1]);
      const fixtureMatch = /^fixture=([\w-]+)$/.exec(m[1]);
      if (skipMatch) skip = skipMatch[1].trim();
      else if (fixtureMatch) fixture = fixtureMatch[1];
      else throw new Error(`${file}:${p + 1}: rosetta marker '${m[1]}', expected 'fixture=<name>' or 'skip (reason)'`);
    }
    const code = body.join('\n') + '\n';
    out.push({ file, line: start + 1, heading, code, fixture: fixture ?? (/new App\(/.test(code) ? undefined : 'default'), skip });
  }
  return out;
}

/** Every `@example` of the assembly's types and members. */
export function assemblyExamples(assembly: any): Example[] {
  const out: Example[] = [];
  for (const type of Object.values<any>(assembly.types ?? {})) {
    const docs = [{ name: type.fqn, docs: type.docs }, ...[...(type.properties ?? []), ...(type.methods ?? [])]
      .map((m: any) => ({ name: `${type.fqn}.${m.name}`, docs: m.docs }))];
    for (const d of docs) {
      if (d.docs?.example) out.push({ file: `@example ${d.name}`, line: 1, heading: d.name, code: d.docs.example, fixture: 'default' });
    }
  }
  return out;
}

/** The example inside its fixture, its imports and declarations hoisted to the top; only its own lines are translated. */
function withFixture(example: Example): string {
  if (!example.fixture) return example.code;
  const fixture = readFileSync(join(FIXTURES, `${example.fixture}.ts-fixture`), 'utf8');
  if (!/^\s*\/\/\/ here\s*$/m.test(fixture)) throw new Error(`rosetta/${example.fixture}.ts-fixture has no '/// here' line`);
  const imports: string[] = [];
  const statements: string[] = [];
  let inImport = false;
  for (const line of example.code.split('\n')) {
    if (/^import /.test(line)) inImport = true;
    (inImport || /^declare /.test(line) ? imports : statements).push(line);
    if (inImport && /;\s*$/.test(line)) inImport = false;
  }
  // A declaration the example makes itself replaces the fixture's of the same name.
  const own = new Set([...example.code.matchAll(/^declare const (\w+)/gm)].map((m) => m[1]));
  const kept = fixture.split('\n').filter((l) => !own.has(/^declare const (\w+)/.exec(l)?.[1] ?? '')).join('\n');
  const body = kept.replace(/^\s*\/\/\/ here\s*$/m, ['/// !show', ...statements, '/// !hide'].join('\n'));
  return ['/// !show', ...imports, '/// !hide', body].join('\n');
}

function snippetOf(example: Example): TypeScriptSnippet {
  return typeScriptSnippetFromCompleteSource(withFixture(example), {
    api: { api: 'file', fileName: example.file },
    field: { field: 'markdown', line: example.line },
  }, true);
}

/** A folder whose node_modules resolves the library (lib/) and the packages the examples import, as an app's would. */
function compilationDirectory(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rosetta-check-'));
  mkdirSync(join(dir, 'node_modules', '@aws-cdk'), { recursive: true });
  symlinkSync(ROOT, join(dir, 'node_modules', 'cdk-sagemaker-mcp'));
  for (const name of ['aws-cdk-lib', 'constructs', 'cdk-nag']) symlinkSync(join(ROOT, 'node_modules', name), join(dir, 'node_modules', name));
  return dir;
}

export interface CheckResult {
  readonly examples: Example[];
  readonly errors: string[];
  readonly translations: Map<Example, TranslatedSnippet>;
}

export async function check(only?: string): Promise<CheckResult> {
  const assembly = JSON.parse(readFileSync(join(ROOT, '.jsii'), 'utf8'));
  const markdown = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
  const examples = [
    ...markdown.flatMap((f) => markdownExamples(f, readFileSync(join(ROOT, f), 'utf8'))),
    ...assemblyExamples(assembly),
  ];
  const compiled = examples.filter((e) => !e.skip && (!only || e.file.includes(only)));
  const snippets = compiled.map(snippetOf);
  const translator = new RosettaTranslator({ assemblies: [assembly], includeCompilerDiagnostics: true });
  const dir = compilationDirectory();
  let result;
  try {
    result = await translator.translateAll(snippets, { compilationDirectory: dir });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const errors = [...result.diagnostics.filter((d) => d.isError).map((d) => d.formattedMessage), ...repositoryPathsInDocs(assembly)];
  const translations = new Map<Example, TranslatedSnippet>();
  compiled.forEach((e, i) => {
    const where = JSON.stringify(snippets[i].location);
    const t = result.translatedSnippets.find((s) => JSON.stringify(s.snippet.location) === where);
    if (t) translations.set(e, t);
  });
  for (const e of compiled) {
    const t = translations.get(e);
    if (!t) errors.push(`${e.file}:${e.line}: no translation`);
    else if (t.snippet.didCompile === false) errors.push(`${e.file}:${e.line}: does not compile`);
    else for (const lang of LANGUAGES) if (!t.get(lang)) errors.push(`${e.file}:${e.line}: no ${lang} translation`);
  }
  return { examples, errors, translations };
}

/**
 * Docstrings that cite a path of this repository: a package user has none of it (docs/, test/, ...), so the API docs
 * in every language link the file on GitHub instead.
 */
export function repositoryPathsInDocs(assembly: any): string[] {
  const path = /(?<![\w./@:-])(?:docs|test|src|packages|scripts|examples|bench|assets|data)\/[\w./-]*\w/g;
  const found: string[] = [];
  const visit = (where: string, docs: any) => {
    for (const [field, text] of Object.entries<any>(docs ?? {})) {
      const texts = typeof text === 'string' ? [text] : Object.values<string>(text ?? {});
      for (const t of texts) for (const m of String(t).matchAll(path)) found.push(`${where} (${field}): cites ${m[0]}, a repository path`);
    }
  };
  for (const type of Object.values<any>(assembly.types ?? {})) {
    visit(type.fqn, type.docs);
    for (const member of [...(type.properties ?? []), ...(type.methods ?? []), ...(type.members ?? [])]) {
      visit(`${type.fqn}.${member.name}`, member.docs);
      for (const p of member.parameters ?? []) visit(`${type.fqn}.${member.name}(${p.name})`, p.docs);
    }
    if (type.initializer) for (const p of type.initializer.parameters ?? []) visit(`${type.fqn}(${p.name})`, p.docs);
  }
  return found;
}

/** docs/python.md: the README's examples in Python, as rosetta translates them. */
export function pythonPage(result: CheckResult): string {
  const parts = [
    '# Python',
    '',
    'The examples of [cdk-sagemaker-mcp](../README.md) in Python, one per capability, as jsii-rosetta translates the',
    'README\'s TypeScript (generated by `npx projen rosetta:check --write`; CI fails when this page is stale).',
    '',
    'The Python distribution is `cdk-sagemaker-mcp`, module `cdk_sagemaker_mcp` (the README\'s Install section says where',
    'to get it). Names follow Python: props are keyword arguments in snake_case, structs are classes, constants keep their',
    'upper case. The MCP runtime and its CLI are Node.js only.',
  ];
  for (const e of result.examples.filter((x) => x.file === 'README.md' && !x.skip)) {
    const py = result.translations.get(e)?.get(TargetLanguage.PYTHON)?.source;
    if (!py) continue;
    parts.push('', `## ${e.heading.replace(/ — .*$/, '')}`, '', '```python', py.trimEnd(), '```');
  }
  return parts.join('\n') + '\n';
}

async function main(): Promise<void> {
  // --only=<text>: just the examples whose file name contains it (a quick loop while fixing one page; no page check).
  const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  const result = await check(only);
  const skipped = result.examples.filter((e) => e.skip);
  for (const e of skipped) process.stdout.write(`SKIP ${e.file}:${e.line} (${e.skip})\n`);
  process.stdout.write(`${result.translations.size} examples compiled and translated, ${skipped.length} skipped\n`);
  if (result.errors.length > 0) {
    process.stderr.write(result.errors.join('\n') + '\n');
    process.exit(1);
  }
  if (only) return;
  const page = pythonPage(result);
  const path = join(ROOT, 'docs', 'python.md');
  if (process.argv.includes('--write')) {
    writeFileSync(path, page);
  } else if (readFileSync(path, 'utf8') !== page) {
    process.stderr.write('docs/python.md is stale: run `npx projen rosetta:check --write` and commit it\n');
    process.exit(1);
  }
}

if (require.main === module) {
  main().catch((err) => {
    process.stderr.write(`${err.stack ?? err}\n`);
    process.exit(1);
  });
}
