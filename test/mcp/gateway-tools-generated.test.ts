/**
 * src/mcp/private/gateway-tools.generated.ts (the AgentCore Gateway tool schemas of `McpToolServer.addToGateway`) is what
 * `npx projen gateway:tools` writes today from the runtime's zod input schemas: a tool schema changed in
 * packages/runtime/src/mcp/tools without regenerating fails here.
 */
import { readFileSync } from 'fs';
import { buildGatewayTools, generateGatewayTools, GENERATED_PATH, toGatewayNode } from '../../scripts/generate-gateway-tools';
import { MCP_TOOL_NAMES } from '../../src/private/contract.generated';

test('the committed Gateway tool schemas are up to date (run `npx projen gateway:tools`)', () => {
  expect(readFileSync(GENERATED_PATH, 'utf8')).toBe(generateGatewayTools());
});

test('every tool the runtime registers has a template whose description names what the server exposes only through placeholders', () => {
  const tools = buildGatewayTools();
  expect(tools.map((t) => t.name)).toEqual(Object.values(MCP_TOOL_NAMES));
  for (const t of tools) {
    expect(t.inputSchema.type).toBe('object');
    expect(t.description).not.toMatch(/SENTINEL|987654321/);
  }
  expect(tools.find((t) => t.name === 'invoke_endpoint')!.description).toContain('Endpoints you may call:\n{exposed}\n');
  expect(tools.find((t) => t.name === 'put_feature_record')!.description).toContain('{maxEventTimeSkewSeconds} s past the server clock');
});

describe('JSON schema -> Gateway schema', () => {
  test('objects, arrays, enums and nullable types keep their type; required survives', () => {
    expect(toGatewayNode({
      type: 'object',
      properties: {
        n: { type: 'integer', description: 'a count' },
        tags: { type: 'array', items: { type: 'string' } },
        mode: { type: 'string', enum: ['a', 'b'] },
        maybe: { type: ['string', 'null'] },
      },
      required: ['n'],
    })).toEqual({
      type: 'object',
      properties: {
        n: { type: 'integer', description: 'a count' },
        tags: { type: 'array', items: { type: 'string' } },
        mode: { type: 'string', description: 'One of: a, b.' },
        maybe: { type: 'string' },
      },
      required: ['n'],
    });
  });

  test('a discriminated union becomes one object: the discriminator lists its values, variant-only fields say when', () => {
    const node = toGatewayNode({
      oneOf: [
        { type: 'object', properties: { kind: { type: 'string', const: 'x' }, x: { type: 'number' } }, required: ['kind', 'x'] },
        { type: 'object', properties: { kind: { type: 'string', const: 'y' }, y: { type: 'string', description: 'why' } }, required: ['kind'] },
      ],
    });
    expect(node).toEqual({
      type: 'object',
      properties: {
        kind: { type: 'string', description: 'One of: x, y.' },
        x: { type: 'number', description: '(kind x)' },
        y: { type: 'string', description: 'why (kind y)' },
      },
      required: ['kind'],
    });
  });

  test('a value of no single type leaves properties and is described in its parent instead', () => {
    expect(toGatewayNode({
      type: 'object',
      description: 'Payload.',
      properties: { data: { description: 'Any JSON.' }, cell: { type: ['string', 'number'] }, ok: { type: 'boolean' } },
      required: ['data', 'ok'],
    })).toEqual({
      type: 'object',
      description: 'Payload. Also: data: any JSON value Any JSON; cell: a string, number.',
      properties: { ok: { type: 'boolean' } },
      required: ['ok'],
    });
    expect(toGatewayNode({})).toBeUndefined();
  });
});
