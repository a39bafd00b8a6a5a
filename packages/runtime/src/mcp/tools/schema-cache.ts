/**
 * Tool schemas converted to JSON Schema once per process instead of once per request.
 *
 * The stateless HTTP handler builds a fresh `McpServer` per request (the MCP SDK refuses an instance that is still
 * serving, and an instance carries per-exchange client state), and the SDK caches each tool's JSON Schema per
 * instance: every `tools/call` converted its tool's zod input schema again (the HTTP entry needs it to check
 * `Mcp-Param-*` headers) and every `tools/list` all of them, most of a call's overhead on a warm server. The SDK reads a
 * schema only through Standard Schema (`~standard.validate`, `~standard.jsonSchema`), so each zod schema is handed over
 * as a Standard Schema that validates with the same zod schema and remembers its JSON Schema per target. Nothing in it
 * depends on the request: the cache is keyed by the (module-level, immutable) schema and the conversion options.
 */
import type * as z from 'zod';
import type { ToolRegistrar } from './invoke-tools';

/** The parts of Standard Schema (https://standardschema.dev) the MCP SDK reads. */
interface StandardSchemaProps {
  readonly version: 1;
  readonly vendor: string;
  readonly validate: (value: unknown) => unknown;
  readonly jsonSchema?: {
    readonly input: (options: { target: string }) => Record<string, unknown>;
    readonly output: (options: { target: string }) => Record<string, unknown>;
  };
}

const cached = new WeakMap<object, { '~standard': StandardSchemaProps }>();

/** `schema` as a Standard Schema whose JSON Schema conversions are computed once per target and reused. */
export function withCachedJsonSchema(schema: z.ZodType): z.ZodType {
  const hit = cached.get(schema);
  if (hit) return hit as unknown as z.ZodType;
  const std = (schema as unknown as { '~standard': StandardSchemaProps })['~standard'];
  const json = std.jsonSchema;
  if (!json) return schema;
  const memo = (convert: (options: { target: string }) => Record<string, unknown>) => {
    const byTarget = new Map<string, Record<string, unknown>>();
    return (options: { target: string }) => {
      const key = JSON.stringify(options ?? {});
      let result = byTarget.get(key);
      if (!result) {
        result = convert(options);
        byTarget.set(key, result);
      }
      return result;
    };
  };
  const wrapped = {
    '~standard': {
      version: 1 as const,
      vendor: std.vendor,
      validate: (value: unknown) => std.validate(value),
      jsonSchema: { input: memo((o) => json.input(o)), output: memo((o) => json.output(o)) },
    },
  };
  cached.set(schema, wrapped);
  return wrapped as unknown as z.ZodType;
}

/** Registers every tool with its input and output schemas behind the per-process JSON Schema cache. */
export function withCachedSchemas(server: ToolRegistrar): ToolRegistrar {
  return {
    registerTool: (name, config, cb) => server.registerTool(name, {
      ...config,
      ...(config.inputSchema ? { inputSchema: withCachedJsonSchema(config.inputSchema) } : {}),
      ...(config.outputSchema ? { outputSchema: withCachedJsonSchema(config.outputSchema) } : {}),
    }, cb),
  };
}
