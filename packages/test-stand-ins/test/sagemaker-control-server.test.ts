import {
  DescribeEndpointCommand,
  DescribeModelPackageCommand,
  DescribePipelineExecutionCommand,
  ListPipelineExecutionStepsCommand,
  ResourceNotFound,
  SageMakerClient,
  SageMakerServiceException,
  StartPipelineExecutionCommand,
  StopPipelineExecutionCommand,
  UpdateModelPackageCommand,
} from '@aws-sdk/client-sagemaker';
import { SageMakerControlServer, startSageMakerControlServer } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-control-server';

let cp: SageMakerControlServer;
let client: SageMakerClient;

beforeAll(async () => {
  cp = await startSageMakerControlServer({ pageSize: 1 });
  client = new SageMakerClient(cp.clientConfig());
  cp.addPipeline('p1');
});

afterAll(async () => {
  client?.destroy();
  await cp?.stop();
});

describe('SageMaker control-plane server (real SDK client)', () => {
  test('StartPipelineExecution honours ClientRequestToken; Describe returns dates the SDK parses', async () => {
    const token = 'a'.repeat(32);
    const first = await client.send(new StartPipelineExecutionCommand({ PipelineName: 'p1', ClientRequestToken: token }));
    const again = await client.send(new StartPipelineExecutionCommand({ PipelineName: cp.pipelineArn('p1'), ClientRequestToken: token }));
    expect(again.PipelineExecutionArn).toBe(first.PipelineExecutionArn);
    const described = await client.send(new DescribePipelineExecutionCommand({ PipelineExecutionArn: first.PipelineExecutionArn }));
    expect(described.PipelineExecutionStatus).toBe('Executing');
    expect(described.CreationTime).toBeInstanceOf(Date);
    expect(Math.abs(described.CreationTime!.getTime() - Date.now())).toBeLessThan(60_000);
    expect(described.$metadata.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('errors arrive as the SDK exception named by __type, with the message', async () => {
    const missing = client.send(new StartPipelineExecutionCommand({ PipelineName: 'nope', ClientRequestToken: 'b'.repeat(32) }));
    await expect(missing).rejects.toBeInstanceOf(ResourceNotFound);
    await expect(missing).rejects.toThrow(/Pipeline 'arn:aws:sagemaker:us-east-1:123456789012:pipeline\/nope' does not exist/);
    const shortToken = client.send(new StartPipelineExecutionCommand({ PipelineName: 'p1', ClientRequestToken: 'short' }));
    await expect(shortToken).rejects.toMatchObject({ name: 'ValidationException', $metadata: { httpStatusCode: 400 } });
    await expect(shortToken).rejects.toBeInstanceOf(SageMakerServiceException);
  });

  test('ListPipelineExecutionSteps pages with NextToken', async () => {
    const arn = cp.addExecution('p1');
    cp.setSteps(arn, [{ StepName: 'A', StepStatus: 'Succeeded' }, { StepName: 'B', StepStatus: 'Executing' }]);
    const page1 = await client.send(new ListPipelineExecutionStepsCommand({ PipelineExecutionArn: arn }));
    const page2 = await client.send(new ListPipelineExecutionStepsCommand({ PipelineExecutionArn: arn, NextToken: page1.NextToken }));
    expect(page1.PipelineExecutionSteps!.map((s) => s.StepName)).toEqual(['A']);
    expect(page2.PipelineExecutionSteps!.map((s) => s.StepName)).toEqual(['B']);
    expect(page2.NextToken).toBeUndefined();
  });

  test('DescribeEndpoint answers from the scriptable table; unknown endpoints are a ValidationException', async () => {
    cp.setEndpoint('chat', { EndpointStatus: 'InService', EndpointConfigName: 'chat-config', CreationTime: new Date(0), LastModifiedTime: new Date(0) });
    const ep = await client.send(new DescribeEndpointCommand({ EndpointName: 'chat' }));
    expect(ep).toMatchObject({ EndpointName: 'chat', EndpointStatus: 'InService', EndpointArn: 'arn:aws:sagemaker:us-east-1:123456789012:endpoint/chat' });
    expect(ep.CreationTime!.getTime()).toBe(0);
    await expect(client.send(new DescribeEndpointCommand({ EndpointName: 'nope' }))).rejects.toMatchObject({ name: 'ValidationException', message: 'Could not find endpoint "nope".' });
  });

  test('failNext scripts one error; unknown operations are refused; handlers can be added', async () => {
    cp.failNext('DescribeModelPackage', 'ThrottlingException', 'Rate exceeded');
    await expect(client.send(new DescribeModelPackageCommand({ ModelPackageName: 'x' }))).rejects.toMatchObject({ name: 'ThrottlingException', message: 'Rate exceeded' });
    await expect(client.send(new DescribeModelPackageCommand({ ModelPackageName: 'x' }))).rejects.toMatchObject({ name: 'ValidationException' });

    const arn = cp.addExecution('p1');
    cp.handlers.delete('StopPipelineExecution');
    await expect(client.send(new StopPipelineExecutionCommand({ PipelineExecutionArn: arn, ClientRequestToken: 'c'.repeat(32) })))
      .rejects.toMatchObject({ name: 'UnknownOperationException' });
    cp.handlers.set('StopPipelineExecution', (input) => {
      cp.updateExecution(input.PipelineExecutionArn, { PipelineExecutionStatus: 'Stopping' });
      return { PipelineExecutionArn: input.PipelineExecutionArn };
    });
    await client.send(new StopPipelineExecutionCommand({ PipelineExecutionArn: arn, ClientRequestToken: 'c'.repeat(32) }));
    expect(cp.execution(arn)!.PipelineExecutionStatus).toBe('Stopping');
    expect(cp.requestsFor('StopPipelineExecution').at(-1)).toMatchObject({ target: 'SageMaker.StopPipelineExecution', contentType: 'application/x-amz-json-1.1' });
  });

  test('UpdateModelPackage merges and removes customer metadata, sets the stage; DescribeModelPackage shows it; unknown ARNs are refused', async () => {
    const arn = 'arn:aws:sagemaker:us-east-1:123456789012:model-package/churn/4';
    cp.addModelPackage(arn, { ModelPackageGroupName: 'churn', ModelPackageVersion: 4, CustomerMetadataProperties: { a: '1', b: '2' } });
    await client.send(new UpdateModelPackageCommand({
      ModelPackageArn: arn,
      CustomerMetadataProperties: { c: '3' },
      CustomerMetadataPropertiesToRemove: ['a'],
      ModelLifeCycle: { Stage: 'Production', StageStatus: 'Approved' },
    }));
    const d = await client.send(new DescribeModelPackageCommand({ ModelPackageName: arn }));
    expect(d.CustomerMetadataProperties).toEqual({ b: '2', c: '3' });
    expect(d.ModelLifeCycle).toEqual({ Stage: 'Production', StageStatus: 'Approved' });
    await expect(client.send(new UpdateModelPackageCommand({ ModelPackageArn: `${arn}0` }))).rejects.toMatchObject({ name: 'ValidationException' });
  });

  test('a request that is not JSON 1.1 is refused', async () => {
    const res = await fetch(`${cp.endpoint}/`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ __type: 'UnknownOperationException' });
  });
});
