/**
 * The MCP server Lambda's handle key, read once per cold start from Secrets Manager (one GetSecretValue on the secret
 * named by `MCP_HANDLE_KEY_SECRET_ARN`). The key never sits in the function's environment, where
 * `lambda:GetFunctionConfiguration` would reveal it. Without a secret ARN the server does not start: a per-process
 * random key would make every instance refuse the handles another instance issued.
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { MCP_ENV } from '../mcp/contract';

/** The Lambda's handle key cannot be had: a configuration or permission problem, not retryable by the agent. */
export class HandleKeyUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HandleKeyUnavailableError';
  }
}

/** Bounds of the one cold-start read: a slow or silent Secrets Manager fails the start instead of holding it. */
const CONNECTION_TIMEOUT_MS = 3_000;
const REQUEST_TIMEOUT_MS = 5_000;

/**
 * The handle key in the secret named by `env.MCP_HANDLE_KEY_SECRET_ARN` (the AWSCURRENT version's SecretString).
 * Throws HandleKeyUnavailableError naming the variable when it is unset, and the secret when it cannot be read.
 */
export async function readHandleKey(env: Record<string, string | undefined> = process.env, client?: SecretsManagerClient): Promise<string> {
  const secretId = env[MCP_ENV.HANDLE_KEY_SECRET_ARN];
  if (!secretId) {
    throw new HandleKeyUnavailableError(`${MCP_ENV.HANDLE_KEY_SECRET_ARN}: not set, expected the ARN of the Secrets Manager secret `
      + 'holding the handle key (McpToolServer sets it). The server does not start without a key: handles sealed with a '
      + 'per-instance key would not open on any other instance.');
  }
  const sm = client ?? new SecretsManagerClient({
    maxAttempts: 3,
    requestHandler: { connectionTimeout: CONNECTION_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS },
  });
  let value: string | undefined;
  try {
    value = (await sm.send(new GetSecretValueCommand({ SecretId: secretId }))).SecretString;
  } catch (err) {
    const name = (err as { name?: string }).name ?? 'Error';
    throw new HandleKeyUnavailableError(`Cannot read the handle key secret named by ${MCP_ENV.HANDLE_KEY_SECRET_ARN} (${name}: `
      + `${(err as Error).message}); the function needs secretsmanager:GetSecretValue on it (and kms:Decrypt on its key when it has one)`, { cause: err });
  } finally {
    if (!client) sm.destroy();
  }
  if (!value) throw new HandleKeyUnavailableError(`The handle key secret named by ${MCP_ENV.HANDLE_KEY_SECRET_ARN} has no SecretString`);
  return value;
}
