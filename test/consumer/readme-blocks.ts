/**
 * Reads the code blocks of a Markdown file the way the consumer-app test uses them: mechanically, unedited.
 *
 * A block's mode is given by an HTML comment on the last non-blank line before its fence:
 *   (none)                                      ```ts: type-check, then `cdk synth` (the block is a complete CDK app)
 *   <!-- consumer-test: run (reason) -->        ```ts: type-check, then run with node (must exit 0);
 *                                               ```bash: run with bash -e in the consumer app's folder
 *   <!-- consumer-test: typecheck (reason) -->  ```ts: type-check only
 *   <!-- consumer-test: skip (reason) -->       not compiled; the test prints the reason
 * Other languages without a marker are not tested. A reason is required for every mode but the default.
 */

export type BlockMode = 'synth' | 'run' | 'typecheck' | 'skip' | 'none';

export interface CodeBlock {
  /** 1-based position among the file's blocks of the same language group (ts or other). */
  readonly index: number;
  readonly lang: string;
  readonly mode: BlockMode;
  readonly reason?: string;
  /** The nearest heading above the block. */
  readonly heading: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly code: string;
}

const MARKER = /^<!--\s*consumer-test:\s*(\S+)\s*(?:\((.*)\))?\s*-->$/;
const TS_LANGS = new Set(['ts', 'typescript']);
const MODES = new Set(['run', 'typecheck', 'skip']);

export function isTypeScript(block: CodeBlock): boolean {
  return TS_LANGS.has(block.lang);
}

/** Every fenced block, with its mode; throws on a malformed or misplaced marker (naming the line). */
export function extractBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  let heading = '';
  let tsCount = 0;
  let otherCount = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^#{1,6} /.test(line)) heading = line.replace(/^#+ /, '').trim();
    const fence = /^```(\S*)\s*$/.exec(line);
    if (!fence) continue;
    const lang = fence[1].toLowerCase();
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]); i++) body.push(lines[i]);
    if (i >= lines.length) throw new Error(`line ${start + 1}: code block is not closed`);

    let prev = start - 1;
    while (prev >= 0 && lines[prev].trim() === '') prev--;
    const marker = prev >= 0 ? MARKER.exec(lines[prev].trim()) : null;
    if (prev >= 0 && !marker && /consumer-test/.test(lines[prev])) throw new Error(`line ${prev + 1}: malformed consumer-test marker '${lines[prev].trim()}'`);
    let mode: BlockMode;
    let reason: string | undefined;
    if (marker) {
      if (!MODES.has(marker[1])) throw new Error(`line ${prev + 1}: consumer-test mode '${marker[1]}', expected one of ${[...MODES].join(', ')}`);
      reason = marker[2]?.trim();
      if (!reason) throw new Error(`line ${prev + 1}: consumer-test ${marker[1]} needs a reason in parentheses`);
      mode = marker[1] as BlockMode;
      if (mode === 'run' && !TS_LANGS.has(lang) && lang !== 'bash') throw new Error(`line ${prev + 1}: consumer-test run is for ts or bash blocks, got '${lang}'`);
      if (mode === 'typecheck' && !TS_LANGS.has(lang)) throw new Error(`line ${prev + 1}: consumer-test typecheck is for ts blocks, got '${lang}'`);
    } else {
      mode = TS_LANGS.has(lang) ? 'synth' : 'none';
    }
    const index = TS_LANGS.has(lang) ? ++tsCount : ++otherCount;
    blocks.push({ index, lang, mode, reason, heading, line: start + 1, code: body.join('\n') + '\n' });
  }
  return blocks;
}

/** A file name for a block: `03-realtime-inference.ts`. */
export function blockFileName(block: CodeBlock): string {
  const slug = block.heading.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'block';
  return `${String(block.index).padStart(2, '0')}-${slug}.${TS_LANGS.has(block.lang) ? 'ts' : 'sh'}`;
}

/** GitHub's anchor for a heading: lowercase, punctuation dropped, spaces to hyphens. */
export function headingAnchor(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

/** The anchors of a Markdown file's headings (outside code blocks), with GitHub's -1, -2 suffixes for repeats. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (/^```/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const m = /^#{1,6} (.*)$/.exec(line);
    if (!m) continue;
    const base = headingAnchor(m[1]);
    const n = counts.get(base) ?? 0;
    counts.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Relative links (`[text](target)`) outside code blocks: not http(s) or mailto. */
export function localLinks(markdown: string): Array<{ line: number; target: string }> {
  const links: Array<{ line: number; target: string }> = [];
  let inFence = false;
  markdown.split('\n').forEach((line, i) => {
    if (/^```/.test(line)) inFence = !inFence;
    if (inFence) return;
    const stripped = line.replace(/`[^`]*`/g, '');
    for (const m of stripped.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (!/^(https?:|mailto:)/.test(m[1])) links.push({ line: i + 1, target: m[1] });
    }
  });
  return links;
}

/** A ```ts block that is a whole CDK app (it makes its own `App`); any other synthesized block is a fragment. */
export function isApp(block: CodeBlock): boolean {
  return /new App\(/.test(block.code);
}

/**
 * A whole-app block with the checks docs/checks.md sets up (cdk-nag's AwsSolutionsChecks and SageMakerMcpChecks)
 * registered on its app right after the line that makes it: the block's own lines unchanged, three imports (under names
 * no block uses) above them and one statement after `const app = new App(...)`. A block that registers its own checks,
 * or makes its app otherwise, is returned as it is.
 */
export function withChecks(code: string): string {
  const made = /^const app = new App\([^\n]*\);[^\n]*$/m.exec(code);
  if (!made || /AwsSolutionsChecks|SageMakerMcpChecks/.test(code)) return code;
  const at = made.index + made[0].length;
  return [
    "import { Validations as ConsumerTestValidations } from 'aws-cdk-lib';",
    "import { AwsSolutionsChecks as ConsumerTestNag } from 'cdk-nag';",
    "import { SageMakerMcpChecks as ConsumerTestChecks } from 'cdk-sagemaker-mcp';",
    code.slice(0, at),
    'ConsumerTestValidations.of(app).addPlugins(new ConsumerTestNag(app), new ConsumerTestChecks());',
  ].join('\n') + code.slice(at);
}

/**
 * A fragment as a module of the consumer app: its imports hoisted above the fixture's, its statements at the fixture's
 * `/// here` line (inside the stack's constructor), after the fixture values it names (and those they name). A
 * `declare const` of a value the fixture builds is dropped (the fixture's real value takes its place); any other
 * `declare` throws, naming the declaration: such a block cannot run, and is marked `typecheck` instead.
 */
export function fragmentModule(fixture: string, code: string): string {
  const imports: string[] = [];
  const statements: string[] = [];
  const declared: string[] = [];
  let inImport = false;
  for (const line of code.split('\n')) {
    if (/^import /.test(line)) inImport = true;
    if (inImport) imports.push(line);
    else if (/^declare /.test(line)) declared.push(line);
    else statements.push(line);
    if (inImport && /;\s*$/.test(line)) inImport = false;
  }
  // The values: the `const` lines right above the block holding the `/// here` line.
  const fixtureLines = fixture.split('\n');
  const here = fixtureLines.findIndex((l) => /^\s*\/\/\/ here\s*$/.test(l));
  if (here < 0) throw new Error('the consumer fixture has no \'/// here\' line');
  const values = new Map<number, [string, string]>();
  for (let i = here - 1; i >= 0 && /^\s*(const \w+ = .*|\{)\s*$/.test(fixtureLines[i]); i--) {
    const name = /^\s*const (\w+) = /.exec(fixtureLines[i])?.[1];
    if (name) values.set(i, [name, fixtureLines[i]]);
  }
  const valueOf = new Map([...values.values()]);
  for (const d of declared) {
    const name = /^declare const (\w+)/.exec(d)?.[1];
    if (!name || !valueOf.has(name)) throw new Error(`'${d.trim()}': the consumer fixture builds no such value (mark the block typecheck)`);
  }
  const body = statements.join('\n');
  // The block's own top-level names shadow the fixture's: those are not built.
  const own = new Set([...body.matchAll(/^(?:const|let|var|function|class) (\w+)/gm)].map((m) => m[1]));
  for (const m of body.matchAll(/^(?:const|let|var) \{([^}]*)\}/gm)) for (const n of m[1].split(',')) own.add(n.split(':').pop()!.trim());
  // Names as code uses them: not in comments, strings or property keys (`endpoint:`), nor as members (`x.model`).
  const names = (text: string) => {
    const used = text.replace(/\/\/.*$/gm, '').replace(/'[^'\n]*'/g, "''").replace(/\b\w+\s*:(?!:)/g, '').replace(/\.\w+/g, '');
    return [...valueOf.keys()].filter((n) => !own.has(n) && new RegExp(`\\b${n}\\b`).test(used));
  };
  const kept = new Set(names(body));
  for (let grew = true; grew;) {
    grew = false;
    for (const n of [...kept]) {
      for (const dep of names(valueOf.get(n)!.replace(/^\s*const \w+ = /, ''))) {
        if (!kept.has(dep)) {
          kept.add(dep);
          grew = true;
        }
      }
    }
  }
  const lines = fixtureLines.filter((_l, i) => !values.has(i) || kept.has(values.get(i)![0]));
  return [...imports, ...lines.join('\n').replace(/^\s*\/\/\/ here\s*$/m, body).split('\n')].join('\n');
}
