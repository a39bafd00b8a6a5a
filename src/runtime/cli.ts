/**
 * `cdk-sagemaker-mcp` command line (bundled with its dependencies, the AWS SDK included, into assets/runtime/cli):
 *
 *   cdk-sagemaker-mcp mcp --config <file>                  serve the MCP tools over stdio (for MCP clients that spawn servers)
 *   cdk-sagemaker-mcp mcp --config <file> --http <port>    serve stateless streamable HTTP on 127.0.0.1:<port>/mcp
 *   cdk-sagemaker-mcp tools --config <file>                print the tools the configuration registers
 *
 * The config file is a `SageMakerMcpServerConfig` as JSON (what to expose, plus optional `region`, `endpoints` and
 * `handleKey`). Credentials and region come from the usual AWS environment (AWS_PROFILE, AWS_REGION, ...); every AWS
 * endpoint can be overridden in the file or with the SDK's AWS_ENDPOINT_URL_<SERVICE> variables. stdout carries the
 * protocol: diagnostics go to stderr.
 */
import { readFileSync } from 'fs';
import { createServer } from 'http';
import { resolve } from 'path';
import { localhostHostValidation, toNodeHandler } from '@modelcontextprotocol/node';
import { createSageMakerMcpHandler, parseMcpServerSpec, SageMakerMcpServerConfig, sageMakerMcpToolNames, serveSageMakerMcpStdio } from './mcp-server';

const USAGE = `Usage:
  cdk-sagemaker-mcp mcp --config <file> [--http <port>]
  cdk-sagemaker-mcp tools --config <file>`;

export interface CliOptions {
  readonly command: 'mcp' | 'tools' | 'help';
  readonly config?: string;
  readonly httpPort?: number;
}

/** Parses argv (without node and the script); throws with the usage on anything unknown. */
export function parseCliArgs(argv: readonly string[]): CliOptions {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') return { command: 'help' };
  if (command !== 'mcp' && command !== 'tools') throw new Error(`unknown command '${command}'\n${USAGE}`);
  let config: string | undefined;
  let httpPort: number | undefined;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    const value = () => {
      const v = rest[++i];
      if (v === undefined) throw new Error(`${arg} needs a value\n${USAGE}`);
      return v;
    };
    if (arg === '--config' || arg === '-c') {config = value();} else if (arg.startsWith('--config=')) {config = arg.slice('--config='.length);} else if (arg === '--http' && command === 'mcp') {
      httpPort = Number(value());
      if (!Number.isInteger(httpPort) || httpPort < 0 || httpPort > 65535) throw new Error(`--http: got '${rest[i]}', expected a port number`);
    } else {throw new Error(`unknown option '${arg}'\n${USAGE}`);}
  }
  if (!config) throw new Error(`--config <file> is required\n${USAGE}`);
  return { command, config, httpPort };
}

/** Reads and checks a config file. */
export function loadCliConfig(path: string): SageMakerMcpServerConfig {
  let text: string;
  try {
    text = readFileSync(resolve(path), 'utf8');
  } catch (err) {
    throw new Error(`cannot read config file '${path}': ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new Error(`config file '${path}' is not JSON: ${(err as Error).message}`);
  }
  return parseMcpServerSpec<SageMakerMcpServerConfig>(parsed);
}

export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<number> {
  let options: CliOptions;
  try {
    options = parseCliArgs(argv);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    return 2;
  }
  if (options.command === 'help') {
    process.stderr.write(`${USAGE}\n`);
    return 0;
  }
  let config: SageMakerMcpServerConfig;
  try {
    config = loadCliConfig(options.config!);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    return 2;
  }
  if (options.command === 'tools') {
    process.stdout.write(`${sageMakerMcpToolNames(config).join('\n')}\n`);
    return 0;
  }
  if (options.httpPort !== undefined) {
    const mcp = createSageMakerMcpHandler(config, { onerror: (e) => process.stderr.write(`mcp: ${e.message}\n`) });
    const handle = toNodeHandler(mcp);
    const validHost = localhostHostValidation();
    const server = createServer((req, res) => {
      if (!validHost(req, res)) return;
      void handle(req, res);
    });
    await new Promise<void>((ok) => server.listen(options.httpPort, '127.0.0.1', () => ok()));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : options.httpPort;
    process.stderr.write(`cdk-sagemaker-mcp: streamable HTTP on http://127.0.0.1:${port}/mcp (tools: ${sageMakerMcpToolNames(config).join(', ')})\n`);
    return new Promise<number>(() => undefined);
  }
  serveSageMakerMcpStdio(config, { onerror: (e) => process.stderr.write(`mcp: ${e.message}\n`) });
  process.stderr.write(`cdk-sagemaker-mcp: serving ${sageMakerMcpToolNames(config).length} tools over stdio\n`);
  return new Promise<number>(() => undefined);
}

if (require.main === module) {
  main().then((code) => process.exit(code), (err) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  });
}
