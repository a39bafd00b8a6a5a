/**
 * Internal (not exported from ./index): the REST API `McpToolServer` builds from `McpApiGatewayOptions`, and the
 * validation of those options.
 */
import { Annotations, Duration, RemovalPolicy, Token, Validations } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { ApiGatewayCloudWatchRole, McpApiGatewayOptions } from './mcp-api-gateway';
import { createEncryptedLogGroup, createKey } from '../private/encryption';
import { acknowledgeFinding } from '../private/nag';
import { PropValidator } from '../private/validation';

/** API Gateway's default integration timeout quota. */
const DEFAULT_INTEGRATION_TIMEOUT = Duration.seconds(29);
/** What the streamable HTTP transport uses: POST carries every message; GET and DELETE answer 405 when stateless. */
const MCP_METHODS = ['POST', 'GET', 'DELETE'];
/** Stage requests per second when the server reserves no concurrency (burst: twice this). */
export const DEFAULT_STAGE_RATE_LIMIT = 10;

/** Records every problem with `options` (prefixed `apiGateway.`). */
export function validateMcpApiGatewayOptions(v: PropValidator, options: McpApiGatewayOptions, functionTimeout: Duration): void {
  const { authorizer, authorizationType } = options;
  const ownType = authorizer?.authorizationType;
  const NONE = apigateway.AuthorizationType.NONE;
  if (!authorizer) {
    v.check(authorizationType === apigateway.AuthorizationType.IAM, 'apiGateway.authorizationType', authorizationType,
      `an authorizer (apiGateway.authorizer: Cognito user pool, Lambda token or request) or AuthorizationType.IAM${authorizationType === NONE ? ': an unauthenticated API is refused' : ''}`);
  } else if (ownType !== undefined) {
    v.check(ownType !== NONE, 'apiGateway.authorizer.authorizationType', ownType, 'an authorizer that authenticates (not NONE)');
    v.check(authorizationType === undefined, 'apiGateway.authorizationType', authorizationType,
      `nothing: the authorizer already sets ${ownType} (give an authorizer or an authorization type, not both)`);
  } else {
    v.check(authorizationType === apigateway.AuthorizationType.COGNITO || authorizationType === apigateway.AuthorizationType.CUSTOM,
      'apiGateway.authorizationType', authorizationType, 'COGNITO_USER_POOLS or CUSTOM: the imported authorizer carries no type of its own');
  }
  if (options.authorizationScopes?.length) {
    const effective = ownType ?? authorizationType;
    v.check(effective === apigateway.AuthorizationType.COGNITO, 'apiGateway.authorizationScopes', options.authorizationScopes,
      'scopes only with a Cognito user pool authorizer (API Gateway ignores them otherwise)');
  }
  v.pattern('apiGateway.stageName', options.stageName, /^[a-zA-Z0-9_-]{1,128}$/, '1-128 letters, digits, hyphens or underscores');
  if (options.throttlingRateLimit !== undefined && !Token.isUnresolved(options.throttlingRateLimit)) {
    v.check(Number.isFinite(options.throttlingRateLimit) && options.throttlingRateLimit > 0, 'apiGateway.throttlingRateLimit',
      options.throttlingRateLimit, 'a number of requests per second above 0');
  }
  v.atLeast('apiGateway.throttlingBurstLimit', options.throttlingBurstLimit, 1);
  const timeout = options.integrationTimeout;
  if (timeout && !Token.isUnresolved(timeout.toMilliseconds({ integral: false }))) {
    v.range('apiGateway.integrationTimeout', timeout.toMilliseconds(), 50, functionTimeout.toMilliseconds(),
      { unit: 'milliseconds (at most the function timeout)' });
  }
  if (options.webAclArn !== undefined && !Token.isUnresolved(options.webAclArn)) {
    v.pattern('apiGateway.webAclArn', options.webAclArn, /^arn:aws[a-z-]*:wafv2:[a-z0-9-]+:\d{12}:regional\/webacl\/.+$/,
      'the ARN of a REGIONAL WAFv2 web ACL (arn:<partition>:wafv2:<region>:<account>:regional/webacl/<name>/<id>)');
  }
}

export interface McpRestApiProps {
  readonly handler: lambda.IFunction;
  readonly options: McpApiGatewayOptions;
  /** The server's reserved concurrency: the default throttling follows it (else `DEFAULT_STAGE_RATE_LIMIT`). */
  readonly reservedConcurrency?: number;
  readonly logRetention: logs.RetentionDays;
}

/** A Regional REST API with `POST|GET|DELETE /mcp` proxying to the server function, every method authorized. */
export class McpRestApi extends Construct {
  public readonly api: apigateway.RestApi;
  public readonly methods: apigateway.Method[];
  /** The MCP endpoint: `https://<api>.execute-api.<region>.amazonaws.com/<stage>/mcp`. */
  public readonly url: string;
  public readonly accessLogGroup: logs.LogGroup;
  public readonly accessLogKey: kms.Key;

  constructor(scope: Construct, id: string, props: McpRestApiProps) {
    super(scope, id);
    const { options } = props;
    this.accessLogKey = createKey(this, 'AccessLogKey', 'Encrypts the access log of the SageMaker MCP tool server API');
    this.accessLogGroup = createEncryptedLogGroup(this, 'AccessLogs', { key: this.accessLogKey, retention: props.logRetention });

    const executionLogging = options.executionLoggingLevel ?? apigateway.MethodLoggingLevel.OFF;
    // The stage always writes an access log, which API Gateway refuses in a region where the account has no CloudWatch
    // role (https://docs.aws.amazon.com/apigateway/latest/developerguide/set-up-logging.html): create it unless the
    // deployer states the account has one.
    const createCloudWatchRole = (options.cloudWatchRole ?? ApiGatewayCloudWatchRole.CREATE) === ApiGatewayCloudWatchRole.CREATE;
    const rate = props.reservedConcurrency ?? DEFAULT_STAGE_RATE_LIMIT;
    this.api = new apigateway.RestApi(this, 'Resource', {
      description: 'SageMaker MCP tool server (stateless streamable HTTP at /mcp)',
      endpointTypes: [apigateway.EndpointType.REGIONAL],
      cloudWatchRole: createCloudWatchRole,
      // Account-wide: other APIs in the region log with it too, so deleting this stack must not remove it.
      cloudWatchRoleRemovalPolicy: createCloudWatchRole ? RemovalPolicy.RETAIN : undefined,
      deployOptions: {
        stageName: options.stageName ?? 'prod',
        tracingEnabled: true,
        throttlingRateLimit: options.throttlingRateLimit ?? rate,
        throttlingBurstLimit: options.throttlingBurstLimit ?? rate * 2,
        loggingLevel: executionLogging,
        // Request and response bodies carry tool arguments and model output: never in execution logs.
        dataTraceEnabled: false,
        accessLogDestination: new apigateway.LogGroupLogDestination(this.accessLogGroup),
        accessLogFormat: accessLogFormat(),
      },
    });

    const timeout = options.integrationTimeout ?? DEFAULT_INTEGRATION_TIMEOUT;
    if (!Token.isUnresolved(timeout.toMilliseconds({ integral: false })) && timeout.toMilliseconds() > DEFAULT_INTEGRATION_TIMEOUT.toMilliseconds()) {
      Annotations.of(this).addWarningV2('cdk-sagemaker-mcp:mcpIntegrationTimeout',
        `apiGateway.integrationTimeout is ${timeout.toSeconds()} s: above 29 s it needs an API Gateway quota increase ("Maximum integration timeout in milliseconds") for the account, or the deployment fails`);
    }
    const integration = new apigateway.LambdaIntegration(props.handler, { proxy: true, allowTestInvoke: false, timeout });
    const validator = this.api.addRequestValidator('Validator', { validateRequestBody: true, validateRequestParameters: true });
    const message = this.api.addModel('JsonRpcMessage', {
      description: 'A JSON-RPC 2.0 message or batch (what every MCP POST carries)',
      schema: {
        schema: apigateway.JsonSchemaVersion.DRAFT4,
        title: 'McpJsonRpcMessage',
        type: [apigateway.JsonSchemaType.OBJECT, apigateway.JsonSchemaType.ARRAY],
      },
    });
    const resource = this.api.root.addResource('mcp');
    this.methods = MCP_METHODS.map((httpMethod) => resource.addMethod(httpMethod, integration, {
      authorizer: options.authorizer,
      authorizationType: options.authorizationType,
      authorizationScopes: options.authorizationScopes,
      ...(httpMethod === 'POST' ? { requestValidator: validator, requestModels: { $default: message } } : {}),
    }));
    this.url = this.api.urlForPath('/mcp');

    if (options.webAclArn) {
      new wafv2.CfnWebACLAssociation(this, 'WebAcl', { resourceArn: this.api.deploymentStage.stageArn, webAclArn: options.webAclArn });
    }
    this.acknowledgeNag(options, executionLogging);
  }

  private acknowledgeNag(options: McpApiGatewayOptions, executionLogging: apigateway.MethodLoggingLevel): void {
    const stage = this.api.deploymentStage;
    const cloudWatchRole = this.api.node.tryFindChild('CloudWatchRole');
    if (cloudWatchRole) {
      acknowledgeFinding(cloudWatchRole,
        'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        'The account-level API Gateway logging role: AWS documents AmazonAPIGatewayPushToCloudWatchLogs as its policy (https://docs.aws.amazon.com/apigateway/latest/developerguide/set-up-logging.html); API Gateway names the log groups it writes (execution logs), so no narrower policy can be written ahead.');
    }
    if (!options.webAclArn) {
      Validations.of(stage).acknowledge({
        id: 'AwsSolutions-APIG3',
        reason: 'A web ACL is the deployer\'s choice (apiGateway.webAclArn); every method is authorized and the stage is throttled without one.',
      });
    }
    if (executionLogging === apigateway.MethodLoggingLevel.OFF) {
      Validations.of(stage).acknowledge({
        id: 'AwsSolutions-APIG6',
        reason: 'Execution logs go to a log group API Gateway creates (not KMS-encrypted by this construct) and could carry request details; the KMS-encrypted access log records every request (caller, principal, status, latency, errors). Opt in with apiGateway.executionLoggingLevel.',
      });
    }
    const type = options.authorizer?.authorizationType ?? options.authorizationType;
    if (type !== apigateway.AuthorizationType.COGNITO) {
      for (const method of this.methods) {
        Validations.of(method).acknowledge({
          id: 'AwsSolutions-COG4',
          reason: `The method is authorized by the deployer's chosen ${type} authorization (apiGateway.authorizer / authorizationType); a Cognito user pool is one option, not a requirement.`,
        });
      }
    }
  }
}

/** JSON access log: who (IAM caller or authorizer principal), what, outcome and latency; never bodies. */
function accessLogFormat(): apigateway.AccessLogFormat {
  const f = apigateway.AccessLogField;
  return apigateway.AccessLogFormat.custom(JSON.stringify({
    requestId: f.contextRequestId(),
    requestTime: f.contextRequestTime(),
    ip: f.contextIdentitySourceIp(),
    userArn: f.contextIdentityUserArn(),
    principalId: f.contextAuthorizerPrincipalId(),
    httpMethod: f.contextHttpMethod(),
    resourcePath: f.contextResourcePath(),
    protocol: f.contextProtocol(),
    status: f.contextStatus(),
    responseLength: f.contextResponseLength(),
    responseLatency: f.contextResponseLatency(),
    integrationStatus: f.contextIntegrationStatus(),
    integrationLatency: f.contextIntegrationLatency(),
    errorMessage: f.contextErrorMessage(),
    authorizerError: f.contextAuthorizerError(),
  }));
}
