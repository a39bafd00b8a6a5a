/**
 * Two callers passing the same `sessionId` to `start_training` must not share a run. The bundled
 * Lambda handler (assets/mcp/server.lambda, after `npx projen bundle`) behind a stand-in function URL: the stand-in puts
 * the principal it "authenticated" into `requestContext.authorizer.iam`, as a function URL with AWS_IAM auth does
 * (https://docs.aws.amazon.com/lambda/latest/dg/urls-invocation.html: "requestContext.authorizer.iam ... userArn"),
 * and real MCP clients talk to it; StartPipelineExecution goes to the local control-plane stand-in.
 */
import { createServer, Server } from 'http';
import { AddressInfo } from 'net';
import { hostname, userInfo } from 'os';
import { SageMakerClient } from '@aws-sdk/client-sagemaker';
import { Client, InMemoryTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { APIGatewayProxyStructuredResultV2, LambdaFunctionURLEvent } from 'aws-lambda';
import { setBundledServerEnv } from './bundled-server-lambda';
import { functionUrlEvent } from './function-url-event';
import { SageMakerControlServer, startSageMakerControlServer } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-control-server';
import { SecretsManagerServer, startSecretsManagerServer } from '@cdk-sagemaker-mcp/test-stand-ins/secrets-manager-server';
import { serveSageMakerMcpStdio } from 'cdk-sagemaker-mcp-runtime/mcp';
import { startTraining } from 'cdk-sagemaker-mcp-runtime/pipelines';

/** Test-only header through which a test client tells the stand-in which IAM principal signed its requests. */
const PRINCIPAL_HEADER = 'x-stand-in-principal';

describe('start_training through the bundled Lambda: the caller is part of the idempotency token', () => {
  const saved = { ...process.env };
  let control: SageMakerControlServer;
  let secrets: SecretsManagerServer;
  let http: Server;
  let url: URL;
  let handler: (e: LambdaFunctionURLEvent) => Promise<APIGatewayProxyStructuredResultV2>;
  const clients: Client[] = [];

  async function clientAs(principal: string): Promise<Client> {
    const client = new Client({ name: 'caller-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { [PRINCIPAL_HEADER]: principal } } }));
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    control = await startSageMakerControlServer();
    control.addPipeline('churn-training');
    // The handler reads its handle key from Secrets Manager at cold start (never from its environment).
    secrets = await startSecretsManagerServer();
    const handleKeyArn = secrets.putSecret('mcp-handle-key', 'caller-identity-test-key');
    setBundledServerEnv({
      secretsEndpoint: secrets.endpoint,
      handleKeySecretArn: handleKeyArn,
      spec: { pipelines: [{ name: 'churn-training' }] },
      endpoints: { AWS_ENDPOINT_URL_SAGEMAKER: control.endpoint },
    });
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    handler = require('../../assets/mcp/server.lambda/index.js').handler;
    http = createServer(async (req, res) => {
      const caller = { callerArn: String(req.headers[PRINCIPAL_HEADER]), dropHeaders: [PRINCIPAL_HEADER] };
      const result = await handler(await functionUrlEvent(req, caller));
      res.writeHead(result.statusCode ?? 200, { ...(result.headers as Record<string, string>) });
      res.end(result.isBase64Encoded ? Buffer.from(result.body ?? '', 'base64') : result.body);
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
    url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
  });

  afterAll(async () => {
    for (const c of clients) await c.close();
    http?.closeAllConnections();
    await new Promise<void>((resolve) => (http ? http.close(() => resolve()) : resolve()));
    await control?.stop();
    await secrets?.stop();
    process.env = saved;
  });

  test('two principals with the same sessionId start two runs; each one\'s retry finds its own run', async () => {
    // GIVEN
    const alice = await clientAs('arn:aws:sts::111122223333:assumed-role/AgentRole/alice');
    const bob = await clientAs('arn:aws:sts::111122223333:assumed-role/AgentRole/bob');
    const args = { pipelineName: 'churn-training', sessionId: 'shared-session' };
    // WHEN
    const first = await alice.callTool({ name: 'start_training', arguments: args });
    const second = await bob.callTool({ name: 'start_training', arguments: args });
    const retry = await alice.callTool({ name: 'start_training', arguments: args });
    // THEN
    for (const result of [first, second, retry]) expect(result.isError).toBeFalsy();
    const executions = control.executions();
    expect(executions).toHaveLength(2);
    const tokens = control.requestsFor('StartPipelineExecution').map((r) => r.body.ClientRequestToken);
    expect(tokens[0]).not.toBe(tokens[1]);
    expect(tokens[2]).toBe(tokens[0]);
    // Bob's handle reads Bob's run, not Alice's
    const status = async (client: Client, result: any) => (await client.callTool({ name: 'get_training_status', arguments: { handle: result.structuredContent.handle } })) as any;
    control.updateExecution(executions[1].PipelineExecutionArn, { PipelineExecutionStatus: 'Failed', FailureReason: 'bob-only' });
    expect((await status(bob, second)).structuredContent).toMatchObject({ status: 'Failed', failureReason: 'bob-only' });
    expect((await status(alice, first)).structuredContent).toMatchObject({ status: 'Executing' });
  });
});

describe('caller identity outside Lambda', () => {
  test('a stdio server\'s caller is the OS user of its process, on its host', async () => {
    // GIVEN the stdio entry point, over an in-memory transport in place of this process's stdin/stdout
    const cp = await startSageMakerControlServer();
    cp.addPipeline('churn-training');
    const { endpoint, region, credentials } = cp.clientConfig();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const config = { pipelines: [{ name: 'churn-training' }], ephemeralHandleKey: true, region, credentials, endpoints: { sagemaker: endpoint } };
    const served = serveSageMakerMcpStdio(config, { transport: serverSide });
    const client = new Client({ name: 'caller-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    const sagemaker = new SageMakerClient(cp.clientConfig());
    try {
      await client.connect(clientSide);
      const args = { pipelineName: 'churn-training', sessionId: 'stdio-session' };
      // WHEN
      const result = await client.callTool({ name: 'start_training', arguments: args });
      // THEN its idempotency token is the one startTraining computes for that caller, not a caller-less one
      expect(result.isError).toBeFalsy();
      const [sent] = cp.requestsFor('StartPipelineExecution').map((r) => r.body.ClientRequestToken);
      const token = async (caller?: string) => (await startTraining({ ...args, caller }, { sagemaker })).clientRequestToken;
      expect(sent).toBe(await token(`local:${userInfo().username}@${hostname()}`));
      expect(sent).not.toBe(await token());
    } finally {
      await client.close();
      await served.close();
      sagemaker.destroy();
      await cp.stop();
    }
  });

  test('the token depends on the caller; without one it is what it always was', async () => {
    // GIVEN StartPipelineExecution against the control-plane stand-in, the token read from what startTraining returns
    const cp = await startSageMakerControlServer();
    cp.addPipeline('churn-training');
    const sagemaker = new SageMakerClient(cp.clientConfig());
    const base = { pipelineName: 'churn-training', sessionId: 's', parameters: { a: 1 } };
    const token = async (caller?: string) => (await startTraining({ ...base, caller }, { sagemaker })).clientRequestToken;
    try {
      expect(await token('a')).not.toBe(await token('b'));
      expect(await token('a')).toBe(await token('a'));
      // sha256 of the v1 fields, computed once by hand: a caller-less token must not change for existing callers.
      const { createHash } = jest.requireActual<typeof import('crypto')>('crypto');
      const v1 = createHash('sha256').update(JSON.stringify(['cdk-sagemaker-mcp/start-training/v1', 'churn-training', 's', [['a', '1']], ''])).digest('hex');
      expect(await token()).toBe(v1.slice(0, 64));
    } finally {
      sagemaker.destroy();
      await cp.stop();
    }
  });
});
