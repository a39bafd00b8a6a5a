/**
 * Per-tool metrics of the bundled MCP server (assets/mcp/server.lambda, after `npx projen bundle`): each tool call
 * through the Lambda handler writes CloudWatch embedded-metric-format records to stdout (test/support/emf.ts parses
 * them from what the handler writes).
 */
import { functionUrlFrontDoor, useBundledServerLambda } from './bundled-server-lambda';
import { emfWrittenBy } from '../support/emf';
import { fail, ok } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { MCP_METRICS, METRICS_NAMESPACE } from 'cdk-sagemaker-mcp-runtime/internal/contract';

describe('bundled server.lambda metrics', () => {
  process.env.AWS_LAMBDA_FUNCTION_NAME = 'mcp-server-fn';
  const server = useBundledServerLambda(functionUrlFrontDoor('metrics-test'));

  test('a successful call: calls 1, errors 0 and latency under the tool name and the server, in namespace SageMakerMcp', async () => {
    server.runtime.script('churn-xgb', ok({ probability: 0.9 }));

    const records = await emfWrittenBy(() => server.client.callTool({ name: 'invoke_endpoint', arguments: { endpointName: 'churn-xgb', payload: { format: 'json', data: { f: [1] } } } }));

    expect(records).toHaveLength(1);
    const [r] = records;
    expect(r._aws.CloudWatchMetrics).toEqual([{
      Namespace: METRICS_NAMESPACE,
      Dimensions: [['service', 'ToolName'], ['service']],
      Metrics: [{ Name: 'ToolCalls', Unit: 'Count' }, { Name: 'ToolErrors', Unit: 'Count' }, { Name: 'ToolLatency', Unit: 'Milliseconds' }],
    }]);
    expect(r).toMatchObject({ service: 'mcp-server-fn', ToolName: 'invoke_endpoint', [MCP_METRICS.TOOL_CALLS]: 1, [MCP_METRICS.TOOL_ERRORS]: 0 });
    expect(r[MCP_METRICS.TOOL_LATENCY]).toEqual(expect.any(Number));
  });

  test('a failed call: errors 1, and a second record by the error name; no caller, no argument values', async () => {
    server.runtime.script('churn-xgb', fail('ModelError', { originalStatusCode: 415 }));

    const records = await emfWrittenBy(() => server.client.callTool({ name: 'invoke_endpoint', arguments: { endpointName: 'churn-xgb', payload: { format: 'json', data: { secretFeature: 'value-42' } } } }));

    expect(records.map((r) => [r.ToolName, r.ErrorName, r.ToolErrors])).toEqual([['invoke_endpoint', undefined, 1], ['invoke_endpoint', 'ModelInvocationError', 1]]);
    expect(records[1]._aws.CloudWatchMetrics[0].Dimensions).toEqual([['service', 'ToolName', 'ErrorName']]);
    const text = JSON.stringify(records);
    expect(text).not.toContain('value-42');
    expect(text).not.toContain('churn-xgb');
    expect(text).not.toMatch(/arn:aws|caller|userArn/);
  });

  test('invalid arguments are counted under their errorName', async () => {
    const records = await emfWrittenBy(() => server.client.callTool({ name: 'describe_endpoint', arguments: { endpointName: 'not-exposed' } }));

    expect(records[0]).toMatchObject({ ToolName: 'describe_endpoint', ToolCalls: 1, ToolErrors: 1 });
    expect(records[1]).toMatchObject({ ToolName: 'describe_endpoint', ErrorName: expect.any(String) });
  });
});
