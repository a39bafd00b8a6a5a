/**
 * An McpToolServer for a team's whole estate stays within Lambda's limits: the spec lives in its secret, so the
 * function's environment is the same handful of variables, of the same size, whatever the number of entries
 * (https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html: "Function environment variables: 4 KB, for
 * all environment variables associated with the function, in aggregate"), and its deployment package is the bundled
 * server alone.
 */
import { createHash } from 'crypto';
import { App, Fn, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { estateServer, specResolved, TEAM } from './estate';
import { specSecretValueOf } from './spec-of';
import { McpToolServer } from '../../src/mcp';
import { RealtimeEndpoint } from '../../src/realtime';
import { LAMBDA_ENV_LIMIT_BYTES, MCP_ENV, MCP_SPEC_SECRET_LIMIT_BYTES } from 'cdk-sagemaker-mcp-runtime/internal/contract';
import { mcpServerSpecFromSecretText } from 'cdk-sagemaker-mcp-runtime/internal/lambda';

const ENV = { account: '123456789012', region: 'us-east-1' };
/** What a deploy-time name can take at most where the tests need an upper bound: a SageMaker name is 63 characters. */
const DEPLOY_TIME_NAME_BYTES = 63;

/** The function's variables, and their total size counting each deploy-time value (a secret's ARN) as 256 bytes. */
function environmentOf(stack: Stack, server: McpToolServer): { variables: Record<string, unknown>; upperBoundBytes: number } {
  const fnId = stack.resolve((server.serverFunction.node.defaultChild as any).logicalId);
  const variables: Record<string, unknown> = Template.fromStack(stack).toJSON().Resources[fnId].Properties.Environment.Variables;
  const upperBoundBytes = Object.entries(variables)
    .reduce((n, [name, value]) => n + Buffer.byteLength(name) + (typeof value === 'string' ? Buffer.byteLength(value) : 256), 0);
  return { variables, upperBoundBytes };
}

/** The spec secret's text with every deploy-time name at its longest. */
function specUpperBound(value: unknown): string {
  if (typeof value === 'string') return value;
  const v = value as Record<string, any>;
  if (v['Fn::Join']) return (v['Fn::Join'][1] as unknown[]).map(specUpperBound).join(v['Fn::Join'][0]);
  return 'n'.repeat(DEPLOY_TIME_NAME_BYTES);
}

describe('McpToolServer at scale', () => {
  test('100 realtime endpoints, 20 feature groups of 50 features, 10 pipelines and 10 async endpoints synthesize within Lambda\'s limits', () => {
    // GIVEN / WHEN
    const { stack, server } = estateServer(TEAM);
    // THEN the environment is far below 4 KB, and carries no entry
    const { variables, upperBoundBytes } = environmentOf(stack, server);
    expect(upperBoundBytes).toBeLessThan(LAMBDA_ENV_LIMIT_BYTES);
    expect(JSON.stringify(variables)).not.toMatch(/team-models-endpoint|customer-features|team-training|team-batch/);
    expect(Object.keys(variables).sort()).toEqual([
      'AWS_NODEJS_CONNECTION_REUSE_ENABLED', MCP_ENV.HANDLE_KEY_SECRET_ARN, MCP_ENV.SPEC_DIGEST, MCP_ENV.SPEC_SECRET_ARN, 'POWERTOOLS_SERVICE_NAME',
    ]);
    // AND the spec secret holds every entry, with room to spare even at the longest names
    const value = specSecretValueOf(Template.fromStack(stack).toJSON());
    expect(Buffer.byteLength(specUpperBound(value))).toBeLessThan(MCP_SPEC_SECRET_LIMIT_BYTES);
    // The names are CloudFormation's to resolve at deploy time, in the secret; the handler unpacks every entry.
    expect(JSON.stringify(value)).toContain('"Fn::ImportValue":"team-models-endpoint-099"');
    const spec: any = mcpServerSpecFromSecretText(specResolved(value), 'the spec secret');
    const counts = [spec.realtimeEndpoints.length, spec.featureGroups.length, spec.pipelines.length, spec.asyncEndpoints.length];
    expect(counts).toEqual([100, 20, 10, 10]);
    expect(spec.realtimeEndpoints[99].name).toBe('team-models-endpoint-099');
    expect(spec.featureGroups.every((g: any) => g.schema.features.length === 50)).toBe(true);
  });

  test('the environment and the deployment package do not grow with the entries (10, 100, 300)', () => {
    const sizes = [10, 100, 300].map((n) => {
      const { stack, server } = estateServer({ realtime: n, featureGroups: 2, featuresPerGroup: 10, pipelines: 1, asyncEndpoints: 1 });
      const { variables, upperBoundBytes } = environmentOf(stack, server);
      const fnId = stack.resolve((server.serverFunction.node.defaultChild as any).logicalId);
      const code = Template.fromStack(stack).toJSON().Resources[fnId].Properties.Code;
      return { names: Object.keys(variables).sort(), upperBoundBytes, code: JSON.stringify(code) };
    });
    expect(new Set(sizes.map((s) => JSON.stringify(s.names))).size).toBe(1);
    expect(sizes[0].names).toHaveLength(5);
    // The digest has a fixed length, the rest are ARNs: the same bytes for 10 and 300 entries.
    expect(new Set(sizes.map((s) => s.upperBoundBytes)).size).toBe(1);
    // The same asset: the spec is not in the package.
    expect(new Set(sizes.map((s) => s.code)).size).toBe(1);
  });

  test('a spec change changes the function\'s configuration (the digest), so Lambda retires environments that read the old one', () => {
    const digestOf = (description: string) => {
      const stack = new Stack(new App(), 'Team', { env: ENV });
      const endpoint = RealtimeEndpoint.fromEndpointName(stack, 'Rt0', Fn.importValue('team-models-endpoint-000'));
      const server = new McpToolServer(stack, 'Mcp', { realtimeEndpoints: [{ endpoint, description }] });
      return environmentOf(stack, server).variables[MCP_ENV.SPEC_DIGEST];
    };
    expect(digestOf('churn')).toMatch(/^[0-9a-f]{32}$/);
    expect(digestOf('churn')).toBe(digestOf('churn'));
    expect(digestOf('churn, v2')).not.toBe(digestOf('churn'));
  });

  test('fails if the packed spec cannot fit its secret, saying by how much and what to do', () => {
    // GIVEN 300 endpoints whose descriptions do not compress (random text): about 120 KB gzipped
    const stack = new Stack(new App(), 'Big', { env: ENV });
    const noise = (i: number) => createHash('sha512').update(String(i)).digest('base64') + createHash('sha512').update(`${i}.`).digest('base64')
      + createHash('sha512').update(`${i}..`).digest('base64') + createHash('sha512').update(`${i}...`).digest('base64');
    // WHEN / THEN
    expect(() => new McpToolServer(stack, 'Mcp', {
      realtimeEndpoints: Array.from({ length: 300 }, (_, i) => ({ endpoint: RealtimeEndpoint.fromEndpointName(stack, `Rt${i}`, `model-${i}`), description: noise(i) })),
    })).toThrow(/the server spec \(what it exposes\): got at least \d+ bytes packed \(gzipped, deploy-time names apart\), expected at most 65536 bytes .*split the entries over two servers/);
  });

  test('fails at synth if the function\'s variables exceed Lambda\'s 4 KB in total', () => {
    // GIVEN a server whose function gets a large variable of the user's
    const { stack, server } = estateServer({ realtime: 1, featureGroups: 0, featuresPerGroup: 2, pipelines: 0, asyncEndpoints: 0 });
    server.serverFunction.addEnvironment('EXTRA', 'v'.repeat(4_000));
    // WHEN / THEN
    expect(() => Template.fromStack(stack)).toThrow(/the server function's environment variables: got at least \d+ bytes of names and values \(largest: EXTRA 4005 bytes/);
  });
});
