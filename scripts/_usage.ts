import * as ts from 'typescript';
import { execSync } from 'child_process';
import { join } from 'path';
const pkgDir = join(__dirname, '..', 'packages', 'runtime');
const pkg = require(join(pkgDir, 'package.json'));
const entries = Object.entries(pkg.exports as Record<string, any>).filter(([k]) => k !== './package.json' && !k.startsWith('./internal'));
const files = entries.map(([, v]) => join(pkgDir, v.types));
const program = ts.createProgram(files, { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16, skipLibCheck: true });
const checker = program.getTypeChecker();
const names = new Map<string, string[]>();
for (const [k, v] of entries) {
  const sf = program.getSourceFile(join(pkgDir, v.types))!;
  for (const s of checker.getExportsOfModule(checker.getSymbolAtLocation(sf)!)) {
    const t = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
    if (!(t.flags & ts.SymbolFlags.Value)) continue;
    names.set(s.name, [...(names.get(s.name) ?? []), k]);
  }
}
const root = join(__dirname, '..');
for (const [n, subs] of [...names].sort()) {
  const g = (paths: string) => { try { return execSync(`grep -rlw ${n} ${paths} 2>/dev/null`, { cwd: root, encoding: 'utf8' }).trim().split('\n').filter(Boolean); } catch { return []; } };
  const tests = g('test packages/runtime/test');
  const users = g('docs README.md packages/runtime/README.md examples bench scripts src --include=*.ts --include=*.md').filter(f => !f.startsWith('scripts/_'));
  const srcRuntime = g('packages/runtime/src');
  if (users.length === 0 && tests.length > 0) console.log(`${n} [${subs.join(',')}] tests=${tests.length} runtimeSrc=${srcRuntime.length} ${tests.slice(0,3).join(' ')}`);
}
