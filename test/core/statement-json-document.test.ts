import { App, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import { DEFAULT_LOG_RETENTION } from '../../src/core/encryption';
import { InlineModelRole, MODEL_ROLE_POLICY_NAME } from '../../src/private/inline-model-role';

/**
 * InlineModelRole keeps the statements it owns as JSON (StatementJsonDocument, src/private/inline-model-role.ts) to hold less heap until synth ends; it
 * must render and validate exactly as a role whose inline policy is a `PolicyDocument` of the same statements.
 */

function statements(): iam.PolicyStatement[] {
  return [
    new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: ['arn:aws:s3:::b/k*'] }),
    new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: ['arn:aws:s3:::b'], conditions: { StringLike: { 's3:prefix': ['k*'] } } }),
    // a duplicate, which a PolicyDocument renders once
    new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: ['arn:aws:s3:::b/k*'] }),
    new iam.PolicyStatement({ actions: ['logs:PutLogEvents'], resources: ['arn:aws:logs:us-east-1:111111111111:log-group:a:*'] }),
    new iam.PolicyStatement({ actions: ['logs:CreateLogStream'], resources: ['arn:aws:logs:us-east-1:111111111111:log-group:a:*'] }),
  ];
}

/** The inline policies as rendered: by an InlineModelRole owning `statements`, and by an iam.Role given them as a document. */
function rendered(context: Record<string, unknown>): { inline: unknown; reference: unknown } {
  const stack = new Stack(new App({ context }), 'S');
  const role = new InlineModelRole(stack, 'Role', { assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com') });
  role.ownStatements(() => statements().forEach((s) => role.addToPrincipalPolicy(s)));
  void role.roleArn; // a LazyRole renders once used
  const reference = new iam.Role(stack, 'Reference', {
    assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com'),
    inlinePolicies: { [MODEL_ROLE_POLICY_NAME]: new iam.PolicyDocument({ statements: statements() }) },
  });
  const resolved = (cfn: iam.CfnRole) => stack.resolve(cfn._toCloudFormation()).Resources;
  return {
    inline: Object.values(resolved(role.cfnRole!))[0],
    reference: Object.values(resolved(reference.node.defaultChild as iam.CfnRole))[0],
  };
}

test.each<[Record<string, unknown>]>([[{}], [{ '@aws-cdk/aws-iam:minimizePolicies': true }]])(
  'the statements a model role owns render as a PolicyDocument of them renders (duplicates dropped, merged when minimized): %j', (context) => {
    const { inline, reference } = rendered(context);
    const policies = (inline as any).Properties.Policies;
    expect(policies).toEqual((reference as any).Properties.Policies);
    expect(policies).toHaveLength(1);
    // 5 statements, one a duplicate; minimized, the two logs statements on one resource merge
    expect(policies[0].PolicyDocument.Statement).toHaveLength(context['@aws-cdk/aws-iam:minimizePolicies'] ? 3 : 4);
  });

test('a statement the identity policy cannot hold fails the synth, as it does in any role inline policy', () => {
  // GIVEN
  const app = new App();
  const stack = new Stack(app, 'S');
  const role = new InlineModelRole(stack, 'Role', { assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com') });
  // WHEN
  role.ownStatements(() => role.addToPrincipalPolicy(new iam.PolicyStatement({
    actions: ['s3:GetObject'], resources: ['*'], principals: [new iam.AccountRootPrincipal()],
  })));
  void role.roleArn;
  // THEN
  expect(() => app.synth()).toThrow(/A PolicyStatement used in an identity-based policy cannot specify any IAM principals/);
});

test('a statement added outside ownStatements goes to the DefaultPolicy, as on any role', () => {
  // GIVEN
  const stack = new Stack(new App(), 'S');
  const role = new InlineModelRole(stack, 'Role', { assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com') });
  // WHEN
  role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: ['arn:aws:s3:::b/*'] }));
  void role.roleArn;
  // THEN
  expect(role.ownDocument.isEmpty).toBe(true);
  expect(role.node.findAll().some((c) => c instanceof iam.CfnPolicy)).toBe(true);
});

test('DEFAULT_LOG_RETENTION is logs.RetentionDays.ONE_MONTH', () => {
  expect(DEFAULT_LOG_RETENTION).toBe(logs.RetentionDays.ONE_MONTH);
});
