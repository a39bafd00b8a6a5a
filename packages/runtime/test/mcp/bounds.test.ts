/**
 * Every tool is bounded: against services that accept the connection and never answer, each tool
 * answers within its deadline with a retryable error, and pagination stops when a service repeats its NextToken.
 * Real MCP client sessions over stateless HTTP; real AWS SDK clients against the local stand-ins and a silent server.
 */
import { createServer, Server } from 'http';
import { AddressInfo } from 'net';
import { SilentServer, startSilentServer } from '@cdk-sagemaker-mcp/test-stand-ins/silent-server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { LocalEnv, startLocalEnv } from '../support/local-env';
import { createSageMakerMcpHandler, parseMcpServerSpec, SageMakerMcpServerConfig } from 'cdk-sagemaker-mcp-runtime/mcp';

type CallResult = { isError?: boolean; structuredContent?: any; content: Array<{ type: string; text?: string }> };

interface Session {
  call(name: string, args: Record<string, unknown>): Promise<CallResult>;
  close(): Promise<void>;
}

async function openSession(config: SageMakerMcpServerConfig): Promise<Session> {
  const http: Server = createServer(toNodeHandler(createSageMakerMcpHandler(config)));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
  const client = new Client({ name: 'bounds-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`)));
  return {
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as CallResult,
    close: async () => {
      await client.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

const DEADLINE_MS = 500;
/** Scheduling, the MCP round trip and the error path on a shared 2-core machine. */
const SLACK_MS = 1_500;

let env: LocalEnv;
let silent: SilentServer;
let working: Session;
let stalled: Session;
const logged: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  [env, silent] = await Promise.all([startLocalEnv(), startSilentServer()]);
  working = await openSession(env.config);
  // The same spec and handle key; every service but the control plane is silent, and the control plane hangs on demand.
  stalled = await openSession({
    ...env.config,
    endpoints: {
      sagemakerRuntime: silent.endpoint,
      sagemaker: env.control.endpoint,
      featureStoreRuntime: silent.endpoint,
      dynamodb: silent.endpoint,
      s3: silent.endpoint,
    },
    toolDeadlineMs: DEADLINE_MS,
    log: (entry) => logged.push(entry),
  });
});

afterAll(async () => {
  await working?.close();
  await stalled?.close();
  await Promise.all([env?.stop(), silent?.stop()]);
});

async function timed(session: Session, name: string, args: Record<string, unknown>): Promise<{ result: CallResult; ms: number }> {
  const started = Date.now();
  const result = await session.call(name, args);
  return { result, ms: Date.now() - started };
}

function expectDeadline(name: string, outcome: { result: CallResult; ms: number }): void {
  expect(outcome.result.isError).toBe(true);
  expect(outcome.result.structuredContent).toMatchObject({ errorName: 'DeadlineExceeded', retryable: true, correlationId: expect.any(String) });
  expect(outcome.result.structuredContent.message).toContain(`Tool ${name} did not finish within its deadline of ${DEADLINE_MS} ms`);
  expect(outcome.ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
  expect(outcome.ms).toBeLessThan(DEADLINE_MS + SLACK_MS);
}

describe('a tool whose service never answers returns a retryable error at its deadline', () => {
  afterEach(() => {
    for (const op of ['DescribeEndpoint', 'StartPipelineExecution', 'DescribePipelineExecution', 'ListAssociations']) env.control.hang(op, false);
  });

  test('describe_endpoint (DescribeEndpoint accepted, never answered)', async () => {
    env.control.hang('DescribeEndpoint');
    expectDeadline('describe_endpoint', await timed(stalled, 'describe_endpoint', { endpointName: 'churn-xgb' }));
  }, 10_000);

  test('start_async_inference (S3 silent)', async () => {
    expectDeadline('start_async_inference', await timed(stalled, 'start_async_inference', { endpointName: 'doc-summarizer', payload: { format: 'json', data: 1 } }));
    expect(silent.connections()).toBeGreaterThan(0);
  }, 10_000);

  test('get_async_inference_result (job table and S3 silent)', async () => {
    const { handle } = (await working.call('start_async_inference', { endpointName: 'doc-summarizer', payload: { format: 'json', data: 1 } })).structuredContent;
    expect(handle).toEqual(expect.any(String));
    expectDeadline('get_async_inference_result', await timed(stalled, 'get_async_inference_result', { handle }));
  }, 10_000);

  test('get_online_features and put_feature_record (Feature Store runtime silent)', async () => {
    expectDeadline('get_online_features', await timed(stalled, 'get_online_features', { featureGroupName: 'users', recordId: 'u1' }));
    expectDeadline('put_feature_record', await timed(stalled, 'put_feature_record', {
      featureGroupName: 'users', record: { user_id: 'u9', event_time: new Date().toISOString(), calls: 1, score: 0.5 },
    }));
  }, 10_000);

  test('start_training (StartPipelineExecution never answered)', async () => {
    env.control.hang('StartPipelineExecution');
    expectDeadline('start_training', await timed(stalled, 'start_training', { pipelineName: 'churn-training', sessionId: 'sess-hang' }));
  }, 10_000);

  test('get_training_status, get_training_result and get_model_provenance', async () => {
    const { handle } = (await working.call('start_training', { pipelineName: 'churn-training', sessionId: 'sess-hang-reads' })).structuredContent;
    env.control.hang('DescribePipelineExecution');
    env.control.hang('ListAssociations');
    expectDeadline('get_training_status', await timed(stalled, 'get_training_status', { handle }));
    expectDeadline('get_training_result', await timed(stalled, 'get_training_result', { handle }));
    expectDeadline('get_model_provenance', await timed(stalled, 'get_model_provenance', { handle }));
  }, 15_000);

  test('the log line carries the same correlation id as the error the agent got', async () => {
    env.control.hang('DescribeEndpoint');
    const { result } = await timed(stalled, 'describe_endpoint', { endpointName: 'churn-xgb' });
    const entry = logged.find((e) => e.correlationId === result.structuredContent.correlationId);
    expect(entry).toMatchObject({ tool: 'describe_endpoint', error: { errorName: 'DeadlineExceeded', retryable: true } });
  }, 10_000);
});

describe('pagination stops on a repeated NextToken', () => {
  afterEach(() => {
    env.control.repeatNextToken('ListPipelineExecutionSteps', false);
    env.control.repeatNextToken('ListAssociations', false);
  });

  test('get_training_status answers with the steps read and says why it stopped', async () => {
    // GIVEN a service that answers every ListPipelineExecutionSteps page with the same NextToken
    const { handle } = (await working.call('start_training', { pipelineName: 'churn-training', sessionId: 'sess-loop' })).structuredContent;
    const execution = env.control.executions().find((e) => e.PipelineExecutionDescription?.includes('sess-loop'))!;
    env.control.setSteps(execution.PipelineExecutionArn, [{ StepName: 'Train', StepStatus: 'Executing' }]);
    env.control.repeatNextToken('ListPipelineExecutionSteps');
    const before = env.control.requestsFor('ListPipelineExecutionSteps').length;
    // WHEN
    const result = await working.call('get_training_status', { handle });
    // THEN: the first page, then the repeated token is seen and not followed again
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ status: 'Executing', stepsTruncated: 'repeated-token' });
    expect(env.control.requestsFor('ListPipelineExecutionSteps').length - before).toBe(2);
  }, 10_000);

  test('get_model_provenance stops listing an entity whose token repeats, and says the graph is truncated', async () => {
    // GIVEN
    const { handle } = (await working.call('start_training', { pipelineName: 'churn-training', sessionId: 'sess-loop-lineage' })).structuredContent;
    const execution = env.control.executions().find((e) => e.PipelineExecutionDescription?.includes('sess-loop-lineage'))!;
    env.control.addAssociation({ SourceArn: execution.PipelineExecutionArn, DestinationArn: 'arn:aws:sagemaker:us-east-1:123456789012:artifact/loop', AssociationType: 'Produced' });
    env.control.repeatNextToken('ListAssociations');
    const before = env.control.requestsFor('ListAssociations').length;
    // WHEN
    const result = await working.call('get_model_provenance', { handle, maxDepth: 1 });
    // THEN
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.truncated).toBe(true);
    expect(env.control.requestsFor('ListAssociations').length - before).toBe(2);
  }, 10_000);
});

describe('configuration of the bounds', () => {
  test('deadlines and timeouts must be positive integers of milliseconds; every problem is named at once', () => {
    expect(() => parseMcpServerSpec({ toolDeadlineMs: 0, toolDeadlines: { describe_endpoint: '5s' }, httpTimeouts: { requestTimeoutMs: -1 } }))
      .toThrow(/toolDeadlineMs: expected a positive integer of milliseconds, got 0[\s\S]*toolDeadlines\.describe_endpoint: expected a number, got "5s"[\s\S]*httpTimeouts\.requestTimeoutMs: expected a positive integer of milliseconds, got -1/);
  });
});
