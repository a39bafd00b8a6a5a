export * from './mcp-tool-server';
