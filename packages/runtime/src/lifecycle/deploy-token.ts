/**
 * The ClientRequestToken of the approved-model deployment handler's stack updates, which carries the version it deploys
 * (the handler's own: `cdk-sagemaker-mcp-runtime/internal/lambda`, not the public lifecycle entry point).
 */
import { DEPLOY_TOKEN_PREFIX } from '../contract/lifecycle';

/** The version one of the handler's own update tokens deploys, or undefined for any other token. */
export function versionOfToken(token: unknown): number | undefined {
  const m = typeof token === 'string' && token.startsWith(DEPLOY_TOKEN_PREFIX) ? /^(\d+)-/.exec(token.slice(DEPLOY_TOKEN_PREFIX.length)) : null;
  return m ? Number(m[1]) : undefined;
}

/**
 * The ClientRequestToken of the update deploying `version` for event `eventId`: `[a-zA-Z0-9][-a-zA-Z0-9]*`, at most 128
 * characters (https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_UpdateStack.html). A retried
 * invocation of the same event sends the same token.
 */
export function deployToken(version: number, eventId: string): string {
  const id = eventId.replace(/[^-a-zA-Z0-9]/g, '').slice(0, 80);
  return `${DEPLOY_TOKEN_PREFIX}${version}-${id || 'event'}`.slice(0, 128);
}
