/**
 * The CloudFormation stand-in, through the real @aws-sdk/client-cloudformation: each documented behaviour arrives as
 * the SDK reports it from AWS (the query protocol's XML errors deserialized to named exceptions).
 */
import { CloudFormationClient, DescribeStacksCommand, UpdateStackCommand } from '@aws-sdk/client-cloudformation';
import { CloudFormationServer, startCloudFormationServer } from '@cdk-sagemaker-mcp/test-stand-ins/cloudformation-server';

let cfn: CloudFormationServer;
let client: CloudFormationClient;
beforeAll(async () => {
  cfn = await startCloudFormationServer();
  client = new CloudFormationClient(cfn.clientConfig());
  cfn.addStack({ StackName: 'S', Parameters: { A: '1', B: '2' }, Defaults: { B: 'default' }, RoleARN: 'arn:aws:iam::123456789012:role/exec', Capabilities: ['CAPABILITY_IAM'] });
});
afterAll(async () => {
  client?.destroy();
  await cfn?.stop();
});
const error = (p: Promise<unknown>) => p.then(() => undefined, (e) => ({ name: e.name, message: e.message, status: e.$metadata?.httpStatusCode }));
const update = (extra: Record<string, unknown> = {}) => client.send(new UpdateStackCommand({
  StackName: 'S',
  UsePreviousTemplate: true,
  Capabilities: ['CAPABILITY_IAM'],
  Parameters: [{ ParameterKey: 'A', UsePreviousValue: true }, { ParameterKey: 'B', UsePreviousValue: true }],
  ...extra,
}));

test('DescribeStacks: status, parameters, capabilities and role as the SDK parses them; an unknown stack is a ValidationError', async () => {
  const out = await client.send(new DescribeStacksCommand({ StackName: 'S' }));
  expect(out.Stacks?.[0]).toMatchObject({
    StackName: 'S',
    StackStatus: 'CREATE_COMPLETE',
    Capabilities: ['CAPABILITY_IAM'],
    RoleARN: 'arn:aws:iam::123456789012:role/exec',
    Parameters: [{ ParameterKey: 'A', ParameterValue: '1' }, { ParameterKey: 'B', ParameterValue: '2' }],
  });
  expect(await error(client.send(new DescribeStacksCommand({ StackName: 'Nope' })))).toEqual({ name: 'ValidationError', message: 'Stack with id Nope does not exist', status: 400 });
});

test('UpdateStack: every value as before is "No updates are to be performed."; a parameter left out takes its default', async () => {
  expect(await error(update())).toEqual({ name: 'ValidationError', message: 'No updates are to be performed.', status: 400 });
  await client.send(new UpdateStackCommand({ StackName: 'S', UsePreviousTemplate: true, Capabilities: ['CAPABILITY_IAM'], Parameters: [{ ParameterKey: 'A', ParameterValue: '3' }] }));
  expect(cfn.parameters('S')).toEqual({ A: '3', B: 'default' });
});

test('UpdateStack on a stack in UPDATE_IN_PROGRESS, without the capabilities, with a value and UsePreviousValue, twice with a token', async () => {
  expect(await error(update({ Parameters: [{ ParameterKey: 'A', ParameterValue: '9' }] }))).toMatchObject({ name: 'ValidationError', message: expect.stringMatching(/is in UPDATE_IN_PROGRESS state and can not be updated\.$/) });
  cfn.finishUpdate('S', 'UPDATE_COMPLETE');
  expect(await error(update({ Capabilities: [], Parameters: [{ ParameterKey: 'A', ParameterValue: '9' }] }))).toMatchObject({ name: 'InsufficientCapabilitiesException' });
  expect(await error(update({ Parameters: [{ ParameterKey: 'A', ParameterValue: '9', UsePreviousValue: true }] }))).toMatchObject({ name: 'ValidationError', message: expect.stringMatching(/Cannot specify usePreviousValue as true and non empty value/) });
  await update({ Parameters: [{ ParameterKey: 'A', ParameterValue: '10' }], ClientRequestToken: 'tok-1' });
  cfn.finishUpdate('S', 'UPDATE_ROLLBACK_COMPLETE');
  expect(cfn.parameters('S').A).toBe('3');
  expect(await error(update({ Parameters: [{ ParameterKey: 'A', ParameterValue: '11' }], ClientRequestToken: 'tok-1' }))).toMatchObject({ name: 'TokenAlreadyExistsException' });
});
