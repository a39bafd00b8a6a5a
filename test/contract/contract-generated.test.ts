/**
 * src/private/contract.generated.ts (the construct library's mirror of the runtime's zod contract) is what
 * `npx projen contract:generate` writes today: a change to packages/runtime/src/contract/*.ts that was not regenerated
 * fails here.
 */
import { readFileSync } from 'fs';
import { generateContract, GENERATED_PATH } from '../../scripts/generate-contract';

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
