import { App, Duration, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { ApiGatewayCloudWatchRole, McpApiGatewayOptions, McpToolServer } from '../../src/mcp';
import { RealtimeEndpoint } from '../../src/realtime';
import { expectNagClean, nagReport } from '../support/nag-checks';
import { expectValidTemplate } from '../support/template-checks';

const ENV = { account: '123456789012', region: 'us-east-1' };

function serverWithApi(apiGateway: (stack: Stack) => McpApiGatewayOptions, reservedConcurrentExecutions?: number) {
  const app = new App();
  const stack = new Stack(app, 'Mcp', { env: ENV });
  const server = new McpToolServer(stack, 'Mcp', {
    realtimeEndpoints: [{ endpoint: RealtimeEndpoint.fromEndpointName(stack, 'Churn', 'churn-xgb') }],
    apiGateway: apiGateway(stack),
    reservedConcurrentExecutions,
  });
  return { app, stack, server };
}

const cognitoAuthorizer = (stack: Stack) => new apigateway.CognitoUserPoolsAuthorizer(stack, 'Authorizer', {
  cognitoUserPools: [cognito.UserPool.fromUserPoolId(stack, 'Pool', 'us-east-1_AbCdEfGhI')],
});
const tokenAuthorizer = (stack: Stack) => new apigateway.TokenAuthorizer(stack, 'Authorizer', {
  handler: lambda.Function.fromFunctionArn(stack, 'AuthFn', 'arn:aws:lambda:us-east-1:123456789012:function:mcp-authorizer'),
});

describe('McpToolServer with apiGateway', () => {
  test('a Regional REST API with POST, GET and DELETE /mcp proxying to the function, each with the chosen authorizer', () => {
    // GIVEN / WHEN
    const { stack, server } = serverWithApi((s) => ({ authorizer: cognitoAuthorizer(s), authorizationScopes: ['mcp/tools'] }));
    // THEN
    const t = Template.fromStack(stack);
    t.hasResourceProperties('AWS::ApiGateway::RestApi', { EndpointConfiguration: { Types: ['REGIONAL'] } });
    t.hasResourceProperties('AWS::ApiGateway::Resource', { PathPart: 'mcp' });
    t.hasResourceProperties('AWS::ApiGateway::Authorizer', { Type: 'COGNITO_USER_POOLS' });
    const fnId = stack.resolve((server.serverFunction.node.defaultChild as lambda.CfnFunction).logicalId);
    const methods = t.findResources('AWS::ApiGateway::Method');
    expect(Object.values<any>(methods).map((m) => m.Properties.HttpMethod).sort()).toEqual(['DELETE', 'GET', 'POST']);
    for (const method of Object.values<any>(methods)) {
      expect(method.Properties).toMatchObject({
        AuthorizationType: 'COGNITO_USER_POOLS',
        AuthorizerId: { Ref: expect.stringMatching(/^Authorizer/) },
        AuthorizationScopes: ['mcp/tools'],
        Integration: { Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST', TimeoutInMillis: 29000 },
      });
      expect(JSON.stringify(method.Properties.Integration.Uri)).toContain(fnId);
    }
    expect(server.api).toBeDefined();
    expect(stack.resolve(server.url)).toEqual(stack.resolve(server.apiUrl));
    expect(JSON.stringify(stack.resolve(server.apiUrl))).toMatch(/execute-api.*\/mcp"/);
    expectValidTemplate(stack);
  });

  test('no function URL by default; keepFunctionUrl keeps the AWS_IAM one', () => {
    const { stack, server } = serverWithApi(() => ({ authorizationType: apigateway.AuthorizationType.IAM }));
    Template.fromStack(stack).resourceCountIs('AWS::Lambda::Url', 0);
    expect(server.functionUrl).toBeUndefined();
    expect(() => server.grantInvokeUrl(new iam.AnyPrincipal().grantPrincipal)).toThrow(/grantInvokeUrl: there is no function URL/);

    const kept = serverWithApi(() => ({ authorizationType: apigateway.AuthorizationType.IAM, keepFunctionUrl: true }));
    Template.fromStack(kept.stack).hasResourceProperties('AWS::Lambda::Url', { AuthType: 'AWS_IAM' });
    expect(kept.server.functionUrl).toBeDefined();
    expect(kept.stack.resolve(kept.server.url)).toEqual(kept.stack.resolve(kept.server.apiUrl));
  });

  test('stage: X-Ray tracing, throttling from the reserved concurrency, JSON access log to a KMS-encrypted group, no data trace', () => {
    // GIVEN / WHEN
    const { stack } = serverWithApi((s) => ({ authorizer: tokenAuthorizer(s) }));
    // THEN
    const t = Template.fromStack(stack);
    t.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'prod',
      TracingEnabled: true,
      AccessLogSetting: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('"principalId":"\\$context.authorizer.principalId"') },
      MethodSettings: [Match.objectLike({
        HttpMethod: '*', ResourcePath: '/*', ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20, DataTraceEnabled: false, LoggingLevel: 'OFF',
      })],
    });
    const stage = Object.values<any>(t.findResources('AWS::ApiGateway::Stage'))[0];
    expect(() => JSON.parse(stage.Properties.AccessLogSetting.Format)).not.toThrow();
    t.hasResourceProperties('AWS::Logs::LogGroup', { KmsKeyId: { 'Fn::GetAtt': [Match.stringLikeRegexp('AccessLogKey'), 'Arn'] }, RetentionInDays: 30 });
    t.hasResourceProperties('AWS::KMS::Key', {
      EnableKeyRotation: true,
      KeyPolicy: {
        Statement: Match.arrayWith([Match.objectLike({
          Principal: { Service: 'logs.us-east-1.amazonaws.com' },
          Condition: { ArnLike: { 'kms:EncryptionContext:aws:logs:arn': { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':logs:us-east-1:123456789012:log-group:*']] } } },
        })]),
      },
    });
    t.hasResourceProperties('AWS::ApiGateway::Authorizer', { Type: 'TOKEN' });
  });

  test('stage throttling follows reservedConcurrentExecutions when the server reserves concurrency', () => {
    const { stack } = serverWithApi(() => ({ authorizationType: apigateway.AuthorizationType.IAM }), 4);
    Template.fromStack(stack).hasResourceProperties('AWS::ApiGateway::Stage', {
      MethodSettings: [Match.objectLike({ ThrottlingRateLimit: 4, ThrottlingBurstLimit: 8 })],
    });
  });

  test('the access log comes with the account-level CloudWatch role: created, set on the account, retained, and awaited by the stage', () => {
    // GIVEN / WHEN: the default (a stage with AccessLogSetting is refused where the account has no such role)
    const { stack } = serverWithApi(() => ({ authorizationType: apigateway.AuthorizationType.IAM }));
    // THEN
    const t = Template.fromStack(stack);
    const accounts = t.findResources('AWS::ApiGateway::Account');
    expect(Object.keys(accounts)).toHaveLength(1);
    const [accountId, account] = Object.entries<any>(accounts)[0];
    expect(account.DeletionPolicy).toBe('Retain');
    expect(account.UpdateReplacePolicy).toBe('Retain');
    const roleId = account.Properties.CloudWatchRoleArn['Fn::GetAtt'][0];
    const role = t.toJSON().Resources[roleId];
    expect(role.DeletionPolicy).toBe('Retain');
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      expect.objectContaining({ Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'apigateway.amazonaws.com' } }),
    ]);
    expect(JSON.stringify(role.Properties.ManagedPolicyArns)).toContain('service-role/AmazonAPIGatewayPushToCloudWatchLogs');
    const stage = Object.values<any>(t.findResources('AWS::ApiGateway::Stage'))[0];
    expect(stage.Properties.AccessLogSetting).toBeDefined();
    expect(stage.DependsOn).toContain(accountId);
  });

  test('cloudWatchRole ACCOUNT_ALREADY_HAS_ONE creates neither the role nor the account setting', () => {
    const { stack } = serverWithApi(() => ({
      authorizationType: apigateway.AuthorizationType.IAM,
      cloudWatchRole: ApiGatewayCloudWatchRole.ACCOUNT_ALREADY_HAS_ONE,
      executionLoggingLevel: apigateway.MethodLoggingLevel.ERROR,
    }));
    const t = Template.fromStack(stack);
    t.resourceCountIs('AWS::ApiGateway::Account', 0);
    const roles = Object.values<any>(t.findResources('AWS::IAM::Role'));
    expect(roles.filter((r) => JSON.stringify(r.Properties.AssumeRolePolicyDocument).includes('apigateway.amazonaws.com'))).toEqual([]);
    t.hasResourceProperties('AWS::ApiGateway::Stage', { MethodSettings: [Match.objectLike({ LoggingLevel: 'ERROR' })] });
  });

  test('POST is validated as a JSON-RPC object or batch for any content type', () => {
    const { stack } = serverWithApi(() => ({ authorizationType: apigateway.AuthorizationType.IAM }));
    const t = Template.fromStack(stack);
    t.hasResourceProperties('AWS::ApiGateway::RequestValidator', { ValidateRequestBody: true, ValidateRequestParameters: true });
    t.hasResourceProperties('AWS::ApiGateway::Model', { Schema: Match.objectLike({ type: ['object', 'array'] }) });
    t.hasResourceProperties('AWS::ApiGateway::Method', {
      HttpMethod: 'POST',
      AuthorizationType: 'AWS_IAM',
      RequestValidatorId: Match.anyValue(),
      RequestModels: { $default: Match.anyValue() },
    });
  });

  test('options: stage name, throttling, integration timeout (warned above 29 s), execution logging, web ACL', () => {
    const webAclArn = 'arn:aws:wafv2:us-east-1:123456789012:regional/webacl/mcp/0123abcd-0123-4567-89ab-0123456789ab';
    const { stack } = serverWithApi(() => ({
      authorizationType: apigateway.AuthorizationType.IAM,
      stageName: 'v1',
      throttlingRateLimit: 2.5,
      throttlingBurstLimit: 5,
      integrationTimeout: Duration.seconds(80),
      executionLoggingLevel: apigateway.MethodLoggingLevel.ERROR,
      webAclArn,
    }));
    const t = Template.fromStack(stack);
    t.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'v1',
      MethodSettings: [Match.objectLike({ ThrottlingRateLimit: 2.5, ThrottlingBurstLimit: 5, LoggingLevel: 'ERROR' })],
    });
    t.hasResourceProperties('AWS::ApiGateway::Method', { Integration: { TimeoutInMillis: 80000 } });
    t.hasResourceProperties('AWS::WAFv2::WebACLAssociation', { WebACLArn: webAclArn, ResourceArn: Match.anyValue() });
    Annotations.fromStack(stack).hasWarning('/Mcp/Mcp/Api', Match.stringLikeRegexp('integrationTimeout is 80 s: above 29 s it needs an API Gateway quota increase'));
  });

  test('fails if no authorizer or authorization type is given, or NONE is', () => {
    expect(() => serverWithApi(() => ({}))).toThrow(
      /apiGateway.authorizationType: got nothing, expected an authorizer \(apiGateway.authorizer: Cognito user pool, Lambda token or request\) or AuthorizationType.IAM/);
    expect(() => serverWithApi(() => ({ authorizationType: apigateway.AuthorizationType.NONE }))).toThrow(
      /apiGateway.authorizationType: got 'NONE', expected .*AuthorizationType.IAM: an unauthenticated API is refused/);
    expect(() => serverWithApi(() => ({ authorizationType: apigateway.AuthorizationType.CUSTOM }))).toThrow(
      /apiGateway.authorizationType: got 'CUSTOM', expected an authorizer/);
  });

  test('fails if an authorizer and a different way are both given, or an imported authorizer has no type', () => {
    expect(() => serverWithApi((s) => ({ authorizer: tokenAuthorizer(s), authorizationType: apigateway.AuthorizationType.IAM }))).toThrow(
      /apiGateway.authorizationType: got 'AWS_IAM', expected nothing: the authorizer already sets CUSTOM/);
    expect(() => serverWithApi(() => ({ authorizer: { authorizerId: 'abc123' } }))).toThrow(
      /apiGateway.authorizationType: got nothing, expected COGNITO_USER_POOLS or CUSTOM: the imported authorizer carries no type/);
    expect(() => serverWithApi(() => ({ authorizer: { authorizerId: 'abc123', authorizationType: apigateway.AuthorizationType.NONE } }))).toThrow(
      /apiGateway.authorizer.authorizationType: got 'NONE', expected an authorizer that authenticates/);
    // An imported authorizer typed by the option is accepted.
    const { stack } = serverWithApi(() => ({ authorizer: { authorizerId: 'abc123' }, authorizationType: apigateway.AuthorizationType.CUSTOM }));
    Template.fromStack(stack).hasResourceProperties('AWS::ApiGateway::Method', { AuthorizationType: 'CUSTOM', AuthorizerId: 'abc123' });
  });

  test('fails if scopes come without Cognito, or stage, throttling, timeout or web ACL are invalid (all at once)', () => {
    try {
      serverWithApi(() => ({
        authorizationType: apigateway.AuthorizationType.IAM,
        authorizationScopes: ['mcp/tools'],
        stageName: 'prod stage',
        throttlingRateLimit: 0,
        throttlingBurstLimit: 0,
        integrationTimeout: Duration.seconds(120),
        webAclArn: 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/mcp/abc',
      }));
      throw new Error('expected a validation error');
    } catch (e) {
      const message = (e as Error).message;
      expect(message).toContain('apiGateway.authorizationScopes: got ["mcp/tools"], expected scopes only with a Cognito user pool authorizer');
      expect(message).toContain("apiGateway.stageName: got 'prod stage', expected 1-128 letters, digits, hyphens or underscores");
      expect(message).toContain('apiGateway.throttlingRateLimit: got 0, expected a number of requests per second above 0');
      expect(message).toContain('apiGateway.throttlingBurstLimit: got 0');
      expect(message).toContain('apiGateway.integrationTimeout: got 120000, expected an integer between 50 and 90000 milliseconds (at most the function timeout)');
      expect(message).toContain('apiGateway.webAclArn');
    }
  });
});

describe('grants', () => {
  test('grantInvokeApi grants execute-api:Invoke on exactly the three MCP methods of the stage', () => {
    // GIVEN
    const { stack, server } = serverWithApi(() => ({ authorizationType: apigateway.AuthorizationType.IAM }));
    const agent = new iam.Role(stack, 'Agent', { assumedBy: new iam.AccountRootPrincipal() });
    // WHEN
    server.grantInvokeApi(agent);
    // THEN
    const policy = Object.values<any>(Template.fromStack(stack).findResources('AWS::IAM::Policy'))
      .find((p) => p.Properties.Roles.some((r: any) => /Agent/.test(r.Ref)));
    const [statement] = policy.Properties.PolicyDocument.Statement;
    expect(statement.Action).toBe('execute-api:Invoke');
    const arns = statement.Resource.map((r: any) => JSON.stringify(r));
    expect(arns).toHaveLength(3);
    const stageId = stack.resolve(server.api!.deploymentStage.stageName).Ref;
    for (const [i, verb] of ['POST', 'GET', 'DELETE'].entries()) {
      expect(arns[i]).toContain(`{"Ref":"${stageId}"},"/${verb}/mcp"`);
    }
  });

  test('grantInvokeApi fails without an API', () => {
    const app = new App();
    const stack = new Stack(app, 'Mcp', { env: ENV });
    const server = new McpToolServer(stack, 'Mcp', { realtimeEndpoints: [{ endpoint: RealtimeEndpoint.fromEndpointName(stack, 'E', 'e') }] });
    expect(() => server.grantInvokeApi(new iam.AccountRootPrincipal())).toThrow(/grantInvokeApi: there is no API \(set apiGateway\)/);
  });
});

describe('cdk-nag', () => {
  test.each([
    ['IAM', () => ({ authorizationType: apigateway.AuthorizationType.IAM })],
    ['Cognito', (s: Stack) => ({ authorizer: cognitoAuthorizer(s) })],
    ['Lambda token', (s: Stack) => ({ authorizer: tokenAuthorizer(s) })],
  ])('a server behind the API (%s) is nag clean and a valid template', (_name, options) => {
    const { app, stack } = serverWithApi(options);
    expectValidTemplate(stack);
    expectNagClean(app);
  });

  test('each API acknowledgement carries its reason; COG4 only when the authorizer is not Cognito; none for APIG1/APIG2/APIG4', () => {
    const ids = (options: (s: Stack) => McpApiGatewayOptions) => {
      const { app } = serverWithApi(options);
      return nagReport(app).acknowledgements.filter((a) => /^AwsSolutions-(APIG|COG)\d/.test(a.ruleId));
    };
    const iamAcks = ids(() => ({ authorizationType: apigateway.AuthorizationType.IAM }));
    expect(iamAcks.map((a) => a.ruleId).sort()).toEqual(['AwsSolutions-APIG3', 'AwsSolutions-APIG6', 'AwsSolutions-COG4', 'AwsSolutions-COG4', 'AwsSolutions-COG4']);
    const { app } = serverWithApi(() => ({ authorizationType: apigateway.AuthorizationType.IAM }));
    const roleAcks = nagReport(app).acknowledgements.filter((a) => /IAM4/.test(a.ruleId));
    expect(roleAcks).toEqual([expect.objectContaining({
      ruleId: expect.stringContaining('AmazonAPIGatewayPushToCloudWatchLogs'),
      constructPath: expect.stringContaining('Mcp/Mcp/Api/Resource/CloudWatchRole'),
      reason: expect.stringContaining('set-up-logging.html'),
    })]);
    for (const a of iamAcks) expect(a.reason.length).toBeGreaterThan(40);
    const cognitoAcks = ids((s) => ({
      authorizer: cognitoAuthorizer(s),
      executionLoggingLevel: apigateway.MethodLoggingLevel.ERROR,
      webAclArn: 'arn:aws:wafv2:us-east-1:123456789012:regional/webacl/mcp/abc',
    }));
    expect(cognitoAcks).toEqual([]);
  });
});
