/**
 * docs/mcp.md's tool table is checked against the server: one row per tool a configuration with every capability
 * registers, in registration order, and each row's Input column names exactly the tool's input fields (`name?` for an
 * optional one). The README points to that table (its MCP example lists `server.toolNames` for its own exposure).
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { McpHttpSession, startMcpHttpSession } from '../support/mcp-session';
import { sageMakerMcpToolNames, SageMakerMcpServerConfig } from 'cdk-sagemaker-mcp-runtime/mcp';

const EVERY_CAPABILITY: SageMakerMcpServerConfig = {
  region: 'us-east-1',
  handleKey: 'tool-docs-test-key',
  realtimeEndpoints: [{ name: 'rt' }],
  asyncEndpoints: [{ name: 'as', inputBucket: 'b' }],
  featureGroups: [{
    allowWrites: true,
    schema: { featureGroupName: 'g', recordIdentifier: 'id', eventTime: 't', features: [{ name: 'id', type: 'String' }, { name: 't', type: 'String' }] },
  }],
  pipelines: [{ name: 'p' }],
  trainingResultsTable: 'results',
  modelProvenance: true,
  modelPackageGroups: [{ name: 'mpg' }],
  deployments: [{ endpointName: 'rt' }],
};

/** The rows of the `| Tool | Input | Result | Registered when |` table: tool name -> Input cell. */
function documentedTools(): Array<{ name: string; input: string }> {
  const doc = readFileSync(join(__dirname, '..', '..', '..', '..', 'docs', 'mcp.md'), 'utf8');
  const start = doc.indexOf('| Tool | Input | Result | Registered when |');
  expect(start).toBeGreaterThan(0);
  const rows = doc.slice(start).split('\n').slice(2);
  const end = rows.findIndex((r) => !r.startsWith('| `'));
  return rows.slice(0, end).map((row) => {
    // Cells are split on ' | ' (an escaped \| inside a cell has no space before it).
    const [name, input] = row.slice(2).split(' | ');
    return { name: name.replace(/`/g, ''), input };
  });
}

let session: McpHttpSession;
beforeAll(async () => {
  session = await startMcpHttpSession(EVERY_CAPABILITY, 'tool-docs');
});
afterAll(async () => session?.close());

test('docs/mcp.md lists every tool the server registers, in order, with its input fields', async () => {
  const { tools } = await session.client.listTools();
  const documented = documentedTools();
  expect(tools.map((t) => t.name)).toEqual(sageMakerMcpToolNames(EVERY_CAPABILITY));
  expect(documented.map((d) => d.name)).toEqual(tools.map((t) => t.name));
  for (const tool of tools) {
    const input = documented.find((d) => d.name === tool.name)!.input;
    const schema = tool.inputSchema as { properties?: Record<string, unknown>; required?: string[] };
    // Top-level field names as the Input cell writes them: `name` or `name?` at the start of a backticked span.
    const written = [...input.matchAll(/`(\w+)(\??)[`\s=]/g)].map((m) => `${m[1]}${m[2]}`);
    const expected = Object.keys(schema.properties ?? {}).map((k) => (schema.required?.includes(k) ? k : `${k}?`));
    expect({ tool: tool.name, fields: written.filter((f) => expected.includes(f) || Object.keys(schema.properties ?? {}).includes(f.replace('?', ''))) })
      .toEqual({ tool: tool.name, fields: expected });
  }
});
