/**
 * What reaches the agent. AWS error messages are redacted (account ids, ARNs, signatures) and kept
 * whole in the server's log under the correlation id the agent gets; get_model_provenance describes only what the
 * server exposes. Real MCP client sessions over stateless HTTP against the local stand-ins.
 */
import { createServer, Server } from 'http';
import { AddressInfo } from 'net';
import { fail } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { LocalEnv, startLocalEnv } from '../support/local-env';
import { redactForAgent } from 'cdk-sagemaker-mcp-runtime/core';
import { createSageMakerMcpHandler } from 'cdk-sagemaker-mcp-runtime/mcp';

type CallResult = { isError?: boolean; structuredContent?: any; content: Array<{ type: string; text?: string }> };

let env: LocalEnv;
let http: Server;
let client: Client;
const logged: Array<Record<string, any>> = [];
const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallResult;

beforeAll(async () => {
  env = await startLocalEnv();
  http = createServer(toNodeHandler(createSageMakerMcpHandler({ ...env.config, log: (entry) => logged.push(entry) })));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
  client = new Client({ name: 'redaction-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`)));
});

afterAll(async () => {
  await client?.close();
  http?.closeAllConnections();
  await new Promise<void>((resolve) => http?.close(() => resolve()));
  await env?.stop();
});

// The message IAM returns for an identity-policy denial, as SageMaker passes it on in an AccessDeniedException
// (https://docs.aws.amazon.com/IAM/latest/UserGuide/troubleshoot_access-denied.html: "User: arn:aws:iam::777788889999:user/John
// is not authorized to perform: codecommit:ListRepositories because no identity-based policy allows the
// codecommit:ListRepositories action").
const ACCESS_DENIED = 'User: arn:aws:sts::123456789012:assumed-role/MyRole/fn is not authorized to perform: sagemaker:DescribeEndpoint '
  + 'on resource: arn:aws:sagemaker:us-east-1:123456789012:endpoint/churn-xgb because no identity-based policy allows the '
  + 'sagemaker:DescribeEndpoint action';

describe('errors that reach the agent are redacted; the log keeps them whole under the same correlation id', () => {
  test('an AccessDenied from DescribeEndpoint', async () => {
    // GIVEN
    env.control.failNext('DescribeEndpoint', 'AccessDeniedException', ACCESS_DENIED);
    // WHEN
    const result = await call('describe_endpoint', { endpointName: 'churn-xgb' });
    // THEN the agent sees what failed, not who or where
    expect(result.isError).toBe(true);
    const error = result.structuredContent;
    expect(error).toMatchObject({ errorName: 'AccessDeniedException', retryable: false, correlationId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(error.message).toContain('is not authorized to perform: sagemaker:DescribeEndpoint');
    expect(error.message).toContain('<sts ARN>');
    for (const leak of ['123456789012', 'arn:aws', 'MyRole', 'assumed-role']) {
      expect(error.message).not.toContain(leak);
      expect(result.content[0].text).not.toContain(leak);
    }
    expect(JSON.parse(result.content[0].text!)).toEqual(error);
    // AND the operator finds the whole message under the id the agent can quote
    const entry = logged.find((e) => e.correlationId === error.correlationId);
    expect(entry).toMatchObject({ tool: 'describe_endpoint', error: { errorName: 'AccessDeniedException', message: ACCESS_DENIED } });
  });

  test('signatures, credentials and security tokens in a message', async () => {
    // GIVEN an error quoting a signed request (as S3 and STS errors can)
    env.control.failNext('DescribeEndpoint', 'InvalidSignatureException', 'Signature mismatch for Authorization: AWS4-HMAC-SHA256 '
      + 'Credential=ASIAIOSFODNN7EXAMPLE/20240101/us-east-1/sagemaker/aws4_request, SignedHeaders=host;x-amz-date, '
      + 'Signature=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef; url ?X-Amz-Security-Token=IQoJb3JpZ2luX2VjEXAMPLE&X-Amz-Signature=ff00');
    // WHEN
    const result = await call('describe_endpoint', { endpointName: 'churn-xgb' });
    // THEN
    const message: string = result.structuredContent.message;
    for (const leak of ['ASIAIOSFODNN7EXAMPLE', '0123456789abcdef', 'IQoJb3JpZ2luX2VjEXAMPLE', 'ff00']) expect(message).not.toContain(leak);
    expect(message).toContain('Credential=<redacted>');
    expect(message).toContain('X-Amz-Security-Token=<redacted>');
  });

  test('a ModelError keeps its log stream, with the account masked', async () => {
    // GIVEN
    env.runtime.script('churn-xgb', fail('ModelError', { originalStatusCode: 400, originalMessage: 'bad input' }));
    // WHEN
    const result = await call('invoke_endpoint', { endpointName: 'churn-xgb', payload: { format: 'json', data: 1 } });
    // THEN
    expect(result.structuredContent).toMatchObject({ errorName: 'ModelInvocationError', originalStatusCode: 400 });
    expect(result.structuredContent.logStreamArn).toMatch(/^arn:aws:logs:us-east-1:<account>:log-group:\/aws\/sagemaker\/Endpoints\//);
    // The stand-in's account id (the text also carries a random request id, which may hold 12 digits in a row).
    expect(result.content[0].text).not.toContain('123456789012');
  });

  test('redactForAgent: plain account ids, function and bucket ARNs, access key ids', () => {
    expect(redactForAgent('account 123456789012 called arn:aws:lambda:us-east-1:123456789012:function:my-fn on arn:aws:s3:::my-bucket/key with AKIAIOSFODNN7EXAMPLE'))
      .toBe('account <account> called <lambda ARN> on <s3 ARN> with <access key id>');
    // A 13-digit epoch time and a decimal are not account ids; any other 12-digit number is redacted, whatever follows it.
    expect(redactForAgent('at 1704067200000 score 0.123456789012 is 251234567890 s past, by 123456789012.'))
      .toBe('at 1704067200000 score 0.123456789012 is <account> s past, by <account>.');
  });
});

describe('get_model_provenance describes only what the server exposes', () => {
  const ACCOUNT = 'arn:aws:sagemaker:us-east-1:123456789012';

  test('forward from a run: the run and its direct outputs are described; a run of another pipeline is summarised', async () => {
    // GIVEN churn-training (exposed) -> model package -> a run of fraud-training (not exposed) -> its model
    const { handle } = (await call('start_training', { pipelineName: 'churn-training', sessionId: 'sess-scope' })).structuredContent;
    const run = env.control.executions().find((e) => e.PipelineExecutionDescription?.includes('sess-scope'))!.PipelineExecutionArn;
    env.control.addPipeline('fraud-training');
    const otherRun = env.control.addExecution('fraud-training', { PipelineExecutionDescription: 'owned by the fraud team' });
    const modelPackage = `${ACCOUNT}:model-package/churn/7`;
    const otherModel = `${ACCOUNT}:model-package/fraud/3`;
    env.control.addModelPackage(modelPackage, { ModelPackageGroupName: 'churn', ModelPackageStatus: 'Completed' });
    env.control.addModelPackage(otherModel, { ModelPackageGroupName: 'fraud', ModelPackageStatus: 'Completed' });
    env.control.addAssociation({ SourceArn: run, DestinationArn: modelPackage, AssociationType: 'Produced', DestinationType: 'Model' });
    env.control.addAssociation({ SourceArn: modelPackage, DestinationArn: otherRun, AssociationType: 'ContributedTo' });
    env.control.addAssociation({ SourceArn: otherRun, DestinationArn: otherModel, AssociationType: 'Produced', DestinationType: 'Model' });
    const describedBefore = describedArns();
    // WHEN
    const result = await call('get_model_provenance', { handle, maxDepth: 3 });
    // THEN
    expect(result.isError).toBeFalsy();
    const nodes = result.structuredContent.nodes;
    expect(nodes.map((n: any) => [n.kind, n.outsideScope ?? false])).toEqual([
      ['pipeline-execution', false], ['model-package', false], ['pipeline-execution', true], ['model-package', true],
    ]);
    expect(nodes[1].details).toMatchObject({ groupName: 'churn' });
    expect(nodes[2]).toEqual({ arn: 'outside-scope-1', kind: 'pipeline-execution', depth: 2, outsideScope: true });
    expect(nodes[3]).toEqual({ arn: 'outside-scope-2', kind: 'model-package', depth: 3, lineageType: 'Model', outsideScope: true });
    const text = JSON.stringify(result.structuredContent);
    expect(text).not.toContain('fraud');
    expect(result.structuredContent.edges).toContainEqual({ sourceArn: modelPackage, destinationArn: 'outside-scope-1', associationType: 'ContributedTo' });
    // AND nothing outside the scope was described
    const described = describedArns().slice(describedBefore.length);
    expect(described).toEqual(expect.arrayContaining([run, modelPackage]));
    expect(described).not.toContain(otherRun);
    expect(described).not.toContain(otherModel);
  });

  test('backward from a model package no exposed run touches: nothing is described', async () => {
    // GIVEN a model package built by a run of a pipeline the server does not expose
    env.control.addPipeline('secret-training');
    const secretRun = env.control.addExecution('secret-training');
    const secretModel = `${ACCOUNT}:model-package/secret/1`;
    env.control.addModelPackage(secretModel, { ModelPackageGroupName: 'secret' });
    env.control.addAssociation({ SourceArn: secretRun, DestinationArn: secretModel, AssociationType: 'Produced', SourceType: 'PipelineExecution' });
    const describedBefore = describedArns().length;
    // WHEN
    const result = await call('get_model_provenance', { modelPackageArn: secretModel });
    // THEN
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.nodes).toEqual([
      { arn: secretModel, kind: 'model-package', depth: 0, outsideScope: true },
      { arn: 'outside-scope-1', kind: 'pipeline-execution', depth: 1, lineageType: 'PipelineExecution', outsideScope: true },
    ]);
    expect(describedArns().length).toBe(describedBefore);
  });

  function describedArns(): string[] {
    return env.control.requests()
      .filter((r) => r.operation.startsWith('Describe'))
      .map((r) => r.body)
      .map((b) => String(b.PipelineExecutionArn ?? b.ModelPackageName ?? b.ArtifactArn ?? b.TrainingJobName ?? b.EndpointName));
  }
});
