/**
 * Redaction and result shapes, over real MCP client sessions (stateless HTTP) against the local stand-ins:
 * - failure reasons inside SUCCESSFUL results (describe_endpoint, get_training_status / get_training_result,
 *   get_async_inference_result) are redacted as error messages are;
 * - URL-encoded ARNs and access key ids glued to a word (`key_ASIA…`) are redacted;
 * - the log keeps ARNs for the operator but never signing material (the canonical request AWS echoes in an
 *   InvalidSignatureException, x-amz-security-token included), through the `log` sink (Lambda) and stderr (the CLI).
 */
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { accepted, fail } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { BUCKET, completeAsyncOutput, JOB_TABLE, LocalEnv, recordTrainingResult, startLocalEnv } from '../support/local-env';
import { McpHttpSession, startMcpHttpSession } from '../support/mcp-session';
import { redactForAgent, redactSigning } from 'cdk-sagemaker-mcp-runtime/core';

const ROLE_ARN = 'arn:aws:iam::123456789012:role/SageMakerExecRole-Prod';
const REASON = `ClientError: ${ROLE_ARN} is not authorized to perform: s3:GetObject on arn:aws:s3:::models-123456789012/model.tar.gz`;
const LEAKS = ['123456789012', 'SageMakerExecRole-Prod', 'arn:aws'];
// The canonical request AWS echoes on a signature mismatch (SigV4: https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html).
const TOKEN = 'IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQDsessiontokenvalue';
const SIGNATURE_MISMATCH = 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.\n\n'
  + `The Canonical String for this request should have been\n'POST\n/endpoints/churn-xgb/invocations\n\nhost:runtime.sagemaker.us-east-1.amazonaws.com\nx-amz-date:20261202T010000Z\nx-amz-security-token:${TOKEN}\n\nhost;x-amz-date;x-amz-security-token\n'`
  + ` for ${ROLE_ARN}; Authorization: AWS4-HMAC-SHA256 Credential=ASIAIOSFODNN7EXAMPLE/20261202/us-east-1/sagemaker/aws4_request, SignedHeaders=host, Signature=fe5f80f77d5fa3beca038a248ff027d0445342fe2855ddc963176630326f1024`
  + ' aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

let env: LocalEnv;
let session: McpHttpSession;
const logged: Array<Record<string, any>> = [];
const call = (name: string, args: Record<string, unknown>) => session.call(name, args);

beforeAll(async () => {
  env = await startLocalEnv();
  session = await startMcpHttpSession({ ...env.config, log: (entry) => logged.push(entry) }, 'redaction-results-test');
});

afterAll(async () => {
  await session?.close();
  await env?.stop();
});

const expectNoLeak = (result: { content?: Array<{ text?: string }>; structuredContent?: unknown }) => {
  for (const leak of LEAKS) {
    expect(JSON.stringify(result.structuredContent)).not.toContain(leak);
    expect(result.content![0].text).not.toContain(leak);
  }
};

describe('failure reasons inside successful results are redacted', () => {
  test('describe_endpoint of a Failed endpoint', async () => {
    env.control.setEndpoint('churn-xgb', {
      EndpointName: 'churn-xgb',
      EndpointArn: 'arn:aws:sagemaker:us-east-1:123456789012:endpoint/churn-xgb',
      EndpointConfigName: 'c',
      EndpointStatus: 'Failed',
      FailureReason: REASON,
      CreationTime: 1_700_000_000,
      LastModifiedTime: 1_700_000_100,
      ProductionVariants: [],
    });
    const result = await call('describe_endpoint', { endpointName: 'churn-xgb' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ status: 'Failed', failureReason: expect.stringContaining('<iam ARN> is not authorized to perform: s3:GetObject') });
    expectNoLeak(result);
  });

  test('get_training_status and get_training_result of a failed run', async () => {
    const started = await call('start_training', { pipelineName: 'churn-training', sessionId: 'redact-1' });
    const { handle } = started.structuredContent;
    const execution = env.control.executions().at(-1)!;
    env.control.setSteps(execution.PipelineExecutionArn, [{ StepName: 'Train', StepStatus: 'Failed', FailureReason: REASON }]);
    env.control.updateExecution(execution.PipelineExecutionArn, { PipelineExecutionStatus: 'Failed', FailureReason: REASON });
    const status = await call('get_training_status', { handle });
    expect(status.isError).toBeFalsy();
    expect(status.structuredContent.steps[0].failureReason).toContain('<iam ARN>');
    expectNoLeak(status);
    await recordTrainingResult(env, execution.PipelineExecutionArn, {
      status: 'Failed',
      sessionId: 'redact-1',
      pipelineArn: execution.PipelineArn,
      failureReason: REASON,
      failedStep: 'Train',
      startedAt: '2024-01-01T00:00:00.000Z',
      endedAt: '2024-01-01T00:10:00.000Z',
      eventTime: '2024-01-01T00:10:00.000Z',
    });
    const final = await call('get_training_result', { handle });
    expect(final.structuredContent).toMatchObject({ status: 'Failed', failureReason: expect.stringContaining('<iam ARN>') });
    expectNoLeak(final);
  });

  test('get_async_inference_result of a failed job: its reason and the error object SageMaker wrote', async () => {
    env.runtime.script('doc-summarizer', accepted({ inferenceId: 'fail-1', failureLocation: `s3://${BUCKET}/failures/fail-1.err` }));
    const { handle } = (await call('start_async_inference', { endpointName: 'doc-summarizer', payload: { format: 'text', text: 'doc' } })).structuredContent;
    await completeAsyncOutput(env, 'failures/fail-1.err', { message: REASON });
    await env.dynamodb.send(new PutItemCommand({
      TableName: JOB_TABLE,
      Item: { inferenceId: { S: 'fail-1' }, status: { S: 'Failed' }, failureReason: { S: REASON }, failureLocation: { S: `s3://${BUCKET}/failures/fail-1.err` } },
    }));
    const result = await call('get_async_inference_result', { handle });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ status: 'failed', failureReason: expect.stringContaining('<iam ARN>') });
    expectNoLeak(result);
  });
});

describe('redaction gaps', () => {
  test('a URL-encoded ARN (once or twice) loses its account and role name', () => {
    const once = encodeURIComponent(ROLE_ARN);
    const twice = encodeURIComponent(once);
    for (const text of [`redirect=${once}&x=1`, `next: ${twice}`]) {
      const redacted = redactForAgent(text);
      expect(redacted).toContain('<iam ARN>');
      for (const leak of ['123456789012', 'SageMakerExecRole']) expect(redacted).not.toContain(leak);
    }
  });

  test('access key ids glued to a word are redacted; a longer upper-case word is not a key id', () => {
    expect(redactForAgent('key_ASIAIOSFODNN7EXAMPLE and id=AKIAIOSFODNN7EXAMPLE.')).toBe('key_<access key id> and id=<access key id>.');
    expect(redactForAgent('XASIAIOSFODNN7EXAMPLEZZ')).toBe('XASIAIOSFODNN7EXAMPLEZZ');
  });
});

describe('logs keep ARNs, never signing material', () => {
  test('a signature mismatch message (sent here as a ValidationError): the log sink gets the ARN, not the token, signature or secret key; the agent gets neither', async () => {
    // GIVEN SageMaker rejecting the signature with the canonical request in its message
    env.control.setEndpoint('churn-xgb', { EndpointName: 'churn-xgb', EndpointStatus: 'InService', ProductionVariants: [] });
    env.runtime.script('churn-xgb', fail('ValidationError', { message: SIGNATURE_MISMATCH }));
    // WHEN
    const result = await call('invoke_endpoint', { endpointName: 'churn-xgb', payload: { format: 'json', data: {} } });
    // THEN the agent's copy is redacted
    expect(result.isError).toBe(true);
    for (const leak of [TOKEN, 'fe5f80f77d5fa3beca', 'wJalrXUtnFEMI', ...LEAKS]) expect(result.content[0].text).not.toContain(leak);
    // and the log keeps the role ARN for the operator, under the same correlation id, without the signing material
    const entry = logged.find((e) => e.correlationId === result.structuredContent.correlationId)!;
    const line = JSON.stringify(entry);
    expect(line).toContain(ROLE_ARN);
    for (const secret of [TOKEN, 'fe5f80f77d5fa3beca', 'wJalrXUtnFEMI', 'ASIAIOSFODNN7EXAMPLE']) expect(line).not.toContain(secret);
  });

  test('the default log (stderr, what the CLI writes) is scrubbed the same way', async () => {
    const plain = await startMcpHttpSession(env.config, 'stderr-log-test');
    const written: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    try {
      env.runtime.script('churn-xgb', fail('ValidationError', { message: SIGNATURE_MISMATCH }));
      const result = await plain.call('invoke_endpoint', { endpointName: 'churn-xgb', payload: { format: 'json', data: {} } });
      expect(result.isError).toBe(true);
    } finally {
      process.stderr.write = write;
      await plain.close();
    }
    const line = written.find((w) => w.includes('MCP tool call failed'))!;
    expect(line).toContain(ROLE_ARN);
    for (const secret of [TOKEN, 'fe5f80f77d5fa3beca', 'wJalrXUtnFEMI']) expect(line).not.toContain(secret);
  });

  test('redactSigning keeps ARNs and account ids', () => {
    expect(redactSigning(`${ROLE_ARN} X-Amz-Security-Token=abc&X-Amz-Signature=def`)).toBe(`${ROLE_ARN} X-Amz-Security-Token=<redacted>&X-Amz-Signature=<redacted>`);
  });
});
