/**
 * A drop-in for the MCP server SDK's Node shims (`@modelcontextprotocol/server/_shims`), for bundles only: the bundled
 * MCP server Lambda aliases the SDK's shim module to this file (see `mcp/server.lambda` in projenrc/bundling.ts).
 *
 * The SDK's Node shim makes Ajv (about 150 KB minified) its default JSON Schema validator. This server never needs it:
 * its tools declare zod schemas, which the SDK validates through Standard Schema, and it never asks a client for
 * elicitation input (the one server path that validates a JSON Schema). The SDK's own Cloudflare Workers validator
 * (`@modelcontextprotocol/server/validators/cf-worker`, about 15 KB) takes Ajv's place, so a JSON Schema still gets a
 * real validator if a future tool needs one. `process` is Node's, as in the SDK's Node shim.
 */
import process from 'node:process';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/server/validators/cf-worker';

export { CfWorkerJsonSchemaValidator as DefaultJsonSchemaValidator, process };
