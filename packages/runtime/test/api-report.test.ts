/**
 * Each public entry point exports what its API report (packages/runtime/api/<entry point>.api.md, written by API
 * Extractor through `npx projen runtime:api`) lists, and no more: a value added to or dropped from an index.ts fails
 * here until the report is regenerated and reviewed. The report's types are held to the sources by
 * `npx projen runtime:api:check` in the CI gate (it needs the built .d.ts files); this test needs no build.
 */
import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';

const PKG = join(__dirname, '..');
const pkg = JSON.parse(readFileSync(join(PKG, 'package.json'), 'utf8'));
const subpaths = Object.keys(pkg.exports).filter((s) => s !== './package.json');
const publicSubpaths = subpaths.filter((s) => !s.startsWith('./internal/'));
const reportOf = (subpath: string) => `${subpath === '.' ? 'index' : subpath.slice(2)}.api.md`;

/** The values a report declares: its exported functions, constants, classes (the types have no runtime name). */
function reportedValues(report: string): string[] {
  return [...report.matchAll(/^export (?:declare )?(?:abstract )?(?:function|const|let|class|enum|namespace) (\w+)/gm)].map((m) => m[1]);
}

test('every public subpath has an API report, and no report is left for a subpath the package no longer exports', () => {
  const reports = readdirSync(join(PKG, 'api')).filter((f) => f.endsWith('.api.md'));
  expect(reports.sort()).toEqual(publicSubpaths.map(reportOf).sort());
});

test.each(publicSubpaths)('%s exports the values its API report lists, and only those', async (subpath) => {
  const mod: Record<string, unknown> = await import(subpath === '.' ? pkg.name : `${pkg.name}${subpath.slice(1)}`);
  const reported = [...new Set(reportedValues(readFileSync(join(PKG, 'api', reportOf(subpath)), 'utf8')))].sort();
  expect(Object.keys(mod).filter((k) => k !== '__esModule').sort()).toEqual(reported);
});

test('the construct library\'s contract and handlers are internal subpaths, not public entry points', () => {
  expect(subpaths).toEqual(expect.arrayContaining(['./internal/contract', './internal/lambda']));
  expect(publicSubpaths.filter((s) => /^\.\/(contract|lambda)$/.test(s))).toEqual([]);
});

test('nothing is exported for the tests alone: the only internal subpaths are the construct library\'s, and no entry point '
  + 'exports the helpers the package uses inside its modules', async () => {
  expect(subpaths.filter((s) => s.startsWith('./internal/')).sort()).toEqual(['./internal/contract', './internal/lambda']);
  // Each is used inside its own module only: the tests drive them through invokeEndpoint, the MCP tools and the CLI.
  const hidden = ['resolveClient', 'missingCredentialsHint', 'invokeResultBytes', 'MAX_INVOKE_RESULT_BYTES', 'processCallerIdentity'];
  for (const subpath of subpaths) {
    const mod: Record<string, unknown> = await import(subpath === '.' ? pkg.name : `${pkg.name}${subpath.slice(1)}`);
    expect(hidden.filter((n) => n in mod).map((n) => `${subpath}: ${n}`)).toEqual([]);
  }
});
