import { Match, Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { ContainerImage, InstanceType, MultiModelSource } from '../../src/core';
import { McpToolServer } from '../../src/mcp';
import { RealtimeEndpoint } from '../../src/realtime';
import { identityStatements } from '../support/iam-reference';
import { expectValidTemplate } from '../support/template-checks';
import { errorOf, newStack } from '../support/test-stacks';

describe('MultiModelSource', () => {
  test('renders Mode MultiModel with the prefix as ModelDataUrl, and grants read on the prefix only', () => {
    const stack = newStack();
    const bucket = new s3.Bucket(stack, 'Models');
    const source = MultiModelSource.fromBucket(ContainerImage.sklearn('1.2-1'), bucket, 'churn/', { targetModels: ['a.tar.gz', 'b/c.tar.gz'] });
    new RealtimeEndpoint(stack, 'Churn', { model: source, instanceType: InstanceType.ML_M5_LARGE });
    const t = Template.fromStack(stack);
    t.hasResourceProperties('AWS::SageMaker::Model', {
      PrimaryContainer: {
        Mode: 'MultiModel',
        ModelDataUrl: { 'Fn::Join': ['', ['s3://', { Ref: Match.stringLikeRegexp('Models') }, '/churn/']] },
        ModelDataSource: Match.absent(),
      },
    });
    const reads = identityStatements(t.toJSON())
      .filter((s: any) => JSON.stringify(s.Action).includes('s3:GetObject'));
    expect(JSON.stringify(reads)).toContain('/churn/*');
    expect(source.targetModels).toEqual(['a.tar.gz', 'b/c.tar.gz']);
    expectValidTemplate(stack);
  });

  test.each([
    ['churn', /prefix: got 'churn', expected an S3 prefix ending in '\/'/],
    ['/churn/', /prefix: got '\/churn\/'/],
  ])('fails for prefix %s', (prefix, message) => {
    const stack = newStack();
    expect(errorOf(() => MultiModelSource.fromBucket(ContainerImage.sklearn('1.2-1'), new s3.Bucket(stack, 'B'), prefix))).toMatch(message);
  });

  test('fails for a target model that is empty, starts with a space, is too long, or is given twice', () => {
    const stack = newStack();
    const bucket = new s3.Bucket(stack, 'B');
    const make = (targetModels: string[]) => () => MultiModelSource.fromBucket(ContainerImage.sklearn('1.2-1'), bucket, 'm/', { targetModels });
    expect(errorOf(make(['']))).toMatch(/targetModels: got '', expected 1-1024 printable characters/);
    expect(errorOf(make([' a.tar.gz']))).toMatch(/targetModels: got ' a.tar.gz'/);
    expect(errorOf(make(['x'.repeat(1025)]))).toMatch(/targetModels: got 'x{1025}', expected 1-1024 printable characters/);
    expect(errorOf(make(['a.tar.gz', 'a.tar.gz']))).toMatch(/targetModels: got \["a.tar.gz","a.tar.gz"\], expected each target model at most once/);
  });
});

describe('McpToolServer with a multi-model endpoint', () => {
  test('refuses a target model the InvokeEndpoint API would refuse', () => {
    const stack = newStack();
    const source = MultiModelSource.fromBucket(ContainerImage.sklearn('1.2-1'), new s3.Bucket(stack, 'Models'), 'churn/');
    const endpoint = new RealtimeEndpoint(stack, 'Churn', { model: source, instanceType: InstanceType.ML_M5_LARGE });
    expect(errorOf(() => new McpToolServer(stack, 'Mcp', { realtimeEndpoints: [{ endpoint, targetModels: [' leading-space.tar.gz'] }] })))
      .toMatch(/realtimeEndpoints\[0\]\.targetModels: got ' leading-space.tar.gz', expected 1-1024 printable characters/);
  });
});

describe('grantInvokeTargetModels (IAM condition key sagemaker:TargetModel)', () => {
  const statementsOf = (stack: ReturnType<typeof newStack>) => identityStatements(Template.fromStack(stack).toJSON())
    .filter((s: any) => JSON.stringify(s.Action).includes('sagemaker:InvokeEndpoint'));

  test('the MCP server may invoke a multi-model endpoint for its allow-listed target models only, without streaming', () => {
    const stack = newStack();
    const source = MultiModelSource.fromBucket(ContainerImage.sklearn('1.2-1'), new s3.Bucket(stack, 'Models'), 'churn/', { targetModels: ['a.tar.gz', 'b/c.tar.gz'] });
    const endpoint = new RealtimeEndpoint(stack, 'Churn', { model: source, instanceType: InstanceType.ML_M5_LARGE });
    new McpToolServer(stack, 'Mcp', { realtimeEndpoints: [{ endpoint, targetModels: source.targetModels }] });
    const statements = statementsOf(stack);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatchObject({
      Effect: 'Allow',
      Action: 'sagemaker:InvokeEndpoint',
      Condition: { StringEquals: { 'sagemaker:TargetModel': ['a.tar.gz', 'b/c.tar.gz'] } },
    });
    expectValidTemplate(stack);
  });

  test('an endpoint without targetModels keeps the unconditioned grantInvoke (streaming included)', () => {
    const stack = newStack();
    const endpoint = RealtimeEndpoint.fromEndpointName(stack, 'Plain', 'plain');
    new McpToolServer(stack, 'Mcp', { realtimeEndpoints: [{ endpoint }] });
    const [statement] = statementsOf(stack);
    expect(statement.Condition).toBeUndefined();
    expect(statement.Action).toEqual(['sagemaker:InvokeEndpoint', 'sagemaker:InvokeEndpointWithResponseStream']);
  });

  test('fails for no target models (that would be grantInvoke) or one the API would refuse, naming the endpoint', () => {
    const stack = newStack();
    const endpoint = RealtimeEndpoint.fromEndpointName(stack, 'Plain', 'plain');
    const role = new iam.Role(stack, 'R', { assumedBy: new iam.AccountRootPrincipal() });
    expect(errorOf(() => endpoint.grantInvokeTargetModels(role, []))).toMatch(/Plain grantInvokeTargetModels.*targetModels: got \[\], expected at least one target model/s);
    expect(errorOf(() => endpoint.grantInvokeTargetModels(role, [' x.tar.gz']))).toMatch(/targetModels: got ' x.tar.gz', expected 1-1024 printable characters/);
  });
});
