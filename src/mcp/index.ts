export * from './mcp-api-gateway';
export * from './mcp-tool-server';
