/**
 * `npx projen runtime:api` writes packages/runtime/api/<entry point>.api.md, the API report of each public subpath of
 * the runtime package's `exports` (`index` for the root, `mcp` for `./mcp`...), from the built .d.ts files (lib/).
 * `--check` (`npx projen runtime:api:check`, in the CI gate) writes nothing and fails, printing the difference, when a
 * committed report is not what the entry point exports. The `./internal/*` subpaths (the construct library's bundled
 * handlers and its contract) are left out: they carry no compatibility promise.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { CompilerState, Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const RUNTIME = join(__dirname, '..', 'packages', 'runtime');
export const REPORT_FOLDER = join(RUNTIME, 'api');

/** Each public subpath of the runtime package, to its report's name and its built declaration file. */
export function publicEntryPoints(): Array<{ subpath: string; report: string; types: string }> {
  const pkg = JSON.parse(readFileSync(join(RUNTIME, 'package.json'), 'utf8'));
  return Object.entries<string | { types: string }>(pkg.exports)
    .filter(([subpath, target]) => typeof target !== 'string' && !subpath.startsWith('./internal/'))
    .map(([subpath, target]) => ({
      subpath,
      report: `${subpath === '.' ? 'index' : subpath.slice(2).replace(/\//g, '-')}.api.md`,
      types: join(RUNTIME, (target as { types: string }).types),
    }));
}

function main(check: boolean): void {
  const entryPoints = publicEntryPoints();
  const configFile = join(RUNTIME, 'api-extractor.json');
  const base = ExtractorConfig.loadFile(configFile);
  const tempFolder = mkdtempSync(join(tmpdir(), 'runtime-api-'));
  let compilerState: CompilerState | undefined;
  const failed: string[] = [];
  try {
    for (const entry of entryPoints) {
      const config = ExtractorConfig.prepare({
        configObject: {
          ...base,
          mainEntryPointFilePath: entry.types,
          apiReport: { ...base.apiReport!, enabled: true, reportFileName: entry.report, reportTempFolder: tempFolder },
        },
        configObjectFullPath: configFile,
        packageJsonFullPath: join(RUNTIME, 'package.json'),
      });
      // One TypeScript program for every entry point.
      compilerState ??= CompilerState.create(config, { additionalEntryPoints: entryPoints.map((e) => e.types) });
      const result = Extractor.invoke(config, { localBuild: !check, compilerState, printApiReportDiff: true });
      if (!result.succeeded) failed.push(`${entry.subpath} (api/${entry.report})`);
    }
  } finally {
    rmSync(tempFolder, { recursive: true, force: true });
  }
  // A report left behind by an entry point the package no longer exports is stale too.
  const expected = new Set(entryPoints.map((e) => e.report));
  const orphans = readdirSync(REPORT_FOLDER).filter((f) => f.endsWith('.api.md') && !expected.has(f));
  if (orphans.length > 0) {
    if (check) failed.push(...orphans.map((f) => `api/${f} (no such entry point)`));
    else for (const f of orphans) rmSync(join(REPORT_FOLDER, f));
  }
  if (failed.length > 0) {
    console.error(`runtime:api: the API report of ${failed.join(', ')} is not what the runtime package exports. If the change is meant, run \`npx projen runtime:api\` and commit packages/runtime/api/.`);
    process.exitCode = 1;
  }
}

if (require.main === module) main(process.argv.includes('--check'));
