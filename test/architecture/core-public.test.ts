import { readdirSync, statSync } from 'fs';
import { basename, join, relative } from 'path';
import * as ts from 'typescript';

/**
 * src/core/ holds only public API (every export of a core/ file is exported from src/index.ts), and src/private/ is the
 * one shared internal folder: internal helpers live there, under names that do not repeat a core/ file's name, so that
 * "which file is the option, which is its rendering" is never a guess between two files of one name.
 */

const ROOT = join(__dirname, '..', '..');
const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const CORE = sourceFiles(join(SRC, 'core'));
const PRIVATE = sourceFiles(join(SRC, 'private'));

test('every export of a src/core file is exported from src/index.ts', () => {
  const program = ts.createProgram([join(SRC, 'index.ts'), ...CORE], {
    noEmit: true, skipLibCheck: true, noResolve: false, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS,
  });
  const checker = program.getTypeChecker();
  const exportsOf = (file: string) => checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file)!)!);
  const publicNames = new Set(exportsOf(join(SRC, 'index.ts')).map((s) => s.name));
  expect(publicNames.has('ModelSource')).toBe(true);
  const internal = CORE.flatMap((file) => exportsOf(file)
    .filter((s) => !publicNames.has(s.name))
    .map((s) => `${relative(ROOT, file)}: ${s.name}`));
  expect(internal).toEqual([]);
});

test('no src/private file shares its name with a src/core file', () => {
  const coreNames = new Set(CORE.map((f) => basename(f)).filter((n) => n !== 'index.ts'));
  expect(PRIVATE.filter((f) => coreNames.has(basename(f))).map((f) => relative(ROOT, f))).toEqual([]);
});
