/**
 * The MCP SDK's client pinned to one protocol revision, and the list-and-call every revision test runs with it
 * (./protocol-revisions.test.ts over streamable HTTP, ./protocol-revisions-stdio.test.ts over stdio).
 */
import { Client } from '@modelcontextprotocol/client';

/** The sessionless revision, opened with `server/discover` (the earlier ones open with `initialize`). */
export const MODERN = '2026-07-28';

/** The SDK client pinned to `revision`: `{ pin }` for 2026-07-28, an `initialize` offering only that version before. */
export function pinnedClient(revision: string): Client {
  const info = { name: `pinned-${revision}`, version: '1.0.0' };
  return revision === MODERN
    ? new Client(info, { versionNegotiation: { mode: { pin: revision } } })
    : new Client(info, { supportedProtocolVersions: [revision] });
}

/** Lists the tools and calls invoke_endpoint on the stand-in's 'clf' endpoint (answering one greeting). */
export async function listAndCall(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toContain('invoke_endpoint');
  const result = await client.callTool({ name: 'invoke_endpoint', arguments: { endpointName: 'clf', payload: { format: 'json', data: { inputs: 'hi' } } } }) as { isError?: boolean; structuredContent?: { json?: unknown } };
  expect(result.isError).toBeFalsy();
  expect(result.structuredContent?.json).toEqual([{ label: 'greeting', score: 0.97 }]);
}
