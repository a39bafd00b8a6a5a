export * from './mcp-api-gateway';
export * from './mcp-tool-server-props';
export * from './mcp-tool-server';
