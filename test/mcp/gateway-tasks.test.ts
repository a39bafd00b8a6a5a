/**
 * Tasks on the AgentCore Gateway MCP-server target path: the BUNDLED server function (assets/mcp/server.lambda) behind
 * its function URL, called as the gateway calls it (2026-07-28 requests whose `_meta` declares the Tasks extension,
 * signed by the gateway's role, https://docs.aws.amazon.com/bedrock-agentcore/latest/devguide/gateway-mcp-tasks.html).
 * Each request is a short invocation, so the gateway's 15-minute cap on one call never applies; the task is created by
 * one container and read by another (a cold one), as a Lambda fleet serves them.
 */
import { IncomingMessage } from 'http';
import { Readable } from 'stream';
import type { APIGatewayProxyStructuredResultV2, LambdaFunctionURLEvent } from 'aws-lambda';
import { setBundledServerEnv } from './bundled-server-lambda';
import { functionUrlEvent } from './function-url-event';
import { emfWrittenBy } from '../support/emf';
import { SageMakerControlServer, startSageMakerControlServer } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-control-server';
import { SecretsManagerServer, startSecretsManagerServer } from '@cdk-sagemaker-mcp/test-stand-ins/secrets-manager-server';

type Handler = (e: LambdaFunctionURLEvent) => Promise<APIGatewayProxyStructuredResultV2>;
const GATEWAY_ROLE = 'arn:aws:sts::111111111111:assumed-role/agentcore-gateway-role/gateway-session';
const OTHER_ROLE = 'arn:aws:sts::111111111111:assumed-role/someone-else/session';
const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

let control: SageMakerControlServer;
let secrets: SecretsManagerServer;
const saved = { ...process.env };

/** A cold container: the bundle loaded afresh (module state, the handle key included, starts empty). */
function coldContainer(): Handler {
  let handler: Handler | undefined;
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    handler = require('../../assets/mcp/server.lambda/index.js').handler;
  });
  return handler!;
}

/** One JSON-RPC request through the function URL, as the gateway forwards it (routing headers included). */
async function send(handler: Handler, method: string, params: Record<string, unknown>, callerArn = GATEWAY_ROLE) {
  const name = (params.taskId ?? params.name) as string | undefined;
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method,
    params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': TASKS } },
  });
  const req = Object.assign(Readable.from([Buffer.from(body)]), {
    method: 'POST',
    url: '/mcp',
    headers: {
      'content-type': 'application/json',
      'accept': 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    },
  }) as unknown as IncomingMessage;
  let result: APIGatewayProxyStructuredResultV2 | undefined;
  // The function's EMF metric lines go to stdout; read them off so that a passing test prints nothing.
  await emfWrittenBy(async () => {
    result = await handler(await functionUrlEvent(req, { callerArn }));
  });
  result = result!;
  return { status: result.statusCode, body: JSON.parse(result.body!) };
}

beforeAll(async () => {
  [control, secrets] = await Promise.all([startSageMakerControlServer(), startSecretsManagerServer()]);
  control.addPipeline('churn-training');
  setBundledServerEnv({
    secretsEndpoint: secrets.endpoint,
    handleKeySecretArn: secrets.putSecret('mcp-handle-key', 'gateway-tasks-key'),
    spec: { pipelines: [{ name: 'churn-training' }] },
    endpoints: { AWS_ENDPOINT_URL_SAGEMAKER: control.endpoint },
  });
});

afterAll(async () => {
  process.env = saved;
  await Promise.all([control?.stop(), secrets?.stop()]);
});

test('a task started through the gateway is polled to its result by other containers, and only for the gateway\'s principal', async () => {
  // WHEN one container starts the run as a task
  const created = await send(coldContainer(), 'tools/call', { name: 'start_training', arguments: { pipelineName: 'churn-training' } });
  // THEN
  expect(created.body.result).toMatchObject({ resultType: 'task', status: 'working', pollIntervalMs: 60_000 });
  const { taskId } = created.body.result;

  // WHEN another (cold) container is asked, while the run executes and after it succeeded
  const second = coldContainer();
  expect((await send(second, 'tasks/get', { taskId })).body.result).toMatchObject({ resultType: 'complete', status: 'working' });
  control.updateExecution(control.executions()[0].PipelineExecutionArn, { PipelineExecutionStatus: 'Succeeded' });
  const done = await send(second, 'tasks/get', { taskId });
  // THEN
  expect(done.body.result).toMatchObject({ status: 'completed', result: { structuredContent: { status: 'Succeeded', final: true } } });

  // AND another principal reaching the function URL does not see it
  const other = await send(second, 'tasks/get', { taskId }, OTHER_ROLE);
  expect(other.body.error).toMatchObject({ code: -32602 });
});

test('server/discover on the function URL advertises the extension (the gateway requires 2026-07-28 for tasks)', async () => {
  const { body } = await send(coldContainer(), 'server/discover', {});
  expect(body.result.supportedVersions).toContain('2026-07-28');
  expect(body.result.capabilities.extensions).toEqual(TASKS.extensions);
});
