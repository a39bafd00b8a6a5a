import { readdirSync, readFileSync, statSync } from 'fs';
import { dirname, join, relative, resolve } from 'path';

/**
 * The import graph of src/: no module may reach itself through its imports (type-only imports included: a cycle of
 * types is still two modules that cannot be understood apart).
 */

const SRC = resolve(__dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The relative imports and re-exports of a file, resolved to files under src/. */
function importsOf(file: string, files: Set<string>): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'(\.[^']*)'/gm), ...text.matchAll(/^\s*import\s+'(\.[^']*)'/gm)]
    .map((m) => m[1]);
  return specifiers.map((s) => {
    const base = resolve(dirname(file), s);
    const target = [`${base}.ts`, join(base, 'index.ts')].find((f) => files.has(f));
    if (!target) throw new Error(`${relative(SRC, file)} imports '${s}', which is no file under src/`);
    return target;
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

describe('the import graph of src/', () => {
  const files = new Set(sourceFiles(SRC));
  const graph = new Map([...files].map((f) => [f, importsOf(f, files)]));

  test('is read from every source file (the walk sees the shared-gpu files that used to import each other)', () => {
    const sharedGpu = [...graph.keys()].map((f) => relative(SRC, f)).filter((f) => f.startsWith('shared-gpu/'));
    expect(sharedGpu).toEqual(expect.arrayContaining(['shared-gpu/shared-gpu-endpoint.ts', 'shared-gpu/inference-component.ts']));
    expect(graph.get(join(SRC, 'shared-gpu/shared-gpu-endpoint.ts'))).toContain(join(SRC, 'shared-gpu/inference-component.ts'));
  });

  test('has no cycle', () => {
    const cycles = findCycles(graph).map((c) => c.map((f) => relative(SRC, f)).join(' -> '));
    expect(cycles).toEqual([]);
  });

  test('the cycle finder reports a cycle, with the files that make it', () => {
    const g = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]);
    expect(findCycles(g)).toEqual([['a', 'b', 'c', 'a']]);
    expect(findCycles(new Map([['a', ['b']], ['b', []]]))).toEqual([]);
  });
});
