/**
 * One MCP client session over streamable HTTP with the server factory the bundled Lambda and the CLI use: a node HTTP
 * server on 127.0.0.1 serving `createSageMakerMcpHandler(config)`, and the MCP SDK client connected to it.
 */
import { createServer } from 'http';
import { AddressInfo } from 'net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createSageMakerMcpHandler, SageMakerMcpServerConfig } from 'cdk-sagemaker-mcp-runtime/mcp';

/** What a tool call returns, as the tests read it. */
export type CallResult = { isError?: boolean; structuredContent?: any; content?: any };

export interface McpHttpSession {
  readonly client: Client;
  /** `tools/call` with the given arguments. */
  call(name: string, args: Record<string, unknown>): Promise<CallResult>;
  /** Closes the client, then the HTTP server. */
  close(): Promise<void>;
}

export async function startMcpHttpSession(config: SageMakerMcpServerConfig, clientName: string): Promise<McpHttpSession> {
  const http = createServer(toNodeHandler(createSageMakerMcpHandler(config)));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
  const client = new Client({ name: clientName, version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`)));
  return {
    client,
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as CallResult,
    close: async () => {
      await client.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
