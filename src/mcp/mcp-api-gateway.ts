import { Duration } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';

/**
 * Puts `McpToolServer` behind an API Gateway REST API (Regional, `POST|GET|DELETE /mcp`, Lambda proxy integration)
 * whose methods all use the authorization you choose: an `authorizer` (Cognito user pool, Lambda token or request
 * authorizer) or `authorizationType: AuthorizationType.IAM` (SigV4 for `execute-api`, granted by
 * `McpToolServer.grantInvokeApi`). Unauthenticated access (`AuthorizationType.NONE`) is refused.
 */
export interface McpApiGatewayOptions {
  /**
   * The authorizer of every MCP method: a `CognitoUserPoolsAuthorizer`, `TokenAuthorizer`, `RequestAuthorizer` or any
   * `IAuthorizer`. Give this or `authorizationType`; both only for an imported authorizer that carries no type of its
   * own (then `authorizationType` says which it is: COGNITO or CUSTOM).
   *
   * @default - no authorizer: `authorizationType` must be `AuthorizationType.IAM`
   */
  readonly authorizer?: apigateway.IAuthorizer;
  /**
   * Authorization without an authorizer: only `AuthorizationType.IAM` (callers sign with SigV4 for service
   * `execute-api`). With an imported, untyped `authorizer`: its type, COGNITO or CUSTOM. Never NONE.
   *
   * @default - the authorizer's own type
   */
  readonly authorizationType?: apigateway.AuthorizationType;
  /**
   * OAuth scopes an access token must hold (Cognito user pool authorizers only).
   *
   * @default - none: any valid ID or access token of the pool
   */
  readonly authorizationScopes?: string[];
  /**
   * The stage the API is deployed to (the first path segment of its URL).
   *
   * @default 'prod'
   */
  readonly stageName?: string;
  /**
   * Steady-state requests per second the stage admits; excess gets HTTP 429 from API Gateway (retryable) before it
   * reaches the function.
   *
   * @default - the server's `reservedConcurrentExecutions`
   */
  readonly throttlingRateLimit?: number;
  /**
   * Requests the stage admits in a burst.
   *
   * @default - twice the server's `reservedConcurrentExecutions`
   */
  readonly throttlingBurstLimit?: number;
  /**
   * How long API Gateway waits for the function. API Gateway's default quota is 29 s; a longer timeout (up to the
   * function's) needs a quota increase for the account ("Maximum integration timeout in milliseconds"). Tool calls
   * that take longer get HTTP 504 while the function finishes them.
   *
   * @default Duration.seconds(29)
   */
  readonly integrationTimeout?: Duration;
  /**
   * Stage execution logging (API Gateway's own log group, not encrypted by this construct). Anything but OFF needs the
   * account's API Gateway CloudWatch Logs role to be set, or the deployment fails; this construct does not set that
   * account-wide setting.
   *
   * @default apigateway.MethodLoggingLevel.OFF
   */
  readonly executionLoggingLevel?: apigateway.MethodLoggingLevel;
  /**
   * ARN of an AWS WAFv2 web ACL (scope REGIONAL) to associate with the stage.
   *
   * @default - no web ACL
   */
  readonly webAclArn?: string;
  /**
   * Keep the AWS_IAM function URL as a second way in. By default the API replaces it, so every request passes the
   * API's authorizer, throttling and access log.
   *
   * @default false
   */
  readonly keepFunctionUrl?: boolean;
}
