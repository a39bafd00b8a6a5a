/**
 * Every grant method returns ONE iam.Grant covering everything it granted: each (action, resource, condition) the method
 * put on the grantee's policy is in the returned Grant's principalStatements, and the Grant reports success. A caller
 * that chains `grant.applyBefore(...)` or inspects the Grant therefore sees the S3, KMS and DynamoDB parts too.
 */
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import { GRANT_METHODS, scene } from './fixtures';

type Json = any;
const list = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** `Effect action resource conditions` lines of resolved statements, one per action × resource. */
function permissionLines(stack: Stack, statements: Json[]): string[] {
  return statements.flatMap((s) => {
    const r = stack.resolve(s);
    return list<string>(r.Action).flatMap((action) => list<Json>(r.Resource).map((resource) =>
      `${r.Effect} ${action} ${JSON.stringify(resource)} ${JSON.stringify(r.Condition ?? {})}`));
  });
}

describe('each grant method returns one Grant covering all it granted', () => {
  test.each(Object.keys(GRANT_METHODS))('%s', (method) => {
    // GIVEN
    const { stack } = scene();
    const grantee = new iam.Role(stack, 'Grantee', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    // WHEN
    const grant = GRANT_METHODS[method](stack, grantee);
    // THEN
    const policy = grantee.node.findChild('DefaultPolicy') as iam.Policy;
    const granted = permissionLines(stack, policy.document.toJSON().Statement);
    const reported = permissionLines(stack, grant.principalStatements.map((s) => s.toStatementJson()));
    expect(granted.length).toBeGreaterThan(0);
    expect(new Set(reported)).toEqual(new Set(granted));
    expect(grant.success).toBe(true);
    expect(() => grant.assertSuccess()).not.toThrow();
  });

  test('AsyncEndpoint.bindToFunction grants exactly grantSubmit + grantReadResults (so those two Grants describe it)', () => {
    // GIVEN
    const { stack, fn } = scene();
    const { asyncEndpoint } = jest.requireActual('./fixtures');
    const endpoint = asyncEndpoint(stack);
    const other = new iam.Role(stack, 'Other', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    // WHEN
    endpoint.bindToFunction(fn);
    const submit = endpoint.grantSubmit(other);
    const read = endpoint.grantReadResults(other);
    // THEN
    const bound = permissionLines(stack, (fn.role!.node.findChild('DefaultPolicy') as iam.Policy).document.toJSON().Statement);
    const both = permissionLines(stack, [...submit.principalStatements, ...read.principalStatements].map((s) => s.toStatementJson()));
    expect(new Set(bound)).toEqual(new Set(both));
  });
});

describe('McpToolServer.grantInvokeUrl for a principal without a policy', () => {
  test('another account is granted through the function\'s resource policy, as aws-cdk-lib does', () => {
    // GIVEN
    const { stack } = scene();
    const { mcpServer } = jest.requireActual('./fixtures');
    const server = mcpServer(stack);
    // WHEN
    const grant = server.grantInvokeUrl(new iam.AccountPrincipal('999999999999'));
    // THEN
    expect(grant.principalStatements).toEqual([]);
    const permissions = Object.values(Template.fromStack(stack).findResources('AWS::Lambda::Permission')).map((p: any) => p.Properties);
    expect(permissions).toEqual(expect.arrayContaining([
      expect.objectContaining({ Action: 'lambda:InvokeFunctionUrl', Principal: '999999999999', FunctionUrlAuthType: 'AWS_IAM' }),
    ]));
  });
});
