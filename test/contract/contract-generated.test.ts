/**
 * src/private/contract.generated.ts (the construct library's mirror of the runtime's zod contract) is what
 * `npx projen contract:generate` writes today: a change to packages/runtime/src/contract/*.ts that was not regenerated
 * fails here.
 */
import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import { generateContract, GENERATED_PATH } from '../../scripts/generate-contract';
import { FAMILY_TABLE_DOC, generateFamilyDoc, generateModelFamily, MODEL_FAMILY_PATH } from '../../scripts/generate-model-family';
import { ModelFamily } from '../../src/core/model-family.generated';
import { MODEL_FAMILIES } from 'cdk-sagemaker-mcp-runtime/internal/contract';

test('the committed contract mirror is up to date (run `npx projen contract:generate`)', () => {
  expect(readFileSync(GENERATED_PATH, 'utf8')).toBe(generateContract());
});

test('the mirror carries an interface per registered schema and the env var names, and no zod', () => {
  const text = generateContract();
  for (const name of ['FeatureSchemaEntry', 'FeatureGroupSchema', 'McpRealtimeEndpointSpec', 'McpAsyncEndpointSpec',
    'McpFeatureGroupSpec', 'McpPipelineSpec', 'McpServerSpec']) {
    expect(text).toContain(`export interface ${name} {`);
  }
  for (const name of ['MCP_ENV', 'ASYNC_ENV', 'FEATURE_GROUP_SCHEMAS_ENV', 'RESULTS_TABLE_ENV']) expect(text).toContain(`export const ${name} =`);
  expect(text).not.toMatch(/from 'zod'|\bz\./);
});

test('one edit distance: defined in the runtime contract only, and the JumpStart suggestions use the mirror\'s copy', () => {
  const root = join(__dirname, '..', '..');
  const files = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []);
  const definers = [...files(join(root, 'src')), ...files(join(root, 'packages', 'runtime', 'src'))]
    .filter((f) => !f.endsWith('contract.generated.ts') && /function editDistance\b|editDistance\s*=/.test(readFileSync(f, 'utf8')))
    .map((f) => f.slice(root.length + 1));
  expect(definers).toEqual(['packages/runtime/src/contract/edit-distance.ts']);
  expect(generateContract()).toContain('export function editDistance(');
  expect(readFileSync(join(root, 'src', 'jumpstart', 'close-matches.ts'), 'utf8')).toContain("import { editDistance } from '../private/contract.generated';");
});

describe('ModelFamily and the docs\' family table follow MODEL_FAMILIES', () => {
  test('the committed src/core/model-family.generated.ts is up to date (run `npx projen contract:generate`)', () => {
    expect(readFileSync(MODEL_FAMILY_PATH, 'utf8')).toBe(generateModelFamily());
  });

  test('the family table of docs/realtime.md is up to date (run `npx projen contract:generate`)', () => {
    const doc = readFileSync(FAMILY_TABLE_DOC, 'utf8');
    expect(doc).toBe(generateFamilyDoc(doc));
  });

  test('a table that drifts (a family dropped by hand) is caught', () => {
    const doc = readFileSync(FAMILY_TABLE_DOC, 'utf8');
    const drifted = doc.replace(/^\| `ModelFamily\.OPENAI`.*\n/m, '');
    expect(drifted).not.toBe(doc);
    expect(generateFamilyDoc(drifted)).not.toBe(drifted);
  });

  test('ModelFamily has a member per contract family, and of() refuses a name the contract does not know', () => {
    expect(ModelFamily.all().map((f) => f.name)).toEqual([...MODEL_FAMILIES]);
    expect(ModelFamily.of('llama3')).toBe(ModelFamily.LLAMA3);
    expect(() => ModelFamily.of('tei')).toThrow(/ModelFamily\.of: got "tei", expected one of 'tgi', 'llama3', 'mistral', 'falcon', 'openai'/);
  });

  test('no other doc or README lists the families by hand (they link to the generated table)', () => {
    const listing = new RegExp(MODEL_FAMILIES.slice(0, 3).map((f) => `\`${f}\``).join('[^\\n]{0,12}'));
    for (const file of ['README.md', ...readdirSync(join(__dirname, '..', '..', 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]) {
      expect({ file, listed: listing.test(readFileSync(join(__dirname, '..', '..', file), 'utf8')) }).toEqual({ file, listed: false });
    }
  });
});
