import { Duration } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';

/**
 * Who provides the account-level role API Gateway writes logs with (`AWS::ApiGateway::Account` `CloudWatchRoleArn`,
 * one per account and region). The API always writes an access log, and API Gateway refuses a stage with
 * `AccessLogSetting` (or execution logging) in a region where the account has no such role:
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/set-up-logging.html
 */
export enum ApiGatewayCloudWatchRole {
  /**
   * Create the role (managed policy `AmazonAPIGatewayPushToCloudWatchLogs`, trusted by `apigateway.amazonaws.com`) and
   * set it on the account (`AWS::ApiGateway::Account`); the stage waits for it. Both are RETAINED when the stack is
   * deleted: the setting is account-wide, so other APIs in the region keep logging.
   */
  CREATE = 'CREATE',
  /**
   * Create nothing: you state that this account already has an API Gateway CloudWatch role in this region (set once by
   * an account baseline, or by another stack). If it has none, the deployment fails when API Gateway creates the stage
   * (its access log is refused).
   */
  ACCOUNT_ALREADY_HAS_ONE = 'ACCOUNT_ALREADY_HAS_ONE',
}

/**
 * Puts `McpToolServer` behind an API Gateway REST API (Regional, `POST|GET|DELETE /mcp`, Lambda proxy integration)
 * whose methods all use the authorization you choose: an `authorizer` (Cognito user pool, Lambda token or request
 * authorizer) or the authorization type `AuthorizationType.IAM` (SigV4 for `execute-api`, granted by
 * the server's API invoke grant). Unauthenticated access (`AuthorizationType.NONE`) is refused.
 */
export interface McpApiGatewayOptions {
  /**
   * The authorizer of every MCP method: a `CognitoUserPoolsAuthorizer`, `TokenAuthorizer`, `RequestAuthorizer` or any
   * `IAuthorizer`. Give this or an authorization type; both only for an imported authorizer that carries no type of its
   * own (then the authorization type says which it is: COGNITO or CUSTOM).
   *
   * @default - no authorizer: the authorization type must be `AuthorizationType.IAM`
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
   * @default - the server's reserved concurrent executions when set, else 10
   */
  readonly throttlingRateLimit?: number;
  /**
   * Requests the stage admits in a burst.
   *
   * @default - twice the rate limit's default (the server's reserved concurrent executions, else 10)
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
   * The account-level CloudWatch Logs role API Gateway needs for the stage's access log (always on) and execution
   * logging: created here, or declared already present. See `ApiGatewayCloudWatchRole`.
   *
   * @default ApiGatewayCloudWatchRole.CREATE
   */
  readonly cloudWatchRole?: ApiGatewayCloudWatchRole;
  /**
   * Stage execution logging (API Gateway's own log group `API-Gateway-Execution-Logs_<api id>/<stage>`, not encrypted by
   * this construct). Like the access log it needs the account's API Gateway CloudWatch role (the CloudWatch role option).
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
