/**
 * The bundled handlers' environment contract and entry points, from the package by name: the MCP server function's
 * whole environment in one parse (every problem at once, each naming its variable and what is expected), the handlers
 * `cdk-sagemaker-mcp-runtime/internal/lambda` exports, and a package root that never loads Powertools.
 */
import { execFileSync } from 'child_process';
import { join } from 'path';
import { MCP_ENV, MCP_GATEWAY_ENV } from 'cdk-sagemaker-mcp-runtime/internal/contract';
import * as lambda from 'cdk-sagemaker-mcp-runtime/internal/lambda';
import { mcpServerFunctionConfigFromEnv } from 'cdk-sagemaker-mcp-runtime/internal/lambda';
import { McpConfigError } from 'cdk-sagemaker-mcp-runtime/mcp';

const ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:mcp-handle-key-AbCdEf';
const SPEC = { realtimeEndpoints: [{ name: 'churn-xgb' }] };

test('a well-formed environment: the spec, the key secret and the gateway targets, from one parse', () => {
  const config = mcpServerFunctionConfigFromEnv({
    [MCP_ENV.SPEC]: JSON.stringify(SPEC),
    [MCP_ENV.HANDLE_KEY_SECRET_ARN]: ARN,
    [MCP_GATEWAY_ENV.TARGET_NAMES]: '["tools","more-tools"]',
    UNRELATED: 'x',
  });
  expect(config).toEqual({ spec: SPEC, handleKeySecretArn: ARN, gatewayTargetNames: ['tools', 'more-tools'] });
  // Off any gateway: no targets.
  expect(mcpServerFunctionConfigFromEnv({ [MCP_ENV.SPEC]: '{}', [MCP_ENV.HANDLE_KEY_SECRET_ARN]: ARN }).gatewayTargetNames).toEqual([]);
});

test('the spec in a secret (what McpToolServer sets): its ARN and digest, no inline spec', () => {
  const specArn = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:mcp-spec-AbCdEf';
  expect(mcpServerFunctionConfigFromEnv({ [MCP_ENV.SPEC_SECRET_ARN]: specArn, [MCP_ENV.SPEC_DIGEST]: 'abc', [MCP_ENV.HANDLE_KEY_SECRET_ARN]: ARN }))
    .toEqual({ specSecretArn: specArn, handleKeySecretArn: ARN, gatewayTargetNames: [] });
});

test('every problem at once, each naming the variable, what is expected and (unless secret) what was there', () => {
  const problems = (env: Record<string, string>) => {
    try {
      mcpServerFunctionConfigFromEnv(env);
    } catch (e) {
      expect(e).toBeInstanceOf(McpConfigError);
      return [...(e as McpConfigError).problems];
    }
    throw new Error('parsed');
  };
  expect(problems({})).toEqual([
    expect.stringMatching(/^MCP_HANDLE_KEY_SECRET_ARN: expected the ARN of the Secrets Manager secret holding the handle key .*, but it is not set$/),
    expect.stringMatching(/^MCP_SERVER_SPEC_SECRET_ARN: expected the ARN of the Secrets Manager secret holding the server spec \(McpToolServer sets it\) or the spec inline in MCP_SERVER_SPEC, got neither$/),
  ]);
  expect(problems({
    [MCP_ENV.SPEC]: JSON.stringify({ realtimeEndpoints: [{ name: 5 }] }),
    [MCP_ENV.HANDLE_KEY_SECRET_ARN]: 'arn:aws:s3:::bucket',
    [MCP_GATEWAY_ENV.TARGET_NAMES]: 'tools',
  })).toEqual([
    'MCP_SERVER_SPEC.realtimeEndpoints[0].name: expected a string, got 5',
    expect.stringMatching(/^MCP_HANDLE_KEY_SECRET_ARN: expected a Secrets Manager secret ARN .*, got "arn:aws:s3:::bucket"$/),
    expect.stringMatching(/^MCP_GATEWAY_TARGET_NAMES: expected an array of gateway target names .* as JSON text, got text that does not parse/),
  ]);
});

test('cdk-sagemaker-mcp-runtime/internal/lambda exports the four bundled handlers (and the adapters they are built from)', () => {
  for (const name of ['mcpServerHandler', 'asyncResultRecorderHandler', 'pipelineRouterHandler', 'approvedDeploymentHandler', 'recordBatch', 'readHandleKey']) {
    expect(typeof (lambda as Record<string, unknown>)[name]).toBe('function');
  }
  expect(typeof lambda.functionUrlEventToRequest).toBe('function');
  expect(typeof lambda.agentCoreInvocation).toBe('function');
});

test('the package root (the compiled lib/) loads no Powertools module; /internal/lambda does', () => {
  const loaded = (entry: string) => execFileSync(process.execPath, ['-e',
    `require(${JSON.stringify(entry)}); console.log(Object.keys(require.cache).filter((k) => k.includes('@aws-lambda-powertools')).length)`],
  { encoding: 'utf8' }).trim();
  // lib/ is built by `projen bundle` (runtime:build), which `projen test` runs first.
  const lib = join(__dirname, '..', '..', 'lib');
  expect(loaded(join(lib, 'index.js'))).toBe('0');
  expect(Number(loaded(join(lib, 'lambda', 'index.js')))).toBeGreaterThan(0);
});
