/**
 * `McpToolServer.addToGateway`: an AgentCore Gateway Lambda target listing exactly the server's tools, with the input
 * schemas generated from the runtime's zod schemas, the gateway role allowed to invoke this function only, and the
 * function told its target names.
 */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as agentcore from 'aws-cdk-lib/aws-bedrockagentcore';
import * as iam from 'aws-cdk-lib/aws-iam';
import { acknowledgeDefaultGatewayUserPool } from '../../examples/agentcore-gateway';
import { userKeyedSchema } from '../../packages/runtime/test/support/feature-schemas';
import { ModelFamily } from '../../src/core';
import { FeatureGroup } from '../../src/features';
import { McpToolServer } from '../../src/mcp';
import { GATEWAY_TOOL_TEMPLATES } from '../../src/mcp/private/gateway-tools.generated';
import { RealtimeEndpoint } from '../../src/realtime';
import { expectNagClean } from '../support/nag-checks';
import { expectValidTemplate } from '../support/template-checks';
import { MCP_GATEWAY_ENV } from 'cdk-sagemaker-mcp-runtime/internal/contract';

const ENV = { account: '123456789012', region: 'us-east-1' };

function gatewayStack(authorizerConfiguration?: agentcore.IGatewayAuthorizerConfig) {
  const app = new App();
  const stack = new Stack(app, 'Gw', { env: ENV });
  const server = new McpToolServer(stack, 'Tools', {
    realtimeEndpoints: [{ endpoint: RealtimeEndpoint.fromEndpointName(stack, 'Churn', 'churn-xgb'), description: 'churn model', modelFamily: ModelFamily.TGI }],
    featureGroups: [{ featureGroup: FeatureGroup.fromFeatureGroupName(stack, 'Users', 'users'), schema: userKeyedSchema('users', { name: 'calls', type: 'Integral' }) }],
  });
  const gateway = new agentcore.Gateway(stack, 'Gateway', { authorizerConfiguration });
  return { app, stack, server, gateway };
}

function targets(stack: Stack): any[] {
  return Object.values<any>(Template.fromStack(stack).toJSON().Resources).filter((r) => r.Type === 'AWS::BedrockAgentCore::GatewayTarget');
}

describe('McpToolServer.addToGateway', () => {
  test('a Lambda target lists exactly the server\'s tools, with the generated input schemas and descriptions naming what it exposes', () => {
    // GIVEN
    const { stack, server, gateway } = gatewayStack(agentcore.GatewayAuthorizer.usingAwsIam());
    // WHEN
    server.addToGateway(gateway);
    // THEN
    const [target] = targets(stack);
    expect(target.Properties.Name).toBe('Tools');
    const lambdaTarget = target.Properties.TargetConfiguration.Mcp.Lambda;
    expect(lambdaTarget.LambdaArn).toEqual(stack.resolve(server.serverFunction.functionArn));
    const tools = lambdaTarget.ToolSchema.InlinePayload;
    expect(tools.map((t: any) => t.Name)).toEqual(server.toolNames);
    expect(server.toolNames).toEqual(['invoke_endpoint', 'describe_endpoint', 'get_online_features']);
    const invoke = tools[0];
    expect(invoke.Description).toContain('Endpoints you may call:\n- churn-xgb (family: tgi): churn model\n');
    expect(invoke.Description).not.toContain('{exposed}');
    expect(tools[1].Description).toContain('Endpoints: churn-xgb.');
    expect(tools[2].Description).toContain('- users (record id: user_id;');
    // The schema is the generated one, rendered in CloudFormation's casing.
    const generated = GATEWAY_TOOL_TEMPLATES.find((t) => t.name === 'invoke_endpoint')!.inputSchema;
    expect(invoke.InputSchema.Type).toBe('object');
    expect(invoke.InputSchema.Required).toEqual(generated.required);
    expect(Object.keys(invoke.InputSchema.Properties)).toEqual(Object.keys(generated.properties!));
    expect(invoke.InputSchema.Properties.payload.Properties.format.Description).toBe('One of: json, csv, text, prompt.');
  });

  test('the gateway role may invoke this function only; the function is told its target name', () => {
    // GIVEN
    const { stack, server, gateway } = gatewayStack(agentcore.GatewayAuthorizer.usingAwsIam());
    // WHEN
    server.addToGateway(gateway, { targetName: 'sagemaker' });
    // THEN
    const template = Template.fromStack(stack).toJSON();
    const roleId = stack.resolve((gateway.role.node.defaultChild as iam.CfnRole).logicalId);
    const statements = Object.values<any>(template.Resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((x: any) => x.Ref === roleId))
      .flatMap((r) => r.Properties.PolicyDocument.Statement);
    const fnArn = stack.resolve(server.serverFunction.functionArn);
    expect(statements).toEqual([{
      Effect: 'Allow',
      Action: 'lambda:InvokeFunction',
      Resource: [fnArn, { 'Fn::Join': ['', [fnArn, ':*']] }],
    }]);
    const fn = stack.resolve((server.serverFunction.node.defaultChild as any).environment);
    expect(JSON.parse(fn.variables[MCP_GATEWAY_ENV.TARGET_NAMES])).toEqual(['sagemaker']);
  });

  test('two gateways: two targets, both names told to the function; the same name twice on one gateway is refused', () => {
    // GIVEN
    const { stack, server, gateway } = gatewayStack(agentcore.GatewayAuthorizer.usingAwsIam());
    const second = new agentcore.Gateway(stack, 'Second', { authorizerConfiguration: agentcore.GatewayAuthorizer.usingAwsIam() });
    // WHEN
    server.addToGateway(gateway);
    server.addToGateway(second);
    // THEN
    expect(targets(stack).map((t) => t.Properties.Name)).toEqual(['Tools', 'Tools']);
    const env = stack.resolve((server.serverFunction.node.defaultChild as any).environment);
    expect(JSON.parse(env.variables[MCP_GATEWAY_ENV.TARGET_NAMES])).toEqual(['Tools', 'Tools']);
    expect(() => server.addToGateway(gateway)).toThrow(/targetName: got 'Tools', expected a name no other target of gateway 'Gw\/Gateway' has/);
  });

  test('a target name AgentCore would refuse fails synth, naming the prop and the pattern', () => {
    const { server, gateway } = gatewayStack(agentcore.GatewayAuthorizer.usingAwsIam());
    expect(() => server.addToGateway(gateway, { targetName: 'sage_maker' }))
      .toThrow(/McpToolServer 'Tools': addToGateway.*targetName: got 'sage_maker', expected letters, digits and single hyphens/s);
  });

  test('with the Gateway\'s default inbound auth (a Cognito user pool, client-credentials JWT) the stack is nag-clean and valid', () => {
    // GIVEN the L2's default authorizer
    const { app, stack, server, gateway } = gatewayStack();
    // WHEN
    server.addToGateway(gateway);
    acknowledgeDefaultGatewayUserPool(gateway);
    // THEN
    const gw = Object.values<any>(Template.fromStack(stack).toJSON().Resources).find((r) => r.Type === 'AWS::BedrockAgentCore::Gateway');
    expect(gw.Properties.AuthorizerType).toBe('CUSTOM_JWT');
    expectValidTemplate(stack);
    expectNagClean(app);
  });
});
