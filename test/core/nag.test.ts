import { App, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { addExecutionRoleBasics, createExecutionRole, executionRolePrincipal } from '../../src/private/model';
import { acknowledgePolicyWildcardFindings, flattenReference } from '../../src/private/nag';
import { synthWithNag } from '../support/nag-checks';
import { errorOf } from '../support/test-stacks';

const ENV = { account: '123456789012', region: 'us-east-1' };

/** The acknowledgements (`{ [ruleId]: reason }`) recorded on a construct, merged (without the `Annotation::` prefix). */
function acknowledgedOn(construct: { node: { metadata: Array<{ type: string; data: any }> } }): Record<string, string> {
  const entries = construct.node.metadata.filter((m) => m.type === 'aws:cdk:acknowledged-rules').flatMap((m) => Object.entries(m.data));
  return Object.fromEntries(entries.map(([id, reason]) => [id.replace(/^Annotation::/, ''), reason as string]));
}

describe('flattenReference', () => {
  test.each([
    ['a literal', 'arn:aws:s3:::b/*', 'arn:aws:s3:::b/*'],
    ['a Sub placeholder', 'arn:${AWS::Partition}:logs:*', 'arn:<AWS::Partition>:logs:*'],
    ['a Ref', { Ref: 'AWS::Partition' }, '<AWS::Partition>'],
    ['a GetAtt', { 'Fn::GetAtt': ['Bucket83908E77', 'Arn'] }, '<Bucket83908E77.Arn>'],
    ['a Join', { 'Fn::Join': ['', [{ 'Fn::GetAtt': ['Bucket83908E77', 'Arn'] }, '/inputs/*']] }, '<Bucket83908E77.Arn>/inputs/*'],
    ['a Sub', { 'Fn::Sub': 'arn:${AWS::Partition}:s3:::b/*' }, 'arn:<AWS::Partition>:s3:::b/*'],
    ['an ImportValue', { 'Fn::ImportValue': 'SharedBucketArn' }, 'SharedBucketArn'],
    ['anything else, as JSON', { 'Fn::Select': [0, ['a']] }, '{"Fn::Select":[0,["a"]]}'],
    ['nothing', undefined, ''],
  ])('renders %s as cdk-nag does in finding ids', (_what, node, flat) => {
    expect(flattenReference(node)).toBe(flat);
  });
});

describe('acknowledgePolicyWildcardFindings', () => {
  function policyWith(statements: iam.PolicyStatement[]) {
    const app = new App();
    const stack = new Stack(app, 'Test', { env: ENV });
    const bucket = new s3.Bucket(stack, 'Bucket');
    const role = new iam.Role(stack, 'Role', { assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com') });
    const policy = new iam.Policy(stack, 'Policy', { roles: [role], statements: statements.length ? statements : [new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [bucket.arnForObjects('inputs/*')] })] });
    return { app, stack, bucket, policy, cfn: policy.node.defaultChild as iam.CfnPolicy };
  }

  test('acknowledges every wildcard action and resource of an Allow statement whose first action has a reason', () => {
    // GIVEN
    const { app, bucket, policy, cfn } = policyWith([]);
    policy.addStatements(new iam.PolicyStatement({ actions: ['s3:PutObject*', 's3:Abort*'], resources: [bucket.arnForObjects('out/*')] }));
    // WHEN
    acknowledgePolicyWildcardFindings(policy, () => cfn, [{ action: /^s3:/, reason: 'Own prefixes only.' }]);
    app.synth();
    // THEN
    const bucketId = Stack.of(bucket).getLogicalId(bucket.node.defaultChild as s3.CfnBucket);
    expect(acknowledgedOn(cfn)).toEqual({
      [`AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/inputs/*]`]: 'Own prefixes only.',
      'AwsSolutions-IAM5[Action::s3:PutObject*]': 'Own prefixes only.',
      'AwsSolutions-IAM5[Action::s3:Abort*]': 'Own prefixes only.',
      [`AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/out/*]`]: 'Own prefixes only.',
    });
  });

  test('leaves Deny statements, and statements whose first action has no reason, reported', () => {
    // GIVEN
    const { app, policy, cfn } = policyWith([
      new iam.PolicyStatement({ effect: iam.Effect.DENY, actions: ['s3:Delete*'], resources: ['arn:aws:s3:::other/*'] }),
      new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: ['arn:aws:sqs:us-east-1:123456789012:*'] }),
    ]);
    // WHEN
    acknowledgePolicyWildcardFindings(policy, () => cfn, [{ action: /^s3:/, reason: 'Own prefixes only.' }]);
    // THEN
    expect(() => synthWithNag(app)).toThrow(/AwsSolutions-IAM5\[Resource::arn:aws:sqs:us-east-1:123456789012:\*\]/);
    expect(acknowledgedOn(cfn)).toEqual({});
  });

  test('does nothing when the policy does not exist at synth', () => {
    // GIVEN
    const app = new App();
    const stack = new Stack(app, 'Test', { env: ENV });
    const role = new iam.Role(stack, 'Role', { assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com') });
    // WHEN
    acknowledgePolicyWildcardFindings(role, () => undefined, [{ action: /^s3:/, reason: 'unused' }]);
    // THEN
    expect(() => app.synth()).not.toThrow();
  });
});

describe('createExecutionRole acknowledges its model-role wildcards', () => {
  test('on its DefaultPolicy, where its grants land: cdk-nag clean', () => {
    // GIVEN
    const app = new App();
    const stack = new Stack(app, 'Test', { env: ENV });
    const role = createExecutionRole(stack, 'Role', 'Runs a model');
    // WHEN
    s3.Bucket.fromBucketName(stack, 'Artifacts', 'model-artifacts').grantRead(role, 'llama/*');
    s3.Bucket.fromBucketName(stack, 'Later', 'later-artifacts').grantRead(role, 'mistral/*');
    // THEN
    expect(() => synthWithNag(app)).not.toThrow();
    expect(Object.keys(acknowledgedOn(role.node.findChild('DefaultPolicy').node.defaultChild as iam.CfnPolicy))).toEqual(expect.arrayContaining([
      'AwsSolutions-IAM5[Action::s3:GetObject*]',
      expect.stringMatching(/^AwsSolutions-IAM5\[Resource::.*model-artifacts\/llama\/\*\]$/),
      expect.stringMatching(/^AwsSolutions-IAM5\[Resource::.*later-artifacts\/mistral\/\*\]$/),
    ]));
  });

  test('a wildcard the library gives no reason for stays reported', () => {
    // GIVEN
    const app = new App();
    const stack = new Stack(app, 'Test', { env: ENV });
    const role = createExecutionRole(stack, 'Role', 'Runs a model');
    // WHEN
    role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: ['arn:aws:sqs:us-east-1:123456789012:own-*'] }));
    role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: ['arn:aws:sqs:us-east-1:123456789012:user-*'] }));
    // THEN
    const error = errorOf(() => synthWithNag(app));
    expect(error).toMatch(/own-\*/);
    expect(error).toMatch(/user-\*/);
  });

  test('without the acknowledgements the same statements have IAM5 findings', () => {
    // GIVEN
    const app = new App();
    const stack = new Stack(app, 'Test', { env: ENV });
    const role = new iam.Role(stack, 'Role', { assumedBy: executionRolePrincipal() });
    // WHEN
    addExecutionRoleBasics(role);
    s3.Bucket.fromBucketName(stack, 'Artifacts', 'model-artifacts').grantRead(role, 'llama/*');
    // THEN
    expect(() => synthWithNag(app)).toThrow(/AwsSolutions-IAM5\[Action::s3:GetObject\*\]/);
  });
});
