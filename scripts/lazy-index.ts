/**
 * The library's one mechanism that exists only for synth speed: it rewrites lib/index.js (jsii's compile of
 * src/index.ts) so that each capability folder loads on first use of one of its exports, instead of all of them at
 * `require('cdk-sagemaker-mcp')`.
 *
 * What it saves: an app that builds realtime endpoints no longer loads, and keeps alive until synth ends, the MCP
 * server, pipelines, Feature Store, async and their aws-cdk-lib modules (Lambda, SNS, SQS, Bedrock AgentCore, ...).
 * Heap alive at template validation, and so the process CPU of a synth, goes down with it (aws-cdk-lib's own index
 * files are lazy the same way). `npx projen bench realtime` measures it beside jsii's eager entry on every run;
 * docs/benchmarks.md has the figures.
 *
 * How to turn it off: remove its step from the compile task (projenrc/library.ts) and run `npx projen`; jsii's
 * lib/index.js then stands as emitted, with the same exports.
 *
 * The exports keep their names and values (each a getter over its folder's module), in src/index.ts's order, the
 * first folder exporting a name winning as with `export *`, and named for Node's ESM import;
 * test/architecture/package-exports.test.ts holds them to the .jsii assembly. Idempotent: the folders come from
 * src/index.ts, the names from each compiled folder.
 */
import { readFileSync, writeFileSync } from 'fs';
import { join } from 'path';

const ROOT = join(__dirname, '..');

/** The capability folders src/index.ts re-exports (`export * from './<folder>';`), in its order. */
export function capabilityFolders(root: string = ROOT): string[] {
  const folders = [...readFileSync(join(root, 'src', 'index.ts'), 'utf8').matchAll(/^export \* from '\.\/([a-z-]+)';$/gm)].map((m) => m[1]);
  if (folders.length === 0) throw new Error('lazy-index: src/index.ts has no `export * from` lines');
  return folders;
}

function writeLazyIndex(): void {
  const folders = capabilityFolders();
  const seen = new Set<string>();
  const lines = folders.map((folder) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const names = Object.keys(require(join(ROOT, 'lib', folder))).filter((n) => n !== 'default' && !seen.has(n));
    names.forEach((n) => seen.add(n));
    return `lazy(${JSON.stringify(folder)}, ${JSON.stringify(names)});`;
  });

  writeFileSync(join(ROOT, 'lib', 'index.js'), `"use strict";
// Written by scripts/lazy-index.ts from src/index.ts after jsii's compile: each folder is required on first use of one
// of its exports.
Object.defineProperty(exports, "__esModule", { value: true });
function lazy(folder, names) {
    for (const name of names) {
        Object.defineProperty(exports, name, { enumerable: true, configurable: true, get: () => require("./" + folder)[name] });
    }
}
${lines.join('\n')}
// Never runs: names the exports for Node's ESM import of this CommonJS module (cjs-module-lexer reads this form, as it
// does esbuild's output; it cannot read the getters above), so that \`import { RealtimeEndpoint } from ...\` works.
0 && (module.exports = { ${[...seen].join(', ')} });
`);
  // eslint-disable-next-line no-console
  console.log(`lib/index.js: ${seen.size} exports over ${folders.length} folders, each loaded on first use`);
}

// Run by the compile task; imported by bench/realtime.bench.ts for the folder list only.
if (require.main === module) writeLazyIndex();
