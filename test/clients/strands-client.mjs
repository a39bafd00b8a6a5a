// Run by test/clients/strands.test.ts on Node 22: the Strands Agents TypeScript SDK's McpClient against this server, over
// stdio (argv[2] = 'stdio', argv[3] = the CLI bundle, argv[4] = its config; credentials passed through `env`, as
// docs/mcp.md says) or streamable HTTP (argv[2] = 'http', argv[3] = the URL). Prints one JSON line of what it saw.
import { McpClient } from '@strands-agents/sdk';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [mode, target, config] = process.argv.slice(2);
const client = mode === 'stdio'
  ? new McpClient({ transport: new StdioClientTransport({ command: process.execPath, args: [target, 'mcp', '-c', config], env: { ...process.env }, stderr: 'ignore' }) })
  : new McpClient({ url: target });
await client.connect();
const tools = await client.listTools();
const byName = (n) => tools.find((t) => t.name === n);
// With an active OpenTelemetry span, McpClient.callTool adds `_meta: { traceparent }` to the tool ARGUMENTS (its
// injectTraceContext); no span is active here, so the arguments carry that `_meta` as it would.
const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const ok = await client.callTool(byName('invoke_endpoint'), { endpointName: 'churn-xgb', payload: { format: 'csv', rows: [[1, 2]] }, _meta: { traceparent: TRACEPARENT } });
let refused;
try {
  refused = { value: await client.callTool(byName('invoke_endpoint'), { endpointName: 'not-exposed', payload: { format: 'json', data: {} } }) };
} catch (err) {
  refused = { thrown: String(err?.message ?? err) };
}
process.stdout.write(`${JSON.stringify({ names: tools.map((t) => t.name), ok, refused })}\n`);
await client.disconnect();
