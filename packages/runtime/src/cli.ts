/**
 * `cdk-sagemaker-mcp` command line (run by the package's bin/cdk-sagemaker-mcp.js, with its dependencies, the AWS SDK included):
 *
 *   cdk-sagemaker-mcp mcp --config <file>                  serve the MCP tools over stdio (for MCP clients that spawn servers)
 *   cdk-sagemaker-mcp mcp --config <file> --http <port>    serve stateless streamable HTTP on 127.0.0.1:<port>/mcp
 *   cdk-sagemaker-mcp tools --config <file>                print the tools the configuration registers
 *   cdk-sagemaker-mcp --version                            print the package version (also what the server reports)
 *   cdk-sagemaker-mcp prices --offer-file <file> | --from-api   write the hosting price table (./prices-cli)
 *
 * The config file is a `SageMakerMcpServerConfig` as JSON (what to expose, plus optional `region`, `endpoints`, and
 * `handleKey` — required with async endpoints or pipelines unless `ephemeralHandleKey: true` asks for a per-process key,
 * whose handles stop opening when the process exits). Credentials and region come from the usual AWS environment (AWS_PROFILE, AWS_REGION, ...); every AWS
 * endpoint can be overridden in the file or with the SDK's AWS_ENDPOINT_URL_<SERVICE> variables. stdout carries the
 * protocol: diagnostics go to stderr.
 */
import { readFileSync } from 'fs';
import { createServer } from 'http';
import { resolve } from 'path';
import { parseArgs } from 'util';
import { localhostHostValidation, toNodeHandler } from '@modelcontextprotocol/node';
import { unknownFields } from './contract/parse';
import { cliArgsProblem } from './core/cli-args';
import { missingCredentialsHint } from './core/cli-credentials';
import {
  createSageMakerMcpHandler, McpConfigError, MCP_SERVER_VERSION, parseMcpServerSpec, SageMakerMcpServerConfig, SageMakerMcpServerConfigSchema,
  sageMakerMcpToolNames, serveSageMakerMcpStdio,
} from './mcp/server';
import { PRICES_USAGE, pricesMain } from './prices/cli';

/** The config keys that register tools (see `toolNamesForSpec` in packages/runtime/src/contract/mcp.ts), for the "no tools" error. */
const TOOL_KEYS: Record<string, string> = {
  realtimeEndpoints: '[{ "name": "<endpoint>" }] -> invoke_endpoint, describe_endpoint',
  asyncEndpoints: '[{ "name": "<endpoint>", "inputBucket": "<bucket>" }] -> start_async_inference, get_async_inference_result, wait_for_async_inference',
  featureGroups: '[{ "schema": { "featureGroupName", "recordIdentifier", "eventTime", "features" } }] -> get_online_features'
    + ' (and put_feature_record with "allowWrites": true)',
  pipelines: '[{ "name": "<pipeline>" }] -> start_training, get_training_status, wait_for_training_run',
  modelProvenance: 'true -> get_model_provenance',
};
const USAGE = `Usage:
  cdk-sagemaker-mcp mcp --config <file> [--http <port>]
  cdk-sagemaker-mcp tools --config <file>
  cdk-sagemaker-mcp --version
${PRICES_USAGE}`;

interface CliOptions {
  readonly command: 'mcp' | 'tools' | 'help' | 'version';
  readonly config?: string;
  readonly httpPort?: number;
}

/** Parses argv (without node and the script) with Node's `util.parseArgs`; throws with the usage on anything unknown. */
function parseCliArgs(argv: readonly string[]): CliOptions {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') return { command: 'help' };
  if (command === '--version' || command === 'version') return { command: 'version' };
  if (command !== 'mcp' && command !== 'tools') throw new Error(`unknown command '${command}'\n${USAGE}`);
  let values: { config?: string; http?: string };
  try {
    ({ values } = parseArgs({ args: [...rest], options: { config: { type: 'string', short: 'c' }, http: { type: 'string' } }, strict: true, allowPositionals: false }));
  } catch (err) {
    throw new Error(`${cliArgsProblem(err)}\n${USAGE}`);
  }
  if (values.http !== undefined && command !== 'mcp') throw new Error(`unknown option '--http' (it goes with mcp)\n${USAGE}`);
  let httpPort: number | undefined;
  if (values.http !== undefined) {
    httpPort = Number(values.http);
    if (values.http.trim() === '' || !Number.isInteger(httpPort) || httpPort < 0 || httpPort > 65535) {
      throw new Error(`--http: got '${values.http}', expected a port number`);
    }
  }
  if (!values.config) throw new Error(`--config <file> is required\n${USAGE}`);
  return { command, config: values.config, httpPort };
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
  let config: SageMakerMcpServerConfig;
  try {
    // A file a person wrote: a field the schema does not know is a mistake (a misspelt key would otherwise be dropped
    // silently, e.g. an async endpoint's allow-list), reported with the known name it is closest to.
    const unknown = unknownFields(SageMakerMcpServerConfigSchema, parsed, 'config');
    if (unknown.length > 0) throw new McpConfigError(unknown);
    config = parseMcpServerSpec<SageMakerMcpServerConfig>(parsed);
  } catch (err) {
    // Name the file; each problem names the field path in it.
    if (err instanceof McpConfigError) throw new McpConfigError(err.problems, `config file '${path}'`);
    throw err;
  }
  if (sageMakerMcpToolNames(config).length === 0) {
    throw new Error([
      `config file '${path}' exposes no tools: set at least one of these keys (key: value -> tools)`,
      ...Object.entries(TOOL_KEYS).map(([key, shape]) => `  ${key}: ${shape}`),
    ].join('\n'));
  }
  return config;
}

export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<number> {
  if (argv[0] === 'prices') return pricesMain(argv.slice(1));
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
  if (options.command === 'version') {
    process.stdout.write(`${MCP_SERVER_VERSION}\n`);
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
  const missing = missingCredentialsHint(config);
  if (missing) process.stderr.write(`cdk-sagemaker-mcp: ${missing}\n`);
  if (!config.handleKey && config.ephemeralHandleKey) {
    process.stderr.write('cdk-sagemaker-mcp: handles are sealed with a per-process key (ephemeralHandleKey): they stop opening when this process exits\n');
  }
  try {
    return await serve(config, options.httpPort);
  } catch (err) {
    // A configuration that cannot serve (e.g. handle tools without a handleKey): say why, exit 2 like a bad file.
    process.stderr.write(`cdk-sagemaker-mcp: ${(err as Error).message}\n`);
    return 2;
  }
}

async function serve(config: SageMakerMcpServerConfig, httpPort: number | undefined): Promise<number> {
  if (httpPort !== undefined) {
    const mcp = createSageMakerMcpHandler(config, { onerror: (e) => process.stderr.write(`mcp: ${e.message}\n`) });
    const handle = toNodeHandler(mcp);
    const validHost = localhostHostValidation();
    const server = createServer((req, res) => {
      if (!validHost(req, res)) return;
      void handle(req, res);
    });
    await new Promise<void>((ok) => server.listen(httpPort, '127.0.0.1', () => ok()));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : httpPort;
    process.stderr.write(`cdk-sagemaker-mcp: streamable HTTP on http://127.0.0.1:${port}/mcp (tools: ${sageMakerMcpToolNames(config).join(', ')})\n`);
    // Ctrl-C or a supervisor's SIGTERM: stop accepting, drop idle keep-alive sockets, and exit 0 once closed.
    return new Promise<number>((done) => {
      const stop = (signal: NodeJS.Signals) => {
        process.stderr.write(`cdk-sagemaker-mcp: ${signal}, closing the HTTP server\n`);
        server.close(() => done(0));
        server.closeAllConnections();
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
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
