/**
 * McpToolServer `responseStreaming`: the function URL in InvokeMode RESPONSE_STREAM and the function pointed at the
 * bundle's streaming handler; off by default (BUFFERED, `index.handler`).
 */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { McpToolServer, McpToolServerProps } from '../../src/mcp';
import { RealtimeEndpoint } from '../../src/realtime';

function server(props: Partial<McpToolServerProps> = {}) {
  const stack = new Stack(new App(), 'S', { env: { account: '123456789012', region: 'us-east-1' } });
  const s = new McpToolServer(stack, 'Tools', { realtimeEndpoints: [{ endpoint: RealtimeEndpoint.fromEndpointName(stack, 'E', 'churn-xgb') }], ...props });
  return { stack, server: s };
}

test('responseStreaming: RESPONSE_STREAM function URL, streaming handler', () => {
  const { stack } = server({ responseStreaming: true });
  const t = Template.fromStack(stack);
  t.hasResourceProperties('AWS::Lambda::Url', { AuthType: 'AWS_IAM', InvokeMode: 'RESPONSE_STREAM' });
  t.hasResourceProperties('AWS::Lambda::Function', { Handler: 'index.streamingHandler' });
});

test('by default: a buffered function URL (no InvokeMode written) and the buffered handler', () => {
  const { stack } = server();
  const url = Object.values<any>(Template.fromStack(stack).toJSON().Resources).find((r) => r.Type === 'AWS::Lambda::Url');
  expect(url.Properties.InvokeMode).toBeUndefined();
  Template.fromStack(stack).hasResourceProperties('AWS::Lambda::Function', { Handler: 'index.handler' });
});

test('fails if responseStreaming has no function URL to stream from (apiGateway replaced it)', () => {
  expect(() => server({ responseStreaming: true, apiGateway: { authorizationType: apigateway.AuthorizationType.IAM } }))
    .toThrow(/responseStreaming: got true, expected a function URL to stream from \(apiGateway replaces it: set apiGateway.keepFunctionUrl\)/);
  const kept = { authorizationType: apigateway.AuthorizationType.IAM, keepFunctionUrl: true };
  expect(() => server({ responseStreaming: true, apiGateway: kept })).not.toThrow();
});

test('fails if responseStreaming is asked of a function in a VPC (function URLs do not stream from one)', () => {
  const stack = new Stack(new App(), 'V', { env: { account: '123456789012', region: 'us-east-1' } });
  const vpc = new ec2.Vpc(stack, 'Vpc', { natGateways: 0, subnetConfiguration: [{ name: 'p', subnetType: ec2.SubnetType.PRIVATE_ISOLATED }] });
  expect(() => new McpToolServer(stack, 'Tools', { vpc, responseStreaming: true, realtimeEndpoints: [{ endpoint: RealtimeEndpoint.fromEndpointName(stack, 'E', 'x') }] }))
    .toThrow(/responseStreaming: got true, expected a function outside a VPC/);
});
