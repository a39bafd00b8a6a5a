import { readdirSync, readFileSync, statSync } from 'fs';
import { dirname, join, relative, resolve } from 'path';

/**
 * The import graph of the construct library (src/) and of the runtime package (packages/runtime/src/), as one graph:
 * no module may reach itself through its imports (type-only imports included: a cycle of types is still two modules
 * that cannot be understood apart). Imports of the runtime by package name (`cdk-sagemaker-mcp-runtime`,
 * `cdk-sagemaker-mcp-runtime/mcp`, one subpath per folder) are edges to its source files, through the package's `exports` map.
 */

const ROOT = resolve(__dirname, '../..');
const SRC = join(ROOT, 'src');
const RUNTIME = join(ROOT, 'packages/runtime');
const RUNTIME_SRC = join(RUNTIME, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `cdk-sagemaker-mcp-runtime[/subpath]` to its source file, read from the package's `exports` (lib/<name>.js -> src/<name>.ts). */
function runtimeEntryPoints(): Map<string, string> {
  const pkg = JSON.parse(readFileSync(join(RUNTIME, 'package.json'), 'utf8'));
  const out = new Map<string, string>();
  for (const [subpath, target] of Object.entries<any>(pkg.exports ?? {})) {
    const js: string | undefined = typeof target === 'string' ? target : target.default;
    if (!js || !js.endsWith('.js')) continue;
    out.set(join(pkg.name, subpath).replace(/\/\.$/, '').replace(/\\/g, '/'), join(RUNTIME, js.replace(/^\.\/lib\//, 'src/').replace(/\.js$/, '.ts')));
  }
  return out;
}

const ENTRY_POINTS = runtimeEntryPoints();

/** The relative imports and re-exports of a file, and its imports of the runtime package, resolved to source files. */
function importsOf(file: string, files: Set<string>): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'([^']*)'/gm),
    ...text.matchAll(/^\s*import\s+'([^']*)'/gm),
    ...text.matchAll(/\b(?:import|require)\(\s*'([^']*)'\s*\)/g),
  ].map((m) => m[1]);
  return specifiers.flatMap((s) => {
    if (!s.startsWith('.')) {
      const entry = ENTRY_POINTS.get(s);
      return entry && files.has(entry) ? [entry] : [];
    }
    if (s.endsWith('.json')) return []; // data, not a module of the graph
    const base = resolve(dirname(file), s.replace(/\.js$/, ''));
    const target = [`${base}.ts`, join(base, 'index.ts')].find((f) => files.has(f));
    if (!target) throw new Error(`${relative(ROOT, file)} imports '${s}', which is no source file under src/ or packages/runtime/src/`);
    return [target];
  });
}

/** Every cycle found by a depth-first walk, each as the list of files from the first to the one that closes it. */
export function findCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'visiting');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'visiting') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

describe('the import graph of src/ and packages/runtime/src/', () => {
  const files = new Set([...sourceFiles(SRC), ...sourceFiles(RUNTIME_SRC)]);
  const graph = new Map([...files].map((f) => [f, importsOf(f, files)]));

  test('is read from every source file (the walk sees the shared-gpu files that used to import each other)', () => {
    const sharedGpu = [...graph.keys()].map((f) => relative(SRC, f)).filter((f) => f.startsWith('shared-gpu/'));
    expect(sharedGpu).toEqual(expect.arrayContaining(['shared-gpu/shared-gpu-endpoint.ts', 'shared-gpu/inference-component.ts']));
    expect(graph.get(join(SRC, 'shared-gpu/shared-gpu-endpoint.ts'))).toContain(join(SRC, 'shared-gpu/inference-component.ts'));
  });

  test('is read from the runtime too, with its package-name imports as edges', () => {
    const runtime = [...graph.keys()].filter((f) => f.startsWith(RUNTIME_SRC + '/')).map((f) => relative(RUNTIME_SRC, f));
    expect(runtime).toEqual(expect.arrayContaining(['index.ts', 'mcp/server.ts', 'features/features.ts']));
    expect([...ENTRY_POINTS.keys()]).toEqual(expect.arrayContaining(['cdk-sagemaker-mcp-runtime', 'cdk-sagemaker-mcp-runtime/mcp', 'cdk-sagemaker-mcp-runtime/invoke']));
    const fromConstructs = [...graph.entries()].filter(([f]) => f.startsWith(SRC + '/')).flatMap(([, targets]) => targets);
    expect(fromConstructs.filter((t) => t.startsWith(RUNTIME_SRC + '/')).length).toBeGreaterThan(0);
  });

  test('has no cycle', () => {
    const cycles = findCycles(graph).map((c) => c.map((f) => relative(ROOT, f)).join(' -> '));
    expect(cycles).toEqual([]);
  });

  test('the cycle finder reports a cycle, with the files that make it', () => {
    const g = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]);
    expect(findCycles(g)).toEqual([['a', 'b', 'c', 'a']]);
    expect(findCycles(new Map([['a', ['b']], ['b', []]]))).toEqual([]);
  });
});
