/**
 * One capability, one folder name on both sides: a capability the construct library and the runtime package both have
 * lives in a folder of the same name in src/ and packages/runtime/src/ (the runtime's names are its public subpaths, so
 * the library follows them). The runtime's other folders have no construct-side counterpart.
 */
import { readdirSync } from 'fs';
import { join, resolve } from 'path';

const ROOT = resolve(__dirname, '../..');

/** Runtime folders with no library folder: what only runs at call time, or is spread over several constructs. */
const RUNTIME_ONLY = [
  'contract', // the seam itself (its construct-side mirror is src/private/contract.generated.ts)
  'lambda', // the handlers, bundled by the capabilities that deploy them
  'invoke', // endpoint invocation, for the realtime, serverless and shared-GPU endpoints alike
  'lineage', // lineage walks, read by the MCP tools
  'openai', // the OpenAI-compatible route's client, read by the MCP tools
];

const folders = (dir: string) => readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);

const shared = () => folders(join(ROOT, 'packages', 'runtime', 'src')).filter((f) => !RUNTIME_ONLY.includes(f));

test('every runtime capability folder has a library folder of the same name', () => {
  const library = new Set(folders(join(ROOT, 'src')));
  expect(shared().filter((f) => !library.has(f))).toEqual([]);
});

test('the construct tests of a capability both packages have live in test/ under that same name', () => {
  const tests = new Set(folders(join(ROOT, 'test')));
  expect(shared().filter((f) => !tests.has(f))).toEqual([]);
});
