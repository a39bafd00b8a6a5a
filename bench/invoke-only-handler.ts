/**
 * The cold-start baseline of bench/mcp.bench.ts: the smallest Lambda handler that invokes a real-time endpoint with the
 * runtime (packages/runtime/src/invoke/invoke.ts), bundled with the MCP server's esbuild options. Region, endpoint URL and
 * credentials come from the environment (AWS_REGION, AWS_ENDPOINT_URL_SAGEMAKER_RUNTIME, AWS_ACCESS_KEY_ID...), as the
 * server's do.
 */
import { invokeEndpoint } from '../packages/runtime/src/invoke/invoke';

export async function handler(event: { endpointName: string; data: unknown }): Promise<unknown> {
  const result = await invokeEndpoint({ endpointName: event.endpointName, body: JSON.stringify(event.data), contentType: 'application/json' });
  return result.json();
}
