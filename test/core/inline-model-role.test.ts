/**
 * Every endpoint kind renders what the library grants the model role it creates inline on the AWS::IAM::Role, as one
 * policy named `ModelAccess`, at the role's old path (so its logical ID is unchanged) and with no DefaultPolicy; a
 * user's later grant on `endpoint.role` goes to the role's DefaultPolicy, and a role the user gives gets the library's
 * grants where any role does (src/private/inline-model-role.ts). RealtimeEndpoint's own case is in
 * test/realtime/realtime-endpoint.test.ts.
 */
import { App, Size, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { AsyncEndpoint } from '../../src/async';
import { ContainerImage, InstanceType, ModelData, ModelSource } from '../../src/core';
import { ServerlessEndpoint } from '../../src/serverless';
import { InferenceComponent, SharedGpuEndpoint } from '../../src/shared-gpu';
import { expectValidTemplate, nagReport } from '../support/template-checks';

const ENV = { account: '123456789012', region: 'us-east-1' };
const TGI = ContainerImage.fromDlc('huggingface-pytorch-tgi-inference', '2.7.0-tgi3.3.6-gpu-py311-cu124-ubuntu22.04');

function newStack(): Stack {
  return new Stack(new App({ context: { 'aws:cdk:disable-creation-stack-traces': true } }), 'Test', { env: ENV });
}

function artifacts(scope: Construct, image: ContainerImage, key: string): ModelSource {
  const bucket = s3.Bucket.fromBucketName(scope, `Artifacts${key.replace(/\W/g, '')}`, 'model-artifacts');
  return ModelSource.fromContainer(image, { modelData: ModelData.fromBucket(bucket, key) });
}

interface Kind {
  /** The construct whose child `Role` is the created role. */
  readonly owner: string;
  /** Builds the endpoint (with `role` when given); returns its `role` when it has one. */
  readonly build: (stack: Stack, role?: iam.IRole) => iam.IRole | undefined;
  /** The first action of each statement the library grants, in the order the DefaultPolicy held them. */
  readonly firstActions: string[];
}

const BASICS = ['logs:CreateLogGroup', 'cloudwatch:PutMetricData'];
const KINDS: Record<string, Kind> = {
  'AsyncEndpoint': {
    owner: 'Jobs',
    build: (stack, role) => new AsyncEndpoint(stack, 'Jobs', { model: artifacts(stack, TGI, 'llama/'), instanceType: InstanceType.ML_G5_2XLARGE, role }).role,
    firstActions: [...BASICS, 'ecr:BatchCheckLayerAvailability', 'ecr:GetAuthorizationToken', 's3:GetObject*'],
  },
  'ServerlessEndpoint': {
    owner: 'Scoring',
    build: (stack, role) => new ServerlessEndpoint(stack, 'Scoring', {
      model: artifacts(stack, ContainerImage.sklearn('1.2-1'), 'scoring/model.tar.gz'), memorySize: Size.gibibytes(2), maxConcurrency: 2, role,
    }).role,
    firstActions: [...BASICS, 'ecr:BatchCheckLayerAvailability', 'ecr:GetAuthorizationToken', 's3:GetObject*'],
  },
  'SharedGpuEndpoint': {
    owner: 'Shared',
    build: (stack, role) => {
      const endpoint = new SharedGpuEndpoint(stack, 'Shared', { instanceType: InstanceType.ML_G5_12XLARGE, role });
      endpoint.addInferenceComponent('Chat', { model: artifacts(stack, TGI, 'llama/'), acceleratorCount: 1, minMemory: Size.gibibytes(16) });
      return endpoint.role;
    },
    // The components' models are granted on the endpoint's role.
    firstActions: [...BASICS, 'ecr:BatchCheckLayerAvailability', 'ecr:GetAuthorizationToken', 's3:GetObject*'],
  },
  'InferenceComponent (imported endpoint without a role)': {
    owner: 'Chat',
    build: (stack) => {
      const endpoint = SharedGpuEndpoint.fromSharedGpuEndpointAttributes(stack, 'Shared', { endpointName: 'shared' });
      new InferenceComponent(stack, 'Chat', { endpoint, model: artifacts(stack, TGI, 'llama/'), acceleratorCount: 1, minMemory: Size.gibibytes(16) });
      return undefined;
    },
    firstActions: [...BASICS, 'ecr:BatchCheckLayerAvailability', 'ecr:GetAuthorizationToken', 's3:GetObject*'],
  },
};

const firstActionsOf = (doc: any): string[] => doc.Statement.map((st: any) => [st.Action].flat()[0]);

/** The template's roles SageMaker assumes (an async endpoint's result recorder has a Lambda role of its own). */
const modelRoles = (t: Template): Array<[string, any]> => (Object.entries(t.findResources('AWS::IAM::Role')) as Array<[string, any]>)
  .filter(([, r]) => JSON.stringify(r.Properties.AssumeRolePolicyDocument).includes('sagemaker.amazonaws.com'));

describe.each(Object.entries(KINDS))('%s: the created model role', (_name, kind) => {
  test('holds the library\'s grants inline as ModelAccess, at its old path, with no AWS::IAM::Policy', () => {
    // GIVEN
    const stack = newStack();
    // WHEN
    kind.build(stack);
    // THEN
    const t = Template.fromStack(stack);
    const roles = modelRoles(t);
    expect(roles).toHaveLength(1);
    const [logicalId, role] = roles[0];
    // The logical ID is derived from the path, which is the eager role's as before (<owner>/Role/Resource).
    const cfnRole = stack.node.findChild(kind.owner).node.findChild('Role').node.defaultChild as iam.CfnRole;
    expect(cfnRole.node.path).toBe(`Test/${kind.owner}/Role/Resource`);
    expect(stack.resolve(cfnRole.logicalId)).toBe(logicalId);
    expect(role.Properties.Policies.map((p: any) => p.PolicyName)).toEqual(['ModelAccess']);
    expect(firstActionsOf(role.Properties.Policies[0].PolicyDocument)).toEqual(kind.firstActions);
    // No DefaultPolicy (AsyncEndpoint's AsyncIoPolicy, a policy of its own with async-specific acknowledgements, stays).
    expect(Object.keys(t.findResources('AWS::IAM::Policy')).filter((id) => id.startsWith(`${kind.owner}RoleDefaultPolicy`))).toEqual([]);
    expectValidTemplate(stack);
  });

  test('cdk-nag: its wildcards are acknowledged on the role, nothing is reported', () => {
    // GIVEN
    const stack = newStack();
    // WHEN
    kind.build(stack);
    const report = nagReport(stack.node.root as App);
    // THEN
    const rolePath = `Test/${kind.owner}/Role/Resource`;
    expect(report.acknowledgements.filter((a) => a.constructPath === rolePath).map((a) => a.ruleId)).toEqual(expect.arrayContaining([
      expect.stringContaining('Action::s3:GetObject*'), expect.stringContaining('/aws/sagemaker/*'), 'AwsSolutions-IAM5[Resource::*]',
    ]));
    expect(report.findings.filter((f) => f.ruleId.startsWith('AwsSolutions-IAM5'))).toEqual([]);
  });
});

describe.each(Object.entries(KINDS).filter(([name]) => !name.startsWith('InferenceComponent')))('%s: endpoint.role', (_name, kind) => {
  test('a grant the user makes afterwards lands in the role\'s DefaultPolicy (and stays reported by cdk-nag), not inline', () => {
    // GIVEN
    const stack = newStack();
    const role = kind.build(stack)!;
    // WHEN
    role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: ['arn:aws:sqs:us-east-1:123456789012:jobs-*'] }));
    // THEN
    const t = Template.fromStack(stack);
    const [[roleId, cfnRole]] = modelRoles(t);
    expect(firstActionsOf(cfnRole.Properties.Policies[0].PolicyDocument)).toEqual(kind.firstActions);
    const policies = Object.entries(t.findResources('AWS::IAM::Policy')) as Array<[string, any]>;
    const defaultPolicy = policies.filter(([id]) => id.startsWith(`${kind.owner}RoleDefaultPolicy`)).map(([, p]) => p);
    expect(defaultPolicy).toHaveLength(1);
    expect(defaultPolicy[0].Properties.Roles).toEqual([{ Ref: roleId }]);
    expect(defaultPolicy[0].Properties.PolicyDocument.Statement).toEqual([
      { Action: 'sqs:SendMessage', Effect: 'Allow', Resource: 'arn:aws:sqs:us-east-1:123456789012:jobs-*' },
    ]);
    const reported = nagReport(stack.node.root as App).findings.filter((f) => f.ruleId.startsWith('AwsSolutions-IAM5'));
    expect(reported.map((f) => `${f.constructPath} ${f.ruleId}`)).toEqual([expect.stringMatching(new RegExp(`^Test/${kind.owner}/Role/DefaultPolicy/Resource .*jobs-\\*`))]);
  });

  test('a role the user gives gets the library\'s grants in its own DefaultPolicy, and no ModelAccess', () => {
    // GIVEN
    const stack = newStack();
    const given = new iam.Role(stack, 'Given', { assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com') });
    // WHEN
    kind.build(stack, given);
    // THEN
    const t = Template.fromStack(stack);
    const roles = modelRoles(t);
    expect(roles).toHaveLength(1);
    expect(roles[0][1].Properties.Policies).toBeUndefined();
    const [policy] = Object.entries(t.findResources('AWS::IAM::Policy')).filter(([id]) => id.startsWith('GivenDefaultPolicy')).map(([, p]) => p as any);
    expect(JSON.stringify(policy.Properties.PolicyDocument)).toContain('model-artifacts');
  });
});
