/**
 * Tool arguments are validated in our own callback rather than by the SDK, so an invalid call fails like every other
 * failure (errorName `InvalidArguments`, not retryable, redacted, logged under a correlation id by ./guard).
 *
 * Why a wrapper: `McpServer` (@modelcontextprotocol/server 2.x) validates `tools/call` arguments against the registered
 * `inputSchema` before the tool callback runs and answers a failure with a plain-text result built by its private
 * `createToolError`; it offers no option or hook to shape that result. What it does offer is its public input type, a
 * Standard Schema (https://standardschema.dev) with `~standard.jsonSchema`: each tool is registered with one that
 * advertises the tool's own JSON Schema unchanged (what `tools/list` returns) but accepts any value, and the callback
 * parses with the tool's zod schema.
 */
import type { z } from 'zod';
import type { ToolRegistrar } from './invoke-tools';
import { ToolRefusal } from './results';
import { tryParseContract } from '../../contract/parse';

const advertised = new WeakMap<z.ZodType, z.ZodType>();

/**
 * A Standard Schema that advertises `schema`'s JSON Schema and leaves validation to the tool callback. One object per
 * (module-level, immutable) schema, so ./schema-cache can keep its JSON Schema conversions across requests.
 */
function advertisedOnly(schema: z.ZodType): z.ZodType {
  let deferred = advertised.get(schema);
  if (!deferred) {
    const standard = schema['~standard'];
    // ToolRegistrar types inputSchema as a zod schema; the SDK underneath takes any Standard Schema with JSON Schema.
    deferred = { '~standard': { vendor: standard.vendor, version: standard.version, jsonSchema: standard.jsonSchema, validate: (value: unknown) => ({ value }) } } as unknown as z.ZodType;
    advertised.set(schema, deferred);
  }
  return deferred;
}

/** Registers each tool so that its callback parses the arguments with the tool's own schema. */
export function validateToolArguments(server: ToolRegistrar): ToolRegistrar {
  return {
    registerTool: (name, config, cb) => {
      const schema = config.inputSchema;
      if (!schema) return server.registerTool(name, config, cb);
      return server.registerTool(name, { ...config, inputSchema: advertisedOnly(schema) }, async (args, extra) => {
        const { data, problems } = tryParseContract(schema, args ?? {}, { source: 'arguments' });
        if (problems) throw new ToolRefusal('InvalidArguments', `Invalid arguments for tool ${name}: ${problems.join('; ')}`);
        return cb(data, extra);
      });
    },
  };
}
