/**
 * How the MCP tool server's configuration scales with what it exposes (10, 100, 300 realtime endpoints whose names are
 * deploy-time values, test/mcp/estate.ts): the bytes of its function's environment, against what the spec would take
 * there inline (Lambda allows 4 KB for all variables together), the bytes of its spec secret (packed: gzipped, the
 * names beside it) against the plain spec, and the cold start (require, then the first tools/list, which reads the
 * spec and the handle key from a local Secrets Manager) against the 10-entry server's. Each cold start is a fresh node
 * process (test/support/cold-start.ts), interleaved across sizes so that a slow moment of the machine lands on all.
 */
import { join } from 'path';
import { Template } from 'aws-cdk-lib/assertions';
import { Bench, BenchRow, median } from './harness';
import { MCP_ENV } from '../packages/runtime/src/contract/mcp';
import { mcpServerSpecFromSecretText } from '../packages/runtime/src/mcp/config';
import { estateServer, specResolved } from '../test/mcp/estate';
import functionUrlEvent from '../test/mcp/fixtures/function-url-event.json';
import { specSecretValueOf } from '../test/mcp/spec-of';
import { ColdStart, coldStart } from '../test/support/cold-start';
import { LOCAL_CREDENTIALS } from '@cdk-sagemaker-mcp/test-stand-ins/local-aws';
import { startSecretsManagerServer } from '@cdk-sagemaker-mcp/test-stand-ins/secrets-manager-server';

const SIZES = [10, 100, 300];
const COLD_RUNS = 7;
const ROOT = join(__dirname, '..');
/** A Secrets Manager ARN as CloudFormation resolves a Ref to a secret it named (`<LogicalId>-<12 chars>-<6 chars>`). */
const SECRET_ARN = (logicalId: string) => `arn:aws:secretsmanager:us-east-1:123456789012:secret:${logicalId}-AbCdEfGhIjKl-AbCdEf`;

interface Size {
  readonly entries: number;
  /** The function's variables with their deploy-time values resolved. */
  readonly envBytes: number;
  /** The same variables with the spec inline (MCP_SERVER_SPEC) instead of its secret's ARN and digest. */
  readonly inlineEnvBytes: number;
  readonly secretText: string;
  readonly plainSpecBytes: number;
}

const bytesOf = (vars: Record<string, string>) => Object.entries(vars).reduce((n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(v), 0);

function measure(entries: number): Size {
  const { stack, server } = estateServer({ realtime: entries, featureGroups: 0, featuresPerGroup: 2, pipelines: 0, asyncEndpoints: 0 });
  const template = Template.fromStack(stack).toJSON();
  const fnId = stack.resolve((server.serverFunction.node.defaultChild as any).logicalId);
  const resolve = (v: unknown): string => (typeof v === 'string' ? v : SECRET_ARN((v as { Ref: string }).Ref));
  const env = Object.fromEntries(Object.entries<unknown>(template.Resources[fnId].Properties.Environment.Variables).map(([k, v]) => [k, resolve(v)]));
  const secretText = specResolved(specSecretValueOf(template));
  const plainSpec = JSON.stringify(mcpServerSpecFromSecretText(secretText, 'bench'));
  const { [MCP_ENV.SPEC_SECRET_ARN]: _arn, [MCP_ENV.SPEC_DIGEST]: _digest, ...rest } = env;
  return {
    entries,
    envBytes: bytesOf(env),
    inlineEnvBytes: bytesOf({ ...rest, [MCP_ENV.SPEC]: plainSpec }),
    secretText,
    plainSpecBytes: Buffer.byteLength(plainSpec),
  };
}

export const bench: Bench = {
  title: 'MCP tool server at scale: environment bytes, spec secret bytes and cold start against entry count',
  async run(): Promise<BenchRow[]> {
    const sizes = SIZES.map(measure);
    const secrets = await startSecretsManagerServer();
    try {
      const keyArn = secrets.putSecret('mcp-handle-key', 'scale-bench-handle-key');
      const envFor = (s: Size) => ({
        AWS_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
        AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.endpoint,
        POWERTOOLS_LOG_LEVEL: 'SILENT',
        [MCP_ENV.SPEC_SECRET_ARN]: secrets.putSecret(`mcp-spec-${s.entries}`, s.secretText),
        [MCP_ENV.HANDLE_KEY_SECRET_ARN]: keyArn,
      });
      const envs = sizes.map(envFor);
      const toolsList = { ...functionUrlEvent, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}' };
      const bundle = join(ROOT, 'assets', 'mcp', 'server.lambda', 'index.js');
      const runs: ColdStart[][] = sizes.map(() => []);
      for (let i = 0; i < COLD_RUNS; i++) {
        for (let s = 0; s < sizes.length; s++) {
          const cold = await coldStart({ bundle, events: [toolsList], env: envs[s], cwd: ROOT });
          const text = JSON.stringify(cold.invocations[0].result);
          if (!text.includes(`team-models-endpoint-${String(sizes[s].entries - 1).padStart(3, '0')}`)) {
            throw new Error(`cold start with ${sizes[s].entries} entries: tools/list did not list the last endpoint: ${text.slice(0, 300)}`);
          }
          runs[s].push(cold);
        }
      }
      const firstCallMs = (r: ColdStart[]) => median(r.map((c) => c.requireMs + c.invocations[0].ms));
      const rows: BenchRow[] = [];
      sizes.forEach((s) => rows.push({
        name: `function environment, ${s.entries} entries`,
        ours: s.envBytes,
        baseline: s.inlineEnvBytes,
        unit: 'bytes',
        baselineLabel: 'the same environment with the spec inline (MCP_SERVER_SPEC)',
        note: 'Lambda allows 4,096 bytes for all variables together; ours holds two secret ARNs and a digest whatever the count',
      }));
      sizes.forEach((s) => rows.push({
        name: `spec secret, ${s.entries} entries`,
        ours: Buffer.byteLength(s.secretText),
        baseline: s.plainSpecBytes,
        unit: 'bytes',
        baselineLabel: 'the plain spec JSON',
        note: 'packed: the static part gzipped, the deploy-time names beside it; Secrets Manager holds up to 65,536 bytes',
      }));
      sizes.forEach((s, i) => rows.push({
        name: `cold require + first tools/list, ${s.entries} entries (median of ${COLD_RUNS} fresh processes)`,
        ours: firstCallMs(runs[i]),
        baseline: firstCallMs(runs[0]),
        unit: 'ms',
        baselineLabel: `the same with ${sizes[0].entries} entries`,
        note: 'reads the spec and the handle key side by side (local Secrets Manager), unpacks and parses the spec once',
      }));
      return rows;
    } finally {
      await secrets.stop();
    }
  },
};
