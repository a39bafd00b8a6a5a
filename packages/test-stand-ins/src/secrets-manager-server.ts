/**
 * A local stand-in for AWS Secrets Manager's `GetSecretValue` (service `secretsmanager`, protocol awsJson1_1) that the
 * REAL `@aws-sdk/client-secrets-manager` talks to over HTTP on 127.0.0.1 (random port). Enough for the MCP server's
 * cold-start read of its handle key; every request is recorded, so a test can count reads.
 *
 * ```ts
 * const sm = await startSecretsManagerServer();
 * const arn = sm.putSecret('handle-key', 'k'.repeat(64));   // returns the full ARN (with the random suffix)
 * process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER = sm.endpoint;
 * sm.requests;                                               // [{ operation: 'GetSecretValue', body: { SecretId } }]
 * ```
 *
 * Wire format (what the SDK sends and expects):
 * - Request: `POST /`, `X-Amz-Target: secretsmanager.<Operation>`, `Content-Type: application/x-amz-json-1.1`.
 * - Success: 200 JSON; `CreatedDate` as epoch seconds.
 * - Error: 400, body `{"__type": "<Code>", "message": "..."}` (the SDK maps `ResourceNotFoundException` to its class).
 */
import { randomBytes, randomUUID } from 'crypto';
import { startJsonProtocolServer } from './json-protocol-server';

export const SECRETS_REGION = 'us-east-1';
export const SECRETS_ACCOUNT = '123456789012';

export interface RecordedSecretsRequest {
  readonly operation: string;
  readonly body: Record<string, any>;
}

export interface SecretsManagerServer {
  readonly endpoint: string;
  readonly requests: RecordedSecretsRequest[];
  /** Stores `value` as the AWSCURRENT version of secret `name`; returns its full ARN. */
  putSecret(name: string, value: string): string;
  /** Refuses (or again allows) GetSecretValue on the secret `arn`, as an IAM policy without the grant would. */
  denyReads(arn: string, denied: boolean): void;
  stop(): Promise<void>;
}

interface StoredSecret {
  readonly arn: string;
  readonly name: string;
  readonly value: string;
  readonly versionId: string;
  readonly created: number;
}

export async function startSecretsManagerServer(): Promise<SecretsManagerServer> {
  const secrets: StoredSecret[] = [];
  const requests: RecordedSecretsRequest[] = [];
  const denied = new Set<string>();

  const find = (id: unknown): StoredSecret | undefined => {
    if (typeof id !== 'string') return undefined;
    // https://docs.aws.amazon.com/secretsmanager/latest/apireference/API_GetSecretValue.html: "SecretId: The ARN or
    // name of the secret to retrieve." A full ARN (with the random suffix) or the friendly name find it.
    return secrets.find((s) => s.arn === id || s.name === id);
  };

  const server = await startJsonProtocolServer((target, body, req) => {
    const operation = target.startsWith('secretsmanager.') ? target.slice('secretsmanager.'.length) : '';
    requests.push({ operation, body });
    if (req.method !== 'POST' || operation !== 'GetSecretValue') {
      return [400, { __type: 'UnknownOperationException', message: `Operation ${target || '(none)'} is not implemented by the local Secrets Manager stand-in` }];
    }
    const secret = find(body.SecretId);
    // API_GetSecretValue.html, Errors: "ResourceNotFoundException: Secrets Manager can't find the resource that you
    // asked for. HTTP Status Code: 400"
    if (!secret) return [400, { __type: 'ResourceNotFoundException', message: "Secrets Manager can't find the specified secret." }];
    // https://docs.aws.amazon.com/secretsmanager/latest/apireference/CommonErrors.html: "AccessDeniedException: You do
    // not have sufficient access to perform this action. HTTP Status Code: 400"
    if (denied.has(secret.arn)) return [400, { __type: 'AccessDeniedException', message: 'You do not have sufficient access to perform this action.' }];
    // API_GetSecretValue.html: "If you don't specify either a VersionStage or VersionId, then Secrets Manager returns
    // the AWSCURRENT version." Only AWSCURRENT is stored here.
    if ((body.VersionStage !== undefined && body.VersionStage !== 'AWSCURRENT') || (body.VersionId !== undefined && body.VersionId !== secret.versionId)) {
      return [400, { __type: 'ResourceNotFoundException', message: "Secrets Manager can't find the specified secret value for staging label or version." }];
    }
    // Response syntax of API_GetSecretValue.html: ARN, CreatedDate, Name, SecretString, VersionId, VersionStages.
    return [200, {
      ARN: secret.arn,
      Name: secret.name,
      SecretString: secret.value,
      VersionId: secret.versionId,
      VersionStages: ['AWSCURRENT'],
      CreatedDate: secret.created,
    }];
  }, [400, { __type: 'SerializationException', message: 'Request body is not JSON' }]);

  return {
    endpoint: server.endpoint,
    requests,
    putSecret(name, value) {
      // Secret ARNs end in the name, a hyphen and six random characters.
      const arn = `arn:aws:secretsmanager:${SECRETS_REGION}:${SECRETS_ACCOUNT}:secret:${name}-${randomBytes(3).toString('hex')}`;
      secrets.push({ arn, name, value, versionId: randomUUID(), created: Math.floor(Date.now() / 1000) });
      return arn;
    },
    denyReads(arn, deny) {
      if (deny) denied.add(arn);
      else denied.delete(arn);
    },
    stop: server.stop,
  };
}
