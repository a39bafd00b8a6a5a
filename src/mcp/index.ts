export * from './gateway-protocol';
export * from './mcp-api-gateway';
export * from './mcp-gateway-target';
export * from './mcp-tool-server-props';
export * from './mcp-tool-server';
export * from './mcp-tool-metric-options';
