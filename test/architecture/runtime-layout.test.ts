/**
 * The runtime package's layout mirrors the constructs': one folder per capability, each with an index.ts that is its
 * subpath export, and at most a handful of files at the package root (the package entry and the CLI). Its tests live
 * beside it (packages/runtime/test) and import it by name, never by path into its src/.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { join, relative, resolve } from 'path';

const ROOT = resolve(__dirname, '../..');
const RUNTIME = join(ROOT, 'packages', 'runtime');
const SRC = join(RUNTIME, 'src');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : tsFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

test('the runtime root holds only the package entry and the CLI; every folder is a capability with an index.ts', () => {
  const entries = readdirSync(SRC, { withFileTypes: true });
  expect(entries.filter((e) => e.isFile()).map((e) => e.name).sort()).toEqual(['cli.ts', 'index.ts']);
  const folders = entries.filter((e) => e.isDirectory()).map((e) => e.name);
  expect(folders.filter((f) => !readdirSync(join(SRC, f)).includes('index.ts'))).toEqual([]);
  expect(folders).toEqual(expect.arrayContaining(['core', 'invoke', 'async', 'features', 'pipelines', 'lineage', 'mcp', 'lambda', 'contract']));
});

test('tests import the runtime by name (`cdk-sagemaker-mcp-runtime[/folder]`), never by path into its src/', () => {
  // jest maps the package name to the sources (package.json's moduleNameMapper). The benchmarks, generators and examples
  // run under ts-node, which has no such mapping, and so keep their paths.
  const testFiles = [...tsFiles(join(ROOT, 'test')), ...tsFiles(join(RUNTIME, 'test'))];
  const byPath = testFiles.filter((f) => f.startsWith(join(RUNTIME, 'test')) && /from '(?:\.\.\/)+src\//.test(readFileSync(f, 'utf8')));
  const intoRuntimeSrc = testFiles.filter((f) => /(?:from|require\(|import\() ?'[^']*packages\/runtime\/src/.test(readFileSync(f, 'utf8')));
  expect(byPath.map((f) => relative(ROOT, f))).toEqual([]);
  expect(intoRuntimeSrc.map((f) => relative(ROOT, f))).toEqual([]);
});
