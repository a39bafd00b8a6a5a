/**
 * Docs and comments stay true: every repository path they cite exists, and none cites an issue number or tells history
 * (history goes to CHANGELOG.md, decisions to docs/adr/).
 *
 * Scanned: README.md and docs/**.md outside code blocks (a block's paths are the reader's own files), and the comments of
 * every TypeScript file in git. A cited path is one starting with a top-level folder of this repository; `<...>` and `*`
 * mark a pattern, not a path; a link to a file of this repository on GitHub is checked the same way. Bundles under assets/ are built from src/<capability>/<name>.lambda.ts, so they count as
 * existing when that source does. Generated files are left out (their generator's text is checked instead).
 */
import { execFileSync } from 'child_process';
import { existsSync, readFileSync } from 'fs';
import { dirname, join, normalize, resolve } from 'path';

const ROOT = resolve(__dirname, '..', '..');
const FOLDERS = ['src', 'test', 'docs', 'packages', 'scripts', 'bench', 'examples', 'data', 'assets', 'rosetta', 'projenrc'];
const PATH = new RegExp(`(?<![\\w./@<-])((?:\\.\\./)*)((?:${FOLDERS.join('|')})/[\\w./*<>-]*[\\w*>])`, 'g');
// .projenrc.ts is an index of projenrc/ modules; CHANGELOG.md is history by design; this file's own examples are stale
// on purpose; the rest are generated.
const SKIP = /(^|\/)(CHANGELOG\.md|API\.md|\.projenrc\.ts|cited-paths\.test\.ts)$|\.snapshot\/|generated|^api-baseline\/|^\.projen\/|-function\.ts$/;

function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0')
    .filter((f) => /\.(ts|md)$/.test(f) && !SKIP.test(f) && existsSync(join(ROOT, f)));
}

/** The lines a file's citations live on: Markdown outside fenced blocks, TypeScript comments. */
export function citingLines(file: string, text: string): Array<{ line: number; text: string }> {
  const out: Array<{ line: number; text: string }> = [];
  let fenced = false;
  let inBlockComment = false;
  text.split('\n').forEach((line, i) => {
    if (file.endsWith('.md')) {
      if (/^\s*```/.test(line)) fenced = !fenced;
      else if (!fenced) out.push({ line: i + 1, text: line });
      return;
    }
    const trimmed = line.trim();
    if (inBlockComment || trimmed.startsWith('/*')) {
      out.push({ line: i + 1, text: line });
      inBlockComment = !trimmed.includes('*/');
      return;
    }
    // A trailing `// ...` comment (not `://` of a URL).
    const comment = /(?<![:'"`])\/\/(.*)$/.exec(line);
    if (comment) out.push({ line: i + 1, text: comment[1] });
  });
  return out;
}

function exists(path: string): boolean {
  if (/[*<]/.test(path)) return true;
  const bundle = /^assets\/(.+?\.lambda)\b/.exec(path);
  if (path.startsWith('assets/')) return bundle !== null && existsSync(join(ROOT, 'src', `${bundle[1]}.ts`));
  return ['', '.ts', '.js', '/index.ts'].some((ext) => existsSync(join(ROOT, path + ext)));
}

// A link to a file of this repository on GitHub (how docstrings cite docs/: the package does not ship them).
const REPO_URL = /github\.com\/cdk-sagemaker-mcp\/cdk-sagemaker-mcp\/blob\/main\/([\w./-]*\w)/g;

export function staleCitations(file: string, text: string): string[] {
  const stale: string[] = [];
  for (const { line, text: t } of citingLines(file, text)) {
    for (const m of t.matchAll(REPO_URL)) if (!exists(m[1])) stale.push(`${file}:${line} ${m[1]}`);
    for (const m of t.matchAll(PATH)) {
      const cited = m[2].replace(/\.+$/, '');
      const candidates = [cited, normalize(join(dirname(file), m[1] + cited))];
      if (file.startsWith('packages/runtime/')) candidates.push(join('packages/runtime', cited));
      if (!candidates.some(exists)) stale.push(`${file}:${line} ${cited}`);
    }
  }
  return stale;
}

const HISTORY = [
  /\bissues? #?\d+/i, // an issue number no reader can resolve
  /\(#\d+\)/, // a pull request number
  /\bthis round\b|\b(previous|last|next) round\b/i,
  /\breview mends?\b/i,
];

export function historyLines(file: string, text: string): string[] {
  return citingLines(file, text)
    .filter(({ text: t }) => HISTORY.some((re) => re.test(t)))
    .map(({ line, text: t }) => `${file}:${line} ${t.trim().slice(0, 120)}`);
}

describe('docs and comments', () => {
  const files = trackedFiles();

  test('every cited repository path exists', () => {
    expect(files.flatMap((f) => staleCitations(f, readFileSync(join(ROOT, f), 'utf8')))).toEqual([]);
  });

  test('cite no issue numbers and tell no history (CHANGELOG.md does)', () => {
    expect(files.flatMap((f) => historyLines(f, readFileSync(join(ROOT, f), 'utf8')))).toEqual([]);
  });
});

describe('the checks themselves', () => {
  test('a stale path in a comment or in Markdown prose is found; a code block, a pattern or a URL is not a citation', () => {
    expect(staleCitations('src/a.ts', '/**\n * see docs/nowhere.md\n */\nconst x = 1; // and test/gone.test.ts\nconst url = "https://x/src/y";'))
      .toEqual(['src/a.ts:2 docs/nowhere.md', 'src/a.ts:4 test/gone.test.ts']);
    expect(staleCitations('docs/a.md', 'See src/gone.ts.\n```ts\nimport { x } from \'test/fixtures/mine.json\';\n```\nsrc/<capability>/x.ts'))
      .toEqual(['docs/a.md:1 src/gone.ts']);
    expect(staleCitations('docs/a.md', 'See [the realtime guide](realtime.md) and src/index.ts and assets/mcp/server.lambda/index.js.')).toEqual([]);
    expect(staleCitations('src/a.ts', '// https://github.com/cdk-sagemaker-mcp/cdk-sagemaker-mcp/blob/main/docs/gone.md, .../blob/main/docs/cost.md'))
      .toEqual(['src/a.ts:1 docs/gone.md']);
  });

  test('an issue number or a round of work is found', () => {
    expect(historyLines('src/a.ts', '// fixed in issue 25\nconst a = 1; // (#12)\n// reasons\n')).toEqual([
      'src/a.ts:1 fixed in issue 25', 'src/a.ts:2 (#12)',
    ]);
    expect(historyLines('docs/a.md', '## What changed this round\n')).toHaveLength(1);
  });
});
