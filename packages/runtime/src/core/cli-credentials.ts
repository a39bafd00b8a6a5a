/**
 * The warning the CLI prints when it finds no AWS credentials. It takes the config's `credentials` (a
 * `SageMakerMcpServerConfig`'s) and nothing of the MCP server, which core does not load.
 */
import { existsSync } from 'fs';
import { homedir } from 'os';
import { join } from 'path';

/** Variables through which the AWS SDK's default provider chain finds credentials without a file. */
const CREDENTIAL_ENV = ['AWS_ACCESS_KEY_ID', 'AWS_PROFILE', 'AWS_WEB_IDENTITY_TOKEN_FILE', 'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI',
  'AWS_CONTAINER_CREDENTIALS_FULL_URI', 'AWS_SHARED_CREDENTIALS_FILE', 'AWS_CONFIG_FILE'];

/**
 * A warning when neither the config file, the environment nor ~/.aws can give the AWS SDK credentials (an EC2 or ECS
 * role may still): an MCP client that spawns this server may have dropped the environment. The MCP SDK's and the
 * Strands Agents SDK's stdio transports pass only HOME, LOGNAME, PATH, SHELL, TERM and USER unless given `env`; MCP
 * Inspector 2.x passes none unless given `-e KEY=VALUE`.
 */
export function missingCredentialsHint(config: { readonly credentials?: unknown }, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (config.credentials || CREDENTIAL_ENV.some((name) => env[name])) return undefined;
  const home = env.HOME ?? homedir();
  if (home && (existsSync(join(home, '.aws', 'credentials')) || existsSync(join(home, '.aws', 'config')))) return undefined;
  return 'no AWS credentials found (no credentials in the config file, no AWS_ACCESS_KEY_ID or AWS_PROFILE in the environment, '
    + 'no ~/.aws files; only an instance or container role could still answer). If an MCP client spawned this server, it may '
    + 'have dropped the environment: pass the variables explicitly (`env` of the MCP SDK\'s or Strands\' StdioClientTransport, '
    + '`-e AWS_PROFILE=...` for MCP Inspector 2.x); see docs/mcp.md.';
}
