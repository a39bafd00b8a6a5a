/**
 * The local AWS stand-ins are one private workspace package (packages/test-stand-ins) that both test trees import by
 * name: the runtime's tests never reach into test/, no test reaches into the package by path, and nothing packs or
 * publishes it.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { join, relative, resolve } from 'path';

const ROOT = resolve(__dirname, '../..');
const PKG_DIR = join(ROOT, 'packages', 'test-stand-ins');
const pkg = JSON.parse(readFileSync(join(PKG_DIR, 'package.json'), 'utf8'));

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : tsFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** The module specifiers a file imports (static imports, `import()`, `require()`, `jest.requireActual()`...). */
function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import\(|require\(|requireActual\()\s*'([^']+)'/g)].map((m) => m[1]);
}

const rel = (f: string) => relative(ROOT, f);

test('is a private package (npm refuses to publish it) whose exports are its stand-in modules', () => {
  expect(pkg.name).toBe('@cdk-sagemaker-mcp/test-stand-ins');
  expect(pkg.private).toBe(true);
  expect(pkg.exports).toEqual({ './*': './src/*.ts', './package.json': './package.json' });
});

test('the root names it as a devDependency only, and no task or workflow packs or publishes it', () => {
  const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  expect(root.devDependencies[pkg.name]).toBe(pkg.version);
  expect(Object.keys(root.dependencies ?? {})).not.toContain(pkg.name);
  // Every command of every task (npx projen <task>) and every workflow: none names the package's folder or acts on all
  // workspaces at once (`--workspaces`, `-ws`), which would include it.
  const tasks = readFileSync(join(ROOT, '.projen', 'tasks.json'), 'utf8');
  const workflows = readdirSync(join(ROOT, '.github', 'workflows')).map((f) => readFileSync(join(ROOT, '.github', 'workflows', f), 'utf8'));
  for (const text of [tasks, ...workflows]) {
    const packing = text.split('\n').filter((l) => /npm (pack|publish)|publib/.test(l));
    expect(packing.filter((l) => /test-stand-ins|--workspaces\b|\s-ws\b/.test(l))).toEqual([]);
  }
  // The construct library's tarball leaves packages/ out.
  expect(readFileSync(join(ROOT, '.npmignore'), 'utf8').split('\n')).toContain('/packages/');
});

test('the runtime\'s tests never reach into test/, and no test reaches a stand-in by path', () => {
  const runtimeTests = tsFiles(join(ROOT, 'packages', 'runtime', 'test'));
  const testTrees = [...tsFiles(join(ROOT, 'test')), ...runtimeTests, ...tsFiles(join(PKG_DIR, 'test')), ...tsFiles(join(ROOT, 'bench'))];
  const intoTest = runtimeTests.filter((f) => specifiers(f).some((s) => /^(\.\.\/)+test\//.test(s)));
  const byPath = testTrees.filter((f) => specifiers(f).some((s) => s.startsWith('.') && /test-stand-ins\//.test(s)));
  expect(intoTest.map(rel)).toEqual([]);
  expect(byPath.map(rel)).toEqual([]);
});

test('every stand-in module is its own import path, and test/support keeps none of them', () => {
  const modules = readdirSync(join(PKG_DIR, 'src')).filter((f) => f.endsWith('.ts')).map((f) => f.replace(/\.ts$/, ''));
  expect(modules).toEqual(expect.arrayContaining(['local-aws', 'sagemaker-runtime-server', 'sagemaker-control-server', 'featurestore-runtime-server']));
  const left = readdirSync(join(ROOT, 'test', 'support')).filter((f) => modules.includes(f.replace(/(\.test)?\.ts$/, '')));
  expect(left).toEqual([]);
});
