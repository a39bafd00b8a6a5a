/**
 * `npx projen gateway:tools`: writes src/mcp/private/gateway-tools.generated.ts, the inline tool schemas an Amazon
 * Bedrock AgentCore Gateway Lambda target lists for the MCP tool server (`McpToolServer.addToGateway`).
 *
 * One source: the runtime's own tool registrations (packages/runtime/src/mcp/tools/*). Each `register*Tools` function
 * is run against a recording registrar with a spec that exposes one placeholder of everything, so every tool registers;
 * its zod input schema goes through `z.toJSONSchema` and is reduced to what a Gateway tool schema can say (type,
 * description, properties, required, items:
 * https://docs.aws.amazon.com/bedrock-agentcore/latest/devguide/gateway-add-target-lambda.html#gateway-lambda-tool-schema).
 * The description keeps the runtime's wording, with the placeholder's list lines turned into `{exposed}`, which the
 * construct fills with what the server actually exposes. The construct library cannot depend on zod, hence a committed
 * file; test/mcp/gateway-tools-generated.test.ts regenerates it in memory and fails when it is stale.
 */
import { writeFileSync } from 'fs';
import { join } from 'path';
import { z } from 'zod';
import { MCP_TOOL_NAMES } from '../packages/runtime/src/contract/mcp';
import { registerAsyncTools } from '../packages/runtime/src/mcp/tools/async-tools';
import type { ToolContext } from '../packages/runtime/src/mcp/tools/context';
import { registerFeatureTools } from '../packages/runtime/src/mcp/tools/feature-tools';
import { registerInvokeTools } from '../packages/runtime/src/mcp/tools/invoke-tools';
import { registerLifecycleTools } from '../packages/runtime/src/mcp/tools/lifecycle-tools';
import type { ToolRegistrar } from '../packages/runtime/src/mcp/tools/registrar';
import { registerTrainingTools } from '../packages/runtime/src/mcp/tools/training-tools';

const ROOT = join(__dirname, '..');
export const GENERATED_PATH = join(ROOT, 'src', 'mcp', 'private', 'gateway-tools.generated.ts');

/** The name every placeholder list entry carries; each line (or inline list) naming it becomes `{exposed}`. */
const SENTINEL = 'GATEWAY_EXPOSED_SENTINEL';
/** A skew no one configures, so that the runtime's default in put_feature_record's description becomes a placeholder. */
const SENTINEL_SKEW = 987654321;
const SENTINEL_TTL = 876543219;

/** A Gateway `SchemaDefinition`, as its CloudFormation property takes it. */
export interface GatewaySchemaNode {
  type: string;
  description?: string;
  properties?: Record<string, GatewaySchemaNode>;
  required?: string[];
  items?: GatewaySchemaNode;
}

type JsonSchema = {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
};

const join2 = (a: string | undefined, b: string | undefined) => [a, b].filter(Boolean).join(' ') || undefined;
const kindOf = (v: unknown) => (typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v);

/**
 * The Gateway form of a JSON schema node, or undefined when it has no single type (any JSON value, a union of scalars):
 * such a property is left out of `properties` (an agent may still send it; the server's zod schema checks it) and
 * described in its parent's description instead.
 */
export function toGatewayNode(s: JsonSchema): GatewaySchemaNode | undefined {
  const variants = (s.anyOf ?? s.oneOf ?? []).filter((v) => v.type !== 'null');
  if (s.anyOf || s.oneOf) {
    if (variants.length === 1) {
      const only = toGatewayNode(variants[0]);
      return only && { ...only, description: join2(s.description, only.description) };
    }
    if (variants.length > 1 && variants.every((v) => v.type === 'object')) return mergeObjects(s.description, variants);
    return undefined;
  }
  if (Array.isArray(s.type)) {
    const types = s.type.filter((t) => t !== 'null');
    return types.length === 1 ? toGatewayNode({ ...s, type: types[0] }) : undefined;
  }
  if (s.const !== undefined) return { type: kindOf(s.const), description: join2(s.description, `Always ${JSON.stringify(s.const)}.`) };
  if (s.enum) {
    return { type: kindOf(s.enum[0]), description: join2(s.description, `One of: ${s.enum.map((v) => String(v)).join(', ')}.`) };
  }
  switch (s.type) {
    case 'string': case 'number': case 'integer': case 'boolean':
      return { type: s.type, ...(s.description && { description: s.description }) };
    case 'array': {
      const items = s.items && toGatewayNode(s.items);
      const note = items ? undefined : `Items: ${describeUntyped(s.items).replace(/\.$/, '')}.`;
      return { type: 'array', ...(join2(s.description, note) && { description: join2(s.description, note) }), ...(items && { items }) };
    }
    case 'object': return objectNode(s.description, s.properties ?? {}, s.required ?? []);
    default: return undefined;
  }
}

/** What an untyped node may be: the kinds of value it takes, then its description. */
function describeUntyped(s: JsonSchema | undefined): string {
  const kinds = [...new Set([s?.type ?? [], ...(s?.anyOf ?? s?.oneOf ?? []).map((v) => v.type ?? [])].flat())];
  const what = kinds.length ? `a ${kinds.join(', ')}` : 'any JSON value';
  return s?.description ? `${what} ${s.description}` : what;
}

function objectNode(description: string | undefined, properties: Record<string, JsonSchema>, required: string[]): GatewaySchemaNode {
  const typed: Record<string, GatewaySchemaNode> = {};
  const untyped: string[] = [];
  for (const [name, p] of Object.entries(properties)) {
    const node = toGatewayNode(p);
    if (node) typed[name] = node;
    else untyped.push(`${name}: ${describeUntyped(p).replace(/\.$/, '')}`);
  }
  const note = untyped.length ? `Also: ${untyped.join('; ')}.` : undefined;
  const req = required.filter((r) => typed[r]);
  return {
    type: 'object',
    ...(join2(description, note) && { description: join2(description, note) }),
    ...(Object.keys(typed).length && { properties: typed }),
    ...(req.length && { required: req }),
  };
}

/** A discriminated union of objects: one object with every variant's properties; the discriminator lists its values. */
function mergeObjects(description: string | undefined, variants: JsonSchema[]): GatewaySchemaNode {
  const names = [...new Set(variants.flatMap((v) => Object.keys(v.properties ?? {})))];
  const discriminator = names.find((n) => variants.every((v) => v.properties?.[n]?.const !== undefined));
  const properties: Record<string, JsonSchema> = {};
  for (const name of names) {
    const holders = variants.filter((v) => v.properties?.[name]);
    if (name === discriminator) {
      properties[name] = { type: 'string', enum: holders.map((v) => v.properties![name].const) };
      continue;
    }
    const first = holders[0].properties![name];
    const when = discriminator && holders.length < variants.length
      ? `(${discriminator} ${holders.map((v) => v.properties![discriminator].const).join(' or ')})`
      : undefined;
    properties[name] = { ...first, description: join2(first.description, when) };
  }
  const required = names.filter((n) => variants.every((v) => v.required?.includes(n)));
  return objectNode(description, properties, required);
}

/** A tool as the Gateway lists it; `{exposed}`, `{maxEventTimeSkewSeconds}` and `{handleTtlSeconds}` in the description are filled at synth. */
export interface GatewayToolTemplate {
  name: string;
  description: string;
  inputSchema: GatewaySchemaNode;
}

function sentinelContext(): ToolContext {
  const schema = {
    featureGroupName: SENTINEL,
    recordIdentifier: 'id',
    eventTime: 'event_time',
    features: [{ name: 'id', type: 'String' }, { name: 'event_time', type: 'String' }],
  };
  const config = {
    realtimeEndpoints: [{ name: SENTINEL }],
    asyncEndpoints: [{ name: SENTINEL, inputBucket: 'bucket' }],
    featureGroups: [{ schema, allowWrites: true }],
    pipelines: [{ name: SENTINEL }],
    trainingResultsTable: 'table',
    modelProvenance: true,
    modelPackageGroups: [{ name: SENTINEL }],
    deployments: [{ endpointName: SENTINEL }],
    maxEventTimeSkewSeconds: SENTINEL_SKEW,
    handleTtlSeconds: SENTINEL_TTL,
  };
  // Registration reads only `config`; the clients are used by the tool callbacks, which never run here.
  return { config } as unknown as ToolContext;
}

function templateDescription(name: string, title: string | undefined, description: string): string {
  const text = `${title ? `${title}. ` : ''}${description}`
    // A list line naming the placeholder (`- NAME ...: description`) stands for the whole list.
    .split('\n').map((line) => (line.includes(SENTINEL) && line.startsWith('- ') ? '{exposed}' : line)).join('\n')
    .replace(new RegExp(`${SENTINEL}(, ${SENTINEL})*`, 'g'), '{exposed}')
    .replace(String(SENTINEL_SKEW), '{maxEventTimeSkewSeconds}')
    .replace(String(SENTINEL_TTL), '{handleTtlSeconds}');
  if (text.includes(SENTINEL)) throw new Error(`gateway:tools: ${name}'s description names the placeholder in a form this script does not recognise:\n${text}`);
  return text;
}

/** Every tool the runtime can register, in registration order, as a Gateway tool template. */
export function buildGatewayTools(): GatewayToolTemplate[] {
  const tools: GatewayToolTemplate[] = [];
  const registrar: ToolRegistrar = {
    registerTool: (name, config) => {
      if (!config.inputSchema) throw new Error(`gateway:tools: ${name} has no input schema`);
      const json = z.toJSONSchema(config.inputSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
      const inputSchema = toGatewayNode(json);
      if (inputSchema?.type !== 'object') throw new Error(`gateway:tools: ${name}'s input schema is not an object: ${JSON.stringify(json)}`);
      tools.push({ name, description: templateDescription(name, config.title, config.description ?? ''), inputSchema });
      return undefined;
    },
  };
  const ctx = sentinelContext();
  registerInvokeTools(registrar, ctx);
  registerAsyncTools(registrar, ctx);
  registerFeatureTools(registrar, ctx);
  registerTrainingTools(registrar, ctx);
  registerLifecycleTools(registrar, ctx);
  const missing = Object.values(MCP_TOOL_NAMES).filter((n) => !tools.some((t) => t.name === n));
  if (missing.length) throw new Error(`gateway:tools: the placeholder spec did not register ${missing.join(', ')}: extend sentinelContext()`);
  return tools;
}

/** The generated file's text. */
export function generateGatewayTools(): string {
  return [
    '// ~~ Generated by `npx projen gateway:tools` (scripts/generate-gateway-tools.ts) from the runtime\'s tool registrations',
    '// (packages/runtime/src/mcp/tools/*: their zod input schemas through z.toJSONSchema). Do not edit: edit those and regenerate.',
    '/* eslint-disable */',
    '',
    '/** An AgentCore Gateway tool schema node (`SchemaDefinition`): type, description, properties, required, items. */',
    'export interface GatewaySchemaNode {',
    '  readonly type: string;',
    '  readonly description?: string;',
    '  readonly properties?: { readonly [name: string]: GatewaySchemaNode };',
    '  readonly required?: readonly string[];',
    '  readonly items?: GatewaySchemaNode;',
    '}',
    '',
    '/** A tool as a Gateway lists it; `{exposed}`, `{maxEventTimeSkewSeconds}` and `{handleTtlSeconds}` in the description are filled at synth. */',
    'export interface GatewayToolTemplate {',
    '  readonly name: string;',
    '  readonly description: string;',
    '  readonly inputSchema: GatewaySchemaNode;',
    '}',
    '',
    `export const GATEWAY_TOOL_TEMPLATES: readonly GatewayToolTemplate[] = ${JSON.stringify(buildGatewayTools(), undefined, 2)};`,
    '',
  ].join('\n');
}

if (require.main === module) {
  writeFileSync(GENERATED_PATH, generateGatewayTools());
  process.stdout.write(`wrote ${GENERATED_PATH}\n`);
}
