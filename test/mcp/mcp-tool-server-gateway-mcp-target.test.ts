/**
 * `McpToolServer.addToGateway(gateway, { targetKind: MCP_SERVER })`: an AgentCore Gateway MCP server target at the
 * server's function URL, the gateway signing with its role for service `lambda`, the role allowed to call that function
 * URL only; and the gateway's response streaming passthrough. (The Control Tower controls over such a target run in
 * ./mcp-target-control-tower.test.ts, a slow suite.)
 */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as agentcore from 'aws-cdk-lib/aws-bedrockagentcore';
import * as iam from 'aws-cdk-lib/aws-iam';
import { McpGatewayTargetKind, McpToolServer } from '../../src/mcp';
import { RealtimeEndpoint } from '../../src/realtime';
import { expectNagClean } from '../support/nag-checks';
import { expectValidTemplate } from '../support/template-checks';
import { MCP_GATEWAY_ENV } from 'cdk-sagemaker-mcp-runtime/internal/contract';

const ENV = { account: '123456789012', region: 'eu-west-1' };

function gatewayStack(serverProps: Partial<ConstructorParameters<typeof McpToolServer>[2]> = {}) {
  const app = new App();
  const stack = new Stack(app, 'Gw', { env: ENV });
  const server = new McpToolServer(stack, 'Tools', {
    realtimeEndpoints: [{ endpoint: RealtimeEndpoint.fromEndpointName(stack, 'Churn', 'churn-xgb') }],
    ...serverProps,
  });
  const gateway = new agentcore.Gateway(stack, 'Gateway', { authorizerConfiguration: agentcore.GatewayAuthorizer.usingAwsIam() });
  return { app, stack, server, gateway };
}

function resources(stack: Stack, type: string): any[] {
  return Object.values<any>(Template.fromStack(stack).toJSON().Resources).filter((r) => r.Type === type);
}

function gatewayRoleStatements(stack: Stack, gateway: agentcore.Gateway): any[] {
  const roleId = stack.resolve((gateway.role.node.defaultChild as iam.CfnRole).logicalId);
  return resources(stack, 'AWS::IAM::Policy')
    .filter((r) => r.Properties.Roles.some((x: any) => x.Ref === roleId))
    .flatMap((r) => r.Properties.PolicyDocument.Statement);
}

describe('addToGateway with targetKind MCP_SERVER', () => {
  test('an MCP server target at the function URL, signed by the gateway role for lambda in the stack\'s region', () => {
    // GIVEN
    const { stack, server, gateway } = gatewayStack();
    // WHEN
    server.addToGateway(gateway, { targetName: 'sagemaker', targetKind: McpGatewayTargetKind.MCP_SERVER });
    // THEN
    const [target] = resources(stack, 'AWS::BedrockAgentCore::GatewayTarget');
    expect(target.Properties.Name).toBe('sagemaker');
    expect(target.Properties.TargetConfiguration.Mcp.McpServer.Endpoint)
      .toEqual({ 'Fn::Join': ['', [stack.resolve(server.functionUrl!.url), 'mcp']] });
    expect(target.Properties.TargetConfiguration.Mcp.Lambda).toBeUndefined();
    expect(target.Properties.CredentialProviderConfigurations).toEqual([{
      CredentialProviderType: 'GATEWAY_IAM_ROLE',
      CredentialProvider: { IamCredentialProvider: { Service: 'lambda', Region: 'eu-west-1' } },
    }]);
    // AND the function is not told a Lambda target name (its HTTP path serves every tool of its spec)
    const env = stack.resolve((server.serverFunction.node.defaultChild as any).environment);
    expect(env.variables[MCP_GATEWAY_ENV.TARGET_NAMES]).toBeUndefined();
  });

  test('the gateway role may call this function\'s URL only: InvokeFunctionUrl (AWS_IAM) and InvokeFunction via the URL', () => {
    const { stack, server, gateway } = gatewayStack();
    server.addToGateway(gateway, { targetKind: McpGatewayTargetKind.MCP_SERVER });
    const fnArn = stack.resolve(server.serverFunction.functionArn);
    expect(gatewayRoleStatements(stack, gateway)).toEqual([
      { Effect: 'Allow', Action: 'lambda:InvokeFunctionUrl', Resource: fnArn, Condition: { StringEquals: { 'lambda:FunctionUrlAuthType': 'AWS_IAM' } } },
      { Effect: 'Allow', Action: 'lambda:InvokeFunction', Resource: fnArn, Condition: { Bool: { 'lambda:InvokedViaFunctionUrl': true } } },
    ]);
  });

  test('the target depends on the gateway role\'s policy: AgentCore lists the server\'s tools with that role as it creates the target', () => {
    // GIVEN
    const { stack, server, gateway } = gatewayStack();
    // WHEN
    server.addToGateway(gateway, { targetKind: McpGatewayTargetKind.MCP_SERVER });
    // THEN
    const template = Template.fromStack(stack).toJSON();
    const roleId = stack.resolve((gateway.role.node.defaultChild as iam.CfnRole).logicalId);
    const [policyId] = Object.keys(template.Resources).filter((id) => template.Resources[id].Type === 'AWS::IAM::Policy'
      && template.Resources[id].Properties.Roles.some((x: any) => x.Ref === roleId));
    expect(template.Resources[policyId].Properties.PolicyDocument.Statement.map((s: any) => s.Action)).toEqual(['lambda:InvokeFunctionUrl', 'lambda:InvokeFunction']);
    const [targetId] = Object.keys(template.Resources).filter((id) => template.Resources[id].Type === 'AWS::BedrockAgentCore::GatewayTarget');
    expect(template.Resources[targetId].DependsOn).toEqual(expect.arrayContaining([policyId]));
  });

  test('the stack passes the CloudFormation schema checks and cdk-nag', () => {
    const { app, stack, server, gateway } = gatewayStack();
    server.addToGateway(gateway, { targetKind: McpGatewayTargetKind.MCP_SERVER, responseStreaming: true });
    expectValidTemplate(stack);
    expectNagClean(app);
  });

  test('fails if the server has no function URL (an API Gateway replaced it)', () => {
    const { server, gateway } = gatewayStack({ apiGateway: { authorizationType: apigateway.AuthorizationType.IAM } });
    expect(() => server.addToGateway(gateway, { targetKind: McpGatewayTargetKind.MCP_SERVER }))
      .toThrow(/McpToolServer 'Tools': addToGateway: targetKind: got MCP_SERVER, expected a server with a function URL/);
  });

  test('a Lambda target and an MCP server target of one server on two gateways', () => {
    const { stack, server, gateway } = gatewayStack();
    const second = new agentcore.Gateway(stack, 'Second', { authorizerConfiguration: agentcore.GatewayAuthorizer.usingAwsIam() });
    server.addToGateway(gateway);
    server.addToGateway(second, { targetKind: McpGatewayTargetKind.MCP_SERVER });
    const kinds = resources(stack, 'AWS::BedrockAgentCore::GatewayTarget').map((t) => Object.keys(t.Properties.TargetConfiguration.Mcp)[0]);
    expect(kinds).toEqual(['Lambda', 'McpServer']);
  });
});

describe('addToGateway responseStreaming', () => {
  test('sets the gateway\'s MCP response streaming; left alone by default', () => {
    const { stack, server, gateway } = gatewayStack();
    server.addToGateway(gateway, { targetKind: McpGatewayTargetKind.MCP_SERVER });
    expect(resources(stack, 'AWS::BedrockAgentCore::Gateway')[0].Properties.ProtocolConfiguration?.Mcp?.StreamingConfiguration).toBeUndefined();
    const streamed = gatewayStack();
    streamed.server.addToGateway(streamed.gateway, { targetKind: McpGatewayTargetKind.MCP_SERVER, responseStreaming: true });
    expect(resources(streamed.stack, 'AWS::BedrockAgentCore::Gateway')[0].Properties.ProtocolConfiguration.Mcp.StreamingConfiguration)
      .toEqual({ EnableResponseStreaming: true });
  });

  test('fails for an imported gateway, naming the prop', () => {
    const { stack, server } = gatewayStack();
    const imported = agentcore.Gateway.fromGatewayAttributes(stack, 'Imported', {
      gatewayArn: 'arn:aws:bedrock-agentcore:eu-west-1:123456789012:gateway/gw-123',
      gatewayId: 'gw-123',
      gatewayName: 'gw',
      role: iam.Role.fromRoleArn(stack, 'GwRole', 'arn:aws:iam::123456789012:role/gw'),
    });
    expect(() => server.addToGateway(imported, { responseStreaming: true })).toThrow(/responseStreaming: got true for gateway 'Gw\/Imported', expected a gateway created in this app/);
  });
});
