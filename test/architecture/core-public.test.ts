import { existsSync, readdirSync, readFileSync, statSync } from 'fs';
import { basename, dirname, join, relative } from 'path';
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

/** A module's file: `x.ts`, or `x/index.ts`. */
function moduleFile(from: string, specifier: string): string {
  const base = join(dirname(from), specifier);
  return existsSync(`${base}.ts`) ? `${base}.ts` : join(base, 'index.ts');
}

/**
 * The names a file exports, read from its syntax alone (a type-checked program of the package takes ~12 s): exported
 * declarations, `export { a as b }`, and what `export * from` re-exports, followed through the files.
 */
function exportedNames(file: string, seen = new Set<string>()): Set<string> {
  const names = new Set<string>();
  if (seen.has(file)) return names;
  seen.add(file);
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022);
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      const from = statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) ? statement.moduleSpecifier.text : undefined;
      if (!statement.exportClause && from) {
        exportedNames(moduleFile(file, from), seen).forEach((n) => names.add(n));
      } else if (statement.exportClause && ts.isNamedExports(statement.exportClause)) {
        statement.exportClause.elements.forEach((e) => names.add(e.name.text));
      }
      continue;
    }
    const exported = ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (!exported) continue;
    if (ts.isVariableStatement(statement)) {
      statement.declarationList.declarations.forEach((d) => ts.isIdentifier(d.name) && names.add(d.name.text));
    } else if ((ts.isClassDeclaration(statement) || ts.isFunctionDeclaration(statement) || ts.isInterfaceDeclaration(statement)
      || ts.isTypeAliasDeclaration(statement) || ts.isEnumDeclaration(statement)) && statement.name) {
      names.add(statement.name.text);
    }
  }
  return names;
}

test('every export of a src/core file is exported from src/index.ts', () => {
  const publicNames = exportedNames(join(SRC, 'index.ts'));
  expect(publicNames.has('ModelSource')).toBe(true);
  expect(publicNames.has('InstanceType')).toBe(true);
  const internal = CORE.flatMap((file) => [...exportedNames(file)]
    .filter((name) => !publicNames.has(name))
    .map((name) => `${relative(ROOT, file)}: ${name}`));
  expect(internal).toEqual([]);
});

test('no src/private file shares its name with a src/core file', () => {
  const coreNames = new Set(CORE.map((f) => basename(f)).filter((n) => n !== 'index.ts'));
  expect(PRIVATE.filter((f) => coreNames.has(basename(f))).map((f) => relative(ROOT, f))).toEqual([]);
});
